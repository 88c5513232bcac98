#!/usr/bin/env bash
# The benchmark harness (docs/benchmarks.md). Measures factorial, fibonacci and
# the accumulator under the native interpreter, the JIT (first and later runs
# in one process, `tlc bench`), `tlc run` as a whole process, the C baselines
# (gcc -O2 and clang-19 -O2) and the peers (LuaJIT, node, PyPy), then writes
# results.csv, RESULTS.md, results.png (with gnuplot) and the table of the
# README between its bench-table markers.
#
# usage: bench/run.sh TLC C_DIR
#   TLC    the tlc binary (build/tlc)
#   C_DIR  the folder of the C baselines c_NAME and c_clang_NAME (build/bench)
#
# Environment (defaults in brackets):
#   BENCH_NS             the inputs n ["10 10000000 100000000 1000000000"]
#   BENCH_REPEAT         repetitions: processes per engine, program and n [5]
#   BENCH_INPROC         runs per `tlc bench` process: run 1 is "JIT", the
#                        others "JIT 2" [3]
#   BENCH_INTERP_BUDGET  seconds: the interpreter is skipped at an n where a
#                        run would take longer, predicted linearly from its
#                        time at the largest smaller n measured [30]
#   BENCH_ABLATION_NS    the inputs of the ablations ["100 10000000"]
#   BENCH_COLD_REPEAT    runs of the cold-start measurement [20]
#   BENCH_CHECK_NS       small inputs at which every engine and peer is
#                        checked against the C baseline first ["10 20 90 -5"]
#   BENCH_PROGRAMS       ["factorial fibonacci accumulator"]
#   BENCH_PEERS          peers to run, those not installed are skipped
#                        ["luajit node pypy3"]
#   BENCH_GNUPLOT        the gnuplot command; the plot is skipped with a
#                        message when it is not found [gnuplot]
#   BENCH_OUT            where the results go [the folder of this script]
#   BENCH_README         the README to update, empty: none [README.md]
#   BENCH_COMMAND        how the harness was started, for RESULTS.md
# Measurements are interleaved: every repetition runs each engine once, in an
# order shuffled anew for each repetition, so that the machine's noise (and
# the wake of the process before) hits all engines alike. Every result is
# compared with the C baseline's (gcc): any difference ends the harness,
# except a peer computing with doubles (node; LuaJIT's accumulator) printing
# a value of magnitude 2^53 or more, or not finite, where doubles are no
# longer exact; those are reported.
# Exit status: 0, 1 when a measurement fails or a result differs, 2 on bad
# usage.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

