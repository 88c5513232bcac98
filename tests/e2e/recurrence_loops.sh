#!/usr/bin/env bash
# Recurrence-loop tests: for seeds FIRST..FIRST+COUNT-1, generate a program
# with tlcrec (loops the partial evaluator unrolls, pe/unroll.c), run it
# under each engine with trip counts that leave the unrolled loop after
# either half (0, 1, 2, 3, 10, 11, 1000, 1001, 1002), and check that every
# run exits with 0 and that all the engines print the same stdout as the
# first one.
#
# usage: recurrence_loops.sh TLC_BINARY TLCREC_BINARY COUNT ENGINE...
#
# Environment: TLC_REC_FIRST (first seed, default 1), TLC_REC_TIMEOUT
# (seconds per run, default 20). Ends with "N passed, M failed"; exit
# status 0 iff every seed passed.
set -u

if [ "$#" -lt 4 ]; then
    echo "usage: $0 TLC_BINARY TLCREC_BINARY COUNT ENGINE..." >&2
    exit 2
fi
tlc=$1
gen=$2
count=$3
shift 3
engines=("$@")
source "$(dirname "$0")/engine_args.sh"
first=${TLC_REC_FIRST:-1}
timeout_s=${TLC_REC_TIMEOUT:-20}

work=$(mktemp -d "${TMPDIR:-/tmp}/tlc-rec.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

passed=0
failed=0
for ((seed = first; seed < first + count; seed++)); do
    problems=()
    prog="$work/r$seed.tlc"
    if ! "$gen" "$seed" >"$prog" 2>"$work/gen_err"; then
        problems+=("tlcrec failed: $(head -c 200 "$work/gen_err")")
    else
        for n in 0 1 2 3 10 11 1000 1001 1002; do
            ref=""
            for engine in "${engines[@]}"; do
                engine_args_for "$engine"
                timeout "$timeout_s" "$tlc" run "${engine_args[@]}" "$prog" "$n" \
                    >"$work/out_$engine" 2>"$work/err"
                st=$?
                if [ "$st" != 0 ]; then
                    problems+=("$engine, n = $n: exit status $st: $(head -c 200 "$work/err")")
                elif [ -z "$ref" ]; then
                    ref=$engine
                elif ! cmp -s "$work/out_$ref" "$work/out_$engine"; then
                    problems+=("n = $n: $ref and $engine differ:
$(diff "$work/out_$ref" "$work/out_$engine" | head -n 6 | sed 's/^/      /')")
                fi
            done
        done
    fi
    if [ "${#problems[@]}" = 0 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL seed $seed (reproduce: $gen $seed > r.tlc; $tlc run r.tlc N)"
        for p in "${problems[@]}"; do
            echo "  - $p"
        done
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
