#!/usr/bin/env bash
# The general benchmark suite (docs/benchmarks.md, "The general suite"):
# every program of bench/general/programs.txt at its bench size, as whole
# processes, under the native interpreter, the tiered JIT, the baseline
# tier alone and LLVM alone, and its peers under lua5.4, LuaJIT and PyPy.
#
# usage: bench/general/run.sh TLC_BINARY
#
# Writes RESULTS.md and results.csv (into BENCH_GENERAL_OUT, default
# bench/general/), both at the end: a failed run leaves the old ones.
#
# Environment:
#   BENCH_GENERAL_REPEAT    repetitions per (program, engine), default 3; the
#                           time reported is the median
#   BENCH_GENERAL_TIMEOUT   seconds per run, default 60
#   BENCH_GENERAL_PROGRAMS  programs to run (names), default all
#   BENCH_GENERAL_SCALE     divides the work of every program by about this
#                           factor (programs.txt's growth column), default 1
#   BENCH_GENERAL_PEERS     peers to run, default "lua5.4 luajit pypy3";
#                           empty: none
#   BENCH_GENERAL_SUITE     the suite's directory (programs.txt, NAME.tlc,
#                           peers/), default bench/general/; bench/unseen/ holds
#                           the held-out programs (make bench-unseen)
#   BENCH_GENERAL_OUT       where the results go, default the suite's directory
#   BENCH_GENERAL_COMMAND   how the suite was started, shown in RESULTS.md
set -euo pipefail

usage() {
    echo "usage: $0 TLC_BINARY" >&2
    exit 2
}
[ "$#" = 1 ] || usage
tlc=$1
if [ ! -x "$tlc" ]; then
    echo "$0: $tlc: not an executable" >&2
    exit 2
fi
case "$tlc" in
/*) ;;
*) tlc=$PWD/$tlc ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
REPEAT=${BENCH_GENERAL_REPEAT:-3}
TIMEOUT=${BENCH_GENERAL_TIMEOUT:-60}
SCALE=${BENCH_GENERAL_SCALE:-1}
PEERS=${BENCH_GENERAL_PEERS-lua5.4 luajit pypy3}
suite=$(cd "${BENCH_GENERAL_SUITE:-$here}" && pwd)
OUT=${BENCH_GENERAL_OUT:-$suite}
# the suite as the repository names it (bench/general), and its title: the
# first line of its programs.txt
suite_dir=${suite#"$root"/}
title=$(sed -n '1s/^# *//p' "$suite/programs.txt" | sed 's/:.*//')

positive() {
    if ! [[ "$2" =~ ^[1-9][0-9]*$ ]]; then
        echo "$0: $1 must be a positive integer, not '$2'" >&2
        exit 2
    fi
}
positive BENCH_GENERAL_REPEAT "$REPEAT"
positive BENCH_GENERAL_TIMEOUT "$TIMEOUT"
positive BENCH_GENERAL_SCALE "$SCALE"
for p in $PEERS; do
    case "$p" in
    lua5.4 | luajit | pypy3) ;;
    *)
        echo "$0: unknown peer '$p' (lua5.4, luajit, pypy3)" >&2
        exit 2
        ;;
    esac
done
if [ ! -x /usr/bin/time ]; then
    echo "$0: /usr/bin/time (GNU time) is needed for the maximum RSS" >&2
    exit 2
fi
mkdir -p "$OUT"

# --- The programs: name, bench size (scaled), description.
declare -A bench_n test_n growth
all=()
while read -r name tn bn gr; do
    case "$name" in '' | '#'*) continue ;; esac
    all+=("$name")
    test_n[$name]=$tn
    bench_n[$name]=$bn
    growth[$name]=$gr
done <"$suite/programs.txt"
if [ -n "${BENCH_GENERAL_PROGRAMS:-}" ]; then
    read -r -a programs <<<"$BENCH_GENERAL_PROGRAMS"
    for p in "${programs[@]}"; do
        if [ -z "${bench_n[$p]:-}" ]; then
            echo "$0: unknown program '$p' (programs: ${all[*]})" >&2
            exit 2
        fi
    done
else
    programs=("${all[@]}")
fi

