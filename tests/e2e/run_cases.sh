#!/usr/bin/env bash
# End-to-end cases: run each tests/cases/*.tlc through `tlc run` and compare
# with the expectations written in its header (format: tests/cases/README.md).
#
# usage: run_cases.sh TLC_BINARY ENGINE CASE_FILE...
#
# Every case is run twice: from the .tlc source (assembled in memory) and as a
# .tlcb file made by `tlc asm`; both runs must meet the expectations and give
# identical stdout, stderr (up to the file name) and exit status. A case that
# expects status 65 (bad assembly) must also make `tlc asm` fail with 65
# without writing an output file.
#
# Environment: TLC_CASE_TIMEOUT (seconds per run, default 30),
# TLC_CASES_VERBOSE=1 prints a line for passing cases too.
# Ends with "N passed, M failed"; exit status 0 iff every case passed.
set -u

if [ "$#" -lt 2 ]; then
    echo "usage: $0 TLC_BINARY ENGINE CASE_FILE..." >&2
    exit 2
fi
tlc=$1
engine=$2
shift 2
# ENGINE may carry an LLVM optimization level and the ablation without
# virtual objects (tests/e2e/engine_args.sh)
source "$(dirname "$0")/engine_args.sh"
engine_args_for "$engine"
# TLC_TIMEOUT_SCALE: tests/e2e/checks.sh
timeout_s=$((${TLC_CASE_TIMEOUT:-30} * ${TLC_TIMEOUT_SCALE:-1}))
verbose=${TLC_CASES_VERBOSE:-0}

if [ ! -x "$tlc" ]; then
    echo "$0: $tlc: not an executable" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tlc-cases.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

error_kinds='TypeError|IndexError|ZeroDivisionError|AttributeError|StackUnderflow|StackOverflow|BranchError|InvalidOpcode|RecursionError'

passed=0
failed=0
problems=()

problem() {
    problems+=("$1")
}

# show_file LABEL FILE: prints at most 20 lines of FILE, indented.
show_file() {
    echo "    $1:"
    if [ -s "$2" ]; then
        head -n 20 "$2" | sed 's/^/      | /'
        local n
        n=$(wc -l <"$2")
        [ "$n" -le 20 ] || echo "      | ... ($n lines)"
    else
        echo "      (empty)"
    fi
}

# describe_status STATUS: a readable name for an exit status.
describe_status() {
    case "$1" in
    124) echo "$1 (timed out after ${timeout_s}s)" ;;
    12[5-7]) echo "$1 (could not run)" ;;
    *) if [ "$1" -gt 128 ]; then echo "$1 (killed by signal $(($1 - 128)))"; else echo "$1"; fi ;;
    esac
}

# check_run LABEL PROG OUT ERR STATUS: checks one run against the expectations
# parsed into exp_* variables; records problems.
check_run() {
    local label=$1 prog=$2 out=$3 err=$4 status=$5
    if [ "$status" != "$exp_status" ]; then
        problem "$label: exit status $(describe_status "$status"), expected $exp_status"
    fi
    if ! cmp -s "$work/expected" "$out"; then
        problem "$label: stdout differs (--- expected, +++ actual):
$(diff -u --label expected --label actual "$work/expected" "$out" | head -n 40 | sed 's/^/      /')"
    fi
    local s
    for s in "${exp_stderr[@]+"${exp_stderr[@]}"}"; do
        if ! grep -qF -- "$s" "$err"; then
            problem "$label: stderr does not contain '$s'"
        fi
    done
    case "$exp_status" in
    0)
        if [ -s "$err" ]; then
            problem "$label: stderr should be empty"
        fi
        ;;
    1)
        local lines
        lines=$(wc -l <"$err")
        if [ "$lines" != 1 ]; then
            problem "$label: stderr should be exactly one line, has $lines"
        fi
        if ! head -n 1 "$err" | grep -qE "^.*: pc [0-9]+: ($error_kinds) in [A-Z_]+(: .*)?$"; then
            problem "$label: stderr is not of the form 'FILE: pc P: KIND in OPNAME: detail'"
        elif [ "$(head -c $((${#prog} + 2)) "$err")" != "$prog: " ]; then
            problem "$label: the error message should start with the file name '$prog: '"
        fi
        ;;
    *)
        if [ ! -s "$err" ]; then
            problem "$label: stderr should explain the failure"
        fi
        ;;
    esac
}

