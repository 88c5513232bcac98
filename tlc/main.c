/* The tlc command: asm, dis, run (docs/cli.md). */
#include <errno.h>
#define GC_THREADS /* declares GC_set_markers_count */
#include <gc.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "asm.h"
#include "bench.h"
#include "bytecode.h"
#include "cli.h"
#include "dis.h"
#include "engines.h"
#include "errors.h"
#include "heap.h"
#include "loader.h"
#include "run.h"

static TlcUsage main_usage = {
    "usage: tlc COMMAND [OPTIONS] ...\n"
    "\n"
    "Commands:\n"
    "  asm FILE.tlc [-o OUT.tlcb]   assemble TLC assembly into a bytecode file\n"
    "  dis FILE                     list a .tlcb (or .tlc) program with its constant pool\n"
    "  run [OPTIONS] FILE [N]       run a .tlcb or .tlc program with input N (default 0)\n"
    "  bench [OPTIONS] FILE N       time repeated runs of a program in one process\n"
    "\n"
    "`tlc COMMAND --help` describes a command. Exit status: 0 success, 1 TLC run-time\n"
    "error, 2 bad command line, 65 invalid input file, 66 input file cannot be opened,\n"
    "73 output file cannot be written.\n",
    NULL,
};

static TlcUsage asm_usage = {
    "usage: tlc asm FILE.tlc [-o OUT.tlcb]\n"
    "\n"
    "Assembles FILE.tlc (syntax: docs/assembly.md) into a bytecode file (format:\n"
    "docs/bytecode-format.md). OUT defaults to FILE with the extension .tlcb. On an\n"
    "error the message names the file and line, and no output file is written.\n",
    NULL,
};

static TlcUsage dis_usage = {
    "usage: tlc dis FILE\n"
    "\n"
    "Prints a listing of FILE (.tlcb, or .tlc assembled in memory): the constant pool,\n"
    "then each instruction with its pc, bytes, operands and resolved targets.\n",
    NULL,
};

const char tlc_run_options_help[] =
    "  --engine=ENGINE  how to run:\n"
    "                     jit     partially evaluate, compile with LLVM (default)\n"
    "                     interp  the native interpreter\n"
    "                     graphs  evaluate the interpreter's flow graphs (translated\n"
    "                             from its bitcode at build time)\n"
    "                     pe      partially evaluate the interpreter for the program and\n"
    "                             evaluate the residual graphs\n"
    "                     baseline  partially evaluate, compile the residual graphs\n"
    "                             straight to x86-64 (no LLVM; simpler, slower code)\n"
    "  --dump=LIST      print to stderr (comma-separated): graphs (the interpreter's\n"
    "                   flow graphs), bta (the portal with binding times), residual\n"
    "                   (residual graphs, after the run)\n"
    "  --dump=LIST      also: llvm (IR before optimization), llvm-opt (after),\n"
    "                   asm (machine code of each method; the baseline tier's\n"
    "                   disassembled) - engines jit, baseline; fallbacks (each\n"
    "                   time the JIT falls back to a lower tier, and why)\n"
    "  --target=TRIPLE  target of --dump=asm (e.g. aarch64-linux-gnu); default: host\n"
    "  --llvm-opt=OL    LLVM optimization: auto (default: O2 for methods with loops,\n"
    "                   none and fast instruction selection for the others) or one\n"
    "                   level O0..O3 for every method - engine jit\n"
    "  --jit-threshold=T  tiered execution (engines jit, pe, graphs): the native\n"
    "                   interpreter runs the program first and hands a frame over\n"
    "                   to the engine once its loop has jumped back T times, and\n"
    "                   calls once the program has made T calls (a caller that\n"
    "                   loops: at its next back-edge); LLVM starts only then.\n"
    "                   0: every frame through the engine from its start.\n"
    "                   Default: 1000 for jit; 0 for pe and graphs, and with\n"
    "                   --dump or --dot\n"
    "  --tier-up=MS     engine jit, tiered: residual code first runs as baseline\n"
    "                   code (x86-64 generated directly, no LLVM); after MS\n"
    "                   milliseconds of it (8 x MS for a loop of at most 64\n"
    "                   bytes of code) LLVM compiles the hot graph on another\n"
    "                   thread and takes over when done (default 10); 0: LLVM\n"
    "                   from the start\n"
    "  --dot FILE       write the residual graphs as Graphviz (one cluster per method)\n"
    "  --no-virtuals    ablation: no allocation removal in the partial evaluator\n"
    "  --no-value-args  ablation: calls in compiled code pass and return integers boxed\n"
    "  --max-heap=SIZE  the heap's limit (bytes, or with a suffix K, M, G; at least\n"
    "                   1M): an allocation past it is a MemoryError. Default: half\n"
    "                   of the physical memory\n"
    "  --max-jit-memory=SIZE  the JIT's memory budget (residual graphs and their\n"
    "                   metadata, compiled code; at least 1): past it nothing new\n"
    "                   is compiled and the program runs on in the evaluator.\n"
    "                   Default 256M\n"
    "  --stats          after the run, print `name: value` statistics on stderr\n";

