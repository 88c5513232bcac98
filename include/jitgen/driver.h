/* The driver API: how a host program runs its interpreter's portal under
 * one of the JIT generator's engines. The host embeds its interpreter's
 * bitcode (see cmake/Bitcode.cmake), creates a driver once, and calls the
 * portal through it instead of calling the native function. */
#ifndef JITGEN_DRIVER_H
#define JITGEN_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "jitgen/allocator.h"
#include "jitgen/fatal.h"

typedef enum JgEngine {
    JG_ENGINE_GRAPHS,   /* evaluate the interpreter's own flow graphs */
    JG_ENGINE_PE,       /* specialize, evaluate residual graphs */
    JG_ENGINE_JIT,      /* specialize, compile residual graphs with LLVM */
    JG_ENGINE_BASELINE, /* specialize, compile residual graphs to x86-64
                           directly (baseline/, no LLVM) */
} JgEngine;

enum JgDump {
    JG_DUMP_GRAPHS = 1u << 0,   /* the interpreter's graphs */
    JG_DUMP_BTA = 1u << 1,      /* the portal's graph with binding times */
    JG_DUMP_RESIDUAL = 1u << 2, /* residual graphs, when the run ends */
    JG_DUMP_LLVM = 1u << 3,
    JG_DUMP_LLVM_OPT = 1u << 4,
    JG_DUMP_ASM = 1u << 5,
    JG_DUMP_FALLBACKS = 1u << 6, /* each fallback to a lower tier, as it happens */
};
/* The dumps that show compiled code (a run asking for them compiles every
 * frame from its start by default). */
#define JG_DUMP_CODE (JG_DUMP_GRAPHS | JG_DUMP_BTA | JG_DUMP_RESIDUAL | JG_DUMP_LLVM | \
                      JG_DUMP_LLVM_OPT | JG_DUMP_ASM)

/* See JgDriverOptions.host_fields. */
typedef uint32_t (*JgHostFieldsFn)(const void *object, int64_t *offsets, uint32_t max);

typedef struct JgDriverOptions {
    JgEngine engine;
    unsigned dumps;   /* JgDump bits */
    FILE *dump_out;   /* default stderr */
    bool no_virtuals; /* ablation */
    bool no_value_args; /* ablation: portal calls pass every argument as it is */
    /* host_array: portal parameter host_array_param (a red pointer) points to
     * as many objects as its green parameter host_array_len_param says, and
     * the portal only reads them (TLC: the operand stack a frame is handed
     * over with). A host's call is then specialized for the value shapes
     * of those objects too (docs/architecture.md, "Value arguments"): the
     * code reads each one's word, not its type, and makes no flexswitch on
     * it. */
    bool host_array;
    unsigned host_array_param, host_array_len_param;
    /* host_fields (may be NULL): the words of a host array object that point
     * to objects the portal may read and replace (TLC: an instance's
     * attributes), as byte offsets, at most `max`; 0 for an object with none.
     * An object that has such words begins with a word that never changes
     * (its type). A host's call is then specialized for the value shapes of
     * the objects they point to as well: the code reads each one's word at
     * the entry and keeps it as a virtual object stored there (a pending
     * store), as if the frame had just written it (docs/architecture.md,
     * "Value arguments"). */
    JgHostFieldsFn host_fields;
    /* allocators whose fast path compiled code (both backends) takes
     * itself (jitgen/allocator.h); the array must outlive the driver */
    const JgFreeListAllocator *allocators;
    uint32_t nallocators;
    int llvm_opt;     /* 0..3 when llvm_opt_set; otherwise adaptive: O2 for
                         methods with loops, none for the others */
    bool llvm_opt_set;
    const char *target;   /* triple for --dump=asm, NULL: the host */
    const char *dot_file; /* Graphviz of residual graphs, NULL: none */
    bool tiered;          /* the host interprets natively first and calls the
                             portal through the driver only for what got hot:
                             the jit engine starts LLVM at the first call
                             instead of beside jg_driver_new */
    /* the jit engine, tiered: residual code runs first as baseline code
     * (baseline/, no LLVM); once it has run this many milliseconds, LLVM
     * starts and compiles the hot graph on another thread, and takes over
     * when done; 0: LLVM from the start; < 0: JG_TIER_UP_DEFAULT_MS. On
     * hosts without the baseline backend, 0. */
    int64_t tier_up_ms;
    const char *backend_path; /* the LLVM backend library (libjitgen-llvm.so),
                                 opened when LLVM is first needed; NULL: the
                                 environment's JITGEN_BACKEND, else the file
                                 beside the running executable */
    /* the JIT's memory budget in bytes (0: JG_JIT_MEMORY_DEFAULT): the
     * partial evaluator's residual graphs and compilation states plus the
     * machine code of both backends. Past it, a compilation ends at once
     * in an exit to the evaluator, and LLVM takes over nothing more from
     * baseline code: the program runs on in the lower tiers. */
    uint64_t max_jit_memory;
} JgDriverOptions;

/* The default memory budget of the JIT: far above what any program of the
 * tests or benchmarks uses, and small beside the memory of any machine
 * that runs LLVM. */
#define JG_JIT_MEMORY_DEFAULT ((uint64_t)256 << 20)

/* Baseline time before LLVM starts (JgDriverOptions.tier_up_ms). */
#define JG_TIER_UP_DEFAULT_MS 10

typedef struct JgDriver JgDriver;

/* Loads the interpreter's graphs from `graphs`: a graph image (made at build
 * time by jitgen-image, loaded in about a millisecond) or bitcode (translated
 * now by the backend library's bitcode reader). Finds the portal (the function annotated
 * JIT_PORTAL), runs the binding-time analysis. NULL with a message in `err` on failure. */
JgDriver *jg_driver_new(const void *graphs, size_t len, const JgDriverOptions *options, char *err,
                        size_t errsize);
void jg_driver_free(JgDriver *d);

/* False while LLVM starts (or compiles) on another thread: jg_driver_free
 * would wait for it. A process that is ending anyway can leave without
 * (flush its output, then _exit). */
bool jg_driver_idle(const JgDriver *d);

/* Runs the portal with these arguments (one 64-bit slot per parameter:
 * integers in the low bits, pointers as addresses) and returns its result.
 * Errors the interpreter raises propagate exactly as natively. A failure of
 * the JIT itself that it cannot fall back from (LLVM missing when it must
 * compile, a bug) goes to the fatal handler (jitgen/fatal.h). */
uint64_t jg_driver_call(JgDriver *d, const uint64_t *args);

/* A hint from a tiered host: a frame is getting hot and will soon be called
 * through the driver. The jit engine opens its backend library and starts
 * LLVM on another thread now, so that the first call finds them (or part
 * of them) ready; the other engines ignore it. Returns at once. */
void jg_driver_prepare(JgDriver *d);

/* Writes `name: value` statistics lines (jit.*, pe.*, run.*). */
void jg_driver_print_stats(const JgDriver *d, FILE *out);

/* The partial evaluator behind the PE and JIT engines (NULL for graphs),
 * for tests and tools that inspect residual graphs (pe/pe.h). */
struct JgPe *jg_driver_pe(const JgDriver *d);

/* Writes the dumps requested for the end of the run (residual graphs...). */
void jg_driver_finish(JgDriver *d);

#endif
