#!/usr/bin/env bash
# Memory bounds (docs/cli.md): the heap's limit (--max-heap) and the JIT's
# memory budget (--max-jit-memory).
#  - a program allocating without bound ends with one line `FILE: pc P:
#    MemoryError in OP: ...` naming the allocating instruction, status 1,
#    its earlier output kept, and no warning of the collector, on every
#    engine given (tests/e2e/limits/grow_list.tlc, double_list.tlc);
#  - --stats reports run.heap_limit (the limit given, or half the physical
#    memory by default) and run.heap_bytes within it;
#  - bad sizes are refused with status 2 and the usual message;
#  - what a handed-over loop has dropped is collected (lcg_lists in 30 MB,
#    48 MB without the baseline tier);
#  - under a JIT budget too small for anything, and one half of what a run
#    uses, compiled engines print the interpreter's output, and --stats
#    shows jit.memory_budget and the refusals (jit.memory_refused).
#
# usage: memory_limits.sh TLC_BINARY ENGINE...
# Ends with "N passed, M failed"; exit status 0 iff all passed.
set -u

if [ "$#" -lt 2 ]; then
    echo "usage: $0 TLC_BINARY ENGINE..." >&2
    exit 2
fi
tlc=$1
shift
here=$(dirname "$0")
source "$here/engine_args.sh"
grow=$here/limits/grow_list.tlc
double=$here/limits/double_list.tlc

work=$(mktemp -d "${TMPDIR:-/tmp}/tlc-memory.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() {
    echo "FAIL: $*"
    failed=$((failed + 1))
}
stat() { sed -n "s/^$1: //p" "$work/err"; }

limit=$((8 << 20))
for engine in "$@"; do
    engine_args_for "$engine"
    for prog in "$grow:5:CONS" "$double:9:ADD"; do
        IFS=: read -r file pc op <<<"$prog"
        "$tlc" run "${engine_args[@]}" --max-heap=8M "$file" >"$work/out" 2>"$work/err"
        st=$?
        want="$file: pc $pc: MemoryError in $op: the heap is full (limit $limit bytes)"
        if [ "$st" = 1 ] && [ "$(cat "$work/out")" = 7 ] && [ "$(cat "$work/err")" = "$want" ]; then
            pass
        else
            fail "$engine: $(basename "$file"): status $st, stdout '$(head -c 100 "$work/out")'," \
                "stderr '$(head -c 300 "$work/err")'"
        fi
    done
done

# --stats: the limit, and a heap within it
engine_args_for "${1}"
"$tlc" run "${engine_args[@]}" --max-heap=8M --stats "$grow" >/dev/null 2>"$work/err"
if [ "$(stat run.heap_limit)" = "$limit" ] && [ "$(stat run.heap_bytes)" -le "$limit" ] &&
    [ "$(stat run.heap_bytes)" -gt 0 ]; then
    pass
else
    fail "stats: limit '$(stat run.heap_limit)', heap '$(stat run.heap_bytes)'"
