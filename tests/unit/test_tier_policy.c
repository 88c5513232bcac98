/* The tier-up's cost rule (driver/tier_policy.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "driver/tier_policy.h"

/* A loop over a line of code, or one of unknown size (a call), keeps the
 * delay. */
static void test_large_or_unknown_keeps_delay(void **state)
{
    (void)state;
    assert_true(jg_tier_up_delay(10, TIER_UP_SMALL_LOOP_BYTES + 1) == 10);
    assert_true(jg_tier_up_delay(10, 321) == 10);
    assert_true(jg_tier_up_delay(10, 0) == 10);
}

/* A loop within a line waits TIER_UP_SMALL_LOOP_FACTOR times longer. */
static void test_small_loop_waits(void **state)
{
    (void)state;
    assert_true(jg_tier_up_delay(10, 42) == 10 * TIER_UP_SMALL_LOOP_FACTOR);
    assert_true(jg_tier_up_delay(10, TIER_UP_SMALL_LOOP_BYTES) == 10 * TIER_UP_SMALL_LOOP_FACTOR);
    assert_true(jg_tier_up_delay(1, 1) == TIER_UP_SMALL_LOOP_FACTOR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_large_or_unknown_keeps_delay),
        cmocka_unit_test(test_small_loop_waits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
