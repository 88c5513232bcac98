#!/usr/bin/env bash
# What the native interpreter hands over is compiled once (docs/architecture.md,
# "Tiered execution" and "Value arguments"): under the tiered default, a
# recursive method the interpreter calls first is specialized for the values
# compiled code passes, not once more for the interpreter's boxes (queens:
# solve and safe), and a loop whose sends make the process hot hands itself
# over with its callees inlined rather than each callee being compiled on its
# own (many_methods: 24 sends an iteration). Each run prints the
# interpreter's output and specializes no more residual graphs than
# `--engine=baseline`, which compiles every frame from its start.
# A loop handed over in the middle of nested loops (pythagoras, collatz)
# brings its boxed operands in the saved stack, read by their shapes
# (JgDriverOptions.host_array): no more promotions than from the start (the
# guard on the integers a hand-over assumes, pe.host_guesses, is not one).
# A handed-over loop LLVM takes over at a cold landing (error_loop's with its
# object held by another one, tests/cases/pe_cold_landing.tlc: a case and two
# landings in one loop, llvmgen/cold.c) goes on in the optimized method: the
# unoptimized copy the landing calls holds no loop of its own.
#
# usage: hand_over_entries.sh TLC_BINARY
set -uo pipefail

source "$(dirname "$0")/checks.sh"
cases=$(cd "$(dirname "$0")/../cases" && pwd)
general_setup "$@"

specializations() {
    sed -n 's/^pe.specializations: //p' err
}

for run in "queens 8" "many_methods 500" "poly_send 5000" "tak 12"; do
    read -r prog n <<<"$run"
    "$tlc" run --engine=interp "$suite/$prog.tlc" "$n" >want 2>/dev/null
    t "$prog $n --engine=baseline" 0 run --engine=baseline --stats "$suite/$prog.tlc" "$n" ||
        continue
    expect "$prog $n --engine=baseline: the interpreter's output" cmp -s out want
    eager=$(specializations)
    t "$prog $n (default)" 0 run --stats "$suite/$prog.tlc" "$n" || continue
    expect "$prog $n (default): the interpreter's output" cmp -s out want
    tiered=$(specializations)
    expect "$prog $n (default): $tiered residual graphs, at most $eager" \
        [ "${tiered:-99}" -le "${eager:-0}" ]
done
for run in "pythagoras 300" "collatz 3000"; do
    read -r prog n <<<"$run"
    "$tlc" run --engine=interp "$suite/$prog.tlc" "$n" >want 2>/dev/null
    t "$prog $n --engine=baseline" 0 run --engine=baseline --stats "$suite/$prog.tlc" "$n" ||
        continue
    eager=$(sed -n 's/^pe.promotions: //p' err)
    t "$prog $n (default)" 0 run --stats "$suite/$prog.tlc" "$n" || continue
    expect "$prog $n (default): the interpreter's output" cmp -s out want
    tiered=$(sed -n 's/^pe.promotions: //p' err)
    expect "$prog $n (default): $tiered flexswitches, at most $eager" \
        [ "${tiered:-99}" -le "${eager:-0}" ]
done
# An object the interpreter allocated before the loop, whose integer
# attributes the trips write on different paths, is read at the entry
# (JgDriverOptions.host_fields): the handed-over loop takes no flexswitch
# case and is no larger than from the frame's start.
fields="$cases/pe_host_fields.tlc"
"$tlc" run --engine=interp "$fields" 3000 >want 2>/dev/null
if t "pe_host_fields 3000 --engine=baseline" 0 run --engine=baseline --stats "$fields" 3000; then
    eager=$(sed -n 's/^pe.residual_ops: //p' err)
    if t "pe_host_fields 3000 (default)" 0 run --stats "$fields" 3000; then
        expect "pe_host_fields 3000 (default): the interpreter's output" cmp -s out want
        ncases=$(sed -n "s/^pe.flexswitch_cases: //p" err)
        ops=$(sed -n 's/^pe.residual_ops: //p' err)
        expect "pe_host_fields 3000 (default): no flexswitch case (${ncases:-none})" \
            [ "${ncases:-1}" -eq 0 ]
        expect "pe_host_fields 3000 (default): $ops residual operations, at most $eager" \
            [ "${ops:-999999}" -le "${eager:-0}" ]
    fi
fi
landing="$cases/pe_cold_landing.tlc"
"$tlc" run --engine=interp "$landing" 3000 >want 2>/dev/null
export JITGEN_TIER_UP_NOW=loops
t "pe_cold_landing 3000 in LLVM's code from its hand-over" 1 \
    run --jit-threshold=1000 --dump=llvm-opt "$landing" 3000
unset JITGEN_TIER_UP_NOW
expect "pe_cold_landing 3000 in LLVM's code: the interpreter's output" cmp -s out want
copies=$(grep -c '^define.*\.entries(' err)
loops=$(awk '/^define/ { copy = ($0 ~ /\.entries\(/) } copy && /llvm\.loop/ { n++ } END { print n + 0 }' err)
expect "pe_cold_landing 3000: a copy for cold landings ($copies), no loop in it ($loops)" \
    [ "$copies" -ge 1 -a "$loops" -eq 0 ]
finish
