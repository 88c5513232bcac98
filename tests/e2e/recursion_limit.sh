#!/usr/bin/env bash
# The call-depth bound (docs/language-decisions.md): exactly 1000 nested
# CALL/SEND frames below the top-level frame run, on every engine, and the
# call that would nest the 1001st is a RecursionError at that instruction,
# with the same one-line message, after the same output. Probes
# (tests/e2e/limits/): call_depth.tlc (SENDs down to a CALL) and
# send_depth.tlc (SENDs of three arguments, values kept on every frame's
# stack). Expected results are computed here from the programs' formulas.
#
# usage: recursion_limit.sh TLC_BINARY ENGINE...
# Ends with "N passed, M failed"; exit status 0 iff all passed.
set -u

if [ "$#" -lt 2 ]; then
    echo "usage: $0 TLC_BINARY ENGINE..." >&2
    exit 2
fi
tlc=$1
shift
here=$(dirname "$0")
source "$here/engine_args.sh"
call=$here/limits/call_depth.tlc
send=$here/limits/send_depth.tlc

work=$(mktemp -d "${TMPDIR:-/tmp}/tlc-recursion.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# check ENGINE FILE N STATUS STDOUT STDERR: one run, everything compared exactly
check() {
    local engine=$1 file=$2 n=$3 want_status=$4 want_out=$5 want_err=$6
    "$tlc" run "${engine_args[@]}" "$file" "$n" >"$work/out" 2>"$work/err"
    local st=$?
    if [ "$st" = "$want_status" ] && [ "$(cat "$work/out")" = "$want_out" ] &&
        [ "$(cat "$work/err")" = "$want_err" ]; then
        passed=$((passed + 1))
    else
        echo "FAIL: $engine: $(basename "$file") $n: status $st (want $want_status)," \
            "stdout '$(tr '\n' ' ' <"$work/out")', stderr '$(head -c 300 "$work/err")'"
        failed=$((failed + 1))
    fi
}

# call_depth.tlc: rec(k) = k + (k-1) + ... + 0 + 7; k + 2 nested frames
call_result() { echo $(($1 * ($1 + 1) / 2 + 7)); }
# send_depth.tlc: 11 + rec(k, 3, 5), rec(k, x, y) = x + k + rec(k-1, y, x):
# levels 0..k add k..0 and 3 at even levels, 5 at odd ones; k + 1 frames
send_result() { echo $((11 + $1 * ($1 + 1) / 2 + 3 * ($1 / 2 + 1) + 5 * (($1 + 1) / 2))); }
bound=1000
too_deep="RecursionError in %s: more than $bound nested calls"

for engine in "$@"; do
    engine_args_for "$engine"
    k=$((bound - 2)) # the CALLed leaf is the 1000th nested frame
    check "$engine" "$call" "$k" 0 "1
$(call_result "$k")" ""
    check "$engine" "$call" $((k + 1)) 1 1 "$call: pc 16: $(printf "$too_deep" CALL)"
    check "$engine" "$call" $((k + 2)) 1 1 "$call: pc 26: $(printf "$too_deep" SEND)"
    k=$((bound - 1)) # rec(0) is the 1000th nested frame
    check "$engine" "$send" "$k" 0 "1
$(send_result "$k")" ""
    check "$engine" "$send" $((k + 1)) 1 1 "$send: pc 37: $(printf "$too_deep" SEND)"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
