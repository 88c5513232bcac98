#!/usr/bin/env bash
# Runs every libFuzzer target of a fuzz build (make fuzz-build) for SECONDS
# each on its corpus, FUZZ_BUILD/corpus/NAME (seeds from make_corpora.sh;
# the inputs libFuzzer finds are added there). An input that crashes a
# target, trips a sanitizer, times out, exhausts memory or makes the engines
# differ is saved as CRASH_DIR/NAME/crash-* (or timeout-*, oom-*, leak-*),
# and libFuzzer's log of each target as CRASH_DIR/NAME.log.
#
# usage: run_targets.sh FUZZ_BUILD SECONDS CRASH_DIR [NAME...]
#   NAME: bytecode asm image engines (default: all)
# libFuzzer first runs the whole corpus, which -max_total_time does not
# bound (fuzz_engines: about a second an input): a target still running a
# minute after its time is interrupted (SIGINT), which counts as nothing found.
# Environment: FUZZ_ARGS, more libFuzzer options for every target.
# Prints one line per target; exit status 0 iff no target found anything.
set -u
if [ "$#" -lt 3 ]; then
    echo "usage: $0 FUZZ_BUILD SECONDS CRASH_DIR [NAME...]" >&2
    exit 2
fi
build=$1 seconds=$2 crashes=$3
shift 3
names=("$@")
[ "${#names[@]}" -gt 0 ] || names=(bytecode asm image engines)
failed=0
for name in "${names[@]}"; do
    exe=$build/fuzz_$name
    corpus=$build/corpus/$name
    if [ ! -x "$exe" ] || [ ! -d "$corpus" ]; then
        echo "fuzz_$name: missing $exe or $corpus (make fuzz-build)" >&2
        exit 2
    fi
    mkdir -p "$crashes/$name"
    # engines: one input runs a program under five engine settings (about a
    # second); inputs up to 1 KB from the start (the generator's decisions)
    extra=()
    [ "$name" = engines ] && extra=(-max_len=1024 -len_control=0)
    # shellcheck disable=SC2086
    timeout --preserve-status -s INT $((seconds + 60)) "$exe" -max_total_time="$seconds" -timeout=120 -rss_limit_mb=6144 -print_final_stats=1 \
        -artifact_prefix="$crashes/$name/" "${extra[@]}" ${FUZZ_ARGS:-} "$corpus" \
        >"$crashes/$name.log" 2>&1
    st=$?
    # 72: libFuzzer interrupted (by the timeout above)
    note=""
    if [ "$st" = 72 ] && ! ls "$crashes/$name" | grep -q .; then
        st=0
        note=" (stopped while running its corpus)"
    fi
    runs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$crashes/$name.log" | grep -oE '[0-9]+$')
    cov=$(grep -oE 'cov: [0-9]+' "$crashes/$name.log" | tail -n 1)
    if [ "$st" = 0 ]; then
        echo "fuzz_$name: ${runs:-?} inputs in ${seconds}s$note, $cov, nothing found"
    else
        failed=$((failed + 1))
        echo "fuzz_$name: FOUND (status $st) after ${runs:-?} inputs: $(ls "$crashes/$name" | head -n 3 | tr '\n' ' ')"
        grep -m 3 -E 'ERROR|SUMMARY|runtime error|differ|fuzz_[a-z]+:' "$crashes/$name.log" | sed 's/^/    /'
    fi
done
[ "$failed" -eq 0 ]
