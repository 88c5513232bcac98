#!/usr/bin/env bash
# Stores into the objects of a loop the interpreter handed over
# (docs/architecture.md, "Lazy stores"): many_methods keeps one object,
# allocated by the interpreter before the hand-over, whose attributes its
# methods overwrite with fresh integers every iteration, while other methods
# read integers' values at the same offset. The stores stay pending past
# those reads (the integers' first word, their promoted type, differs from
# the object's class: two objects), so the loop allocates no box per
# iteration. Before that rule it allocated one per iteration (612,612 for
# 600,000); the hand-over's own phase in the interpreter allocates about
# 13,000.
#
# usage: hand_over_stores.sh TLC_BINARY
set -uo pipefail

source "$(dirname "$0")/checks.sh"
general_setup "$@"

n=200000
"$tlc" run --engine=interp "$suite/many_methods.tlc" "$n" >want 2>/dev/null
for engine in "--engine=pe" "--engine=jit --tier-up=0"; do
    # shellcheck disable=SC2086
    t "many_methods $n $engine" 0 run $engine --jit-threshold=1000 --stats \
        "$suite/many_methods.tlc" "$n" || continue
    expect "many_methods $n $engine: the interpreter's output" cmp -s out want
    allocations=$(sed -n 's/^run.allocations: //p' err)
    expect "many_methods $n $engine: $allocations allocations, fewer than $((n / 4))" \
        [ "${allocations:-$n}" -lt $((n / 4)) ]
done
finish
