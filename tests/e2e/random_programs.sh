#!/usr/bin/env bash
# Random-program tests: for seeds 1..COUNT, generate a program with tlcgen,
# assemble it, run it under each engine, and check the invariants:
#  - `tlc asm` and `tlc dis` succeed;
#  - every run exits with 0 or 1 (anything else, a crash or a timeout, fails);
#  - status 0: stderr is empty; status 1: stderr is exactly one line
#    `FILE: pc P: KIND in OPNAME: detail`;
#  - running the .tlc and the .tlcb gives identical stdout, stderr (up to the
#    file name) and status;
#  - all the engines given agree on stdout, stderr and status.
#
# usage: random_programs.sh TLC_BINARY GENERATOR COUNT ENGINE...
#
# GENERATOR is tlcgen or another program called as `GENERATOR SEED SIZE` that
# writes TLC assembly (tlcrec: recurrence loops); with TLC_RANDOM_SHAPE=SHAPE,
# `GENERATOR SEED SIZE SHAPE` (tlcgen's shapes: ring, walk, retype, lateerr,
# deep, long, mix; a list of shapes separated by spaces: COUNT programs of each).
# Environment: TLC_RANDOM_FIRST (first seed, default 1), TLC_RANDOM_SIZE
# (the generator's SIZE, default 40), TLC_RANDOM_TIMEOUT (seconds per run,
# default 20), TLC_RANDOM_KEEP=DIR keeps the programs of failing seeds in DIR,
# TLC_RANDOM_INPUTS: the inputs N each program runs with (default one,
# (seed mod 21) - 10), TLC_RANDOM_TLCB=0 runs the .tlc only (not also the
# .tlcb).
# Ends with "N passed, M failed"; exit status 0 iff every seed passed.
set -u

if [ "$#" -lt 4 ]; then
    echo "usage: $0 TLC_BINARY TLCGEN_BINARY COUNT ENGINE..." >&2
    exit 2
fi
tlc=$1
gen=$2
count=$3
shift 3
engines=("$@")
source "$(dirname "$0")/engine_args.sh"
first=${TLC_RANDOM_FIRST:-1}
size=${TLC_RANDOM_SIZE:-40}
# TLC_TIMEOUT_SCALE: tests/e2e/checks.sh
timeout_s=$((${TLC_RANDOM_TIMEOUT:-20} * ${TLC_TIMEOUT_SCALE:-1}))
keep=${TLC_RANDOM_KEEP:-}
shapes=${TLC_RANDOM_SHAPE:-}
run_tlcb=${TLC_RANDOM_TLCB:-1}

for exe in "$tlc" "$gen"; do
    if [ ! -x "$exe" ]; then
        echo "$0: $exe: not an executable" >&2
        exit 2
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/tlc-random.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

error_kinds='TypeError|IndexError|ZeroDivisionError|AttributeError|StackUnderflow|StackOverflow|BranchError|InvalidOpcode|RecursionError'
passed=0
failed=0
n_error=0
declare -A kinds_seen=()

# check_one LABEL FILE ERR STATUS: the per-run invariants.
check_one() {
    local label=$1 file=$2 err=$3 st=$4
    case "$st" in
    0)
        [ ! -s "$err" ] || problems+=("$label: status 0 but stderr is not empty: $(head -c 200 "$err")")
        ;;
    1)
        if [ "$(wc -l <"$err")" != 1 ]; then
            problems+=("$label: status 1 but stderr has $(wc -l <"$err") lines")
        elif ! grep -qE "^$(printf '%s' "$file" | sed 's/[]\/$*.^[]/\\&/g'): pc [0-9]+: ($error_kinds) in [A-Z_]+(: .*)?$" "$err"; then
            problems+=("$label: bad error line: $(head -c 200 "$err")")
        fi
        ;;
    124)
        problems+=("$label: timed out after ${timeout_s}s")
        ;;
    *)
        problems+=("$label: exit status $st (expected 0 or 1): $(head -c 200 "$err")")
        ;;
    esac
}

