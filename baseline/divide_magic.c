/* The multiplier rule of signed division by a constant (divide_magic.h).
 * The multiplier is the smallest m = ceil(2^p / |d|) whose error stays
 * below one for every 64-bit dividend (Granlund and Montgomery, "Division
 * by invariant integers using multiplication", 1994; the search as in
 * Warren, "Hacker's Delight", 10-1): p grows from 64 until 2^p exceeds
 * nc * (|d| - 2^p mod |d|), nc being the largest dividend that leaves the
 * remainder |d| - 1. Unsigned arithmetic throughout: every intermediate
 * stays below 2^64. */
#include "divide_magic.h"

bool bl_divide_magic(int64_t d, BlMagic *magic)
{
    if (d == INT64_MIN || (d >= -1 && d <= 1))
        return false;
    const uint64_t two63 = UINT64_C(1) << 63;
    uint64_t ad = d < 0 ? 0 - (uint64_t)d : (uint64_t)d;
    uint64_t t = two63 + (d < 0);
    uint64_t anc = t - 1 - t % ad; /* |nc| */
    unsigned p = 63;
    uint64_t q1 = two63 / anc, r1 = two63 - q1 * anc; /* 2^p / |nc| */
    uint64_t q2 = two63 / ad, r2 = two63 - q2 * ad;   /* 2^p / |d| */
    uint64_t delta;
    do {
        p++;
        q1 *= 2;
        r1 *= 2;
        if (r1 >= anc) {
            q1++;
            r1 -= anc;
        }
        q2 *= 2;
        r2 *= 2;
        if (r2 >= ad) {
            q2++;
            r2 -= ad;
        }
        delta = ad - r2;
    } while (q1 < delta || (q1 == delta && r1 == 0));
    uint64_t m = q2 + 1;
    if (d < 0)
        m = 0 - m;
    magic->multiplier = (int64_t)m; /* two's complement: the same bits */
    magic->shift = p - 64;
    magic->add = d > 0 && magic->multiplier < 0;
    magic->sub = d < 0 && magic->multiplier > 0;
    return true;
}

int64_t bl_divide_by_magic(const BlMagic *magic, int64_t x)
{
    __int128 product = (__int128)magic->multiplier * x;
    uint64_t t = (uint64_t)(product >> 64);
    if (magic->add)
        t += (uint64_t)x;
    if (magic->sub)
        t -= (uint64_t)x;
    /* arithmetic shift of the bits, then the sign bit added */
    uint64_t sign = t >> 63;
    uint64_t shifted =
        magic->shift ? (t >> magic->shift) | (sign ? ~(UINT64_MAX >> magic->shift) : 0) : t;
    return (int64_t)(shifted + (shifted >> 63));
}