if [ $# -ne 2 ]; then
    echo "usage: $0 TLC C_DIR" >&2
    exit 2
fi
tlc=$1
cdir=$2

NS=${BENCH_NS:-"10 10000000 100000000 1000000000"}
REPEAT=${BENCH_REPEAT:-5}
INPROC=${BENCH_INPROC:-3}
INTERP_BUDGET=${BENCH_INTERP_BUDGET:-30}
ABL_NS=${BENCH_ABLATION_NS:-"100 10000000"}
COLD=${BENCH_COLD_REPEAT:-20}
CHECK_NS=${BENCH_CHECK_NS:-"10 20 90 -5"}
PROGRAMS=${BENCH_PROGRAMS:-"factorial fibonacci accumulator"}
PEERS=${BENCH_PEERS-"luajit node pypy3"}
GNUPLOT=${BENCH_GNUPLOT:-gnuplot}
OUT=${BENCH_OUT:-$here}
README=${BENCH_README-$root/README.md}

die() {
    echo "bench: $*" >&2
    exit 1
}

usage_die() {
    echo "bench: $*" >&2
    exit 2
}

is_int() {
    [[ $1 =~ ^-?[0-9]+$ ]] && [ ${#1} -le 19 ]
}

for v in REPEAT INPROC COLD INTERP_BUDGET; do
    [[ ${!v} =~ ^[1-9][0-9]{0,5}$ ]] || usage_die "BENCH_$v must be a positive integer, not '${!v}'"
done
((INPROC >= 2)) || usage_die "BENCH_INPROC must be at least 2 (run 1 and a second run)"
for v in NS ABL_NS CHECK_NS PROGRAMS; do
    [ -n "${!v// /}" ] || usage_die "BENCH_${v/ABL_NS/ABLATION_NS} is empty"
done
for n in $NS $ABL_NS $CHECK_NS; do
    is_int "$n" || usage_die "'$n' is not a 64-bit integer (BENCH_NS, BENCH_ABLATION_NS, BENCH_CHECK_NS)"
done
[ -x "$tlc" ] || usage_die "$tlc: not an executable"
for p in $PROGRAMS; do
    [ -f "$root/examples/$p.tlc" ] || usage_die "no program examples/$p.tlc"
    for c in "$cdir/c_$p" "$cdir/c_clang_$p"; do
        [ -x "$c" ] || usage_die "$c: not an executable (build the project first)"
    done
done
peers=()
missing_peers=()
for peer in $PEERS; do
    case $peer in
    luajit | node | pypy3) ;;
    *) usage_die "unknown peer '$peer' (luajit, node, pypy3)" ;;
    esac
    if command -v "$peer" >/dev/null 2>&1; then
        peers+=("$peer")
    else
        missing_peers+=("$peer")
    fi
done
if [ ${#missing_peers[@]} -gt 0 ]; then
    echo "bench: not installed, skipped: ${missing_peers[*]} (scripts/install-deps.sh --bench)" >&2
fi
mkdir -p "$OUT" || die "cannot create $OUT"

work=$(mktemp -d "${TMPDIR:-/tmp}/jitgen-bench.XXXXXX") || die "cannot create a temporary folder"
trap 'rm -rf "$work"' EXIT
samples=$work/samples.tsv
checks=$work/checks.tsv
: >"$samples"
: >"$checks"

# Wall-clock time in microseconds in `now`, without starting a process when
# the shell has EPOCHREALTIME (bash 5).
clock_us() {
    if [ -n "${EPOCHREALTIME:-}" ]; then
        local t=$EPOCHREALTIME
        now=$((10#${t%.*} * 1000000 + 10#${t#*.}))
    else
        now=$(date +%s%6N)
    fi
}

# run CMD...: runs the command with stdout in $work/out and stderr in
# $work/err; sets `ms` to its wall-clock time (process start included, the
# same for every engine) and `result` to its last line of output. A failure
# ends the harness with the command's messages.
run() {
    local st=0 t0
    clock_us
    t0=$now
    "$@" >"$work/out" 2>"$work/err" || st=$?
    clock_us
    if ((st != 0)); then
        echo "bench: '$*' failed with exit status $st:" >&2
        head -c 2000 "$work/err" >&2
        exit 1
    fi
    local d=$((now - t0))
    printf -v ms '%d.%03d' $((d / 1000)) $((d % 1000))
    result=$(tail -n 1 "$work/out")
}

# sample PROGRAM N MEASURE MS RESULT [ALLOCATIONS RESIDUAL_OPS LLVM_INSTR CODE_BYTES]
sample() {
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" \
        "${6:-}" "${7:-}" "${8:-}" "${9:-}" >>"$samples"
}

# Reads the bench.* lines of the last `tlc bench` into B[name].
declare -A B
parse_bench() {
    B=()
    local line key
    while IFS= read -r line; do
        case $line in
        bench.*)
            key=${line%%:*}
            line=${line#*:}
            B[${key#bench.}]=${line# }
            ;;
        esac
    done <"$work/out"
    for key in result init_ms run1_ms runs_ms allocations; do
        [ -n "${B[$key]+set}" ] || die "tlc bench printed no bench.$key (docs/cli.md)"
    done
}

# need NAME...: the harness ends when the last `tlc bench` printed no
# bench.NAME (the driver's statistics were renamed?).
need() {
    local key
    for key in "$@"; do
        [ -n "${B[$key]+set}" ] || die "tlc bench printed no bench.$key (its statistics changed?)"
    done
}

add_ms() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a + b }'
}

# Sets `cmd` to the command of a whole-process measurement (without n).
command_of() {
    local what=$1 p=$2
    case $what in
    tlc_run) cmd=("$tlc" run "$root/examples/$p.tlc") ;;
    tlc_llvm) cmd=("$tlc" run --tier-up=0 "$root/examples/$p.tlc") ;;
    c_gcc) cmd=("$cdir/c_$p") ;;
    c_clang) cmd=("$cdir/c_clang_$p") ;;
    luajit) cmd=(luajit "$here/peers/$p.lua") ;;
    node) cmd=(node "$here/peers/$p.js") ;;
    pypy) cmd=(pypy3 "$here/peers/$p.py") ;;
    *) die "no command for '$what'" ;;
    esac
}

