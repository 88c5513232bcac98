#!/usr/bin/env bash
# The fuzz targets' smoke test (CTest fuzz_smoke): configures and builds a
# fuzz build in FUZZ_BUILD (clang-19, JITGEN_FUZZ=ON), then runs each target
# a few seconds from its seed corpus (fuzz_engines: from four seeds). Any
# crash, sanitizer report or difference between the engines fails it. New
# inputs go to a temporary directory: the seed corpora stay as made.
#
# usage: smoke.sh SOURCE_DIR FUZZ_BUILD [SECONDS]
# Exit status 77 (skipped) when clang-19 cannot build a libFuzzer target
# (clang-19 or libclang-rt-19-dev missing).
set -u
if [ "$#" -lt 2 ]; then
    echo "usage: $0 SOURCE_DIR FUZZ_BUILD [SECONDS]" >&2
    exit 2
fi
src=$1 build=$2 seconds=${3:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-smoke.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d[0] * 0 + (int)n * 0; }\n' \
    >"$work/probe.c"
if ! command -v clang-19 >/dev/null 2>&1 ||
    ! clang-19 -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" >/dev/null 2>&1; then
    echo "skipped: clang-19 with libFuzzer (libclang-rt-19-dev) is not installed"
    exit 77
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=clang-19 cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJITGEN_FUZZ=ON \
        >"$work/configure.log" 2>&1 || {
        cat "$work/configure.log"
        exit 1
    }
fi
cmake --build "$build" -j "${JOBS:-2}" >"$work/build.log" 2>&1 || {
    tail -n 40 "$work/build.log"
    exit 1
}

failed=0
for name in bytecode asm image engines; do
    seeds=$build/corpus/$name
    if [ "$name" = engines ]; then
        # one input is a program run under five engine settings
        seeds=$work/engine-seeds
        mkdir -p "$seeds"
        for s in s0-39-0 s1-39-0 s5-79-253 s7-79-253; do
            cp "$build/corpus/engines/$s" "$seeds/"
        done
    fi
    mkdir -p "$work/new-$name"
    "$build/fuzz_$name" -max_total_time="$seconds" -timeout=120 -print_final_stats=1 \
        -artifact_prefix="$work/" "$work/new-$name" "$seeds" >"$work/$name.log" 2>&1
    st=$?
    runs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$work/$name.log" | grep -oE '[0-9]+$')
    if [ "$st" = 0 ] && [ -n "$runs" ] && [ "$runs" -gt 0 ]; then
        echo "fuzz_$name: $runs inputs, nothing found"
    else
        failed=1
        echo "fuzz_$name: FAILED (status $st, ${runs:-no} inputs):"
        grep -v -E '^#[0-9]+' "$work/$name.log" | tail -n 30 | sed 's/^/    /'
    fi
done
exit "$failed"
