/* tlc bench (bench.h): the program is loaded once and the engine started
 * once; then all R runs happen inside one tlc_execute call (one thread with
 * the interpreter's large stack), each timed on its own, so that run 1 of
 * the JIT includes partial evaluation and LLVM and runs 2..R show the
 * cached code. */
#include "bench.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "engines.h"
#include "errors.h"
#include "interp.h"
#include "loader.h"
#include "run.h"
#include "values.h"

#define BENCH_DEFAULT_REPEAT 5
#define BENCH_MAX_REPEAT 1000000

static TlcUsage bench_usage = {
    "usage: tlc bench [RUN OPTIONS] [--repeat=R] FILE N\n"
    "\n"
    "Loads FILE (.tlcb, or .tlc assembled in memory) once, starts the engine once,\n"
    "then runs the program R times with the input N in this one process, timing\n"
    "each run. With the JIT, run 1 includes partial evaluation and LLVM; runs 2..R\n"
    "use the compiled code. The program's own output (PRINT, DUMP) is printed by\n"
    "every run; then `bench.NAME: VALUE` lines follow on stdout:\n"
    "  bench.file, bench.engine, bench.n, bench.repeat\n"
    "  bench.result       the result as `tlc run` prints it (empty: no result)\n"
    "  bench.init_ms      starting the driver (engines jit, pe, graphs, or with\n"
    "                     --dump/--dot: reading the bitcode, binding-time analysis,\n"
    "                     starting LLVM; otherwise 0)\n"
    "  bench.run1_ms      run 1\n"
    "  bench.run2_ms      median of runs 2..R (only when R >= 2)\n"
    "  bench.runs_ms      every run, comma-separated\n"
    "  bench.allocations  objects allocated by the last run\n"
    "  bench.later_compile_ms, bench.later_specializations  compile time and\n"
    "                     specializations of runs 2..R (engines jit, pe: 0 when\n"
    "                     the code of run 1 is reused)\n"
    "  bench.jit.*, bench.pe.*, bench.run.*  the driver's statistics after run 1\n"
    "                     (names as `tlc run --stats`)\n"
    "A run-time error is reported as `tlc run` reports it (exit status 1). Runs that\n"
    "return different results are an internal failure (exit status 70).\n"
    "\n"
    "Options: those of `tlc run`, for every run (--stats: after the last run, its\n"
    "run.allocations and run.ms and the driver's statistics of all runs), and\n"
    "  --repeat=R       number of runs, 1 to 1000000 (default 5)\n"
    "Run options:\n",
    tlc_run_options_help,
    NULL,
};

/* What the timed runs record. The runs happen inside an engine function
 * (TlcEngineFn, which has no context argument) on tlc_execute's thread,
 * hence one static instance. */
typedef struct Bench {
    TlcEngineFn engine;
    bool with_driver;
    long repeat;
    double *ms;           /* duration of each run */
    char **results;       /* printed form of each run's result ("": none) */
    uint64_t allocations; /* by the last run */
    char *stats_first;    /* the driver's statistics after run 1 */
    char *stats_last;     /* ... after the last run */
    bool out_of_memory;
} Bench;

static Bench bench;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The printed form of a run's result, as `tlc run` prints it; "" for no
 * result. Malloc'd (not GC memory), so that later runs may collect the
 * result objects. NULL when out of memory. */
