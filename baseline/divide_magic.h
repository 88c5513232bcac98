/* Signed division by a constant as a multiplication: the multiplier rule,
 * stated once as a pure function that method.c applies and
 * tests/unit/test_divide_magic.c checks against C's division on the edges
 * and millions of random dividends (a proof with Z3 of the 128-bit product
 * did not finish in minutes). */
#ifndef JITGEN_BASELINE_DIVIDE_MAGIC_H
#define JITGEN_BASELINE_DIVIDE_MAGIC_H

#include <stdbool.h>
#include <stdint.h>

/* How to divide a signed 64-bit x by d, rounding towards zero, without a
 * division: t = the high 64 bits of the 128-bit product multiplier * x;
 * t += x when `add`, t -= x when `sub`; t >>= shift (arithmetically);
 * the quotient is t plus its sign bit (1 when t < 0). */
typedef struct BlMagic {
    int64_t multiplier;
    unsigned shift;
    bool add, sub;
} BlMagic;

/* The rule for divisor d; false for d in {-1, 0, 1} and INT64_MIN, which
 * it does not cover. */
bool bl_divide_magic(int64_t d, BlMagic *magic);

/* The quotient the rule gives for x (what the generated code computes). */
int64_t bl_divide_by_magic(const BlMagic *magic, int64_t x);

#endif
