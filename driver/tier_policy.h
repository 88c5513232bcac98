/* When the jit engine's baseline code hands a hot loop to LLVM: the cost
 * rule of the tier-up (docs/baseline.md, "When LLVM takes over"). */
#ifndef JITGEN_DRIVER_TIER_POLICY_H
#define JITGEN_DRIVER_TIER_POLICY_H

/* A loop whose back-edges come faster than this many cycles apart waits
 * TIER_UP_FAST_LOOP_FACTOR times the tier-up delay. Three, between
 * fibonacci's loop, unrolled (pe/unroll.c: two trips per back-edge), 2
 * cycles per back-edge in baseline code with the tier-up's count, and the
 * accumulator's and factorial's, 4. LLVM's code runs fibonacci's in 1, but
 * opening LLVM and compiling cost 15-22 ms, about the whole run at 10^8 in
 * baseline code (28 ms). */
#define TIER_UP_FAST_LOOP_CYCLES 3.0
#define TIER_UP_FAST_LOOP_FACTOR 8

/* The baseline time (ms) after which LLVM compiles a loop that takes
 * `ns_per_edge` per back-edge on a core of `ns_per_cycle`, given the
 * engine's delay `delay_ms`; either measure 0 (unknown): `delay_ms`. */
double jg_tier_up_delay(double delay_ms, double ns_per_edge, double ns_per_cycle);

/* The length of one cycle of this core, in ns, measured (a few
 * microseconds) on a chain of dependent additions; 0 where not measured. */
double jg_cycle_ns(void);

#endif
