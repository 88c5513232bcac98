/* Fibonacci's unrolled loop (two trips per pass) in the forms baseline code
 * has had, written by hand, timed over 5 x 10^6 passes (bench/ANALYSIS.md,
 * "Loops that count nothing"). x86-64 only:
 *   gcc -O2 -o /tmp/loop_forms bench/micro/loop_forms.c && /tmp/loop_forms
 * Each form prints the fastest of 5 runs in ms; all compute the same value. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The pass: a' = a + b, b' = a + 2b, n -= 2, the first copy's test on the
 * way (n > 0), then the form's back-edge. */
#define PASS                                                                                       \
    "jmp 2f\n.p2align 6\n"                                                                         \
    "1: lea (%[b],%[a]),%[t]\n add $-2,%[n]\n test %[n],%[n]\n jle 3f\n"                           \
    " lea (%[a],%[b],2),%[b]\n mov %[t],%[a]\n"
#define OPERANDS [a] "+r"(a), [b] "+r"(b), [n] "+r"(n), [t] "=&r"(t), [u] "=&r"(u), [c] "+r"(count)

#define FORM(name, backedge)                                                                       \
    static long name(long n)                                                                       \
    {                                                                                              \
        long a = 0, b = 1, t, u, count = 1L << 40;                                                 \
        __asm__ volatile(PASS backedge "3:\n" : OPERANDS);                                         \
        (void)u;                                                                                   \
        (void)count;                                                                               \
        return a + b;                                                                              \
    }

/* `n - 1 > 0` computed, a count of back-edges with its branch (before 1987d63) */
FORM(counted, "sub $1,%[c]\n jle 3f\n 2: lea -1(%[n]),%[u]\n test %[u],%[u]\n jg 1b\n")
/* the same without the count (--engine=baseline) */
FORM(uncounted, "2: lea -1(%[n]),%[u]\n test %[u],%[u]\n jg 1b\n")
/* a patchable NOP instead of the count (1987d63) */
FORM(nop, ".byte 0x0f,0x1f,0x44,0,0\n 2: lea -1(%[n]),%[u]\n test %[u],%[u]\n jg 1b\n")
/* the test folded into `cmp n, 1`, with the count */
FORM(folded_counted, "sub $1,%[c]\n jle 3f\n 2: cmp $1,%[n]\n jg 1b\n")
/* folded, with the NOP (now) */
FORM(folded_nop, ".byte 0x0f,0x1f,0x44,0,0\n 2: cmp $1,%[n]\n jg 1b\n")

int main(void)
{
    static const struct {
        const char *name;
        long (*fn)(long);
    } forms[] = {{"counted", counted},
                 {"uncounted", uncounted},
                 {"nop", nop},
                 {"folded_counted", folded_counted},
                 {"folded_nop", folded_nop}};
    const long n = 10000000;
    double best[5] = {0};
    long value[5] = {0};
    for (int run = 0; run < 5; run++)
        for (int i = 0; i < 5; i++) {
            double t0 = now_ms();
            value[i] = forms[i].fn(n);
            double ms = now_ms() - t0;
            if (run == 0 || ms < best[i])
                best[i] = ms;
        }
    for (int i = 0; i < 5; i++)
        printf("%-15s %.3f ms (%ld)\n", forms[i].name, best[i], value[i] & 0xffff);
    return 0;
}