static TlcUsage run_usage = {
    "usage: tlc run [--engine=ENGINE] [--dump=LIST] [--llvm-opt=OL] [--target=TRIPLE]\n"
    "               [--jit-threshold=T] [--tier-up=MS] [--dot FILE] [--no-virtuals]\n"
    "               [--no-value-args] [--max-heap=SIZE] [--max-jit-memory=SIZE] [--stats]\n"
    "               FILE [N]\n"
    "\n"
    "Runs FILE (.tlcb, or .tlc assembled in memory) with the integer input N\n"
    "(default 0). Prints the program's output, then its result (if any) on its own\n"
    "line. A run-time error prints one line `FILE: pc P: KIND in OP: detail` on\n"
    "stderr and exits with status 1.\n"
    "\n"
    "Options:\n",
    tlc_run_options_help,
    NULL,
};

void tlc_print_usage(FILE *out, TlcUsage usage)
{
    for (size_t k = 0; usage[k]; k++)
        fputs(usage[k], out);
}

int tlc_usage_error(TlcUsage usage, const char *fmt, const char *arg)
{
    fprintf(stderr, "tlc: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    tlc_print_usage(stderr, usage);
    return TLC_EXIT_USAGE;
}

bool tlc_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

/* OUT defaults to the input name with ".tlc" replaced by (or ".tlcb"
 * appended). NULL when out of memory. */
static char *default_output_name(const char *in)
{
    size_t n = strlen(in);
    if (n >= 4 && strcmp(in + n - 4, ".tlc") == 0)
        n -= 4;
    char *out = malloc(n + 6);
    if (out) {
        memcpy(out, in, n);
        memcpy(out + n, ".tlcb", 6);
    }
    return out;
}

/* Writes the file through a temporary name and renames it, so a failed write
 * never leaves a partial output file behind. */
static int write_file_atomically(const char *path, const uint8_t *data, size_t len)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp)
        return -1;
    snprintf(tmp, n + 16, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    if (!ok)
        remove(tmp);
    free(tmp);
    return ok ? 0 : -1;
}

static int cmd_asm(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        if (tlc_is_help(argv[i])) {
            tlc_print_usage(stdout, asm_usage);
            return TLC_EXIT_OK;
        } else if (strcmp(argv[i], "-o") == 0) {
            if (i + 1 >= argc)
                return tlc_usage_error(asm_usage, "asm: -o needs a file name%s", "");
            out = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return tlc_usage_error(asm_usage, "asm: unknown option %s", argv[i]);
        } else if (!in) {
            in = argv[i];
        } else {
            return tlc_usage_error(asm_usage, "asm: unexpected argument %s", argv[i]);
        }
    }
    if (!in)
        return tlc_usage_error(asm_usage, "asm: missing input file%s", "");
    size_t len;
    char *src = tlc_read_file(in, &len);
    if (!src) {
        fprintf(stderr, "tlc: %s: cannot read: %s\n", in, strerror(errno));
        return TLC_EXIT_NO_INPUT;
    }
    TlcDiag diag;
    TlcProgram *prog = tlc_assemble(src, len, in, &diag);
    free(src);
    if (!prog) {
        fprintf(stderr, "tlc: %s\n", diag.message);
        return TLC_EXIT_BAD_INPUT;
    }
    size_t blen;
    uint8_t *bytes = tlc_bytecode_write(prog, &blen, &diag);
    tlc_program_free(prog);
    if (!bytes) {
        fprintf(stderr, "tlc: %s: %s\n", in, diag.message);
        return TLC_EXIT_BAD_INPUT;
    }
    char *owned = out ? NULL : default_output_name(in);
    const char *target = out ? out : owned;
    int status = TLC_EXIT_OK;
    if (!target || write_file_atomically(target, bytes, blen) != 0) {
        fprintf(stderr, "tlc: %s: cannot write: %s\n", target ? target : "output", strerror(errno));
        status = TLC_EXIT_CANT_CREATE;
    }
    free(owned);
    free(bytes);
    return status;
}

