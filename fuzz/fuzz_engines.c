/* Differential fuzz target: the input bytes decide a valid TLC program
 * (tests/gen/generator.c: the first bytes pick the shape, the size and the
 * input N, the rest make the generator's first decisions), which runs under
 * the native interpreter and the compiled engines: pe, baseline, jit from
 * the start with LLVM only (`--jit-threshold=0 --tier-up=0`) and jit tiered
 * at threshold 10 (`--jit-threshold=10 --tier-up=0`). Every engine must print
 * the same output and result, end with the same status and, after a
 * run-time error, the same error line (kind, pc, operation, detail) as the
 * interpreter; a difference prints the program and aborts.
 *
 * The engines run in this process one after the other, each with a driver
 * of its own created for the input and freed after it (tlc_engines_init,
 * tlc_engines_shutdown): a driver keeps the residual code it specialized for
 * one program's bytecode, so none is shared between inputs or engines.
 *
 * With FUZZ_ENGINES_SHOW=1 in the environment, each program and its input
 * N are printed on stderr before they run (to make a reproducer of a crash:
 * `fuzz_engines CRASH_FILE`).
 *
 * The driver still ends the process (status 70, a message) when the JIT
 * itself fails (jg_driver_call); libFuzzer reports that as a crash of the
 * input. */
#include <gc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gen/tlcgen.h"
#include "tlc/asm.h"
#include "tlc/engines.h"
#include "tlc/errors.h"
#include "tlc/run.h"
#include "tlc/values.h"

typedef struct Setting {
    const char *name;
    bool driver;       /* runs through the JIT generator's driver */
    JgEngine engine;   /* with the driver */
    int64_t threshold; /* > 0: tiered, handed over after this many jumps/calls */
} Setting;

static const Setting settings[] = {
    {"interp", false, JG_ENGINE_GRAPHS, 0},    {"pe", true, JG_ENGINE_PE, 0},
    {"baseline", true, JG_ENGINE_BASELINE, 0}, {"jit@0~0", true, JG_ENGINE_JIT, 0},
    {"jit@10~0", true, JG_ENGINE_JIT, 10},
};
#define NSETTINGS (sizeof settings / sizeof settings[0])

/* What one run shows: stdout (output and result line), status, error line. */
typedef struct Outcome {
    char *out;
    size_t out_len;
    int status;
    char error[512];
} Outcome;

static bool show_programs;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    GC_INIT();
    const char *show = getenv("FUZZ_ENGINES_SHOW");
    show_programs = show && strcmp(show, "1") == 0;
    return 0;
}

/* Runs the program under one setting, as `tlc run` would. */
static void run(const Setting *s, const TlcCode *code, int64_t n, Outcome *o)
{
    *o = (Outcome){.status = -1};
    TlcEngineFn fn = tlc_eval;
    if (s->driver) {
        JgDriverOptions options = {.engine = s->engine, .tiered = s->threshold > 0};
        char err[512];
        if (!tlc_engines_init(&options, err, sizeof err)) {
            fprintf(stderr, "fuzz_engines: %s: the driver could not start: %s\n", s->name, err);
            abort();
        }
        if (s->threshold > 0)
            tlc_engines_tier(s->threshold);
        else
            fn = tlc_eval_driver;
    }
    FILE *mem = open_memstream(&o->out, &o->out_len);
    if (!mem) {
        fputs("fuzz_engines: out of memory\n", stderr);
        abort();
    }
    tlc_out = mem;
    TlcObject *result = NULL;
    o->status = tlc_execute(code, fn, n, &result);
    if (o->status == 0 && result)
        tlc_print(result);
    else if (o->status == 1)
        tlc_format_error(&tlc_last_error, "fuzz.tlc", o->error, sizeof o->error);
    tlc_out = NULL;
    fclose(mem);
    if (s->driver && tlc_engines_started())
        jg_driver_finish(tlc_engines_driver());
    tlc_engines_shutdown();
    if (o->status < 0) {
        fputs("fuzz_engines: cannot start the interpreter thread\n", stderr);
        abort();
    }
}

static bool same(const Outcome *a, const Outcome *b)
{
    return a->status == b->status && a->out_len == b->out_len &&
           memcmp(a->out, b->out, a->out_len) == 0 && strcmp(a->error, b->error) == 0;
}

static void show(const char *name, const Outcome *o)
{
    fprintf(stderr, "--- %s: status %d, %zu bytes of output%s%s\n", name, o->status, o->out_len,
            o->error[0] ? ", error: " : "", o->error);
    fprintf(stderr, "%.*s\n", o->out_len > 2000 ? 2000 : (int)o->out_len, o->out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    uint64_t seed = 1469598103934665603ull; /* FNV-1a: the PRNG after the choices */
    for (size_t i = 0; i < size; i++)
        seed = (seed ^ data[i]) * 1099511628211ull;
    TlcgenOptions g = {
        .seed = seed,
        .shape = data[0] % (TLCGEN_SHAPES + 1) - 1,
        .size = 1 + data[1] % 100,
        .choices = data + 3,
        .nchoices = size - 3,
    };
    int64_t n = (int8_t)data[2];
    size_t len;
    char *text = tlcgen_generate(&g, &len);
    if (!text)
        return 0;
    if (show_programs)
        fprintf(stderr, "fuzz_engines: N = %lld, program:\n%s\n", (long long)n, text);
    TlcDiag diag;
    TlcProgram *prog = tlc_assemble(text, len, "fuzz.tlc", &diag);
    if (!prog) {
        fprintf(stderr, "fuzz_engines: a generated program does not assemble: %s\n%s\n",
                diag.message, text);
        abort();
    }
    TlcCode *code = tlc_code_new(prog);
    if (!code) {
        tlc_program_free(prog);
        free(text);
        return 0;
    }
    Outcome ref, o;
    run(&settings[0], code, n, &ref);
    for (size_t k = 1; k < NSETTINGS; k++) {
        run(&settings[k], code, n, &o);
        if (!same(&ref, &o)) {
            fprintf(stderr, "fuzz_engines: %s and %s differ, N = %lld, on:\n%s\n", settings[0].name,
                    settings[k].name, (long long)n, text);
            show(settings[0].name, &ref);
            show(settings[k].name, &o);
            abort();
        }
        free(o.out);
    }
    free(ref.out);
    tlc_code_free(code);
    tlc_program_free(prog);
    tlc_classes_free();
    free(text);
    return 0;
}
