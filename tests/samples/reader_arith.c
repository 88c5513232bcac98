/* Samples for the bitcode reader tests (tests/unit/test_reader.c): integer
 * arithmetic of every width, signed and unsigned compares, conversions.
 * Compiled twice: natively into test_reader and to bitcode, so that the
 * graphs read from the bitcode can be evaluated and compared with the native
 * functions. Arithmetic goes through unsigned types where C would overflow. */
#include "reader_samples.h"

/* One function per width: `op` selects the operation (a switch with many
 * arms joining in one phi). Shift counts are masked to the width. */
#define ARITH(T, UT, BITS, NAME)                                                                   \
    T NAME(T a, T b, int op)                                                                       \
    {                                                                                              \
        UT ua = (UT)a, ub = (UT)b;                                                                 \
        switch (op) {                                                                              \
        case 0:                                                                                    \
            return (T)(UT)(ua + ub);                                                               \
        case 1:                                                                                    \
            return (T)(UT)(ua - ub);                                                               \
        case 2:                                                                                    \
            return (T)(UT)(ua * ub);                                                               \
        case 3:                                                                                    \
            return b == 0 || b == -1 ? (T)(UT)(0 - ua) : (T)(a / b);                               \
        case 4:                                                                                    \
            return ub == 0 ? 0 : (T)(UT)(ua / ub);                                                 \
        case 5:                                                                                    \
            return b == 0 || b == -1 ? 0 : (T)(a % b);                                             \
        case 6:                                                                                    \
            return ub == 0 ? 0 : (T)(UT)(ua % ub);                                                 \
        case 7:                                                                                    \
            return (T)(a & b);                                                                     \
        case 8:                                                                                    \
            return (T)(a | b);                                                                     \
        case 9:                                                                                    \
            return (T)(a ^ b);                                                                     \
        case 10:                                                                                   \
            return (T)(UT)(ua << (ub & (BITS - 1)));                                               \
        case 11:                                                                                   \
            return (T)(UT)(ua >> (ub & (BITS - 1)));                                               \
        case 12:                                                                                   \
            return (T)(a >> (ub & (BITS - 1)));                                                    \
        default:                                                                                   \
            return (T)(UT)(~ua);                                                                   \
        }                                                                                          \
    }

ARITH(int8_t, uint8_t, 8, s_arith_i8)
ARITH(int16_t, uint16_t, 16, s_arith_i16)
ARITH(int32_t, uint32_t, 32, s_arith_i32)
ARITH(int64_t, uint64_t, 64, s_arith_i64)

/* Every comparison as one bit of the result: signed then unsigned. */
#define COMPARE(T, UT, NAME)                                                                       \
    int32_t NAME(T a, T b)                                                                         \
    {                                                                                              \
        UT ua = (UT)a, ub = (UT)b;                                                                 \
        return (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 |            \
               (a != b) << 5 | (ua < ub) << 6 | (ua <= ub) << 7 | (ua > ub) << 8 |                 \
               (ua >= ub) << 9;                                                                    \
    }

COMPARE(int8_t, uint8_t, s_compare_i8)
COMPARE(int16_t, uint16_t, s_compare_i16)
COMPARE(int32_t, uint32_t, s_compare_i32)
COMPARE(int64_t, uint64_t, s_compare_i64)

/* Conversions between widths: sign and zero extension, truncation. */
int64_t s_convert(int64_t x)
{
    int8_t b = (int8_t)x;
    uint8_t ub = (uint8_t)x;
    int16_t h = (int16_t)(x >> 3);
    uint16_t uh = (uint16_t)(x >> 5);
    int32_t w = (int32_t)(x >> 7);
    uint32_t uw = (uint32_t)(x >> 9);
    return (int64_t)b + (int64_t)ub * 3 + (int64_t)h * 5 + (int64_t)uh * 7 + (int64_t)w * 11 +
           (int64_t)uw * 13;
}

/* An i1 result and i1 logic. */
bool s_in_range(int64_t x, int64_t lo, int64_t hi)
{
    return (x >= lo && x < hi) != (x == 42);
}

/* llvm.smax / llvm.smin / llvm.umax / llvm.abs after instcombine. */
int64_t s_minmax(int64_t a, int64_t b, uint32_t c, uint32_t d)
{
    int64_t hi = a > b ? a : b;
    int64_t lo = a < b ? a : b;
    uint32_t uhi = c > d ? c : d;
    uint32_t ulo = c < d ? c : d;
    int64_t diff = (int64_t)((uint64_t)hi - (uint64_t)lo);
    int64_t s = (int32_t)(c - d);
    int64_t mag = s < 0 ? -s : s;
    return (int64_t)((uint64_t)diff * 7 + (uint64_t)uhi * 3 + ulo + (uint64_t)mag * 5);
}