static int cmd_dis(int argc, char **argv)
{
    const char *in = NULL;
    for (int i = 0; i < argc; i++) {
        if (tlc_is_help(argv[i])) {
            tlc_print_usage(stdout, dis_usage);
            return TLC_EXIT_OK;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return tlc_usage_error(dis_usage, "dis: unknown option %s", argv[i]);
        } else if (!in) {
            in = argv[i];
        } else {
            return tlc_usage_error(dis_usage, "dis: unexpected argument %s", argv[i]);
        }
    }
    if (!in)
        return tlc_usage_error(dis_usage, "dis: missing input file%s", "");
    TlcDiag diag;
    int status;
    TlcProgram *prog = tlc_load_file(in, &diag, &status);
    if (!prog) {
        fprintf(stderr, "tlc: %s\n", diag.message);
        return status;
    }
    bool ok = tlc_disassemble(prog, stdout) && fflush(stdout) == 0;
    tlc_program_free(prog);
    if (!ok) {
        fprintf(stderr, "tlc: cannot write the listing: %s\n", strerror(errno));
        return TLC_EXIT_CANT_CREATE;
    }
    return TLC_EXIT_OK;
}

static const TlcEngine engines[] = {
    {"jit", tlc_eval_driver, true, JG_ENGINE_JIT},
    {"interp", tlc_eval, false, JG_ENGINE_GRAPHS},
    {"graphs", tlc_eval_driver, true, JG_ENGINE_GRAPHS},
    {"pe", tlc_eval_driver, true, JG_ENGINE_PE},
    {"baseline", tlc_eval_driver, true, JG_ENGINE_BASELINE},
};

static const struct {
    const char *name;
    unsigned bit;
} dump_names[] = {
    {"graphs", JG_DUMP_GRAPHS}, {"bta", JG_DUMP_BTA},           {"residual", JG_DUMP_RESIDUAL},
    {"llvm", JG_DUMP_LLVM},     {"llvm-opt", JG_DUMP_LLVM_OPT}, {"asm", JG_DUMP_ASM},
    {"fallbacks", JG_DUMP_FALLBACKS},
};

/* Parses a comma-separated list of dump names into JgDump bits; 0 on an
 * unknown name. */
static unsigned parse_dumps(const char *list)
{
    unsigned bits = 0;
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        unsigned bit = 0;
        for (size_t i = 0; i < sizeof dump_names / sizeof dump_names[0]; i++)
            if (strlen(dump_names[i].name) == n && strncmp(dump_names[i].name, p, n) == 0)
                bit = dump_names[i].bit;
        if (!bit)
            return 0;
        bits |= bit;
        p += n;
        if (*p == ',')
            p++;
    }
    return bits;
}

static const TlcEngine *find_engine(const char *name)
{
    for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
        if (strcmp(engines[i].name, name) == 0)
            return &engines[i];
    return NULL;
}

int tlc_parse_int64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

int tlc_parse_size(const char *s, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0)
        return -1;
    unsigned shift = 0;
    switch (*end) {
    case '\0':
        break;
    case 'k':
    case 'K':
        shift = 10;
        break;
    case 'm':
    case 'M':
        shift = 20;
        break;
    case 'g':
    case 'G':
        shift = 30;
        break;
    default:
        return -1;
    }
    if (shift && end[1] != '\0')
        return -1;
    if (v > (UINT64_C(1) << (63 - shift)))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

