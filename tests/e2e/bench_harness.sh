#!/usr/bin/env bash
# Smoke test of the benchmark harness bench/run.sh (docs/benchmarks.md) with
# tiny settings and no peers: the CSV, RESULTS.md, the README's table between
# its markers, the plot (when gnuplot is installed) or the message saying it
# is skipped, the interpreter's time budget, a wrong result stopping the
# harness, and bad settings.
#
# usage: bench_harness.sh TLC_BINARY C_DIR OUT_DIR
#   C_DIR    the C baselines (build/bench); OUT_DIR is emptied and written
# Ends with "N passed, M failed"; exit status 0 iff every check passed.
set -u

if [ "$#" -ne 3 ]; then
    echo "usage: $0 TLC_BINARY C_DIR OUT_DIR" >&2
    exit 2
fi
tlc=$1
cdir=$2
out=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
harness=$root/bench/run.sh

rm -rf "$out"
mkdir -p "$out" || exit 2

source "$here/checks.sh"

# harness NAME EXPECTED_STATUS [VAR=VALUE...]: runs bench/run.sh with tiny
# settings (changed by the VAR=VALUE arguments), stderr in OUT/NAME.err.
harness() {
    local name=$1 want=$2 st
    shift 2
    mkdir -p "$out/$name"
    env BENCH_PEERS="" BENCH_NS="10 1000" BENCH_REPEAT=1 BENCH_INPROC=2 BENCH_COLD_REPEAT=1 \
        BENCH_CHECK_NS="20 -5" BENCH_ABLATION_NS=10 BENCH_OUT="$out/$name" BENCH_README="" \
        BENCH_COMMAND="bench_harness.sh" "$@" \
        timeout 300 bash "$harness" "$tlc" "$cdir" >"$out/$name.out" 2>"$out/$name.err"
    st=$?
    if [ "$st" = "$want" ]; then
        pass
        return 0
    fi
    fail "$name: bench/run.sh exited with $st, expected $want; stderr:"
    tail -n 5 "$out/$name.err"
    return 1
}

# csv PROGRAM N MEASURE COLUMN: a field of results.csv of run $run
csv() {
    awk -F, -v p="$1" -v n="$2" -v m="$3" -v c="$4" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == p && $2 == n && $3 == m { print $(col[c]); exit }' "$out/$run/results.csv"
}

# ---------------------------------------------- a whole run: every output --
run=all
cat >"$out/README.md" <<'EOF'
# A README
before
<!-- bench-table-start -->
placeholder
<!-- bench-table-end -->
after
EOF
if harness all 0 BENCH_README="$out/README.md"; then
    expect "results.csv header" [ "$(head -n 1 "$out/all/results.csv")" = \
        "program,n,measure,median_ms,min_ms,samples,result,allocations,residual_ops,llvm_instructions,code_bytes" ]
    for p in factorial fibonacci accumulator; do
        for n in 10 1000; do
            want=$("$cdir/c_$p" "$n")
            for m in interp jit jit2 jit_eager jit_eager2 tlc_run tlc_llvm c_gcc c_clang; do
                got=$(csv "$p" "$n" "$m" result)
                expect "$p $n $m: result '$got' is the C baseline's '$want'" [ "$got" = "$want" ]
                t=$(csv "$p" "$n" "$m" median_ms)
                expect "$p $n $m: a time ('$t')" awk -v t="$t" 'BEGIN { exit !(t ~ /^[0-9]+\.[0-9]+$/ && t > 0) }'
            done
            expect "$p $n: runs 2.. of the JIT compile nothing" \
                [ "$(csv "$p" "$n" later_compile median_ms)" = 0.000000 ]
            expect "$p $n: JIT 2 has its samples" [ "$(csv "$p" "$n" jit2 samples)" = 1 ]
            expect "$p $n: JIT 2, T=0 has its samples" [ "$(csv "$p" "$n" jit_eager2 samples)" = 1 ]
            for m in init frontend pe llvm_ir llvm_opt llvm_codegen compile; do
                expect "$p $n: compile time '$m' measured" [ -n "$(csv "$p" "$n" "$m" median_ms)" ]
            done
        done
        for a in interp novirt_o0 o0 novirt full; do
            expect "$p: ablation $a at n = 10" [ "$(csv "$p" 10 "abl_$a" result)" = "$("$cdir/c_$p" 10)" ]
        done
        expect "$p: virtual objects remove allocations" \
            [ "$(csv "$p" 10 abl_full allocations)" -lt "$(csv "$p" 10 abl_novirt allocations)" ]
    done
    expect "cold start measured" [ -n "$(csv factorial 10 cold_tlc median_ms)" ]
    expect "cold start compiling from the start measured" \
        [ -n "$(csv factorial 10 cold_eager median_ms)" ]
    expect "no MIXED result" [ "$(grep -c MIXED "$out/all/results.csv")" = 0 ]
    md=$out/all/RESULTS.md
    for h in "# Benchmark results" "## Targets" "### factorial" "### fibonacci" "### accumulator" \
        "## Compile time per layer" "## Whole processes: tlc against C and the peers" \
        "## Ablations: what each layer removes"; do
        expect "RESULTS.md: '$h'" grep -qx -- "$h" "$md"
    done
    expect "RESULTS.md: the command" grep -q '^- Command: `BENCH_NS="10 1000" .* bench_harness.sh`$' "$md"
    expect "RESULTS.md: table rows" grep -q '^| 10^3 | [0-9.]* | [0-9.]* | [0-9.e-]* | ' "$md"
    expect "RESULTS.md: no empty cell from awk" [ "$(grep -c '| |' "$md")" = 0 ] ||
        grep '| |' "$md" | head -n 3
    expect "RESULTS.md: every result agreed" grep -q "^is the C baseline's\.$" "$md"
    # the README: the table between the markers, the rest untouched
    expect "README: before and after kept" \
        [ "$(sed -n '1,3p;$p' "$out/README.md" | tr '\n' '|')" = \
        "# A README|before|<!-- bench-table-start -->|after|" ]
    expect "README: placeholder replaced" [ "$(grep -c placeholder "$out/README.md")" = 0 ]
    expect "README: 6 rows" [ "$(grep -c '^| \(factorial\|fibonacci\|accumulator\) | ' "$out/README.md")" = 6 ]
    expect "README: link to RESULTS.md" grep -q "bench/RESULTS.md" "$out/README.md"
    if command -v gnuplot >/dev/null 2>&1; then
        expect "results.png is a PNG" [ "$(head -c 4 "$out/all/results.png" | tail -c 3)" = PNG ]
    else
        expect "no gnuplot: the message" grep -q "no plot" "$out/all.err"
    fi
