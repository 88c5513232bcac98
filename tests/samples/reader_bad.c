/* Samples the bitcode reader must reject with a message naming the function
 * and the source line (tests/unit/test_reader.c checks the LINE_* numbers
 * below: keep each construct on its marked line). Compiled to bitcode only;
 * the tests resolve their symbols to dummy addresses. */
#include <stdatomic.h>
#include <stdint.h>

typedef int32_t SampleVec __attribute__((vector_size(16)));

typedef struct SampleBig {
    int64_t x[8];
} SampleBig;

int64_t s_missing(int64_t x);

int64_t s_bad_i128(int64_t a, int64_t b)
{
    return (int64_t)(((__int128)a * b) >> 64); /* LINE_I128 18 */
}

void s_bad_vector(SampleVec *p)
{
    *p = *p + *p; /* LINE_VECTOR 23 */
}

int64_t s_bad_static_counter(void)
{
    static int64_t counter;
    return ++counter;
}

int64_t s_bad_unresolved(int64_t x)
{
    return s_missing(x) + 1;
}

int32_t s_bad_volatile(volatile int32_t *p)
{
    return *p + 1; /* LINE_VOLATILE 39 */
}

int32_t s_bad_atomic(_Atomic int32_t *p)
{
    return atomic_fetch_add(p, 1); /* LINE_ATOMIC 44 */
}

int64_t s_bad_byval(SampleBig big)
{
    return big.x[3];
}

double s_bad_intrinsic(double x)
{
    return __builtin_sqrt(x) + __builtin_fabs(x); /* LINE_INTRINSIC 54 */
}

int64_t s_bad_vla(int64_t n)
{
    int64_t buf[n & 63]; /* LINE_VLA 59 */
    for (int64_t i = 0; i < (n & 63); i++)
        buf[i] = i;
    return buf[n & 7];
}

long double s_bad_long_double(long double x)
{
    return x * 2;
}

int64_t s_good_add(int64_t a, int64_t b)
{
    return a + b;
}

/* Reaches a bad function only through a table of function pointers. */
static int64_t (*const s_bad_table[])(int64_t, int64_t) = {s_good_add, s_bad_i128};

int64_t s_bad_through_table(int64_t i)
{
    return s_bad_table[i & 1](i, i);
}