for case_file in "$@"; do
    name=${case_file##*/}
    name=${name%.tlc}
    problems=()
    # --- parse the header ---------------------------------------------------
    exp_args=()
    exp_stdout=()
    exp_stderr=()
    exp_status=0
    min_threshold=0
    prog=$case_file
    have_stdout=0
    while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in
        '#! args:'*)
            read -r -a exp_args <<<"${line#'#! args:'}"
            ;;
        '#! stdout:'*)
            v=${line#'#! stdout:'}
            exp_stdout+=("${v# }")
            have_stdout=1
            ;;
        '#! stderr:'*)
            v=${line#'#! stderr:'}
            exp_stderr+=("${v# }")
            ;;
        '#! status:'*)
            v=${line#'#! status:'}
            exp_status=${v// /}
            ;;
        '#! min-threshold:'*)
            v=${line#'#! min-threshold:'}
            min_threshold=${v// /}
            ;;
        '#! run:'*)
            v=${line#'#! run:'}
            v=${v# }
            prog="$(dirname "$case_file")/$v"
            ;;
        '#!'*)
            problem "unknown directive: $line"
            ;;
        esac
    done <"$case_file"
    if [ "$have_stdout" = 1 ]; then
        printf '%s\n' "${exp_stdout[@]}" >"$work/expected"
    else
        : >"$work/expected"
    fi
    if [ ! -r "$prog" ]; then
        problem "program file $prog cannot be read"
    fi
    # a tiered engine (NAME@T) hands over no earlier than the case allows
    run_args=("${engine_args[@]}")
    for i in "${!run_args[@]}"; do
        case "${run_args[$i]}" in
        --jit-threshold=*)
            t=${run_args[$i]#--jit-threshold=}
            if [ "$t" -gt 0 ] && [ "$t" -lt "$min_threshold" ]; then
                run_args[$i]="--jit-threshold=$min_threshold"
            fi
            ;;
        esac
    done

    if [ "${#problems[@]}" = 0 ]; then
        # --- run the source ---------------------------------------------------
        timeout "$timeout_s" "$tlc" run "${run_args[@]}" "$prog" "${exp_args[@]+"${exp_args[@]}"}" \
            >"$work/out1" 2>"$work/err1"
        st1=$?
        check_run ".tlc run" "$prog" "$work/out1" "$work/err1" "$st1"

        # --- assemble, run the bytecode file -----------------------------------
        tlcb="$work/$name.tlcb"
        rm -f "$tlcb"
        timeout "$timeout_s" "$tlc" asm "$prog" -o "$tlcb" >"$work/asm_out" 2>"$work/asm_err"
        st_asm=$?
        if [ "$exp_status" = 65 ]; then
            if [ "$st_asm" != 65 ]; then
                problem "tlc asm: exit status $(describe_status "$st_asm"), expected 65"
            fi
            if [ -e "$tlcb" ]; then
                problem "tlc asm: wrote an output file for a bad source"
            fi
            for s in "${exp_stderr[@]+"${exp_stderr[@]}"}"; do
                grep -qF -- "$s" "$work/asm_err" || problem "tlc asm: stderr does not contain '$s'"
            done
        elif [ "$st_asm" != 0 ] || [ ! -s "$tlcb" ]; then
            problem "tlc asm: exit status $(describe_status "$st_asm"), no usable output file
$(sed 's/^/      /' "$work/asm_err")"
        else
            timeout "$timeout_s" "$tlc" run "${run_args[@]}" "$tlcb" \
                "${exp_args[@]+"${exp_args[@]}"}" >"$work/out2" 2>"$work/err2"
            st2=$?
            check_run ".tlcb run" "$tlcb" "$work/out2" "$work/err2" "$st2"
            # identical results: stdout and status equal, stderr equal once the
            # file names are exchanged
            err2=$(cat "$work/err2")
            err1=$(cat "$work/err1")
            if [ "$st1" != "$st2" ]; then
                problem ".tlc and .tlcb runs differ: status $st1 vs $st2"
            fi
            if ! cmp -s "$work/out1" "$work/out2"; then
                problem ".tlc and .tlcb runs differ on stdout"
            fi
            if [ "${err2//"$tlcb"/"$prog"}" != "$err1" ]; then
                problem ".tlc and .tlcb runs differ on stderr:
      .tlc:  $err1
      .tlcb: $err2"
            fi
        fi
    fi

    if [ "${#problems[@]}" = 0 ]; then
        passed=$((passed + 1))
        [ "$verbose" != 1 ] || echo "PASS $name"
    else
        failed=$((failed + 1))
        echo "FAIL $name ($case_file)"
        echo "    command: $tlc run ${run_args[*]} $prog ${exp_args[*]+"${exp_args[*]}"}"
        for p in "${problems[@]}"; do
            echo "  - $p"
        done
        if [ -e "$work/out1" ]; then
            show_file "expected stdout" "$work/expected"
            show_file "actual stdout (.tlc run)" "$work/out1"
            show_file "actual stderr (.tlc run)" "$work/err1"
        fi
    fi
    rm -f "$work/out1" "$work/err1" "$work/out2" "$work/err2"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
