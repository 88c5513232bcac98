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

/* A loop that enters methods once a trip (10^4 and more a millisecond)
 * crosses methods; one that enters none, or a few (a rare exit), keeps to
 * its method; no time measured yet decides nothing against LLVM. */
static void test_methods_crossed(void **state)
{
    (void)state;
    assert_false(jg_tier_up_keeps_to_methods(200000, 10));
    assert_false(jg_tier_up_keeps_to_methods(TIER_UP_MAX_ENTRIES_PER_MS * 10 + 1, 10));
    assert_true(jg_tier_up_keeps_to_methods(TIER_UP_MAX_ENTRIES_PER_MS * 10, 10));
    assert_true(jg_tier_up_keeps_to_methods(0, 10));
    assert_true(jg_tier_up_keeps_to_methods(3, 0.5));
    assert_true(jg_tier_up_keeps_to_methods(1000, 0));
}

/* LLVM waits as long as it is expected to take: the library's opening the
 * first time, and a cost per residual operation; never less than the
 * delay the other rules chose. */
static void test_compile_wait(void **state)
{
    (void)state;
    assert_true(jg_tier_up_compile_wait(10, 0, true) == 10);
    assert_true(jg_tier_up_compile_wait(10, 0, false) == TIER_UP_OPEN_MS);
    assert_true(jg_tier_up_compile_wait(10, 1000, true) == 1000 * TIER_UP_MS_PER_OP);
    assert_true(jg_tier_up_compile_wait(10, 1000, false) ==
                TIER_UP_OPEN_MS + 1000 * TIER_UP_MS_PER_OP);
    assert_true(jg_tier_up_compile_wait(80, 10, false) == 80);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_large_or_unknown_keeps_delay),
        cmocka_unit_test(test_small_loop_waits),
        cmocka_unit_test(test_methods_crossed),
        cmocka_unit_test(test_compile_wait),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