fi

# ----------- gnuplot missing, the interpreter's budget, a second README run --
run=budget
if harness budget 0 BENCH_PROGRAMS=factorial BENCH_NS="10 10000000" BENCH_INTERP_BUDGET=1 \
    BENCH_ABLATION_NS="10 10000000" BENCH_GNUPLOT=/nonexistent/gnuplot; then
    expect "no gnuplot: the message" grep -q "gnuplot is not installed: no plot" "$out/budget.err"
    expect "no gnuplot: no results.png" [ ! -e "$out/budget/results.png" ]
    expect "no gnuplot: no image in RESULTS.md" [ "$(grep -c results.png "$out/budget/RESULTS.md")" = 0 ]
    # 10^6 times the time at n = 10 is more than a second
    expect "interpreter skipped at 10^7" [ -n "$(csv factorial 10000000 interp_skipped median_ms)" ]
    expect "interpreter not run at 10^7" [ -z "$(csv factorial 10000000 interp median_ms)" ]
    expect "interpreter run at 10" [ -n "$(csv factorial 10 interp median_ms)" ]
    expect "RESULTS.md: skipped" grep -q '^| 10^7 | skipped | ' "$out/budget/RESULTS.md"
    expect "skip announced" grep -q "interpreter skipped" "$out/budget.err"
    expect "ablation without virtuals run at 10^7" \
        grep -q "| factorial | 10^7 | all but virtual objects .* | [0-9.]* | " "$out/budget/RESULTS.md"
    expect "ablation without virtuals: same code at 10 and 10^7" \
        [ "$(csv factorial 10 abl_novirt code_bytes)" = "$(csv factorial 10000000 abl_novirt code_bytes)" ]
    expect "JIT 2 at 10^7: the C result" \
        [ "$(csv factorial 10000000 jit2 result)" = "$("$cdir/c_factorial" 10000000)" ]
fi

# ---------------------------------------------- a wrong result stops it --
mkdir -p "$out/fakec"
for c in c_factorial c_clang_factorial; do
    printf '#!/bin/sh\necho 42\n' >"$out/fakec/$c"
    chmod +x "$out/fakec/$c"
done
cdir_real=$cdir
cdir=$out/fakec
if harness wrong 1 BENCH_PROGRAMS=factorial; then
    expect "wrong result: named" grep -q "printed '2432902008176640000' for factorial 20, the C baseline '42'" \
        "$out/wrong.err"
    expect "wrong result: no RESULTS.md" [ ! -e "$out/wrong/RESULTS.md" ]
fi
cdir=$cdir_real

# ---------------------------------------------- bad settings: status 2 --
bad() {
    local msg=$1
    shift
    harness bad 2 "$@" && expect "bad $*: '$msg'" grep -q -- "$msg" "$out/bad.err"
}
bad "BENCH_REPEAT must be a positive integer" BENCH_REPEAT=0
bad "BENCH_INPROC must be at least 2" BENCH_INPROC=1
bad "'1e3' is not a 64-bit integer" BENCH_NS="10 1e3"
bad "BENCH_NS is empty" BENCH_NS=" "
bad "unknown peer 'python'" BENCH_PEERS=python
bad "no program examples/nope.tlc" BENCH_PROGRAMS=nope
bad "BENCH_INTERP_BUDGET must be a positive integer" BENCH_INTERP_BUDGET=-1
bash "$harness" "$tlc" >/dev/null 2>&1
expect "missing C_DIR: status 2" [ $? = 2 ]

finish