void tlc_print_heap_stats(FILE *out)
{
    fprintf(out, "run.heap_bytes: %" PRIu64 "\n", tlc_heap_size());
    fprintf(out, "run.heap_limit: %" PRIu64 "\n", tlc_heap_limit());
}

void tlc_run_options_init(TlcRunOptions *o)
{
    *o = (TlcRunOptions){.engine = &engines[0], .jit_threshold = -1, .driver.tier_up_ms = -1};
}

int64_t tlc_default_jit_threshold(const TlcRunOptions *o)
{
    bool shows_code = (o->driver.dumps & JG_DUMP_CODE) || o->driver.dot_file;
    return o->engine->driver_engine == JG_ENGINE_JIT && o->engine->uses_driver && !shows_code
               ? TLC_DEFAULT_JIT_THRESHOLD
               : 0;
}

bool tlc_run_needs_driver(const TlcRunOptions *o)
{
    return o->engine->uses_driver || (o->driver.dumps & JG_DUMP_CODE) || o->driver.dot_file;
}

bool tlc_start_engine(TlcRunOptions *o)
{
    tlc_heap_set_limit(o->max_heap ? o->max_heap : tlc_heap_default_limit());
    o->fn = o->engine->fn;
    if (!tlc_run_needs_driver(o))
        return true;
    o->driver.engine = o->engine->driver_engine;
    if (o->jit_threshold < 0)
        o->jit_threshold = tlc_default_jit_threshold(o);
    bool tiered = o->engine->uses_driver && o->jit_threshold > 0;
    int64_t threshold = o->jit_threshold;
    o->driver.tiered = tiered;
    char err[512];
    if (tlc_engines_init(&o->driver, err, sizeof err)) {
        if (tiered) {
            tlc_engines_tier(threshold);
            o->fn = tlc_eval;
        }
        return true;
    }
    fprintf(stderr, "tlc: the JIT could not start: %s\n", err);
    return false;
}

/* Prints `tlc: CMD: ` FMT and the usage; returns TLC_OPTION_BAD. */
static enum TlcOptionParse bad_option(TlcUsage usage, const char *cmd, const char *fmt,
                                      const char *arg)
{
    fprintf(stderr, "tlc: %s: ", cmd);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    tlc_print_usage(stderr, usage);
    return TLC_OPTION_BAD;
}

