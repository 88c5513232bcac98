#!/usr/bin/env bash
# The general benchmark suite's programs (bench/general/) at their test
# sizes, under several engine settings: every program with an expected
# stdout bench/general/expected/NAME.N.out is run from its .tlc as
# `tlc run SETTING... NAME.tlc N`, and its stdout, stderr and exit status
# are compared with expected/NAME.N.out, .err and .status (a missing .err:
# empty stderr; a missing .status: 0). In .err the program's file name is
# written as NAME.tlc.
#
# usage: general_programs.sh TLC_BINARY
#
# Environment:
#   GENERAL_ENGINES   the settings to run, names from the table below,
#                     default all of them
#   GENERAL_PROGRAMS  the programs to run, default every one with an
#                     expected file
#   GENERAL_TIMEOUT   seconds per run, default 60
#   GENERAL_SUITE     the suite's directory, default bench/general (the
#                     held-out programs: bench/unseen)
#
# A setting is one of these names, which give the exact options (the
# default engine with no option at all is one of them):
#   interp     --engine=interp
#   pe         --engine=pe
#   baseline   --engine=baseline
#   default    (no option: the tiered JIT)
#   llvm       --jit-threshold=0 --tier-up=0   (LLVM only, from the start)
#   llvm@10    --jit-threshold=10 --tier-up=0  (LLVM only, tiered)
#   jit0       --jit-threshold=0               (both tiers, from the start)
# or any other engine name of the end-to-end tests (tests/e2e/engine_args.sh:
# jit:O3, jit@1+now, pe+novirt, ...).
#
# Ends with "N passed, M failed"; exit status 0 iff every run passed.
set -uo pipefail

if [ "$#" != 1 ]; then
    echo "usage: $0 TLC_BINARY" >&2
    exit 2
fi
tlc=$1
if [ ! -x "$tlc" ]; then
    echo "$0: $tlc: not an executable" >&2
    exit 2
fi
suite=$(cd "${GENERAL_SUITE:-$(dirname "$0")/../../bench/general}" && pwd) || exit 2
# TLC_TIMEOUT_SCALE: tests/e2e/checks.sh
timeout_s=$((${GENERAL_TIMEOUT:-60} * ${TLC_TIMEOUT_SCALE:-1}))
all_settings="interp pe baseline default llvm llvm@10 jit0"
read -r -a settings <<<"${GENERAL_ENGINES:-$all_settings}"

source "$(dirname "$0")/engine_args.sh"

# setting_args NAME: sets the arrays args (options of tlc run) and env
# (VAR=VALUE words for env(1))
setting_args() {
    env=()
    case "$1" in
    interp) args=(--engine=interp) ;;
    pe) args=(--engine=pe) ;;
    baseline) args=(--engine=baseline) ;;
    default) args=() ;;
    llvm) args=(--jit-threshold=0 --tier-up=0) ;;
    llvm@10) args=(--jit-threshold=10 --tier-up=0) ;;
    jit0) args=(--jit-threshold=0) ;;
    *)
        engine_args_for "$1"
        case "${engine_args[0]}" in
        --engine=jit | --engine=pe | --engine=baseline | --engine=interp | --engine=graphs) ;;
        *) return 1 ;;
        esac
        args=("${engine_args[@]}")
        env=("${engine_env[@]+"${engine_env[@]}"}")
        ;;
    esac
}
for s in "${settings[@]}"; do
    if ! setting_args "$s"; then
        echo "$0: unknown engine setting '$s' (settings: $all_settings, or an engine of tests/e2e/engine_args.sh)" >&2
        exit 2
    fi
done

# the expected files: NAME.N.out, N possibly negative
cases=()
for f in "$suite"/expected/*.out; do
    [ -e "$f" ] || continue
    base=${f##*/}
    base=${base%.out}
    name=${base%.*}
    if [ -n "${GENERAL_PROGRAMS:-}" ] && [[ " $GENERAL_PROGRAMS " != *" $name "* ]]; then
        continue
    fi
    cases+=("$base")
done
if [ "${#cases[@]}" = 0 ]; then
    echo "$0: no expected files in $suite/expected" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tlc-general.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

passed=0
failed=0
for base in "${cases[@]}"; do
    name=${base%.*}
    n=${base##*.}
    prog=$suite/$name.tlc
    exp=$suite/expected/$base
    want_status=0
    [ ! -e "$exp.status" ] || want_status=$(tr -d ' \n' <"$exp.status")
    if [ -e "$exp.err" ]; then cp "$exp.err" "$work/want_err"; else : >"$work/want_err"; fi
    for s in "${settings[@]}"; do
        setting_args "$s"
        env "${env[@]+"${env[@]}"}" timeout -k 5 "$timeout_s" "$tlc" run "${args[@]+"${args[@]}"}" \
            "$prog" "$n" >"$work/out" 2>"$work/err"
        status=$?
        # the file name in messages as the expected files write it
        sed "s|^$prog: |$name.tlc: |" "$work/err" >"$work/err_norm"
        problems=()
        if [ "$status" != "$want_status" ]; then
            case "$status" in
            124 | 137) problems+=("timed out after ${timeout_s}s") ;;
            *) problems+=("exit status $status, expected $want_status") ;;
            esac
        fi
        if ! cmp -s "$work/out" "$exp.out"; then
            problems+=("stdout differs (--- expected, +++ actual):
$(diff -u --label expected --label actual "$exp.out" "$work/out" | head -n 20 | sed 's/^/      /')")
        fi
        if ! cmp -s "$work/err_norm" "$work/want_err"; then
            problems+=("stderr differs (--- expected, +++ actual):
$(diff -u --label expected --label actual "$work/want_err" "$work/err_norm" | head -n 10 | sed 's/^/      /')")
        fi
        if [ "${#problems[@]}" = 0 ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "FAIL $name (N = $n) under $s"
            echo "    command: ${env[*]+${env[*]} }$tlc run ${args[*]+${args[*]} }$prog $n"
            for p in "${problems[@]}"; do
                echo "  - $p"
            done
        fi
    done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
