/* jg_llvm_compile: the blocks of a residual graph not compiled yet become
 * one method (docs/backend.md, "Methods"). The first call makes the
 * primary, every later call a secondary. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static bool has_flexswitch(const JgGraph *g, uint32_t lo, uint32_t hi)
{
    for (uint32_t b = lo; b < hi; b++)
        if (g->blocks.items[b].term.kind == JG_TERM_FLEXSWITCH)
            return true;
    return false;
}

/* Whether the primary of blocks [0, n) needs a dispatcher: for its
 * flexswitches, or, where the host starts running loops in the middle
 * (JgLlvmOptions.startable), for a merge point past the entry to start at.
 * A graph without either keeps the plain function, whose calls cost less. */
static bool primary_growable(const JgLlvm *llvm, const JgGraph *g, uint32_t n)
{
    if (has_flexswitch(g, 0, n))
        return true;
    for (uint32_t b = 1; llvm->options.startable && b < n; b++)
        if (g->blocks.items[b].flags & JG_BLOCK_ENTRY)
            return true;
    return false;
}

uint32_t lg_max_values_passed(const JgGraph *g, uint32_t lo, uint32_t hi)
{
    uint32_t n = 0;
    for (uint32_t b = lo; b < hi; b++) {
        const JgBlock *blk = &g->blocks.items[b];
        n = blk->nparams > n ? blk->nparams : n;
        for (uint32_t i = 0; i < blk->term.nlinks; i++)
            n = blk->term.links[i].nargs > n ? blk->term.links[i].nargs : n;
        if (blk->term.kind == JG_TERM_FLEXSWITCH && blk->term.flex) {
            const JgFlexswitch *fs = blk->term.flex;
            n = fs->nlive > n ? fs->nlive : n;
        }
    }
    return n;
}

/* Sizes every activation's InputArgs, generously: later methods cannot
 * change the primary's frame. */
static bool size_activation(LgGraph *lg, uint32_t n, char *err, size_t errsize)
{
    uint64_t cap = 2 * (uint64_t)lg_max_values_passed(lg->graph, 0, n);
    cap = cap < LG_MIN_CAPACITY ? LG_MIN_CAPACITY : cap;
    if (cap > UINT32_MAX / 16) {
        snprintf(err, errsize, "graph %s: %llu InputArgs slots", lg->graph->name,
                 (unsigned long long)cap);
        return false;
    }
    lg->capacity = (uint32_t)cap;
    return true;
}

/* Records block ids of [lo, hi) as method `method`. */
static bool assign_ids(LgGraph *lg, uint32_t lo, uint32_t hi, uint32_t method)
{
    if (!lg_graph_reserve_blocks(lg, hi))
        return false;
    for (uint32_t b = lo; b < hi; b++) {
        bool entry = b == lo || (lg->graph->blocks.items[b].flags & JG_BLOCK_ENTRY);
        lg->blocks[b].id = JG_BLOCKID(method, b - lo);
        lg->blocks[b].enterable = lg->growable && entry;
    }
    return true;
}

/* The residual operations of blocks [lo, hi). */
static uint64_t method_ops(const JgGraph *g, uint32_t lo, uint32_t hi)
{
    uint64_t n = 0;
    for (uint32_t b = lo; b < hi; b++)
        n += g->blocks.items[b].ops.count;
    return n;
}

/* Builds, optimizes and links the method of blocks [lo, hi); its code (and
 * for the primary, the call wrapper's) lands in `code`. */
static bool compile_method(JgLlvm *llvm, LgGraph *lg, uint32_t lo, uint32_t hi, uint32_t method,
                           void **code, char *err, size_t errsize)
{
    double t0 = lg_now_ms();
    char name[96], wrapper[96];
    lg_symbol(lg, "m", method, name, sizeof name);
    lg_symbol(lg, "call", method, wrapper, sizeof wrapper);
    LgMethod m = {.llvm = llvm,
                  .lg = lg,
                  .g = lg->graph,
                  .lo = lo,
                  .hi = hi,
                  .method = method,
                  .primary = method == 0,
                  .area_index = lg->nareas,
                  .err = err,
                  .errsize = errsize};
    m.mod = lg_new_module(llvm, name);
    bool ok = lg_build_method(&m);
    if (ok && m.loops && llvm->options.adaptive &&
        method_ops(lg->graph, lo, hi) > LG_OPTIMIZE_MAX_OPS) {
        m.loops = false;
        llvm->stats.huge_unoptimized++;
    }
    if (ok && m.primary)
        ok = lg_build_call_wrapper(llvm, lg, m.mod, m.fn);
    llvm->stats.ir_ms += lg_now_ms() - t0;
    if (!ok) {
        LLVMDisposeModule(m.mod);
        return false;
    }
    const char *names[2] = {name, wrapper};
    const JgLlvmOptions *o = &llvm->options;
    if (o->graphs_idle)
        o->graphs_idle(o->graphs_idle_ctx, true);
    ok = lg_finish_module(llvm, m.mod, m.loops, names, m.primary ? 2 : 1, code, err, errsize);
    if (o->graphs_idle)
        o->graphs_idle(o->graphs_idle_ctx, false);
    if (!ok)
        return false;
    lg->nareas += m.area_bytes > 0;
    return true;
}

