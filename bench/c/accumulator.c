/* C baseline of examples/accumulator.tlc (Fig. 11 of the .NET JIT paper): an
 * object on the heap with a `value` field and an `accumulate` method called
 * through a function pointer stored in the object, chosen at run time from
 * the sign of n:
 *   n >= 0: add   (value += x), called with x = n, n-1, ..., 1;
 *   n < 0:  count (value += 1), called |n| times (|n| = 0 - n, wrapping).
 * All arithmetic wraps at 64 bits.
 * Usage: c_accumulator N   (prints the final value as a decimal int64). */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Accumulator Accumulator;
struct Accumulator {
    uint64_t value;
    void (*accumulate)(Accumulator *self, int64_t x);
};

static void add(Accumulator *self, int64_t x)
{
    self->value += (uint64_t)x;
}

static void count(Accumulator *self, int64_t x)
{
    (void)x;
    self->value += 1;
}

static int parse_n(int argc, char **argv, int64_t *n)
{
    *n = 0;
    if (argc < 2)
        return 0;
    char *end;
    errno = 0;
    long long v = strtoll(argv[1], &end, 10);
    if (argc > 2 || errno != 0 || end == argv[1] || *end != '\0') {
        fprintf(stderr, "usage: %s [N]\n", argv[0]);
        return -1;
    }
    *n = v;
    return 0;
}

int main(int argc, char **argv)
{
    int64_t n;
    if (parse_n(argc, argv, &n) != 0)
        return 2;
    Accumulator *obj = malloc(sizeof *obj);
    if (!obj) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    int64_t i;
    if (n >= 0) {
        obj->accumulate = add;
        i = n;
    } else {
        obj->accumulate = count;
        i = (int64_t)(0 - (uint64_t)n);
    }
    obj->value = 0;
    /* Same loop as the TLC program: obj.accumulate(i); i = i - 1 while i > 0. */
    for (; i > 0; i--)
        obj->accumulate(obj, i);
    printf("%lld\n", (long long)(int64_t)obj->value);
    free(obj);
    return 0;
}
