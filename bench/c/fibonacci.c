/* C baseline of examples/fibonacci.tlc: fib(n) (fib(0) = 0, fib(1) = 1) with
 * 64-bit wrapping arithmetic; 0 for n <= 0.
 * Usage: c_fibonacci N   (prints the result as a decimal int64). */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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
    /* Same loop as the TLC program: a, b = b, a + b; n = n - 1 while n > 0. */
    uint64_t a = 0, b = 1;
    for (int64_t i = n; i > 0; i--) {
        uint64_t s = a + b;
        a = b;
        b = s;
    }
    printf("%lld\n", (long long)(int64_t)a);
    return 0;
}
