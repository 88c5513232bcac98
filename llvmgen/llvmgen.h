/* The LLVM backend (docs/architecture.md, "Backend"): residual flow graphs
 * become LLVM IR methods that LLVM's ORC JIT compiles to machine code.
 *
 * A residual graph grows: every flexswitch miss adds blocks (one more
 * "compilation" of the partial evaluator). Compiled code cannot be patched,
 * so, as in the paper's .NET backend, a graph is split into methods:
 *   - the blocks of the first compilation form the PRIMARY method, a native
 *     function taking the graph's parameters and returning its result;
 *   - the blocks of each later compilation form one SECONDARY method,
 *     `uint32_t m(uint32_t blockid, JgInputArgs *args)`.
 * A block id is (method id << 16) | block number within the method. Links
 * between blocks of one method are jumps; links to another method's blocks
 * ("external") store their arguments in the InputArgs area and go through
 * the dispatchers: a secondary returns the block id to its caller, the
 * primary loops calling the method that owns the block id. */
#ifndef JITGEN_LLVMGEN_H
#define JITGEN_LLVMGEN_H

#include <stdio.h>

#include "flexswitch/flexswitch.h"
#include "frontend/ir.h"
#include "frontend/module.h"
#include "frontend/portal_site.h"
#include "jitgen/allocator.h"
#include "jitgen/fatal.h"

#define JG_BLOCKID(method, block) (((uint32_t)(method) << 16) | (uint32_t)(block))
#define JG_BLOCKID_METHOD(id) ((uint32_t)(id) >> 16)
#define JG_BLOCKID_BLOCK(id) ((uint32_t)(id)&0xffffu)
#define JG_BLOCKID_RETURN 0xffffffffu /* "the graph returned": result in InputArgs */
/* Returned by a secondary that needs its activation memory first (the
 * primary allocates it and calls again; docs/backend.md, "ALLOCA"). */
#define JG_BLOCKID_NEED_AREA 0xfffffffeu

/* The area in which external links pass values: one per activation of a
 * primary method (on its stack, where a conservative collector sees it).
 * Generated code keeps a private tail after the slots (the areas of
 * ALLOCAs that outlive secondaries, docs/backend.md). */
typedef struct JgInputArgs {
    uint64_t result;   /* the graph's result when a secondary returns */
    uint32_t capacity; /* number of slots */
    uint32_t pad;
    void *owner;      /* the backend's record of the graph (evaluated methods) */
    uint64_t slots[]; /* typed by the receiving block's parameters */
} JgInputArgs;

typedef struct JgLlvmOptions {
    int opt_level; /* 0..3: LLVM's pipeline O0..O3 */
    /* opt_level applies to methods with loops only; methods without run
     * once per entry and get no optimization and fast instruction
     * selection (docs/backend.md, "Optimization pipeline") */
    bool adaptive;
    unsigned dumps;            /* JG_DUMP_LLVM | JG_DUMP_LLVM_OPT | JG_DUMP_ASM (jitgen/driver.h) */
    FILE *dump_out;            /* default stderr */
    const char *target_triple; /* for the asm dump only; NULL: the host */
    /* residual calls of the portal (ops CALL whose callee has
     * JG_FLAG_PORTAL) are compiled as calls of this function with the
     * portal's arguments in an array and the call's site (one per op
     * compiled, kept while the backend lives; NULL from evaluated
     * methods); it returns the portal's result */
    uint64_t (*portal_call)(void *ctx, const uint64_t *args, JgPortalSite *site);
    void *portal_ctx;
    /* the positions of the portal's red parameters (a residual graph's
     * parameters, in order), or NULL: with them, a portal call first looks
     * at its site's `direct`, which the host may set to the primary method
     * of the callee's graph (jg_llvm_entry), and calls it with those
     * arguments, without the host */
    const uint32_t *portal_red_index;
    uint32_t portal_nred;
    /* allocators whose fast path the code takes itself (jitgen/allocator.h;
     * the array outlives the backend) */
    const JgFreeListAllocator *allocators;
    uint32_t nallocators;
    /* methods per graph, primary included; 0: 65535, the block-id
     * encoding's limit (tests lower it to reach the limit quickly) */
    uint32_t max_methods;
    /* 0: every secondary is compiled when its blocks appear. N > 0: the
     * backend evaluates a secondary's blocks itself (llvmgen/lazy.c) and
     * compiles the method once it has run N blocks (an entry counts as
     * LG_ENTRY_WORK): code a program runs a few times never pays for LLVM */
    uint32_t lazy_threshold;
    /* a graph's primary with merge points past its entry can be started
     * at them (jg_llvm_call_at) even without a flexswitch: the tiered jit
     * engine hands running loops of baseline code over to LLVM's */
    bool startable;
    /* called with true when the backend stops reading residual graphs for a
     * while (verifying, optimizing and emitting one module's machine code),
     * with false before it reads them again: a host that compiles on one
     * thread while another grows the graphs lets the growth through then */
    void (*graphs_idle)(void *ctx, bool idle);
    void *graphs_idle_ctx;
} JgLlvmOptions;

