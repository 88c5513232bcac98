/* The cost rule of the tier-up (tier_policy.h). */
#include "tier_policy.h"

double jg_tier_up_delay(double delay_ms, uint32_t loop_bytes)
{
    /* A loop that small is a handful of instructions per back-edge, which
     * baseline code already runs at a few cycles per iteration: LLVM's
     * code (unrolled, values renamed instead of moved) can gain a small
     * factor at most, while opening LLVM and compiling cost tens of
     * milliseconds of the other core, which, on a core shared with a
     * sibling thread, also slows the loop meanwhile. Such a loop waits
     * longer: LLVM pays only for a long run. (Loops do not count their
     * back-edges, so the rule looks at the code, not at a measured time.) */
    if (loop_bytes > 0 && loop_bytes <= TIER_UP_SMALL_LOOP_BYTES)
        return delay_ms * TIER_UP_SMALL_LOOP_FACTOR;
    return delay_ms;
}

bool jg_tier_up_keeps_to_methods(uint64_t entries, double ms)
{
    return ms <= 0 || (double)entries <= TIER_UP_MAX_ENTRIES_PER_MS * ms;
}

double jg_tier_up_compile_wait(double delay_ms, uint64_t ops, bool open)
{
    double cost = (open ? 0 : TIER_UP_OPEN_MS) + TIER_UP_MS_PER_OP * (double)ops;
    return cost > delay_ms ? cost : delay_ms;
}