# The C baseline's result for (program, n): what every engine must print.
declare -A expected
expect() {
    local p=$1 n=$2
    if [ -z "${expected[$p/$n]:-}" ]; then
        run "$cdir/c_$p" "$n"
        [ -n "$result" ] || die "$cdir/c_$p $n printed nothing"
        expected[$p/$n]=$result
    fi
}

# Whether a peer computes this program with doubles (bench/peers/).
uses_doubles() {
    case $1/$2 in
    node/* | luajit/accumulator) return 0 ;;
    *) return 1 ;;
    esac
}

# Whether a printed number is beyond what doubles hold exactly.
beyond_doubles() {
    awk -v v="$1" 'BEGIN {
        l = tolower(v)
        if (l ~ /^[-+]?(inf|infinity|nan)$/) exit 0
        x = v + 0
        exit !(x >= 9007199254740992 || x <= -9007199254740992)
    }'
}

# check WHAT PROGRAM N GOT: GOT must be the C baseline's result; a peer
# with doubles may differ beyond 2^53 (recorded for RESULTS.md, once).
declare -A checked
check() {
    local what=$1 p=$2 n=$3 got=$4 want=${expected[$2/$3]}
    [ "$got" = "$want" ] && return 0
    if uses_doubles "$what" "$p" && beyond_doubles "$got"; then
        if [ -z "${checked[$what/$p/$n]:-}" ]; then
            checked[$what/$p/$n]=1
            printf '%s\t%s\t%s\t%s\t%s\n' "$what" "$p" "$n" "$got" "$want" >>"$checks"
        fi
        return 0
    fi
    die "$what printed '$got' for $p $n, the C baseline '$want'"
}

# The median of the samples of (program, n, measure), empty when none.
median_of() {
    awk -F'\t' -v p="$1" -v n="$2" -v m="$3" '
        $1 == p && $2 == n && $3 == m { v[++k] = $4 + 0 }
        END {
            if (!k) exit
            for (i = 2; i <= k; i++)
                for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
            printf "%.6f", k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
        }' "$samples"
}

# The interpreter's time budget: sets `predicted` (ms) to the time of one
# run of the interpreter on (program, n), scaled linearly from its median at
# the largest |n'| <= |n| measured; returns 1 when that exceeds the budget.
declare -A interp_measured
interp_fits() {
    local p=$1 n=$2 an=${2#-} best="" bn=0 key m
    predicted=""
    for key in "${!interp_measured[@]}"; do
        [ "${key%%/*}" = "$p" ] || continue
        m=${key#*/}
        m=${m#-}
        if ((m > 0 && m <= an && m > bn)); then
            bn=$m
            best=${interp_measured[$key]}
        fi
    done
    [ -n "$best" ] || return 0
    predicted=$(awk -v t="$best" -v a="$an" -v b="$bn" 'BEGIN { printf "%.3f", t * a / b }')
    awk -v t="$predicted" -v s="$INTERP_BUDGET" 'BEGIN { exit !(t <= s * 1000) }'
}

