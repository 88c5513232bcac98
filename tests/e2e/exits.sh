#!/usr/bin/env bash
# Exits to the evaluator (pe/exit.c) seen from the command line: with a
# partial-evaluation budget too small for any compilation
# (JITGEN_PE_BUDGET), every compiled engine still gives the interpreter's
# output, error and status; --stats counts the fallbacks and the exits
# taken; --dump=fallbacks names each one and why, and shows no code.
#
# usage: exits.sh TLC_BINARY CASES_DIR ENGINE...
# Ends with "N passed, M failed"; exit status 0 iff all passed.
set -u

if [ "$#" -lt 3 ]; then
    echo "usage: $0 TLC_BINARY CASES_DIR ENGINE..." >&2
    exit 2
fi
tlc=$1
cases=$2
shift 2
source "$(dirname "$0")/engine_args.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/tlc-exits.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
fail() {
    echo "FAIL: $*"
    failed=$((failed + 1))
}

ring=$cases/pe_object_ring.tlc
"$tlc" run --engine=interp "$ring" 300 >"$work/want" 2>&1
for engine in "$@"; do
    engine_args_for "$engine"
    args=("${engine_args[@]}")
    JITGEN_PE_BUDGET=20 "$tlc" run "${args[@]}" --stats --dump=fallbacks "$ring" 300 \
        >"$work/out" 2>"$work/err"
    st=$?
    if [ "$st" != 0 ] || ! cmp -s "$work/out" "$work/want"; then
        fail "$engine: status $st, output $(head -c 100 "$work/out")"
        continue
    fi
    fallbacks=$(sed -n 's/^jit.fallbacks: //p' "$work/err")
    taken=$(sed -n 's/^run.exits_taken: //p' "$work/err")
    reasons=$(grep -c '^jitgen: fallback: .*exit to the evaluator: .*budget' "$work/err")
    if [ "${fallbacks:-0}" -lt 1 ] || [ "${taken:-0}" -lt 1 ] || [ "$reasons" != "$fallbacks" ]; then
        fail "$engine: fallbacks '$fallbacks', exits taken '$taken', $reasons reasons"
        continue
    fi
    if grep -q '^graph \|^block[0-9]' "$work/err"; then
        fail "$engine: --dump=fallbacks printed code"
        continue
    fi
    # without the budget: no fallback at all
    "$tlc" run "${args[@]}" --stats "$ring" 300 >"$work/out" 2>"$work/err"
    if [ "$(sed -n 's/^jit.fallbacks: //p' "$work/err")" != 0 ]; then
        fail "$engine: fallbacks without a budget"
        continue
    fi
    passed=$((passed + 1))
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
