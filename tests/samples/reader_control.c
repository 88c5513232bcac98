/* Samples for the bitcode reader tests: loops, a switch, recursion, a table
 * of function pointers (a private constant the reader copies), calls into
 * libc, string literals and constant tables. */
#include <string.h>

#include "reader_samples.h"

int64_t s_sum_to(int64_t n)
{
    uint64_t sum = 0;
    for (int64_t i = 1; i <= n; i++)
        sum += (uint64_t)(i * (i & 3));
    return (int64_t)sum;
}

/* A loop with two exits and a value carried around it. */
int64_t s_collatz(int64_t n)
{
    int64_t steps = 0;
    while (n > 1) {
        n = (n & 1) ? 3 * n + 1 : n / 2;
        if (++steps > 1000)
            return -1;
    }
    return steps;
}

/* Arms compute different things, so clang keeps a real switch (no lookup
 * table). */
int64_t s_switch(int64_t x)
{
    switch (x) {
    case -3:
        return x * 11;
    case 0:
        return 100;
    case 1:
        return x + 7;
    case 2:
        return x << 4;
    case 5:
        return x * x;
    case 9:
        return x - 1000;
    case 100000:
        return x / 3;
    default:
        return x ^ 0x5a;
    }
}

int64_t s_fib(int64_t n)
{
    return n < 2 ? n : s_fib(n - 1) + s_fib(n - 2);
}

int64_t s_op_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

int64_t s_op_sub(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}

int64_t s_op_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

/* Internal: no exported symbol, so the reader gives it a token address. */
__attribute__((noinline)) static int64_t s_op_max(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

typedef int64_t (*SampleBinop)(int64_t, int64_t);

static const SampleBinop s_ops[] = {s_op_add, s_op_sub, s_op_mul, s_op_max};

/* An indirect call through a constant table of function pointers. */
int64_t s_apply(int64_t op, int64_t a, int64_t b)
{
    return s_ops[(uint64_t)op % 4](a, b);
}

/* A call into libc. */
int64_t s_strlen_plus(const char *s, int64_t k)
{
    return (int64_t)strlen(s) + k;
}

/* String literals: private constants the reader copies. */
const char *s_greeting(int64_t i)
{
    return i == 0 ? "hello" : i == 1 ? "bitcode" : "reader";
}

static const int16_t s_primes[8] = {2, 3, 5, 7, 11, 13, 17, -19};

int64_t s_table(int64_t i)
{
    return s_primes[i & 7] * (i + 1);
}
