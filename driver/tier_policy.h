/* When the jit engine's baseline code hands a hot loop to LLVM: the cost
 * rule of the tier-up (docs/baseline.md, "When LLVM takes over"). */
#ifndef JITGEN_DRIVER_TIER_POLICY_H
#define JITGEN_DRIVER_TIER_POLICY_H

#include <stdbool.h>
#include <stdint.h>

/* A loop whose baseline code, from its top to its back-edge, fits in this
 * many bytes (one line of the instruction cache) waits
 * TIER_UP_SMALL_LOOP_FACTOR times the tier-up delay. Fibonacci's loop
 * (unrolled: two trips per back-edge) is 42 bytes and factorial's 49; the
 * accumulator's, with its object checks, 321. */
#define TIER_UP_SMALL_LOOP_BYTES 64
#define TIER_UP_SMALL_LOOP_FACTOR 8

/* The baseline time (ms) after which LLVM compiles a loop whose baseline
 * code is `loop_bytes` long (0: unknown, as at a call), given the engine's
 * delay `delay_ms`. */
double jg_tier_up_delay(double delay_ms, uint32_t loop_bytes);

/* What compiling with LLVM is expected to cost, in milliseconds of
 * baseline run time to wait first (the rule of renting skis until their
 * price is spent: the run is at most about twice as long as with the best
 * choice made in advance): opening the backend library the first time,
 * and this much per operation of the residual graph (optimization and
 * code generation at O2; docs/baseline.md, "When LLVM takes over"). */
#define TIER_UP_OPEN_MS 20.0
#define TIER_UP_MS_PER_OP 0.2

/* The baseline time (ms) to wait before LLVM compiles a graph of `ops`
 * residual operations, given the cost rule's `delay_ms` and whether the
 * library is open already. */
double jg_tier_up_compile_wait(double delay_ms, uint64_t ops, bool open);

/* Method entries per millisecond of baseline code above which its hot
 * loop is taken to cross methods: such a loop (a send or a type test whose
 * cases grew as flexswitch cases) takes an entry every trip, a loop within
 * one method none, so the two rates are orders of magnitude apart. */
#define TIER_UP_MAX_ENTRIES_PER_MS 100

/* Whether baseline code that entered `entries` methods in `ms` milliseconds
 * runs its loop within a method, where LLVM's code gains. */
bool jg_tier_up_keeps_to_methods(uint64_t entries, double ms);

#endif