typedef struct JgLlvmStats {
    uint64_t methods_primary;
    uint64_t methods_secondary; /* compiled */
    uint64_t methods_evaluated; /* secondaries first evaluated (lazy_threshold) */
    uint64_t flexswitch_cases;  /* cases compiled */
    uint64_t code_bytes;        /* machine code emitted */
    uint64_t llvm_instructions; /* before optimization */
    uint64_t lsr_skipped;       /* modules too large for loop strength reduction */
    uint64_t huge_unoptimized;  /* methods too large for the adaptive level to optimize
                                   (LG_OPTIMIZE_MAX_OPS) */
    double ir_ms;               /* building IR */
    double opt_ms;              /* LLVM optimization */
    double codegen_ms;          /* LLVM code generation (ORC) */
    /* run-time counters, incremented by the generated code */
    uint64_t external_jumps;
    uint64_t flexswitch_misses;
    uint64_t evaluated_blocks; /* residual blocks the backend evaluated */
} JgLlvmStats;

typedef struct JgLlvm JgLlvm;

/* Creates the ORC LLJIT session. Symbols of the running process resolve
 * (the interpreter's functions, the allocator, the runtime). */
JgLlvm *jg_llvm_new(const JgLlvmOptions *options, char *err, size_t errsize);
void jg_llvm_free(JgLlvm *llvm);

/* Compiles the blocks of `g` not compiled yet (all of them on the first
 * call: the primary method; afterwards the blocks added since: a secondary
 * method whose block 0 is the first new block). */
bool jg_llvm_compile(JgLlvm *llvm, JgGraph *g, char *err, size_t errsize);

/* The same for the blocks before `hi` only: a host that compiled the
 * graph's growth in steps elsewhere (the baseline tier) replays its steps,
 * so that each loop lands in a method of its own, as it would have. */
bool jg_llvm_compile_to(JgLlvm *llvm, JgGraph *g, uint32_t hi, char *err, size_t errsize);

/* The primary method of `g` (compiled): call it with the graph's parameters. */
void *jg_llvm_entry(JgLlvm *llvm, const JgGraph *g);

/* JgLlvmOptions.portal_red_index and portal_nred, for a session created
 * before the host knew them (its binding-time analysis ran meanwhile);
 * methods compiled from then on call bound sites directly. */
void jg_llvm_set_portal_red(JgLlvm *llvm, const uint32_t *red_index, uint32_t nred);

/* JgLlvmOptions.lazy_threshold for the secondaries compiled from now on:
 * a host that replays a graph another tier already ran (its code is warm)
 * compiles it with 0, then goes back to the session's threshold. */
void jg_llvm_set_lazy_threshold(JgLlvm *llvm, uint32_t threshold);

/* Calls the primary method of `g` with its parameters as 64-bit slots and
 * returns its result (bits). */