# scaled N (never below the test size): N / SCALE for linear programs,
# N / sqrt(SCALE) for quadratic ones, N - log_F(SCALE) for exponential ones
scaled_n() {
    awk -v n="${bench_n[$1]}" -v t="${test_n[$1]}" -v g="${growth[$1]}" -v s="$SCALE" 'BEGIN {
        if (g == "n") m = int(n / s)
        else if (g == "n2") m = int(n / sqrt(s))
        else if (g ~ /^x/) m = n - int(log(s) / log(substr(g, 2)) + 0.5)
        else m = n
        print (m < t ? t : m)
    }'
}
declare -A size
for p in "${programs[@]}"; do
    size[$p]=$(scaled_n "$p")
done

# --- The engines: name and command (the program file and N follow).
engines=(interp tiered baseline llvm)
declare -A label
label[interp]="interpreter (--engine=interp)"
label[tiered]="tiered JIT (default)"
label[baseline]="baseline only (--engine=baseline)"
label[llvm]="LLVM only (--jit-threshold=0 --tier-up=0)"
label[lua5.4]="lua5.4"
label[luajit]="LuaJIT"
label[pypy3]="PyPy"
for p in $PEERS; do
    if command -v "$p" >/dev/null 2>&1; then
        engines+=("$p")
    else
        echo "$0: $p is not installed: skipped" >&2
    fi
done

# command_for ENGINE PROGRAM N: sets the array cmd (empty: no such peer file)
command_for() {
    local prog=$suite/$2.tlc
    case "$1" in
    interp) cmd=("$tlc" run --engine=interp "$prog" "$3") ;;
    tiered) cmd=("$tlc" run "$prog" "$3") ;;
    baseline) cmd=("$tlc" run --engine=baseline "$prog" "$3") ;;
    llvm) cmd=("$tlc" run --jit-threshold=0 --tier-up=0 "$prog" "$3") ;;
    lua5.4 | luajit) cmd=("$1" "$suite/peers/$2.lua" "$3") ;;
    pypy3) cmd=(pypy3 "$suite/peers/$2.py" "$3") ;;
    esac
    case "$1" in
    lua5.4 | luajit | pypy3) [ -r "${cmd[1]}" ] || cmd=() ;;
    esac
}

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-general.XXXXXX")
trap 'rm -rf "$work"' EXIT

# timed OUT ERR CMD...: runs CMD as a whole process with the time limit;
# sets secs (wall clock), status and rss (maximum resident set, KB)
timed() {
    local out=$1 err=$2 t0 t1
    shift 2
    t0=$EPOCHREALTIME
    set +e
    /usr/bin/time -f %M -o "$work/rss" timeout -k 5 "$TIMEOUT" "$@" >"$out" 2>"$err"
    status=$?
    set -e
    t1=$EPOCHREALTIME
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
    # GNU time writes "Command exited with non-zero status N" first
    rss=$(tail -n 1 "$work/rss")
    [[ "$rss" =~ ^[0-9]+$ ]] || rss=0
}

# verdict ENGINE PROGRAM: compares the run in $work/out, $work/err with the
# interpreter's (stdout and status; the TLC engines also stderr)
verdict() {
    local ref=$work/ref.$2
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then
        echo timeout
    elif [ "$status" != "$(cat "$ref.status")" ]; then
        echo fail
    elif ! cmp -s "$work/out" "$ref.out"; then
        echo wrong
    else
        case "$1" in
        interp | tiered | baseline | llvm)
            if cmp -s "$work/err" "$ref.err"; then echo ok; else echo wrong; fi
            ;;
        *) echo ok ;;
        esac
    fi
}

# describe_problem VERDICT PROGRAM: one line on what went wrong, for RESULTS.md
describe_problem() {
    local ref=$work/ref.$2 got want
    case "$1" in
    wrong)
        if ! cmp -s "$work/out" "$ref.out"; then
            got=$(diff "$ref.out" "$work/out" | grep -m 1 '^>' | cut -c 3-80 || true)
            want=$(diff "$ref.out" "$work/out" | grep -m 1 '^<' | cut -c 3-80 || true)
            echo "stdout differs: \`${got:-(nothing)}\` where the interpreter printed \`${want:-(nothing)}\`"
        else
            echo "stderr differs: \`$(head -n 1 "$work/err" | cut -c 1-160)\`"
        fi
        ;;
    timeout)
        echo "no result within ${TIMEOUT} s"
        ;;
    *)
        echo "exit status $status (interpreter: $(cat "$ref.status")): \`$(head -n 1 "$work/err" | cut -c 1-160)\`"
        ;;
    esac
}