last=$((first + count - 1))
for shape in ${shapes:-""}; do
gen_args=("$size")
[ -n "$shape" ] && gen_args+=("$shape")
for ((seed = first; seed <= last; seed++)); do
    problems=()
    prog="$work/p$seed.tlc"
    tlcb="$work/p$seed.tlcb"
    inputs=${TLC_RANDOM_INPUTS:-$((seed % 21 - 10))}
    if ! "$gen" "$seed" "${gen_args[@]}" >"$prog" 2>"$work/gen_err"; then
        problems+=("$(basename "$gen") failed: $(head -c 200 "$work/gen_err")")
    elif ! timeout "$timeout_s" "$tlc" asm "$prog" -o "$tlcb" >/dev/null 2>"$work/asm_err"; then
        problems+=("tlc asm failed: $(head -c 300 "$work/asm_err")")
    elif ! timeout "$timeout_s" "$tlc" dis "$tlcb" >/dev/null 2>"$work/dis_err"; then
        problems+=("tlc dis failed: $(head -c 300 "$work/dis_err")")
    else
        for n in $inputs; do
            ref_engine=""
            for engine in "${engines[@]}"; do
                # ENGINE may carry a level and +novirt (engine_args.sh)
                engine_args_for "$engine"
                timeout "$timeout_s" env "${engine_env[@]}" "$tlc" run "${engine_args[@]}" "$prog" "$n" \
                    >"$work/out_$engine" 2>"$work/err_$engine"
                st=$?
                echo "$st" >"$work/st_$engine"
                check_one "$engine .tlc, N = $n" "$prog" "$work/err_$engine" "$st"
                if [ "$run_tlcb" != 0 ]; then
                    timeout "$timeout_s" env "${engine_env[@]}" "$tlc" run "${engine_args[@]}" "$tlcb" "$n" \
                        >"$work/outb" 2>"$work/errb"
                    stb=$?
                    check_one "$engine .tlcb, N = $n" "$tlcb" "$work/errb" "$stb"
                    if [ "$st" != "$stb" ] || ! cmp -s "$work/out_$engine" "$work/outb"; then
                        problems+=("$engine: .tlc and .tlcb runs differ (status $st vs $stb, or stdout)")
                    fi
                    errb=$(cat "$work/errb")
                    if [ "${errb//"$tlcb"/"$prog"}" != "$(cat "$work/err_$engine")" ]; then
                        problems+=("$engine: .tlc and .tlcb runs differ on stderr")
                    fi
                fi
                if [ -z "$ref_engine" ]; then
                    ref_engine=$engine
                    if [ "$st" = 1 ]; then
                        n_error=$((n_error + 1))
                        k=$(grep -oE ": ($error_kinds) in" "$work/err_$engine" | head -n 1 | cut -d' ' -f2)
                        kinds_seen[$k]=$((${kinds_seen[$k]:-0} + 1))
                    fi
                else
                    for what in st out err; do
                        if ! cmp -s "$work/${what}_$ref_engine" "$work/${what}_$engine"; then
                            problems+=("N = $n: engines $ref_engine and $engine differ on $what:
$(diff "$work/${what}_$ref_engine" "$work/${what}_$engine" | head -n 10 | sed 's/^/      /')")
                        fi
                    done
                fi
            done
        done
    fi
    if [ "${#problems[@]}" = 0 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL seed $seed (reproduce: $gen $seed ${gen_args[*]} > p.tlc; $tlc run p.tlc N, N in $inputs)"
        for p in "${problems[@]}"; do
            echo "  - $p"
        done
        if [ -n "$keep" ]; then
            mkdir -p "$keep" && cp "$prog" "$keep/${shape:+$shape-}seed$seed.tlc"
        fi
    fi
    rm -f "$prog" "$tlcb"
done
done

summary=""
for k in "${!kinds_seen[@]}"; do
    summary="$summary $k=${kinds_seen[$k]}"
done
echo "runs ending in a run-time error: $n_error ($summary )"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
