/* Converting test values to and from the 64-bit slots the evaluator, the
 * backend and the reader's tests pass around (floats bit-cast, pointers as
 * addresses). Shared by the unit tests. */
#ifndef JITGEN_TEST_SLOT_BITS_H
#define JITGEN_TEST_SLOT_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint64_t f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static inline double bits_f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static inline uint64_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static inline float bits_f32(uint64_t b)
{
    uint32_t b32 = (uint32_t)b;
    float f;
    memcpy(&f, &b32, sizeof f);
    return f;
}

static inline uint64_t addr(const void *p)
{
    return (uint64_t)(uintptr_t)p;
}

#endif