enum TlcOptionParse tlc_parse_run_option(TlcRunOptions *o, int argc, char **argv, int *i,
                                         const char *cmd, TlcUsage usage)
{
    const char *a = argv[*i];
    if (strncmp(a, "--engine=", 9) == 0) {
        const TlcEngine *e = find_engine(a + 9);
        if (!e)
            return bad_option(usage, cmd, "unknown engine '%s'", a + 9);
        /* a build for another processor than x86-64 has no baseline tier
           (CMakeLists.txt, JITGEN_BASELINE) */
        if (!JITGEN_HAVE_BASELINE && e->driver_engine == JG_ENGINE_BASELINE)
            return bad_option(usage, cmd,
                              "engine '%s': the baseline tier generates x86-64 code only, "
                              "and this build is not for x86-64",
                              e->name);
        o->engine = e;
    } else if (strcmp(a, "--stats") == 0) {
        o->stats = true;
    } else if (strncmp(a, "--dump=", 7) == 0) {
        unsigned bits = parse_dumps(a + 7);
        if (!bits)
            return bad_option(usage, cmd, "unknown dump in '%s'", a);
        o->driver.dumps |= bits;
    } else if (strcmp(a, "--no-virtuals") == 0) {
        o->driver.no_virtuals = true;
    } else if (strcmp(a, "--no-value-args") == 0) {
        o->driver.no_value_args = true;
    } else if (strncmp(a, "--llvm-opt=", 11) == 0) {
        const char *level = a + 11;
        bool adaptive = strcmp(level, "auto") == 0;
        if (!adaptive && (level[0] != 'O' || level[1] < '0' || level[1] > '3' || level[2] != '\0'))
            return bad_option(usage, cmd, "--llvm-opt takes auto, O0, O1, O2 or O3, not '%s'",
                              level);
        o->driver.llvm_opt = adaptive ? 2 : level[1] - '0';
        o->driver.llvm_opt_set = !adaptive;
    } else if (strncmp(a, "--jit-threshold=", 16) == 0) {
        int64_t t;
        if (tlc_parse_int64(a + 16, &t) != 0 || t < 0)
            return bad_option(usage, cmd, "--jit-threshold takes a count >= 0, not '%s'", a + 16);
        o->jit_threshold = t;
    } else if (strncmp(a, "--tier-up=", 10) == 0) {
        int64_t t;
        if (tlc_parse_int64(a + 10, &t) != 0 || t < 0)
            return bad_option(usage, cmd, "--tier-up takes milliseconds >= 0, not '%s'", a + 10);
        o->driver.tier_up_ms = t;
    } else if (strncmp(a, "--max-heap=", 11) == 0) {
        uint64_t size;
        if (tlc_parse_size(a + 11, &size) != 0 || size < TLC_HEAP_MIN_LIMIT)
            return bad_option(usage, cmd,
                              "--max-heap takes a size of at least 1M (bytes, or with a "
                              "suffix K, M or G), not '%s'",
                              a + 11);
        o->max_heap = size;
    } else if (strncmp(a, "--max-jit-memory=", 17) == 0) {
        uint64_t size;
        if (tlc_parse_size(a + 17, &size) != 0 || size == 0)
            return bad_option(usage, cmd,
                              "--max-jit-memory takes a size of at least 1 (bytes, or with a "
                              "suffix K, M or G), not '%s'",
                              a + 17);
        o->driver.max_jit_memory = size;
    } else if (strncmp(a, "--target=", 9) == 0) {
        o->driver.target = a + 9;
    } else if (strncmp(a, "--dot=", 6) == 0) {
        o->driver.dot_file = a + 6;
    } else if (strcmp(a, "--dot") == 0) {
        if (*i + 1 >= argc)
            return bad_option(usage, cmd, "--dot needs a file name%s", "");
        o->driver.dot_file = argv[++*i];
    } else {
        return TLC_OPTION_OTHER;
    }
    return TLC_OPTION_TAKEN;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmd_run(int argc, char **argv)
{
    const char *in = NULL, *nstr = NULL;
    TlcRunOptions opts;
    tlc_run_options_init(&opts);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (tlc_is_help(a)) {
            tlc_print_usage(stdout, run_usage);
            return TLC_EXIT_OK;
        }
        switch (tlc_parse_run_option(&opts, argc, argv, &i, "run", run_usage)) {
        case TLC_OPTION_TAKEN:
            continue;
        case TLC_OPTION_BAD:
            return TLC_EXIT_USAGE;
        case TLC_OPTION_OTHER:
            break;
        }
        if (a[0] == '-' && a[1] == '-')
            return tlc_usage_error(run_usage, "run: unknown option %s", a);
        else if (!in)
            in = a;
        else if (!nstr)
            nstr = a;
        else
            return tlc_usage_error(run_usage, "run: unexpected argument %s", a);
    }
    if (!in)
        return tlc_usage_error(run_usage, "run: missing input file%s", "");
    int64_t n = 0;
    if (nstr && tlc_parse_int64(nstr, &n) != 0)
        return tlc_usage_error(run_usage, "run: N must be a 64-bit decimal integer, not '%s'",
                               nstr);
    TlcDiag diag;
    int status;
    TlcProgram *prog = tlc_load_file(in, &diag, &status);
    if (!prog) {
        fprintf(stderr, "tlc: %s\n", diag.message);
        return status;
    }
    TlcCode *code = tlc_code_new(prog);
    if (!code) {
        tlc_program_free(prog);
        fputs("tlc: out of memory\n", stderr);
        return TLC_EXIT_INTERNAL;
    }
    bool with_driver = tlc_run_needs_driver(&opts);
    if (!tlc_start_engine(&opts)) {
        tlc_code_free(code);
        tlc_program_free(prog);
        return TLC_EXIT_INTERNAL;
    }
    uint64_t allocs_before = tlc_allocations;
    double t0 = now_ms();
    status = tlc_run_program(code, opts.fn, n, in);
    double t1 = now_ms();
    if (tlc_internal_failure) {
        /* the JIT may have been left anywhere (locks held): neither
         * statistics nor freeing; the message is printed */
        fflush(NULL);
        _exit(status);
    }
    if (with_driver && tlc_engines_started())
        jg_driver_finish(tlc_engines_driver());
    if (opts.stats) {
        fprintf(stderr, "run.allocations: %" PRIu64 "\n", tlc_allocations - allocs_before);
        fprintf(stderr, "run.ms: %.3f\n", t1 - t0);
        tlc_print_heap_stats(stderr);
        if (with_driver)
            jg_driver_print_stats(tlc_engines_driver(), stderr);
    }
    if (with_driver && tlc_engines_started() && !jg_driver_idle(tlc_engines_driver())) {
        /* LLVM is still starting for code that no longer runs: its thread
         * would hold the exit (and the dynamic loader's lock) until done */
        fflush(NULL);
        _exit(status);
    }
#if !defined(__SANITIZE_ADDRESS__)
    /* the process ends here: tearing the JIT's memory down piece by piece
     * (arenas, residual graphs, code) costs about 0.1 ms after a hand-over
     * and gives nothing back to anyone. Sanitizer builds free everything,
     * so that leak checking sees what would leak in a longer-lived host */
    if (tlc_engines_started()) {
        fflush(NULL);
        _exit(status);
    }
#endif
    tlc_engines_shutdown();
    tlc_code_free(code);
    tlc_program_free(prog);
    return status;
}