static bool compile_primary(JgLlvm *llvm, JgGraph *g, uint32_t n, char *err, size_t errsize)
{
    if (n == 0 || n > LG_MAX_METHOD_BLOCKS) {
        snprintf(err, errsize, "graph %s: %u blocks in one method (the limit is %u)", g->name, n,
                 LG_MAX_METHOD_BLOCKS);
        return false;
    }
    LgGraph *lg = lg_graph_add(llvm, g, primary_growable(llvm, g, n));
    if (!lg) {
        snprintf(err, errsize, "out of memory");
        return false;
    }
    void *code[2];
    if (!size_activation(lg, n, err, errsize) || !assign_ids(lg, 0, n, 0) ||
        !compile_method(llvm, lg, 0, n, 0, code, err, errsize)) {
        if (!*err)
            snprintf(err, errsize, "out of memory");
        lg_graph_forget(llvm, lg);
        return false;
    }
    lg->primary = code[0];
    lg->call = (LgCallFn)code[1];
    lg->ncompiled = n;
    lg->nmethods = 1;
    llvm->stats.methods_primary++;
    return true;
}

static bool compile_secondary(JgLlvm *llvm, LgGraph *lg, uint32_t hi, char *err, size_t errsize)
{
    const JgGraph *g = lg->graph;
    uint32_t lo = lg->ncompiled, method = lg->nmethods;
    if (lo >= hi)
        return true;
    if (!lg->growable) {
        snprintf(err, errsize, "graph %s grew, but its first compilation had no flexswitch",
                 g->name);
        return false;
    }
    if (hi - lo > LG_MAX_METHOD_BLOCKS) {
        snprintf(err, errsize, "graph %s: %u blocks in one method (the limit is %u)", g->name,
                 hi - lo, LG_MAX_METHOD_BLOCKS);
        return false;
    }
    if (method >= llvm->max_methods) {
        snprintf(err, errsize, "graph %s: more than %u methods (block ids have 16 bits of method)",
                 g->name, llvm->max_methods);
        return false;
    }
    if (!assign_ids(lg, lo, hi, method)) {
        snprintf(err, errsize, "out of memory");
        return false;
    }
    if (lg_lazy_eligible(llvm, lg, lo, hi)) {
        if (!lg_lazy_add(llvm, lg, lo, hi, method)) {
            snprintf(err, errsize, "out of memory");
            return false;
        }
    } else if (!lg_compile_secondary_method(llvm, lg, lo, hi, method, err, errsize)) {
        return false;
    }
    lg->ncompiled = hi;
    lg->nmethods++;
    return true;
}

bool lg_compile_secondary_method(JgLlvm *llvm, LgGraph *lg, uint32_t lo, uint32_t hi,
                                 uint32_t method, char *err, size_t errsize)
{
    void *code[1];
    if (!compile_method(llvm, lg, lo, hi, method, code, err, errsize))
        return false;
    lg->methods[method] = (LgSecondaryFn)code[0];
    llvm->stats.methods_secondary++;
    return true;
}

bool jg_llvm_compile_to(JgLlvm *llvm, JgGraph *g, uint32_t hi, char *err, size_t errsize)
{
    char scratch[8];
    if (!err || !errsize) {
        err = scratch;
        errsize = sizeof scratch;
    }
    *err = 0;
    if (hi > g->blocks.count) {
        snprintf(err, errsize, "graph %s: compiling up to block %u of %u", g->name, hi,
                 g->blocks.count);
        return false;
    }
    LgGraph *lg = lg_graph_find(llvm, g);
    return lg ? compile_secondary(llvm, lg, hi, err, errsize)
              : compile_primary(llvm, g, hi, err, errsize);
}

bool jg_llvm_compile(JgLlvm *llvm, JgGraph *g, char *err, size_t errsize)
{
    return jg_llvm_compile_to(llvm, g, g->blocks.count, err, errsize);
}
