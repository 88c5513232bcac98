/* C baseline of examples/factorial.tlc: n! with 64-bit wrapping arithmetic.
 * Usage: c_factorial N   (prints the result as a decimal int64). */
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
    /* Same loop as the TLC program: acc = acc * n; n = n - 1 while n > 0. */
    uint64_t acc = 1;
    for (int64_t i = n; i > 0; i--)
        acc *= (uint64_t)i;
    printf("%lld\n", (long long)(int64_t)acc);
    return 0;
}