fi
mem_kb=$(sed -n 's/^MemTotal: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
"$tlc" run --engine=interp --stats "$here/limits/call_depth.tlc" 3 >/dev/null 2>"$work/err"
if [ "$(stat run.heap_limit)" = $((mem_kb * 1024 / 2)) ]; then
    pass
else
    fail "default limit '$(stat run.heap_limit)', MemTotal $mem_kb kB"
fi
"$tlc" run --max-heap=2g --stats "$here/limits/call_depth.tlc" 3 >/dev/null 2>"$work/err"
[ "$(stat run.heap_limit)" = $((2 << 30)) ] && pass || fail "--max-heap=2g: '$(stat run.heap_limit)'"
# tlc bench takes the option too
"$tlc" bench --engine=interp --max-heap=1048576 --repeat=1 "$grow" 0 >"$work/out" 2>"$work/err"
st=$?
if [ "$st" = 1 ] && grep -q "^7$" "$work/out" && [ "$(wc -l <"$work/err")" = 1 ] &&
    grep -q "pc 5: MemoryError in CONS: the heap is full (limit 1048576 bytes)" "$work/err"; then
    pass
else
    fail "bench --max-heap: status $st, stderr '$(head -c 300 "$work/err")'"
fi

# bad sizes: status 2, the option named, nothing run
for bad in --max-heap= --max-heap=abc --max-heap=-8M --max-heap=8X --max-heap=8MB \
    --max-heap=1023K --max-heap=0 --max-heap=99999999999G --max-heap=18446744073709551616 \
    --max-jit-memory=0 --max-jit-memory=M --max-jit-memory=1.5G; do
    "$tlc" run "$bad" "$grow" >"$work/out" 2>"$work/err"
    st=$?
    name=${bad%%=*}
    if [ "$st" = 2 ] && [ ! -s "$work/out" ] &&
        [ "$(head -n 1 "$work/err")" = "tlc: run: $name takes a size of at least $(
            [ "$name" = --max-heap ] && echo 1M || echo 1) (bytes, or with a suffix K, M or G), not '${bad#*=}'" ]; then
        pass
    else
        fail "$bad: status $st, stderr '$(head -n 1 "$work/err")'"
    fi
done

# lists a handed-over loop has dropped are collected: the held-out lcg_lists
# (five rounds of 200,000-element lists, one round's lists live at a time)
# fits in a 30 MB heap under the tiered default, as it does from the frame's
# start (--engine=baseline needs 28 MB). It ended with MemoryError at 48 MB
# while the frames that baseline code outgrew (runtime.c, run_on) kept their
# stale slots on the C stack, and at 30 MB while a frame slot kept the
# pointer a method was entered with (method.c, clear_pointer_slots): the
# conservative collector found there the list heads of earlier rounds.
# Where there is no baseline tier (the tiered default is LLVM's code, whose
# stack slots keep more alive: bench/ANALYSIS.md) the bound is the old 48 MB.
lcg=$here/../../bench/unseen/lcg_lists.tlc
heap=48M
for engine in "$@"; do
    [ "$engine" = baseline ] && heap=30M
done
"$tlc" run --max-heap=$heap "$lcg" 200000 >"$work/out" 2>"$work/err"
st=$?
if [ "$st" = 0 ] && [ ! -s "$work/err" ] && [ "$(wc -l <"$work/out")" = 3 ]; then
    pass
else
    fail "lcg_lists in $heap: status $st, stderr '$(head -c 300 "$work/err")'"
fi

# the JIT's budget: the interpreter's output whatever the budget
prog=$here/../../examples/accumulator.tlc
"$tlc" run --engine=interp "$prog" 3000 >"$work/want" 2>&1
for engine in "$@"; do
    engine_args_for "$engine"
    [ "${engine_args[0]}" = --engine=interp ] && continue
    [ "${engine_args[0]}" = --engine=graphs ] && continue
    "$tlc" run "${engine_args[@]}" --stats "$prog" 3000 >"$work/out" 2>"$work/err"
    used=$(stat jit.memory_bytes)
    if ! cmp -s "$work/out" "$work/want" || [ "$(stat jit.memory_refused)" != 0 ] ||
        [ "$(stat jit.memory_budget)" != $((256 << 20)) ] || [ "${used:-0}" -le 0 ]; then
        fail "$engine: default budget: $(stat jit.memory_budget), used '$used'," \
            "refused '$(stat jit.memory_refused)'"
        continue
    fi
    # a budget nothing fits in, and one that the first compilations fill
    for budget in 1 $((used / 2)); do
        "$tlc" run "${engine_args[@]}" --stats --max-jit-memory="$budget" "$prog" 3000 \
            >"$work/out" 2>"$work/err"
        st=$?
        if [ "$st" = 0 ] && cmp -s "$work/out" "$work/want" &&
            [ "$(stat jit.memory_budget)" = "$budget" ] && [ "$(stat jit.memory_refused)" -ge 1 ] &&
            [ "$(stat jit.fallbacks)" -ge 1 ]; then
            pass
        else
            fail "$engine: budget $budget: status $st, output '$(head -c 100 "$work/out")'," \
                "refused '$(stat jit.memory_refused)', used '$(stat jit.memory_bytes)'"
        fi
    done
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
