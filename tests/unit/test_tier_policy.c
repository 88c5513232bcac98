/* The tier-up's cost rule (driver/tier_policy.c): which delay a loop gets
 * from its time per back-edge, and the cycle measurement it compares with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "driver/tier_policy.h"

/* A loop slower than the fast-loop bound keeps the engine's delay. */
static void test_slow_loop_keeps_delay(void **state)
{
    (void)state;
    /* 0.27 ns cycles: factorial's unrolled loop, bound by its multiplies,
     * 1.1 ns (4 cycles) per back-edge; the accumulator's, the same */
    assert_true(jg_tier_up_delay(10, 1.1, 0.27) == 10);
    /* exactly at the bound: not fast */
    assert_true(jg_tier_up_delay(10, TIER_UP_FAST_LOOP_CYCLES * 0.25, 0.25) == 10);
    assert_true(jg_tier_up_delay(3, 100, 0.25) == 3);
}

/* A loop under the bound waits TIER_UP_FAST_LOOP_FACTOR times longer. */
static void test_fast_loop_waits(void **state)
{
    (void)state;
    /* fibonacci's loop: 0.34 ns per back-edge on 0.27 ns cycles; unrolled
     * (two trips per back-edge), 0.54 ns */
    assert_true(jg_tier_up_delay(10, 0.34, 0.27) == 10 * TIER_UP_FAST_LOOP_FACTOR);
    assert_true(jg_tier_up_delay(10, 0.54, 0.27) == 10 * TIER_UP_FAST_LOOP_FACTOR);
    assert_true(jg_tier_up_delay(1, 0.1, 0.25) == TIER_UP_FAST_LOOP_FACTOR);
}

/* Without a measurement (no interval yet, or no cycle) the rule keeps the
 * delay: it never waits on a guess. */
static void test_unknown_keeps_delay(void **state)
{
    (void)state;
    assert_true(jg_tier_up_delay(10, 0, 0.25) == 10);
    assert_true(jg_tier_up_delay(10, 0.1, 0) == 10);
    assert_true(jg_tier_up_delay(10, 0, 0) == 10);
}

/* The measured cycle is a cycle: on x86-64 between 0.1 ns (10 GHz) and
 * 100 ns, whatever the machine's load (the fastest of three chains);
 * elsewhere 0, which the rule treats as unknown. */
static void test_cycle_measured(void **state)
{
    (void)state;
    double ns = jg_cycle_ns();
#if defined(__x86_64__)
    assert_true(ns > 0.1);
    assert_true(ns < 100);
#else
    assert_true(ns == 0);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slow_loop_keeps_delay),
        cmocka_unit_test(test_fast_loop_waits),
        cmocka_unit_test(test_unknown_keeps_delay),
        cmocka_unit_test(test_cycle_measured),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
