/* The flexswitch runtime, called by generated code (docs/backend.md,
 * "Flexswitches"). A hit costs a call and a linear scan of the cases; a
 * miss calls back into the compiler, which appends blocks to the graph,
 * and compiles them into a new secondary method before continuing. */
#include <stdarg.h>
#include <stdlib.h>

#include "frontend/fatal.h"
#include "internal.h"

void lg_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    jg_vfatal("llvm", fmt, ap);
}

/* The block id of a case target: it must have been compiled as a block a
 * dispatcher can enter. */
static uint32_t target_id(const LgGraph *lg, uint32_t target)
{
    const char *name = lg->graph->name ? lg->graph->name : "<anonymous>";
    if (target >= lg->ncompiled)
        lg_fatal("graph %s: flexswitch case targets block %u, which is not compiled", name, target);
    if (!lg->blocks[target].enterable)
        lg_fatal("graph %s: flexswitch case targets block %u, which no dispatcher can enter", name,
                 target);
    return lg->blocks[target].id;
}

/* The slow path: compile the case for `value`. */
static uint32_t miss(JgLlvm *llvm, LgGraph *lg, JgFlexswitch *fs, uint64_t value)
{
    const char *name = lg->graph->name ? lg->graph->name : "<anonymous>";
    llvm->stats.flexswitch_misses++;
    fs->misses++;
    if (!fs->miss)
        lg_fatal("graph %s: flexswitch in block %u has no miss callback", name, fs->block);
    uint32_t target = fs->miss(fs->compiler, fs, value);
    if (target == UINT32_MAX)
        lg_fatal("graph %s: compiling the case %llu of the flexswitch in block %u failed", name,
                 (unsigned long long)value, fs->block);
    char err[512];
    if (!jg_llvm_compile(llvm, fs->graph, err, sizeof err))
        lg_fatal("%s", err);
    llvm->stats.flexswitch_cases++;
    return target;
}

uint32_t jg_llvm_flex_dispatch(JgLlvm *llvm, JgFlexswitch *fs, uint64_t value)
{
    LgGraph *lg = lg_graph_find(llvm, fs->graph);
    if (!lg)
        lg_fatal("flexswitch of a graph that was not compiled");
    int64_t i = jg_flexswitch_lookup(fs, value);
    uint32_t target = i >= 0 ? fs->targets[i] : miss(llvm, lg, fs, value);
    if (target >= lg->ncompiled && target < fs->graph->blocks.count) {
        /* a case another tier (the baseline backend) added */
        char err[512];
        if (!jg_llvm_compile(llvm, fs->graph, err, sizeof err))
            lg_fatal("%s", err);
    }
    return target_id(lg, target);
}