# measure_jit PROGRAM N FIRST LATER [OPTION...]: one `tlc bench` process; run 1
# (engine start included) is sampled as FIRST, runs 2.. as LATER. Leaves B set.
measure_jit() {
    local p=$1 n=$2 first=$3 later=$4 k runs
    shift 4
    run "$tlc" bench "$@" --repeat="$INPROC" "$root/examples/$p.tlc" "$n"
    parse_bench
    check "tlc bench${*:+ $*}" "$p" "$n" "${B[result]}"
    sample "$p" "$n" "$first" "$(add_ms "${B[init_ms]}" "${B[run1_ms]}")" "${B[result]}"
    IFS=, read -ra runs <<<"${B[runs_ms]}"
    for ((k = 1; k < ${#runs[@]}; k++)); do
        sample "$p" "$n" "$later" "${runs[k]}" "${B[result]}" "${B[allocations]}"
    done
}

# measure WHAT PROGRAM N: one measurement, appended to the samples.
measure() {
    local what=$1 p=$2 n=$3 file=$root/examples/$2.tlc
    case $what in
    interp)
        run "$tlc" bench --engine=interp --repeat=1 "$file" "$n"
        parse_bench
        check "tlc bench --engine=interp" "$p" "$n" "${B[result]}"
        sample "$p" "$n" interp "${B[run1_ms]}" "${B[result]}" "${B[allocations]}"
        ;;
    jit)
        # the default: tiered (the interpreter first, compiled once hot)
        measure_jit "$p" "$n" jit jit2
        ;;
    jit_eager)
        # every frame compiled from its start: what compiling costs, per layer
        measure_jit "$p" "$n" jit_eager jit_eager2 --jit-threshold=0
        need jit.frontend_ms pe.ms pe.residual_ops jit.llvm_ir_ms jit.llvm_instructions \
            jit.llvm_opt_ms jit.llvm_codegen_ms jit.code_bytes jit.compile_ms later_compile_ms
        local r=${B[result]}
        sample "$p" "$n" init "${B[init_ms]}" "$r"
        sample "$p" "$n" frontend "${B[jit.frontend_ms]}" "$r"
        sample "$p" "$n" pe "${B[pe.ms]}" "$r" "" "${B[pe.residual_ops]}"
        sample "$p" "$n" llvm_ir "${B[jit.llvm_ir_ms]}" "$r" "" "" "${B[jit.llvm_instructions]}"
        sample "$p" "$n" llvm_opt "${B[jit.llvm_opt_ms]}" "$r"
        sample "$p" "$n" llvm_codegen "${B[jit.llvm_codegen_ms]}" "$r" "" "" "" "${B[jit.code_bytes]}"
        sample "$p" "$n" compile "${B[jit.compile_ms]}" "$r"
        sample "$p" "$n" later_compile "${B[later_compile_ms]}" "$r"
        ;;
    *)
        command_of "$what" "$p"
        run "${cmd[@]}" "$n"
        check "$what" "$p" "$n" "$result"
        sample "$p" "$n" "$what" "$ms" "$result"
        ;;
    esac
}

peer_measures=()
for peer in "${peers[@]}"; do
    case $peer in
    pypy3) peer_measures+=(pypy) ;;
    *) peer_measures+=("$peer") ;;
    esac
done

# --- Results at small n: every engine against the C baseline (this also
# brings every program into the page cache before anything is timed).
echo "bench: checking every engine at n = $CHECK_NS" >&2
for p in $PROGRAMS; do
    for n in $CHECK_NS; do
        expect "$p" "$n"
        for what in interp jit jit_eager tlc_run tlc_llvm c_clang "${peer_measures[@]}"; do
            case $what in
            interp | jit | jit_eager)
                opts=(--engine="${what%_eager}")
                [ "$what" = jit_eager ] && opts+=(--jit-threshold=0)
                run "$tlc" bench "${opts[@]}" --repeat=2 "$root/examples/$p.tlc" "$n"
                parse_bench
                result=${B[result]}
                what="tlc bench ${opts[*]}"
                ;;
            *)
                command_of "$what" "$p"
                run "${cmd[@]}" "$n"
                ;;
            esac
            check "$what" "$p" "$n" "$result"
        done
    done
done

