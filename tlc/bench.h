/* `tlc bench`: times repeated runs of one program in one process (the first
 * run of the JIT compiles, later runs reuse the code) and prints
 * machine-readable `bench.NAME: VALUE` lines (docs/cli.md,
 * docs/benchmarks.md). */
#ifndef TLC_BENCH_H
#define TLC_BENCH_H

/* The `bench` command; argv holds the arguments after the command name.
 * Returns the exit status: 0, 1 (TLC run-time error, reported like `tlc
 * run`), 2 (bad command line), 65/66 (bad or unreadable file), 70. */
int tlc_bench_main(int argc, char **argv);

#endif
