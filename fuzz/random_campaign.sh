#!/usr/bin/env bash
# The random differential campaign of `make fuzz` (docs/testing.md,
# "Fuzzing"): tlcgen programs under the seven engine settings of
# e2e_random_shapes (interp pe baseline jit@default jit@0~0 jit@10~0 jit),
# checked by tests/e2e/random_programs.sh, in rounds until the time budget
# is spent. A round takes BATCH seeds of the general generator (sizes 40 and
# 80 in turn, each program also run from its .tlcb) and BATCH of each shape
# (ring walk retype lateerr deep long mix). Programs of failing seeds are
# kept in KEEP_DIR.
#
# usage: random_campaign.sh TLC_BINARY TLCGEN_BINARY SECONDS KEEP_DIR
# Environment: FUZZ_RANDOM_FIRST (first seed; default from the clock, printed),
# FUZZ_RANDOM_BATCH (default 4).
# Ends with "N programs, M divergences"; exit status 0 iff M is 0.
set -u
if [ "$#" -ne 4 ]; then
    echo "usage: $0 TLC_BINARY TLCGEN_BINARY SECONDS KEEP_DIR" >&2
    exit 2
fi
tlc=$1 gen=$2 seconds=$3 keep=$4
here=$(cd "$(dirname "$0")" && pwd)
random=$here/../tests/e2e/random_programs.sh
first=${FUZZ_RANDOM_FIRST:-$(($(date +%s) % 100000 * 100))}
batch=${FUZZ_RANDOM_BATCH:-4}
engines=(interp pe baseline jit@default jit@0~0 jit@10~0 jit)
echo "random campaign: seeds from $first, ${seconds}s, engines ${engines[*]}"

programs=0
divergences=0
seed=$first
round=0
deadline=$((SECONDS + seconds))
log=$(mktemp "${TMPDIR:-/tmp}/fuzz-random.XXXXXX") || exit 2
trap 'rm -f "$log"' EXIT
# batch SHAPE SIZE TLCB: one call of random_programs.sh; adds up its counts
batch() {
    TLC_RANDOM_FIRST=$seed TLC_RANDOM_SHAPE=$1 TLC_RANDOM_SIZE=$2 TLC_RANDOM_TLCB=$3 \
        TLC_RANDOM_KEEP=$keep bash "$random" "$tlc" "$gen" "$batch" "${engines[@]}" >"$log" 2>&1
    grep -v -e '^runs ending' -e ' passed, ' "$log"
    local line p f
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "random_programs.sh gave no summary (seeds $seed.., shape ${1:-general})"
        divergences=$((divergences + batch))
        programs=$((programs + batch))
        return
    fi
    p=${line%% passed*}
    f=${line#*, }
    f=${f%% failed}
    programs=$((programs + p + f))
    divergences=$((divergences + f))
}
while [ "$SECONDS" -lt "$deadline" ]; do
    batch "" $((round % 2 ? 80 : 40)) 1
    for shape in ring walk retype lateerr deep long mix; do
        [ "$SECONDS" -lt "$deadline" ] || break
        batch "$shape" 40 0
    done
    seed=$((seed + batch))
    round=$((round + 1))
    echo "round $round: $programs programs, $divergences divergences, ${SECONDS}s"
done
echo "random campaign: seeds $first..$((seed - 1)) in ${SECONDS}s"
echo "$programs programs, $divergences divergences"
[ "$divergences" -eq 0 ]
