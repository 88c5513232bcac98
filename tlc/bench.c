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

#include "engines.h"
#include "errors.h"
#include "interp.h"
#include "loader.h"
#include "run.h"
#include "values.h"

#define BENCH_DEFAULT_REPEAT 5
#define BENCH_MAX_REPEAT 1000000

static const char bench_usage[] =
    "usage: tlc bench [--engine=ENGINE] [--llvm-opt=OL] [--no-virtuals] [--repeat=R]\n"
    "                 FILE N\n"
    "\n"
    "Loads FILE (.tlcb, or .tlc assembled in memory) once, starts the engine once,\n"
    "then runs the program R times with the input N in this one process, timing\n"
    "each run. With the JIT, run 1 includes partial evaluation and LLVM; runs 2..R\n"
    "use the compiled code. The program's own output (PRINT, DUMP) is printed by\n"
    "every run; then `bench.NAME: VALUE` lines follow on stdout:\n"
    "  bench.file, bench.engine, bench.n, bench.repeat\n"
    "  bench.result       the result as `tlc run` prints it (empty: no result)\n"
    "  bench.init_ms      starting the engine (jit, pe, graphs: reading the bitcode,\n"
    "                     binding-time analysis, starting LLVM; interp: 0)\n"
    "  bench.run1_ms      run 1\n"
    "  bench.run2_ms      median of runs 2..R (only when R >= 2)\n"
    "  bench.runs_ms      every run, comma-separated\n"
    "  bench.allocations  objects allocated by the last run\n"
    "  bench.later_compile_ms  compile time spent in runs 2..R (jit, pe)\n"
    "  bench.jit.*, bench.pe.*, bench.run.*  the engine's statistics after run 1\n"
    "                     (names as `tlc run --stats`)\n"
    "A run-time error is reported as `tlc run` reports it (exit status 1). Runs that\n"
    "return different results are an internal failure (exit status 70).\n"
    "\n"
    "Options:\n"
    "  --engine=ENGINE  jit (default), interp, graphs or pe, as for `tlc run`\n"
    "  --llvm-opt=OL    auto (default), O0, O1, O2 or O3, as for `tlc run`\n"
    "  --no-virtuals    ablation: no allocation removal in the partial evaluator\n"
    "  --repeat=R       number of runs, 1 to 1000000 (default 5)\n";

typedef struct BenchEngine {
    const char *name;
    TlcEngineFn fn;
    bool uses_driver;
    JgEngine driver_engine;
} BenchEngine;

static const BenchEngine bench_engines[] = {
    {"jit", tlc_eval_driver, true, JG_ENGINE_JIT},
    {"interp", tlc_eval, false, JG_ENGINE_GRAPHS},
    {"graphs", tlc_eval_driver, true, JG_ENGINE_GRAPHS},
    {"pe", tlc_eval_driver, true, JG_ENGINE_PE},
};

/* What the timed runs record. The runs happen inside an engine function
 * (TlcEngineFn, which has no context argument) on tlc_execute's thread,
 * hence one static instance. */
typedef struct Bench {
    TlcEngineFn engine;
    bool with_driver;
    long repeat;
    long done;             /* runs completed */
    double *ms;            /* duration of each run */
    char **results;        /* printed form of each run's result ("" : none) */
    uint64_t allocations;  /* by the last run */
    char *stats_first;     /* the driver's statistics after run 1 */
    char *stats_last;      /* ... after the last run */
    bool out_of_memory;
} Bench;

static Bench bench;

static int bench_usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "tlc: bench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", bench_usage);
    return TLC_EXIT_USAGE;
}

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

/* The value of the statistic `name` in captured lines; 0 when absent. */
static double stat_value(const char *stats, const char *name)
{
    size_t n = strlen(name);
    for (const char *line = stats; line && *line;) {
        if (strncmp(line, name, n) == 0 && line[n] == ':')
            return strtod(line + n + 1, NULL);
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return 0;
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
        bench.done = k + 1;
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

/* The bench.* lines of a completed benchmark. Returns the exit status:
 * 0, or 70 when the runs disagree (an engine bug) or out of memory. */
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
        const char *name = strstr(bench.stats_first, "jit.compile_ms:") ? "jit.compile_ms"
                           : strstr(bench.stats_first, "pe.ms:")         ? "pe.ms"
                                                                         : NULL;
        if (name)
            printf("bench.later_compile_ms: %.3f\n",
                   stat_value(bench.stats_last, name) - stat_value(bench.stats_first, name));
        print_prefixed(bench.stats_first);
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "tlc: bench: cannot write the results: %s\n", strerror(errno));
        return TLC_EXIT_CANT_CREATE;
    }
    return TLC_EXIT_OK;
}

