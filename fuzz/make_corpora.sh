#!/usr/bin/env bash
# Writes the seed corpora of the fuzz targets (docs/testing.md, "Fuzzing"):
#   asm/       examples/*.tlc and tests/cases/*.tlc
#   bytecode/  the same assembled by `tlc asm` (those that assemble)
#   image/     the graph image of the build's interpreter
#   engines/   byte strings for fuzz_engines: every shape (and the general
#              generator) at two sizes and inputs, no choice bytes
# Files already there (inputs the fuzzer added) are kept.
#
# usage: make_corpora.sh SOURCE_DIR TLC_BINARY GRAPH_IMAGE OUT_DIR
set -euo pipefail
if [ "$#" -ne 4 ]; then
    echo "usage: $0 SOURCE_DIR TLC_BINARY GRAPH_IMAGE OUT_DIR" >&2
    exit 2
fi
src=$1 tlc=$2 image=$3 out=$4
mkdir -p "$out/asm" "$out/bytecode" "$out/image" "$out/engines"
for f in "$src"/examples/*.tlc "$src"/tests/cases/*.tlc; do
    name=$(basename "$(dirname "$f")")-$(basename "$f" .tlc)
    cp "$f" "$out/asm/$name.tlc"
    # the build's tlc has the sanitizers: leaks are not its concern here
    ASAN_OPTIONS=detect_leaks=0 "$tlc" asm "$f" -o "$out/bytecode/$name.tlcb" 2>/dev/null || true
done
cp "$image" "$out/image/tlc_interp.img"
# byte 0: the shape (0: general, 1..7: ring walk retype lateerr deep long
# mix), byte 1: the size - 1 (mod 100), byte 2: N (signed)
for shape in 0 1 2 3 4 5 6 7; do
    for size_n in "39 0" "79 253"; do
        read -r size n <<<"$size_n"
        printf "\\x$(printf %02x $shape)\\x$(printf %02x $size)\\x$(printf %02x $n)" \
            >"$out/engines/s$shape-$size-$n"
    done
done
