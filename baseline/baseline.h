/* The baseline backend (docs/baseline.md): residual flow graphs straight to
 * x86-64 machine code, without LLVM. It compiles in microseconds what LLVM
 * compiles in milliseconds (and LLVM must first be opened, ~20 ms), at the
 * price of simpler code: one pass, registers allocated per class of values
 * for the whole method, no loop optimizations, rare operations through the
 * evaluator's arithmetic.
 *
 * As in the LLVM backend, a residual graph grows (every flexswitch miss
 * adds blocks) and compiled code is never patched: the blocks of each
 * compilation form one METHOD, `uint32_t m(uint32_t block, BlFrame *f,
 * uint8_t *area)`, that can be entered at any of its blocks (parameters in
 * f->slots) and returns the block id to go on at (JG_BLOCKID), or
 * JG_BLOCKID_RETURN with the result in f->result. A C dispatcher loop
 * (jg_baseline_call) calls the method that owns each block id. */
#ifndef JITGEN_BASELINE_H
#define JITGEN_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "frontend/ir.h"
#include "frontend/portal_site.h"
#include "jitgen/allocator.h"

/* Called at a look (`look_ms` below): baseline code, at a loop header
 * `block` (its parameters in `slots`), or at the graph's entry (block 0,
 * the graph's arguments). Returns true when another tier ran the rest of
 * the activation (its result in *result); false to go on in baseline
 * code. Either way sets *next_look_ms: the next look in that many
 * milliseconds (< 0: at once, 0: never). */
typedef bool (*JgTierUpFn)(void *ctx, const JgGraph *g, uint32_t block, const uint64_t *slots,
                           uint64_t *result, double *next_look_ms);

typedef struct JgBaselineOptions {
    /* residual calls of the portal (CALL ops whose callee has
     * JG_FLAG_PORTAL) call this with the portal's arguments in an array
     * and the call's site (one per op, kept with the graph) */
    uint64_t (*portal_call)(void *ctx, const uint64_t *args, JgPortalSite *site);
    void *portal_ctx;
    /* the portal's red parameters, positions among its arguments: a site's
     * code passes these, in this order, to a graph bound to it
     * (jg_baseline_bind_site); NULL: every site goes through portal_call.
     * Must outlive the backend */
    const uint32_t *portal_red_index;
    uint32_t portal_nred;
    /* allocators whose fast path the code takes itself (jitgen/allocator.h;
     * the array outlives the backend) */
    const JgFreeListAllocator *allocators;
    uint32_t nallocators;
    /* the first look at tier_up, in milliseconds from the first run of
     * baseline code (< 0: at once; 0: never). A look, on a timer, makes
     * every loop's back-edge into a merge point leave for the dispatcher
     * (the code is patched: loops count nothing), which asks tier_up, as
     * does a call of a graph while a look is due. Looks arrive as a signal
     * (SIGURG) on the thread that ran baseline code first, the one thread
     * that runs it */
    double look_ms;
    JgTierUpFn tier_up;
    void *tier_up_ctx;
    /* called (with tier_up_ctx) before (begin) and after a flexswitch miss
     * grows a graph, or the backend compiles a case another tier added, so
     * that a host compiling graphs on another thread can keep it from
     * reading what changes; may be NULL */
    void (*growing)(void *ctx, bool begin);
    /* where each method's machine code is printed, disassembled, as it is
       compiled (--dump=asm); NULL: nowhere */
    FILE *dump_asm;
} JgBaselineOptions;

typedef struct JgBaselineStats {
    uint64_t methods;          /* compiled */
    uint64_t flexswitch_cases; /* compiled after a miss */
    uint64_t consolidations;   /* grown graphs compiled again as one method */
    uint64_t consolidations_given_up; /* graphs whose consolidation failed (too big) */
    uint64_t code_bytes;       /* machine code emitted */
    double compile_ms;         /* code generation */
    /* run-time counters */
    uint64_t method_entries; /* calls of methods by the dispatcher */
    uint64_t flexswitch_misses;
    uint64_t tier_ups; /* activations another tier went on with */
    uint64_t looks;    /* times tier_up was asked */
} JgBaselineStats;

typedef struct JgBaseline JgBaseline;

/* Direct calls: `site`, a portal call in this backend's code, runs graph
 * g (compiled by this backend) on the call's arguments at
 * options.portal_red_index without going through options.portal_call,
 * until jg_baseline_unbind(g). False when out of memory or when the
 * backend has no red index (the site goes on through the host). */
bool jg_baseline_bind_site(JgBaseline *bl, JgPortalSite *site, const JgGraph *g);
/* Every site bound to g goes through the host again (another tier runs g). */
void jg_baseline_unbind(JgBaseline *bl, const JgGraph *g);

/* Whether this host can run baseline code (x86-64 System V). */
bool jg_baseline_available(void);

JgBaseline *jg_baseline_new(const JgBaselineOptions *options, char *err, size_t errsize);
void jg_baseline_free(JgBaseline *bl);

/* Compiles the blocks of `g` added since the last call (all of them the
 * first time) as one method. */
bool jg_baseline_compile(JgBaseline *bl, JgGraph *g, char *err, size_t errsize);

/* Runs compiled `g` from its entry with its parameters as 64-bit slots;
 * returns its result (bits). */
uint64_t jg_baseline_call(JgBaseline *bl, const JgGraph *g, const uint64_t *args);

/* How `g` grew: the number of methods compiled, and the end (one past the
 * last block) of method m. */
uint32_t jg_baseline_methods(const JgBaseline *bl, const JgGraph *g);
uint32_t jg_baseline_method_end(const JgBaseline *bl, const JgGraph *g, uint32_t m);

/* The loops back to `block` of `g`, as their look sites know them: the
 * machine code of the largest (from the loop's top to its back-edge's
 * end; 0 when none is known), and whether one holds a flexswitch's block
 * (a loop that takes a case every trip: a jump inside a consolidated
 * method, but an external jump in LLVM's code, where cases are methods). */
typedef struct JgBaselineLoop {
    uint32_t bytes;
    bool takes_cases;
} JgBaselineLoop;

JgBaselineLoop jg_baseline_loop(const JgBaseline *bl, const JgGraph *g, uint32_t block);

/* Whether any loop of `g` compiled so far takes a flexswitch's case
 * (JgBaselineLoop.takes_cases): LLVM takes a graph whole, every loop of it. */
bool jg_baseline_loops_take_cases(const JgBaseline *bl, const JgGraph *g);

const JgBaselineStats *jg_baseline_stats(const JgBaseline *bl);

#endif