# Sets `shuffled` to the arguments in a random order (Fisher-Yates, from
# bash's RANDOM, seeded below so that a run is repeatable). A rotated order
# kept each engine behind the same neighbour in every repetition, and a
# process started right after one that compiled with LLVM runs about 0.3 ms
# slower (docs/benchmarks.md): the engine behind it paid that every time.
shuffle() {
    shuffled=("$@")
    local i j tmp
    for ((i = ${#shuffled[@]} - 1; i > 0; i--)); do
        j=$((RANDOM % (i + 1)))
        tmp=${shuffled[i]}
        shuffled[i]=${shuffled[j]}
        shuffled[j]=$tmp
    done
}
RANDOM=20261125

# --- The main table: every repetition runs each engine once, in a shuffled order.
for p in $PROGRAMS; do
    for n in $NS; do
        expect "$p" "$n"
        engines=()
        if interp_fits "$p" "$n"; then
            engines+=(interp)
        else
            echo "bench: $p n=$n: interpreter skipped (predicted ${predicted} ms > ${INTERP_BUDGET} s)" >&2
            sample "$p" "$n" interp_skipped "$predicted" "${expected[$p/$n]}"
        fi
        engines+=(jit jit_eager tlc_run tlc_llvm c_gcc c_clang "${peer_measures[@]}")
        for ((rep = 0; rep < REPEAT; rep++)); do
            echo "bench: $p n=$n repetition $((rep + 1))/$REPEAT" >&2
            shuffle "${engines[@]}"
            for what in "${shuffled[@]}"; do
                measure "$what" "$p" "$n"
            done
        done
        if [ "${engines[0]}" = interp ]; then
            interp_measured[$p/$n]=$(median_of "$p" "$n" interp)
        fi
    done
done

# --- Ablations: the layers one at a time (docs/benchmarks.md).
# Sets `opts` to the options of `tlc bench` for an ablation.
ablation_options() {
    case $1 in
    interp) opts=(--engine=interp --repeat=1) ;;
    novirt_o0) opts=(--jit-threshold=0 --no-virtuals --llvm-opt=O0 --repeat=2) ;;
    o0) opts=(--jit-threshold=0 --llvm-opt=O0 --repeat=2) ;;
    novirt) opts=(--jit-threshold=0 --no-virtuals --repeat=2) ;;
    full) opts=(--jit-threshold=0 --repeat=2) ;;
    esac
}
for p in $PROGRAMS; do
    for n in $ABL_NS; do
        expect "$p" "$n"
        ablations=()
        if interp_fits "$p" "$n"; then
            ablations+=(interp)
        else
            sample "$p" "$n" abl_interp_skipped "$predicted" "${expected[$p/$n]}"
        fi
        ablations+=(novirt_o0 o0 novirt full)
        for ((rep = 0; rep < REPEAT; rep++)); do
            echo "bench: ablations $p n=$n repetition $((rep + 1))/$REPEAT" >&2
            shuffle "${ablations[@]}"
            for a in "${shuffled[@]}"; do
                ablation_options "$a"
                run "$tlc" bench "${opts[@]}" "$root/examples/$p.tlc" "$n"
                parse_bench
                check "tlc bench ${opts[*]}" "$p" "$n" "${B[result]}"
                t=${B[run2_ms]:-${B[run1_ms]}}
                sample "$p" "$n" "abl_$a" "$t" "${B[result]}" "${B[allocations]}" \
                    "${B[pe.residual_ops]:-}" "${B[jit.llvm_instructions]:-}" "${B[jit.code_bytes]:-}"
            done
        done
    done
done

# --- Cold start: `tlc run examples/factorial.tlc 10` as a whole process, by
# default (tiered: the loop never gets hot, LLVM never starts) and compiling
# from the start, paired with the C baseline (the cost of starting any
# process here).
echo "bench: cold start, $COLD runs" >&2
expect factorial 10
for ((rep = 0; rep < COLD; rep++)); do
    run "$tlc" run "$root/examples/factorial.tlc" 10
    check "tlc run" factorial 10 "$result"
    sample factorial 10 cold_tlc "$ms" "$result"
    run "$tlc" run --jit-threshold=0 "$root/examples/factorial.tlc" 10
    check "tlc run --jit-threshold=0" factorial 10 "$result"
    sample factorial 10 cold_eager "$ms" "$result"
    run "$cdir/c_factorial" 10
    sample factorial 10 cold_c "$ms" "$result"
done

