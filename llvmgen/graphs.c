/* Per-graph bookkeeping: the registry mapping a residual graph to what the
 * backend compiled for it (methods, block ids), and the entry points. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Fibonacci hashing of the graph's address into a power-of-two table. */
static uint32_t slot_of(const JgLlvm *llvm, const JgGraph *g)
{
    uint64_t h = (uint64_t)(uintptr_t)g * UINT64_C(0x9e3779b97f4a7c15);
    return (uint32_t)(h >> 32) & (llvm->graphs_cap - 1);
}

LgGraph *lg_graph_find(const JgLlvm *llvm, const JgGraph *g)
{
    if (!llvm->graphs_cap)
        return NULL;
    for (uint32_t i = slot_of(llvm, g);; i = (i + 1) & (llvm->graphs_cap - 1)) {
        LgGraph *lg = llvm->graphs[i];
        if (!lg || lg->graph == g)
            return lg;
    }
}

static void insert(JgLlvm *llvm, LgGraph *lg)
{
    uint32_t i = slot_of(llvm, lg->graph);
    while (llvm->graphs[i])
        i = (i + 1) & (llvm->graphs_cap - 1);
    llvm->graphs[i] = lg;
}

/* Keeps the table at most half full. */
static bool grow_registry(JgLlvm *llvm)
{
    if (2 * (llvm->ngraphs + 1) <= llvm->graphs_cap)
        return true;
    uint32_t old_cap = llvm->graphs_cap;
    LgGraph **old = llvm->graphs;
    uint32_t cap = old_cap ? 2 * old_cap : 16;
    LgGraph **table = calloc(cap, sizeof *table);
    if (!table)
        return false;
    llvm->graphs = table;
    llvm->graphs_cap = cap;
    for (uint32_t i = 0; i < old_cap; i++)
        if (old[i])
            insert(llvm, old[i]);
    free(old);
    return true;
}

static void free_graph(LgGraph *lg)
{
    lg_lazy_free(lg);
    free(lg->methods);
    free(lg->blocks);
    free(lg);
}

LgGraph *lg_graph_add(JgLlvm *llvm, const JgGraph *g, bool growable)
{
    if (!grow_registry(llvm))
        return NULL;
    LgGraph *lg = calloc(1, sizeof *lg);
    if (!lg)
        return NULL;
    lg->llvm = llvm;
    lg->graph = g;
    lg->serial = llvm->next_serial++;
    lg->growable = growable;
    if (growable) {
        /* stable: generated code embeds the table's address */
        lg->methods = calloc(LG_METHOD_TABLE, sizeof *lg->methods);
        if (!lg->methods) {
            free_graph(lg);
            return NULL;
        }
    }
    insert(llvm, lg);
    llvm->ngraphs++;
    return lg;
}

/* Removes a graph whose primary failed to compile (backward-shift delete). */
void lg_graph_forget(JgLlvm *llvm, LgGraph *lg)
{
    uint32_t mask = llvm->graphs_cap - 1, i = slot_of(llvm, lg->graph);
    while (llvm->graphs[i] != lg)
        i = (i + 1) & mask;
    llvm->graphs[i] = NULL;
    for (uint32_t j = (i + 1) & mask; llvm->graphs[j]; j = (j + 1) & mask) {
        LgGraph *moved = llvm->graphs[j];
        llvm->graphs[j] = NULL;
        insert(llvm, moved);
    }
    llvm->ngraphs--;
    free_graph(lg);
}

void lg_graphs_free(JgLlvm *llvm)
{
    for (uint32_t i = 0; i < llvm->graphs_cap; i++)
        if (llvm->graphs[i])
            free_graph(llvm->graphs[i]);
    free(llvm->graphs);
    llvm->graphs = NULL;
    llvm->graphs_cap = llvm->ngraphs = 0;
}

bool lg_graph_reserve_blocks(LgGraph *lg, uint32_t n)
{
    LgBlock *blocks = realloc(lg->blocks, sizeof *blocks * (n ? n : 1));
    if (!blocks)
        return false;
    lg->blocks = blocks;
    return true;
}

/* Symbol names: the graph's name (letters, digits, '_' and '.') made unique
 * by the graph's serial, then the method; readable in every dump. */
void lg_symbol(const LgGraph *lg, const char *what, uint32_t method, char *buf, size_t size)
{
    char name[48];
    const char *src = lg->graph->name ? lg->graph->name : "graph";
    size_t n = 0;
    for (; src[n] && n + 1 < sizeof name; n++) {
        unsigned char c = (unsigned char)src[n];
        name[n] = (char)(isalnum(c) || c == '_' || c == '.' ? c : '_');
    }
    name[n] = 0;
    snprintf(buf, size, "%s.g%u.%s%u", name, lg->serial, what, method);
}

void *jg_llvm_entry(JgLlvm *llvm, const JgGraph *g)
{
    LgGraph *lg = lg_graph_find(llvm, g);
    return lg ? lg->primary : NULL;
}

void jg_llvm_set_lazy_threshold(JgLlvm *llvm, uint32_t threshold)
{
    llvm->options.lazy_threshold = threshold;
}

void jg_llvm_set_portal_red(JgLlvm *llvm, const uint32_t *red_index, uint32_t nred)
{
    llvm->options.portal_red_index = red_index;
    llvm->options.portal_nred = nred;
}

uint64_t jg_llvm_call(JgLlvm *llvm, const JgGraph *g, const uint64_t *args)
{
    LgGraph *lg = lg_graph_find(llvm, g);
    if (!lg || !lg->call)
        lg_fatal("graph %s was not compiled", g->name ? g->name : "<anonymous>");
    return lg->call(args);
}

bool jg_llvm_can_start_at(JgLlvm *llvm, const JgGraph *g, uint32_t block)
{
    const LgGraph *lg = lg_graph_find(llvm, g);
    return lg && lg->call && lg->growable && block < lg->ncompiled && lg->blocks[block].enterable;
}

uint64_t jg_llvm_call_at(JgLlvm *llvm, const JgGraph *g, uint32_t block, const uint64_t *slots)
{
    LgGraph *lg = lg_graph_find(llvm, g);
    if (!jg_llvm_can_start_at(llvm, g, block))
        lg_fatal("graph %s cannot be entered at block %u", g->name ? g->name : "<anonymous>",
                 block);
    lg->start_id = lg->blocks[block].id;
    lg->start_n = g->blocks.items[block].nparams;
    lg->start_slots = slots;
    lg->start_pending = 1;
    uint64_t zeros[g->nparams + 1];
    memset(zeros, 0, sizeof zeros);
    return lg->call(zeros); /* the parameters are not read: the start is */
}

uint32_t lg_take_start(LgGraph *lg, JgInputArgs *ia)
{
    /* the caller's slots hold the block's parameters as the evaluator's
     * frame would (zero-extended), as InputArgs slots do */
    if (lg->start_n > ia->capacity)
        lg_fatal("graph %s: %u parameters to start at, %u slots", lg->graph->name, lg->start_n,
                 ia->capacity);
    memcpy(ia->slots, lg->start_slots, sizeof *ia->slots * lg->start_n);
    lg->start_pending = 0;
    return lg->start_id;
}