static char *format_result(TlcObject *v)
{
    if (!v)
        return strdup("");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    tlc_write_value(f, v);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The driver's `name: value` statistics lines, captured as one string.
 * NULL when out of memory. */
static char *capture_stats(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    jg_driver_print_stats(tlc_engines_driver(), f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The value of the statistic `name` in captured lines; false when absent. */
static bool stat_value(const char *stats, const char *name, double *value)
{
    size_t n = strlen(name);
    for (const char *line = stats; line && *line;) {
        if (strncmp(line, name, n) == 0 && line[n] == ':') {
            *value = strtod(line + n + 1, NULL);
            return true;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return false;
}

/* The engine function tlc_execute calls: runs the real engine bench.repeat
 * times on the same input, timing each call and recording its result; the
 * statistics are captured outside the timed intervals. A TLC error unwinds
 * out of here (longjmp) and ends the runs. */
static TlcObject *timed_runs(const TlcCode *code, int64_t pc, TlcObject **args, int64_t nargs,
                             int64_t depth)
{
    TlcObject *result = NULL;
    for (long k = 0; k < bench.repeat; k++) {
        uint64_t allocs = tlc_allocations;
        double t0 = now_ms();
        result = bench.engine(code, pc, args, nargs, depth);
        double t1 = now_ms();
        bench.ms[k] = t1 - t0;
        bench.allocations = tlc_allocations - allocs;
        bench.results[k] = format_result(result);
        if (!bench.results[k]) {
            bench.out_of_memory = true;
            return NULL;
        }
        if (k == 0 && bench.with_driver && !(bench.stats_first = capture_stats())) {
            bench.out_of_memory = true;
            return NULL;
        }
    }
    if (bench.with_driver && !(bench.stats_last = capture_stats()))
        bench.out_of_memory = true;
    return result;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n-1] (n >= 1); sorts v. */
static double median(double *v, long n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Prints every captured statistics line with the prefix "bench.". */
static void print_prefixed(const char *stats)
{
    for (const char *line = stats; line && *line;) {
        size_t n = strcspn(line, "\n");
        printf("bench.%.*s\n", (int)n, line);
        line += n;
        if (*line == '\n')
            line++;
    }
}

/* bench.later_NAME: what the statistic `stat` grew by in runs 2..R, when
 * the driver reports it. */
static void print_later(const char *name, const char *stat, const char *format)
{
    double first, last;
    if (stat_value(bench.stats_first, stat, &first) && stat_value(bench.stats_last, stat, &last)) {
        printf("bench.later_%s: ", name);
        printf(format, last - first);
        putchar('\n');
    }
}

/* The bench.* lines of a completed benchmark. Returns the exit status:
 * 0, 70 when the runs disagree (an engine bug) or out of memory, 73 when
 * standard output cannot be written. */
static int report(const char *file, const char *engine, int64_t n, double init_ms)
{
    for (long k = 1; k < bench.repeat; k++)
        if (strcmp(bench.results[k], bench.results[0]) != 0) {
            fflush(stdout);
            fprintf(stderr, "tlc: bench: run %ld returned '%s', run 1 returned '%s'\n", k + 1,
                    bench.results[k], bench.results[0]);
            return TLC_EXIT_INTERNAL;
        }
    double *rest = NULL;
    if (bench.repeat > 1 && !(rest = malloc((size_t)(bench.repeat - 1) * sizeof *rest))) {
        fputs("tlc: out of memory\n", stderr);
        return TLC_EXIT_INTERNAL;
    }
    printf("bench.file: %s\n", file);
    printf("bench.engine: %s\n", engine);
    printf("bench.n: %" PRId64 "\n", n);
    printf("bench.repeat: %ld\n", bench.repeat);
    printf("bench.result:%s%s\n", bench.results[0][0] ? " " : "", bench.results[0]);
    printf("bench.init_ms: %.6f\n", init_ms);
    printf("bench.run1_ms: %.6f\n", bench.ms[0]);
    if (rest) {
        memcpy(rest, bench.ms + 1, (size_t)(bench.repeat - 1) * sizeof *rest);
        printf("bench.run2_ms: %.6f\n", median(rest, bench.repeat - 1));
        free(rest);
    }
    printf("bench.runs_ms: ");
    for (long k = 0; k < bench.repeat; k++)
        printf("%s%.6f", k ? "," : "", bench.ms[k]);
    printf("\n");
    printf("bench.allocations: %" PRIu64 "\n", bench.allocations);
    if (bench.with_driver) {
        /* all compile-time work: the JIT's total, or the partial evaluator's */
        if (strstr(bench.stats_first, "jit.compile_ms:"))
            print_later("compile_ms", "jit.compile_ms", "%.3f");
        else
            print_later("compile_ms", "pe.ms", "%.3f");
        print_later("specializations", "pe.specializations", "%.0f");
        print_prefixed(bench.stats_first);
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "tlc: bench: cannot write the results: %s\n", strerror(errno));
        return TLC_EXIT_CANT_CREATE;
    }
    return TLC_EXIT_OK;
}

/* --stats: the lines of `tlc run --stats` for the last run, then the
 * driver's statistics, which count all runs. */
static void print_stats(void)
{
    fprintf(stderr, "run.allocations: %" PRIu64 "\n", bench.allocations);
    fprintf(stderr, "run.ms: %.3f\n", bench.ms[bench.repeat - 1]);
    tlc_print_heap_stats(stderr);
    if (bench.with_driver)
        fputs(bench.stats_last, stderr);
}

/* Loads the program, starts the engine, runs and reports. */
static int bench_program(const char *in, TlcRunOptions *opts, int64_t n)
{
    TlcDiag diag;
    int status;
    TlcProgram *prog = tlc_load_file(in, &diag, &status);
    if (!prog) {
        fprintf(stderr, "tlc: %s\n", diag.message);
        return status;
    }
    TlcCode *code = tlc_code_new(prog);
    bench.ms = calloc((size_t)bench.repeat, sizeof *bench.ms);
    bench.results = calloc((size_t)bench.repeat, sizeof *bench.results);
    double init_ms = 0;
    if (!code || !bench.ms || !bench.results) {
        fputs("tlc: out of memory\n", stderr);
        status = TLC_EXIT_INTERNAL;
        goto done;
    }
    bench.with_driver = tlc_run_needs_driver(opts);
    double t0 = now_ms();
    if (!tlc_start_engine(opts)) {
        status = TLC_EXIT_INTERNAL;
        goto done;
    }
    bench.engine = opts->fn;
    init_ms = bench.with_driver ? now_ms() - t0 : 0;
    TlcObject *result;
    int run = tlc_execute(code, timed_runs, n, &result);
    fflush(stdout);
    if (run < 0) {
        fputs("tlc: cannot start the interpreter thread\n", stderr);
        status = TLC_EXIT_INTERNAL;
    } else if (run == 2) {
        /* the JIT may have been left anywhere (locks held): no statistics,
         * nothing freed */
        fprintf(stderr, "%s\n", tlc_internal_message);
        fflush(NULL);
        _exit(TLC_EXIT_INTERNAL);
    } else if (bench.out_of_memory) {
        fputs("tlc: out of memory\n", stderr);
        status = TLC_EXIT_INTERNAL;
    } else if (run == 1) {
        status = tlc_report_run_error(in);
    } else {
        status = report(in, opts->engine->name, n, init_ms);
    }
    /* the end-of-run dumps and Graphviz, after an error too (as `tlc run`) */
    if (bench.with_driver && run >= 0 && !bench.out_of_memory && tlc_engines_started())
        jg_driver_finish(tlc_engines_driver());
    if (opts->stats && status == TLC_EXIT_OK)
        print_stats();
done:
    tlc_engines_shutdown();
    for (long k = 0; bench.results && k < bench.repeat; k++)
        free(bench.results[k]);
    free(bench.results);
    free(bench.ms);
    free(bench.stats_first);
    free(bench.stats_last);
    tlc_code_free(code);
    tlc_program_free(prog);
    return status;
}

int tlc_bench_main(int argc, char **argv)
{
    const char *in = NULL, *nstr = NULL;
    TlcRunOptions opts;
    tlc_run_options_init(&opts);
    bench = (Bench){.repeat = BENCH_DEFAULT_REPEAT};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (tlc_is_help(a)) {
            tlc_print_usage(stdout, bench_usage);
            return TLC_EXIT_OK;
        }
        /* the options of `tlc run`, parsed by its own parser */
        switch (tlc_parse_run_option(&opts, argc, argv, &i, "bench", bench_usage)) {
        case TLC_OPTION_TAKEN:
            continue;
        case TLC_OPTION_BAD:
            return TLC_EXIT_USAGE;
        case TLC_OPTION_OTHER:
            break;
        }
        if (strncmp(a, "--repeat=", 9) == 0) {
            int64_t r;
            if (tlc_parse_int64(a + 9, &r) != 0 || r < 1 || r > BENCH_MAX_REPEAT)
                return tlc_usage_error(bench_usage,
                                       "bench: --repeat takes a number from 1 to 1000000, not '%s'",
                                       a + 9);
            bench.repeat = (long)r;
        } else if (a[0] == '-' && a[1] == '-') {
            return tlc_usage_error(bench_usage, "bench: unknown option %s", a);
        } else if (!in) {
            in = a;
        } else if (!nstr) {
            nstr = a;
        } else {
            return tlc_usage_error(bench_usage, "bench: unexpected argument %s", a);
        }
    }
    if (!in)
        return tlc_usage_error(bench_usage, "bench: missing input file%s", "");
    /* N is required: a benchmark states its input */
    if (!nstr)
        return tlc_usage_error(bench_usage, "bench: missing input N%s", "");
    int64_t n;
    if (tlc_parse_int64(nstr, &n) != 0)
        return tlc_usage_error(bench_usage, "bench: N must be a 64-bit decimal integer, not '%s'",
                               nstr);
    return bench_program(in, &opts, n);
}