# --- The machine, the versions and the command, for RESULTS.md.
version() {
    if command -v "$1" >/dev/null 2>&1; then
        { "$@" 2>&1 || true; } | head -n "${VERSION_LINES:-1}" | tr '\n' ' ' | sed 's/ *$//'
    else
        echo "not installed"
    fi
}
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit (with uncommitted changes)"
fi
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null) || cpu=""
command="BENCH_NS=\"$NS\" BENCH_REPEAT=$REPEAT BENCH_INPROC=$INPROC"
command+=" BENCH_INTERP_BUDGET=$INTERP_BUDGET BENCH_ABLATION_NS=\"$ABL_NS\""
command+=" BENCH_COLD_REPEAT=$COLD"
[ "$PROGRAMS" = "factorial fibonacci accumulator" ] || command+=" BENCH_PROGRAMS=\"$PROGRAMS\""
[ "$PEERS" = "luajit node pypy3" ] || command+=" BENCH_PEERS=\"$PEERS\""
command+=" ${BENCH_COMMAND:-bench/run.sh $tlc $cdir}"
meta=$work/meta.tsv
{
    printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
    printf 'machine\t%s, %s, %s cores, Linux %s\n' "$(uname -m)" "${cpu:-unknown CPU}" \
        "$(nproc)" "$(uname -r)"
    printf 'commit\t%s\n' "$commit"
    printf 'gcc\t%s\n' "$(version gcc --version)"
    printf 'clang\t%s\n' "$(version clang-19 --version)"
    printf 'luajit\t%s\n' "$(version luajit -v)"
    printf 'node\t%s\n' "$(version node --version)"
    printf 'pypy3\t%s\n' "$(VERSION_LINES=2 version pypy3 --version)"
    printf 'command\t%s\n' "$command"
    printf 'ns\t%s\n' "$NS"
    printf 'programs\t%s\n' "$PROGRAMS"
    printf 'peers\t%s\n' "${peer_measures[*]}"
    printf 'missing_peers\t%s\n' "${missing_peers[*]}"
    printf 'repeat\t%s\n' "$REPEAT"
    printf 'inproc\t%s\n' "$INPROC"
    printf 'interp_budget\t%s\n' "$INTERP_BUDGET"
    printf 'ablation_ns\t%s\n' "$ABL_NS"
    printf 'cold\t%s\n' "$COLD"
    printf 'check_ns\t%s\n' "$CHECK_NS"
} >"$meta"

# --- The outputs: written aside, then moved into place together.
awk -f "$here/summarize.awk" "$samples" >"$work/results.csv"
plot=0
positive=0
for n in $NS; do
    if ((n > 0)); then
        positive=1
    fi
done
if ((!positive)); then
    echo "bench: no n > 0: no plot (its axes are logarithmic)" >&2
elif command -v "$GNUPLOT" >/dev/null 2>&1; then
    awk -v dir="$work" -f "$here/plotdata.awk" "$work/results.csv"
    "$GNUPLOT" -e "dir='$work'; out='$work/results.png'; programs='$PROGRAMS'" "$here/plot.gp" \
        2>"$work/gnuplot.err" || {
        cat "$work/gnuplot.err" >&2
        die "gnuplot failed"
    }
    plot=1
else
    echo "bench: $GNUPLOT is not installed: no plot (scripts/install-deps.sh --bench)" >&2
fi
for mode in results readme; do
    awk -v mode=$mode -v plot=$plot -f "$here/report.awk" "$meta" "$checks" "$work/results.csv" \
        >"$work/report_$mode.md"
done
if [ -n "$README" ]; then
    [ -f "$README" ] || die "$README: no such file"
    grep -q '^<!-- bench-table-start -->' "$README" && grep -q '^<!-- bench-table-end -->' "$README" ||
        die "$README: no <!-- bench-table-start --> / <!-- bench-table-end --> markers"
    awk -v table="$work/report_readme.md" '
        /^<!-- bench-table-start -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
        /^<!-- bench-table-end -->/ { skip = 0 }
        !skip { print }
    ' "$README" >"$work/README.md"
fi
mv "$work/results.csv" "$OUT/results.csv"
mv "$work/report_results.md" "$OUT/RESULTS.md"
# no plot this time: none from an earlier run either
rm -f "$OUT/results.png"
wrote="$OUT/RESULTS.md, $OUT/results.csv"
if [ -f "$work/results.png" ]; then
    mv "$work/results.png" "$OUT/results.png"
    wrote+=", $OUT/results.png"
fi
if [ -n "$README" ]; then
    cat "$work/README.md" >"$README"
    wrote+=", the table of $README"
fi
echo "bench: wrote $wrote" >&2