uint64_t jg_llvm_call(JgLlvm *llvm, const JgGraph *g, const uint64_t *args);

/* Whether compiled `g` can be entered at `block` (jg_llvm_call_at): a
 * block of the primary a dispatcher can enter, in a graph with one. */
bool jg_llvm_can_start_at(JgLlvm *llvm, const JgGraph *g, uint32_t block);

/* Runs compiled `g` from `block` rather than from its entry, with the
 * block's parameters in `slots` (as the evaluator's frame holds them):
 * how a lower tier hands a running loop over. Returns the graph's result. */
uint64_t jg_llvm_call_at(JgLlvm *llvm, const JgGraph *g, uint32_t block, const uint64_t *slots);

const JgLlvmStats *jg_llvm_stats(const JgLlvm *llvm);

/* The run-time side of a compiled flexswitch, called by generated code with
 * the live values already in InputArgs slots 0..nlive-1: finds the case for
 * `value` (zero-extended bits); on a miss calls fs->miss and compiles the
 * blocks it added. Returns the block id of the case's target. A failure to
 * compile is fatal (message on stderr, exit status 70). */
uint32_t jg_llvm_flex_dispatch(JgLlvm *llvm, JgFlexswitch *fs, uint64_t value);

/* ---- the backend library ----
 * The backend, the bitcode reader and LLVM (tens of megabytes, and ~10 ms of
 * static initializers) are built as a shared library, libjitgen-llvm.so,
 * that a host opens only when it first needs LLVM (driver/backend.c,
 * docs/architecture.md, "The backend library"). Its one exported symbol,
 * jg_llvm_backend, returns this table. Programs that link the backend
 * statically (its unit tests) call the functions above directly. */

/* Bumped whenever this table or a structure it passes changes shape: a
 * library built from another tree is refused. */
#define JG_BACKEND_ABI 7u

typedef struct JgBackend {
    uint32_t abi;  /* JG_BACKEND_ABI of the library's build */
    uint32_t size; /* sizeof(JgBackend) there */
    /* jg_llvm_new, then, with `warm_up`, one small method compiled through
     * the whole pipeline so that the first real one finds LLVM warm */
    JgLlvm *(*create)(const JgLlvmOptions *options, bool warm_up, char *err, size_t errsize);
    void (*destroy)(JgLlvm *llvm);
    bool (*compile)(JgLlvm *llvm, JgGraph *g, char *err, size_t errsize);
    bool (*compile_to)(JgLlvm *llvm, JgGraph *g, uint32_t hi, char *err, size_t errsize);
    uint64_t (*call)(JgLlvm *llvm, const JgGraph *g, const uint64_t *args);
    bool (*can_start_at)(JgLlvm *llvm, const JgGraph *g, uint32_t block);
    uint64_t (*call_at)(JgLlvm *llvm, const JgGraph *g, uint32_t block, const uint64_t *slots);
    const JgLlvmStats *(*stats)(const JgLlvm *llvm);
    /* the frontend's bitcode reader (frontend/module.h), for hosts that
     * hand the driver bitcode instead of a graph image */
    void (*frontend_init)(void);
    JgModule *(*read_bitcode)(const void *bitcode, size_t len, const char *root,
                              JgSymbolResolver resolve, void *ctx, char *err, size_t errsize);
    /* the library's copy of jg_set_fatal_handler (jitgen/fatal.h): the host
     * installs its handler there when it opens the library */
    void (*set_fatal_handler)(JgFatalFn fn, void *ctx);
    /* jg_llvm_entry: what a host sets a portal site's `direct` to */
    void *(*entry)(JgLlvm *llvm, const JgGraph *g);
    void (*set_portal_red)(JgLlvm *llvm, const uint32_t *red_index, uint32_t nred);
    void (*set_lazy_threshold)(JgLlvm *llvm, uint32_t threshold);
} JgBackend;

#define JG_BACKEND_SYMBOL "jg_llvm_backend"
const JgBackend *jg_llvm_backend(void);

#endif
