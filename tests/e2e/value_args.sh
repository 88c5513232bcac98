#!/usr/bin/env bash
# Value arguments and results (docs/architecture.md, "Value arguments"): a
# SEND in compiled code passes an integer the partial evaluator knows as its
# value, and a callee returns one as its value, so neither side allocates a
# box for it. fib_send and tak print the number of calls first; each call
# allocates one box that the program keeps (`self.calls + 1`, stored in the
# receiver) and nothing else. With arguments and results boxed
# (`--no-value-args`, which must bring the boxes back) fib_send allocates
# 2.5 per call and tak 1.75; with values 1.0, under the bound below (105 %
# of the calls).
#
# usage: value_args.sh TLC_BINARY
set -uo pipefail

source "$(dirname "$0")/checks.sh"
general_setup "$@"

for case in "fib_send 18 105" "tak 14 105"; do
    read -r prog n percent <<<"$case"
    "$tlc" run --engine=interp "$suite/$prog.tlc" "$n" >want 2>/dev/null
    calls=$(head -n 1 want)
    for engine in "--engine=pe" "--engine=jit --jit-threshold=0 --tier-up=0" "--engine=jit --jit-threshold=0"; do
        # shellcheck disable=SC2086
        t "$prog $n $engine" 0 run $engine --stats "$suite/$prog.tlc" "$n" || continue
        expect "$prog $n $engine: the interpreter's output" cmp -s out want
        allocations=$(sed -n 's/^run.allocations: //p' err)
        bound=$((calls * percent / 100))
        expect "$prog $n $engine: $allocations allocations for $calls calls, at most $bound" \
            [ "${allocations:-$bound}" -le "$bound" ]
        # shellcheck disable=SC2086
        t "$prog $n $engine --no-value-args" 0 run $engine --no-value-args --stats \
            "$suite/$prog.tlc" "$n" || continue
        expect "$prog $n $engine --no-value-args: the interpreter's output" cmp -s out want
        boxed=$(sed -n 's/^run.allocations: //p' err)
        expect "$prog $n $engine --no-value-args: more allocations ($boxed > $allocations)" \
            [ "${boxed:-0}" -gt "${allocations:-0}" ]
    done
done
finish
