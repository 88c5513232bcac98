/* Signed division by a constant as a multiplication (baseline/divide_magic.c):
 * the rule's quotient against C's division, for divisors on the edges of
 * its range and random ones, on edge and random dividends. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "baseline/divide_magic.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* The rule's quotient of x by d is C's, on the dividends' edges and `n`
 * random ones of every magnitude. */
static void check_divisor(int64_t d, int n)
{
    BlMagic m;
    assert_true(bl_divide_magic(d, &m));
    assert_false(m.add && m.sub);
    assert_true(m.shift < 64);
    int64_t edges[] = {0,
                       1,
                       -1,
                       INT64_MAX,
                       INT64_MIN,
                       INT64_MIN + 1,
                       INT64_MAX - 1,
                       d,
                       -d,
                       (int64_t)((uint64_t)d - 1),
                       (int64_t)((uint64_t)d + 1),
                       2 * (d / 2)};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        if (bl_divide_by_magic(&m, edges[i]) != edges[i] / d)
            fail_msg("%lld / %lld", (long long)edges[i], (long long)d);
    for (int i = 0; i < n; i++) {
        int64_t x = (int64_t)next_random() >> (i % 64);
        if (bl_divide_by_magic(&m, x) != x / d)
            fail_msg("%lld / %lld", (long long)x, (long long)d);
    }
}

static void test_edges(void **state)
{
    (void)state;
    BlMagic m;
    for (int64_t d = -1; d <= 1; d++)
        assert_false(bl_divide_magic(d, &m));
    assert_false(bl_divide_magic(INT64_MIN, &m));
    static const int64_t divisors[] = {2,
                                       3,
                                       5,
                                       6,
                                       7,
                                       9,
                                       10,
                                       12,
                                       25,
                                       125,
                                       641,
                                       1000003,
                                       INT32_MAX,
                                       (int64_t)INT32_MAX + 2,
                                       INT64_MAX,
                                       INT64_MAX - 1,
                                       INT64_MIN + 1,
                                       INT64_MIN + 2,
                                       (int64_t)1 << 62,
                                       ((int64_t)1 << 62) + 1};
    for (size_t i = 0; i < sizeof divisors / sizeof divisors[0]; i++) {
        check_divisor(divisors[i], 100000);
        check_divisor(-divisors[i], 100000);
    }
}

/* Every small divisor, and every power of two and its neighbours. */
static void test_small_and_powers(void **state)
{
    (void)state;
    for (int64_t d = 2; d <= 1000; d++) {
        check_divisor(d, 2000);
        check_divisor(-d, 2000);
    }
    for (int k = 1; k < 63; k++)
        for (int64_t delta = -1; delta <= 1; delta++) {
            int64_t d = ((int64_t)1 << k) + delta;
            if (d >= 2) {
                check_divisor(d, 2000);
                check_divisor(-d, 2000);
            }
        }
}

static void test_random_divisors(void **state)
{
    (void)state;
    for (int i = 0; i < 2000; i++) {
        int64_t d = (int64_t)next_random() >> (i % 62);
        if (d < -1 || d > 1)
            check_divisor(d, 2000);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_small_and_powers),
        cmocka_unit_test(test_random_divisors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
