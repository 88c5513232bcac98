/* Samples for the bitcode reader tests: structs and arrays through
 * pointers, struct copies (llvm.memcpy), clearing (llvm.memset), a local
 * array (alloca), float and double arithmetic and conversions. */
#include <string.h>

#include "reader_samples.h"

int64_t s_get_c(const SampleStruct *p)
{
    return p->c;
}

double s_struct_sum(const SampleStruct *p)
{
    return (double)p->a + (double)p->b + p->c + p->d + p->arr[0] + p->arr[3];
}

int64_t s_array_sum(const int32_t *a, int64_t n)
{
    int64_t sum = 0;
    for (int64_t i = 0; i < n; i++)
        sum += a[i];
    return sum;
}

/* A variable index scaled by the struct size, then a field and an element. */
double s_struct_array(const SampleStruct *ps, int64_t i, int64_t j)
{
    return ps[i].d + ps[i].arr[j & 3];
}

void s_copy_struct(SampleStruct *dst, const SampleStruct *src)
{
    *dst = *src;
}

void s_zero_struct(SampleStruct *p)
{
    memset(p, 0, sizeof *p);
}

/* The array stays in memory (variable indices): an alloca. */
int64_t s_local_array(int64_t n)
{
    int64_t buf[16];
    for (int64_t i = 0; i < 16; i++)
        buf[i] = i * i;
    int64_t sum = 0;
    for (int64_t i = 0; i < n && i < 16; i++)
        sum += buf[(i * 7) & 15];
    return sum;
}

double s_poly(double x, int32_t n)
{
    double r = 0.0;
    for (int32_t i = 0; i < n; i++)
        r = r * x + (double)i / 3.0;
    return r - x;
}

float s_float_mix(float f, int64_t i, double d)
{
    int32_t t = (int32_t)(f * 2.5f);
    uint32_t u = (uint32_t)(d > 0 && d < 4e9 ? d : 0.0);
    float g = (float)(d * (double)f) + (float)i + (float)u;
    return g / 3.0f + (float)t;
}

/* Ordered and unordered float compares (NaN makes the difference). */
int64_t s_float_compare(double a, double b)
{
    return (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 | (a != b) << 5 |
           !(a < b) << 6 | !(a >= b) << 7;
}