# Results, keyed "program engine": the times of the runs, the RSS of each,
# and the verdict (ok, or the first of wrong, fail, timeout, n/a).
declare -A times rsss result first_problem
for p in "${programs[@]}"; do
    # the reference: one interpreter run, not timed
    command_for interp "$p" "${size[$p]}"
    timed "$work/ref.$p.out" "$work/ref.$p.err" "${cmd[@]}"
    echo "$status" >"$work/ref.$p.status"
    for e in "${engines[@]}"; do
        times["$p $e"]=""
        rsss["$p $e"]=""
        result["$p $e"]=ok
        command_for "$e" "$p" "${size[$p]}"
        [ "${#cmd[@]}" != 0 ] || result["$p $e"]=n/a
        # without the interpreter's output nothing can be checked
        if [ "$status" = 124 ] || [ "$status" = 137 ]; then
            result["$p $e"]=unchecked
        fi
    done
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then
        echo "$0: $p ${size[$p]}: the interpreter timed out (${TIMEOUT}s): skipped" >&2
        result["$p interp"]=timeout
    fi
done

# Interleaved: every repetition runs each program under each engine once,
# the engines in an order shuffled anew each time (seeded: repeatable), so a
# slow phase of the machine is shared rather than hitting one engine.
RANDOM=20240611
total=$((REPEAT * ${#programs[@]}))
done_count=0
for ((r = 1; r <= REPEAT; r++)); do
    for p in "${programs[@]}"; do
        order=("${engines[@]}")
        for ((i = ${#order[@]} - 1; i > 0; i--)); do
            j=$((RANDOM % (i + 1)))
            tmp=${order[$i]}
            order[$i]=${order[$j]}
            order[$j]=$tmp
        done
        line=""
        for e in "${order[@]}"; do
            # a run that failed is not repeated: its cell shows the failure
            [ "${result["$p $e"]}" = ok ] || continue
            command_for "$e" "$p" "${size[$p]}"
            timed "$work/out" "$work/err" "${cmd[@]}"
            v=$(verdict "$e" "$p")
            if [ "$v" != ok ]; then
                result["$p $e"]=$v
                first_problem["$p $e"]=$(describe_problem "$v" "$p")
                line+=" $e=$v"
                continue
            fi
            times["$p $e"]+=" $secs"
            rsss["$p $e"]+=" $rss"
            line+=" $e=${secs}s"
        done
        done_count=$((done_count + 1))
        echo "[$done_count/$total] $p ${size[$p]}:$line" >&2
    done
done

# One run of the default (tiered) engine with --stats: compile times, methods
# compiled, maximum RSS. Then the rest of $REPEAT such runs, for the tier
# policy's choice in each (baseline.tier_ups: how many graphs LLVM took over),
# which must not change from run to run.
declare -A stat_compile stat_pe stat_methods stat_code stat_rss stat_ok stat_tier_ups
stat_value() {
    awk -F': ' -v k="$1" '$1 == k { v = $2 } END { print (v == "" ? 0 : v) }' "$work/err"
}
for p in "${programs[@]}"; do
    if [ "${result["$p interp"]}" = timeout ]; then
        stat_ok[$p]=unchecked
        continue
    fi
    stat_tier_ups[$p]=""
    for ((r = 2; r <= REPEAT; r++)); do
        timed "$work/out" "$work/err" "$tlc" run --stats "$suite/$p.tlc" "${size[$p]}"
        [ "$status" != "$(cat "$work/ref.$p.status")" ] || stat_tier_ups[$p]+=" $(stat_value baseline.tier_ups)"
    done
    timed "$work/out" "$work/err" "$tlc" run --stats "$suite/$p.tlc" "${size[$p]}"
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then
        stat_ok[$p]=timeout
    elif [ "$status" != "$(cat "$work/ref.$p.status")" ]; then
        stat_ok[$p]=fail
    elif ! cmp -s "$work/out" "$work/ref.$p.out"; then
        stat_ok[$p]=wrong
    else
        stat_ok[$p]=ok
    fi
    stat_compile[$p]=$(stat_value jit.compile_ms)
    stat_pe[$p]=$(stat_value pe.ms)
    stat_methods[$p]=$(awk -F': ' '$1 == "baseline.methods" || $1 == "jit.methods.primary" ||
                                    $1 == "jit.methods.secondary" { s += $2 } END { print s + 0 }' "$work/err")
    stat_code[$p]=$(awk -F': ' '$1 == "baseline.code_bytes" || $1 == "jit.code_bytes" { s += $2 }
                                END { printf "%.1f", s / 1024 }' "$work/err")
    stat_rss[$p]=$rss
    stat_tier_ups[$p]+=" $(stat_value baseline.tier_ups)"
done
# tier_ups P: the tier-up counts of P's --stats runs, each distinct value with
# its number of runs ("0 x10", "1 x7, 2 x3")
tier_ups() {
    tr ' ' '\n' <<<"${stat_tier_ups[$1]:-}" | awk 'NF' | sort -n | uniq -c |
        awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }'
}

# --- Summaries.
median() {
    tr ' ' '\n' | awk 'NF' | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) exit
        if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
minimum() {
    tr ' ' '\n' | awk 'NF' | sort -g | head -n 1
}
maximum() {
    tr ' ' '\n' | awk 'NF' | sort -g | tail -n 1
}
# spread P E: the slowest of E's runs over its fastest ("1.23"), "-" with
# fewer than two runs
spread() {
    local t=${times["$1 $2"]:-}
    if [ "${result["$1 $2"]}" != ok ] || [ "$(wc -w <<<"$t")" -lt 2 ]; then
        printf -- '-'
        return
    fi
    awk -v a="$(maximum <<<"$t")" -v b="$(minimum <<<"$t")" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}
# spreads P: the tiered JIT's spread, in bold at or above 1.50 (the bound on
# ten runs), and the baseline tier's beside it: it has no tier policy, so
# its spread is the machine's
spreads() {
    spread "$1" tiered | awk '{ print ($1 != "-" && $1 + 0 >= 1.50 ? "**" $1 "**" : $1) }' | tr -d '\n'
    printf ' (%s)' "$(spread "$1" baseline)"
}
declare -A med
for p in "${programs[@]}"; do
    for e in "${engines[@]}"; do
        if [ "${result["$p $e"]}" = ok ]; then
            med["$p $e"]=$(median <<<"${times["$p $e"]}")
        fi
    done
done

# cell P E: the median time, or the failure
cell() {
    if [ "${result["$1 $2"]}" = ok ]; then
        printf '%.3f' "${med["$1 $2"]}"
    else
        printf '%s' "${result["$1 $2"]}"
    fi
}
# ratio A B: A / B as "1.23x", or "-" when either is missing
ratio() {
    if [ -n "${1:-}" ] && [ -n "${2:-}" ]; then
        awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'
    else
        printf -- '-'
    fi
}
# geomean NUM DEN: the geometric mean over the programs of med[NUM]/med[DEN],
# with the number of programs where both are ok
geomean() {
    local p pairs=""
    for p in "${programs[@]}"; do
        if [ -n "${med["$p $1"]:-}" ] && [ -n "${med["$p $2"]:-}" ]; then
            pairs+="${med["$p $1"]} ${med["$p $2"]}"$'\n'
        fi
    done
    awk 'NF == 2 && $2 > 0 { s += log($1 / $2); n++ }
         END { if (n) printf "%.2fx (%d program%s)", exp(s / n), n, n == 1 ? "" : "s"; else print "- (no program)" }' <<<"$pairs"
}
# over_best P: the tiered JIT's time over the faster of baseline only and
# LLVM only (what --jit-threshold=0 runs), in bold above 1.10 (the tier
# policy's bound)
over_best() {
    local best
    best=$(printf '%s\n%s\n' "${med["$1 baseline"]:-}" "${med["$1 llvm"]:-}" | awk 'NF' | sort -g | head -n 1)
    ratio "${med["$1 tiered"]:-}" "$best" | awk '{ v = $1; sub(/x$/, "", v); print (v + 0 > 1.10 ? "**" $1 "**" : $1) }'
}
describe() {
    sed -n '1s/^# [^ ]* - //p' "$suite/$1.tlc"
}
mb() {
    awk -v k="${1:-0}" 'BEGIN { printf "%.1f", k / 1024 }'
}

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit (with uncommitted changes in the tree)"
fi
version() {
    if command -v "$1" >/dev/null 2>&1; then
        { "$@" 2>&1 || true; } | head -n "${VERSION_LINES:-1}" | tr '\n' ' ' | sed 's/ *$//'
    else
        echo "not installed"
    fi
}
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null) || cpu=""
command="BENCH_GENERAL_REPEAT=$REPEAT BENCH_GENERAL_TIMEOUT=$TIMEOUT"
[ "$SCALE" = 1 ] || command+=" BENCH_GENERAL_SCALE=$SCALE"
[ -z "${BENCH_GENERAL_PROGRAMS:-}" ] || command+=" BENCH_GENERAL_PROGRAMS=\"$BENCH_GENERAL_PROGRAMS\""
[ "$PEERS" = "lua5.4 luajit pypy3" ] || command+=" BENCH_GENERAL_PEERS=\"$PEERS\""
command+=" ${BENCH_GENERAL_COMMAND:-bench/general/run.sh $1}"

# --- results.csv: one row per (program, engine), and one per program for
# the tiered --stats run (engine "tiered-stats").
csv=$work/results.csv
{
    echo "program,n,engine,result,median_s,min_s,max_s,runs,max_rss_kb,interp_over_engine,compile_ms,pe_ms,methods,code_kb,tier_ups"
    for p in "${programs[@]}"; do
        for e in "${engines[@]}"; do
            if [ "${result["$p $e"]}" = ok ]; then
                runs=$(wc -w <<<"${times["$p $e"]}")
                printf '%s,%s,%s,ok,%s,%s,%s,%s,%s,%s,,,,,\n' "$p" "${size[$p]}" "$e" "${med["$p $e"]}" \
                    "$(minimum <<<"${times["$p $e"]}")" "$(maximum <<<"${times["$p $e"]}")" "$runs" \
                    "$(tr ' ' '\n' <<<"${rsss["$p $e"]}" | awk 'NF' | sort -n | tail -n 1)" \
                    "$(ratio "${med["$p interp"]:-}" "${med["$p $e"]}" | tr -d x)"
            else
                printf '%s,%s,%s,%s,,,,0,,,,,,,\n' "$p" "${size[$p]}" "$e" "${result["$p $e"]}"
            fi
        done
        printf '%s,%s,tiered-stats,%s,,,,1,%s,,%s,%s,%s,%s,%s\n' "$p" "${size[$p]}" "${stat_ok[$p]}" \
            "${stat_rss[$p]}" "${stat_compile[$p]}" "${stat_pe[$p]}" "${stat_methods[$p]}" \
            "${stat_code[$p]}" "$(tier_ups "$p")"
    done
} >"$csv"

# --- RESULTS.md
md=$work/RESULTS.md
{
    echo "# ${title:-$suite_dir}: results"
    echo
    echo "Generated by \`bench/general/run.sh\` (docs/benchmarks.md, \"The general suite\")."
    echo "Every time is the wall-clock time of a whole process (start, loading, compiling,"
    echo "running, exit) in seconds, the median of $REPEAT repetitions run interleaved."
    echo "interp/X is the interpreter's time divided by X's (above 1: X is faster)."
    echo "A cell reads \`wrong\` (output differs from the interpreter's), \`fail\` (exit status"
    echo "differs: a crash or an internal error), \`timeout\` (over ${TIMEOUT} s), \`n/a\` (no peer)"
    echo "or \`unchecked\` (the interpreter timed out: nothing to compare with)."
    echo
    echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- Machine: $(uname -m), ${cpu:-unknown CPU}, $(nproc) cores, Linux $(uname -r)"
    echo "- jitgen: commit $commit"
    echo "- lua5.4: $(version lua5.4 -v)"
    echo "- LuaJIT: $(version luajit -v)"
    echo "- PyPy: $(VERSION_LINES=2 version pypy3 --version)"
    echo "- Command: \`$command\`"
    echo
    echo "## Geometric means"
    echo
    echo "| ratio | geometric mean |"
    echo "|---|---|"
    echo "| interp / tiered JIT | $(geomean interp tiered) |"
    echo "| interp / baseline only | $(geomean interp baseline) |"
    echo "| interp / LLVM only | $(geomean interp llvm) |"
    for e in lua5.4 luajit pypy3; do
        if [[ " ${engines[*]} " == *" $e "* ]]; then
            echo "| ${label[$e]} / tiered JIT (above 1: the tiered JIT is faster) | $(geomean "$e" tiered) |"
        fi
    done
    echo
    echo "Programs with a failed cell count only where both engines of a ratio are \`ok\`."
    echo
    echo "## All programs"
    echo
    header="| program | N | interp | tiered | baseline | LLVM |"
    rule="|---|---:|---:|---:|---:|---:|"
    for e in "${engines[@]:4}"; do
        header+=" ${label[$e]} |"
        rule+="---:|"
    done
    echo "$header interp/tiered | tiered/best | spread | tier-ups | compile ms | pe ms | methods | code KB | max RSS MB |"
    echo "$rule---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for p in "${programs[@]}"; do
        row="| $p | ${size[$p]} |"
        for e in "${engines[@]}"; do
            row+=" $(cell "$p" "$e") |"
        done
        row+=" $(ratio "${med["$p interp"]:-}" "${med["$p tiered"]:-}") |"
        row+=" $(over_best "$p") |"
        row+=" $(spreads "$p") | $(tier_ups "$p") |"
        if [ "${stat_ok[$p]}" = ok ]; then
            row+=" ${stat_compile[$p]} | ${stat_pe[$p]} | ${stat_methods[$p]} | ${stat_code[$p]} |"
            row+=" $(mb "${stat_rss[$p]}") |"
        else
            row+=" ${stat_ok[$p]} | | | | |"
        fi
        echo "$row"
    done
    echo
    echo "tiered/best: the tiered JIT's time over the faster of baseline only and LLVM only"
    echo "(what \`--jit-threshold=0\` runs: no tiers without a threshold); the tier policy's"
    echo "bound is 1.10, above it in bold. spread: the slowest of the tiered JIT's $REPEAT runs"
    echo "over its fastest (the bound on ten runs is 1.50, at or above it in bold), and in"
    echo "parentheses the same for baseline only, which has no tier policy: how much the"
    echo "machine itself moved. tier-ups: \`baseline.tier_ups\` (graphs the tier policy"
    echo "handed to LLVM) in each of $REPEAT runs of the tiered JIT with \`--stats\`, each"
    echo "value with its number of runs: one value means the policy chose the same in every"
    echo "run."
    echo
    echo "compile ms, pe ms, methods, code KB and max RSS come from one run of the tiered JIT"
    echo "with \`--stats\`: \`jit.compile_ms\` (all compile-time work), \`pe.ms\` (partial"
    echo "evaluation), \`baseline.methods + jit.methods.primary + jit.methods.secondary\` (methods"
    echo "compiled by both tiers), \`baseline.code_bytes + jit.code_bytes\` (machine code of both"
    echo "tiers) and the process's maximum resident set."
    echo
    echo "## Per program"
    for p in "${programs[@]}"; do
        echo
        echo "### $p (N = ${size[$p]})"
        echo
        echo "\`$suite_dir/$p.tlc\`: $(describe "$p")"
        echo
        echo "| engine | time (s) | interp / engine | max RSS (MB) |"
        echo "|---|---:|---:|---:|"
        for e in "${engines[@]}"; do
            if [ "${result["$p $e"]}" = ok ]; then
                echo "| ${label[$e]} | $(cell "$p" "$e") | $(ratio "${med["$p interp"]:-}" "${med["$p $e"]}") | $(mb "$(tr ' ' '\n' <<<"${rsss["$p $e"]}" | awk 'NF' | sort -n | tail -n 1)") |"
            else
                echo "| ${label[$e]} | ${result["$p $e"]} | - | - |"
            fi
        done
        problems=""
        for e in "${engines[@]}"; do
            if [ -n "${first_problem["$p $e"]:-}" ]; then
                problems+="- ${label[$e]}: ${result["$p $e"]}, ${first_problem["$p $e"]}"$'\n'
            fi
        done
        if [ -n "$problems" ]; then
            echo
            printf '%s' "$problems"
        fi
    done
} >"$md"

cp "$csv" "$OUT/results.csv"
cp "$md" "$OUT/RESULTS.md"
echo "wrote $OUT/RESULTS.md and $OUT/results.csv" >&2