/* Loads the program, starts the engine, runs and reports. */
static int bench_program(const char *in, const BenchEngine *engine, JgDriverOptions *options,
                         int64_t n)
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
    bench.engine = engine->fn;
    bench.with_driver = engine->uses_driver;
    if (engine->uses_driver) {
        options->engine = engine->driver_engine;
        char err[512];
        double t0 = now_ms();
        if (!tlc_engines_init(options, err, sizeof err)) {
            fprintf(stderr, "tlc: the JIT could not start: %s\n", err);
            status = TLC_EXIT_INTERNAL;
            goto done;
        }
        init_ms = now_ms() - t0;
    }
    TlcObject *result;
    int run = tlc_execute(code, timed_runs, n, &result);
    fflush(stdout);
    if (run < 0) {
        fputs("tlc: cannot start the interpreter thread\n", stderr);
        status = TLC_EXIT_INTERNAL;
    } else if (bench.out_of_memory) {
        fputs("tlc: out of memory\n", stderr);
        status = TLC_EXIT_INTERNAL;
    } else if (run == 1) {
        char line[512];
        tlc_format_error(&tlc_last_error, in, line, sizeof line);
        fprintf(stderr, "%s\n", line);
        status = TLC_EXIT_RUNTIME_ERROR;
    } else {
        status = report(in, engine->name, n, init_ms);
    }
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

/* Parses a whole decimal integer; 0 on success. */
static int parse_ll(const char *s, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

int tlc_bench_main(int argc, char **argv)
{
    const char *in = NULL, *nstr = NULL;
    const BenchEngine *engine = &bench_engines[0];
    JgDriverOptions options = {0};
    bench = (Bench){.repeat = BENCH_DEFAULT_REPEAT};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(bench_usage, stdout);
            return TLC_EXIT_OK;
        } else if (strncmp(a, "--engine=", 9) == 0) {
            engine = NULL;
            for (size_t e = 0; e < sizeof bench_engines / sizeof bench_engines[0]; e++)
                if (strcmp(bench_engines[e].name, a + 9) == 0)
                    engine = &bench_engines[e];
            if (!engine)
                return bench_usage_error("unknown engine '%s'", a + 9);
        } else if (strcmp(a, "--no-virtuals") == 0) {
            options.no_virtuals = true;
        } else if (strncmp(a, "--llvm-opt=", 11) == 0) {
            const char *level = a + 11;
            bool adaptive = strcmp(level, "auto") == 0;
            if (!adaptive &&
                (level[0] != 'O' || level[1] < '0' || level[1] > '3' || level[2] != '\0'))
                return bench_usage_error("--llvm-opt takes auto, O0, O1, O2 or O3, not '%s'",
                                         level);
            options.llvm_opt = adaptive ? 2 : level[1] - '0';
            options.llvm_opt_set = !adaptive;
        } else if (strncmp(a, "--repeat=", 9) == 0) {
            long long r;
            if (parse_ll(a + 9, &r) != 0 || r < 1 || r > BENCH_MAX_REPEAT)
                return bench_usage_error("--repeat takes a number from 1 to 1000000, not '%s'",
                                         a + 9);
            bench.repeat = (long)r;
        } else if (a[0] == '-' && a[1] == '-') {
            return bench_usage_error("unknown option %s", a);
        } else if (!in) {
            in = a;
        } else if (!nstr) {
            nstr = a;
        } else {
            return bench_usage_error("unexpected argument %s", a);
        }
    }
    if (!in)
        return bench_usage_error("missing input file%s", "");
    if (!nstr)
        return bench_usage_error("missing input N%s", "");
    long long n;
    if (parse_ll(nstr, &n) != 0)
        return bench_usage_error("N must be a 64-bit decimal integer, not '%s'", nstr);
    return bench_program(in, engine, &options, (int64_t)n);
}
