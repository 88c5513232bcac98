#!/usr/bin/env bash
# Merge points where a branch may arrive (docs/architecture.md, "Merge
# points"): the general suite's big_body, a loop whose body is some 400
# instructions without a branch, is specialized in a few residual blocks
# rather than one per instruction, and prints the interpreter's output under
# the partial evaluator and the baseline engine.
#
# usage: merge_points.sh TLC_BINARY
set -uo pipefail

source "$(dirname "$0")/checks.sh"
general_setup "$@"

# the residual blocks of one specialization of big_body's loop: 72 when
# written; one per instruction would be over 1,000
max_blocks=200

"$tlc" run --engine=interp "$suite/big_body.tlc" 300 >want 2>/dev/null
# MERGE_ENGINES: the engines to run (the baseline one is x86-64's)
for engine in ${MERGE_ENGINES:-pe}; do
    t "big_body --engine=$engine" 0 run --engine="$engine" --stats "$suite/big_body.tlc" 300 ||
        continue
    expect "big_body --engine=$engine: the interpreter's output" cmp -s out want
    blocks=$(sed -n 's/^pe.residual_blocks: //p' err)
    expect "big_body --engine=$engine: $blocks residual blocks, at most $max_blocks" \
        [ "${blocks:-99999}" -le "$max_blocks" ]
done
finish
