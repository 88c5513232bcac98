/* The cost rule of the tier-up (tier_policy.h). */
#include "tier_policy.h"

#include <stdint.h>
#include <time.h>

double jg_tier_up_delay(double delay_ms, double ns_per_edge, double ns_per_cycle)
{
    /* LLVM's code runs a simple loop at about one back-edge per cycle at
     * best (unrolled, values renamed instead of moved), so baseline code
     * already under TIER_UP_FAST_LOOP_CYCLES per back-edge can gain at most
     * that factor; compiling costs tens of milliseconds on the other core,
     * which on a core shared with a sibling thread also slows the loop
     * meanwhile. Such a loop waits longer: LLVM pays only for a long run */
    if (ns_per_edge > 0 && ns_per_cycle > 0 &&
        ns_per_edge < TIER_UP_FAST_LOOP_CYCLES * ns_per_cycle)
        return delay_ms * TIER_UP_FAST_LOOP_FACTOR;
    return delay_ms;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#if defined(__x86_64__)
#define CHAIN_ROUNDS 2000
#define ADDS_PER_ROUND 8
/* Eight dependent additions per round: one cycle each on every x86-64 core
 * (the loop's own counting runs beside them). */
static uint64_t add_chain(uint64_t x)
{
    for (uint64_t i = 0; i < CHAIN_ROUNDS; i++)
        __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                         : "+r"(x)
                         : "r"(i));
    return x;
}

static double measure_cycle_ns(void)
{
    double best = 0;
    uint64_t x = 1;
    for (int run = 0; run < 3; run++) { /* the fastest of three: the first may be cold */
        double t0 = now_ns();
        x = add_chain(x);
        double ns = (now_ns() - t0) / (CHAIN_ROUNDS * ADDS_PER_ROUND);
        if (ns > 0 && (best == 0 || ns < best))
            best = ns;
    }
    (void)x;
    return best;
}
#else
static double measure_cycle_ns(void)
{
    return 0; /* the baseline tier is x86-64 only */
}
#endif

double jg_cycle_ns(void)
{
    return measure_cycle_ns();
}