extern void *__libc_stack_end; /* glibc: the stack pointer at process entry */

/* Starts the collector as cheaply as a short run needs (docs/architecture.md,
 * "Process start"). */
static void start_collector(void)
{
    /* one marker thread: starting the collector's parallel markers costs
       about 0.4 ms at every start, and TLC heaps are small */
    GC_set_markers_count(1);
    /* no collection at start-up: the heap is empty then, and marking it
       still costs about 0.07 ms and the pages the marker touches */
    GC_set_dont_precollect(1);
    /* where the main thread's stack ends: left unset, the collector asks
       pthread_getattr_np, which reads and parses /proc/self/maps (~30 us);
       the stack pointer glibc saw at entry lies above every frame of main */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    GC_stackbottom = __libc_stack_end;
#pragma GCC diagnostic pop
    GC_INIT();
    /* room for the first megabyte of objects: the collector starts with a
       heap of a few pages, and the 1000 iterations a loop runs before it
       is handed over (about 90 KB of integers) cost a collection and heap
       growth, 0.37 M of fibonacci's 5.3 M instructions up to the hand-over.
       The address space is reserved, not touched. */
    GC_expand_hp(1 << 20);
    /* collect after allocating as much as the live data (Lua 5.4's default
       pause of 200 %), not two thirds of it (the collector's default
       divisor 3): a program that keeps a large structure alive, such as a
       tree or a linked sieve, marks it half as often. Left to the
       collector's GC_FREE_SPACE_DIVISOR when that is set. */
    if (!getenv("GC_FREE_SPACE_DIVISOR"))
        GC_set_free_space_divisor(2);
}

int main(int argc, char **argv)
{
    start_collector();
    jg_set_fatal_handler(tlc_jit_fatal, NULL);
    if (argc < 2) {
        tlc_print_usage(stderr, main_usage);
        return TLC_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    int status;
    if (tlc_is_help(cmd) || strcmp(cmd, "help") == 0) {
        tlc_print_usage(stdout, main_usage);
        status = TLC_EXIT_OK;
    } else if (strcmp(cmd, "asm") == 0) {
        status = cmd_asm(argc - 2, argv + 2);
    } else if (strcmp(cmd, "dis") == 0) {
        status = cmd_dis(argc - 2, argv + 2);
    } else if (strcmp(cmd, "run") == 0) {
        status = cmd_run(argc - 2, argv + 2);
    } else if (strcmp(cmd, "bench") == 0) {
        status = tlc_bench_main(argc - 2, argv + 2);
    } else {
        status = tlc_usage_error(main_usage, "unknown command '%s'", cmd);
    }
    tlc_classes_free();
    return status;
}
