#!/usr/bin/env bash
# Consolidation of grown baseline graphs (docs/baseline.md, "Consolidation"):
# programs of the general suite whose hot graphs grow by flexswitch cases
# are run with --stats under the baseline engine and the tiered default
# (whose graphs start where the interpreter hands a loop over); each must
# print the interpreter's output and consolidate its graph at least once,
# and none may give a consolidation up (a failed compilation of the
# consolidated method leaves every case a trip through the dispatcher).
#
# usage: consolidation.sh TLC_BINARY
set -uo pipefail

source "$(dirname "$0")/checks.sh"
general_setup "$@"

# stat NAME: its value in ./err
stat() {
    sed -n "s/^$1: //p" err
}

# program and size: big enough for the default engine to hand the loop over
# and for the graph to stay unchanged for a while
for run in "sieve 30000" "poly_send 20000" "ring 20000" "megamorphic 20000" "bintrees 8"; do
    read -r prog n <<<"$run"
    "$tlc" run --engine=interp "$suite/$prog.tlc" "$n" >want 2>/dev/null
    for engine in baseline jit; do
        t "$prog $n --engine=$engine" 0 run --engine="$engine" --stats "$suite/$prog.tlc" "$n" || continue
        expect "$prog $n --engine=$engine: the interpreter's output" cmp -s out want
        expect "$prog $n --engine=$engine: consolidated ($(stat baseline.consolidations))" \
            [ "$(stat baseline.consolidations)" -ge 1 ]
        expect "$prog $n --engine=$engine: none given up ($(stat baseline.consolidations_given_up))" \
            [ "$(stat baseline.consolidations_given_up)" = 0 ]
    done
done
finish
