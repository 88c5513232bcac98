#include "flexswitch.h"

#include <string.h>

int64_t jg_flexswitch_lookup(const JgFlexswitch *fs, uint64_t value)
{
    for (uint32_t i = 0; i < fs->ncases; i++)
        if (fs->values[i] == value)
            return i;
    return -1;
}

/* Rebuilds the terminator's links from the cases (arena memory: the old
 * arrays are simply abandoned). */
static void mirror_links(JgFlexswitch *fs)
{
    JgGraph *g = fs->graph;
    JgTerm *t = &g->blocks.items[fs->block].term;
    t->nlinks = fs->ncases + 1;
    t->links = jg_arena_alloc(g->arena, sizeof(JgLink) * t->nlinks);
    t->cases = jg_arena_alloc(g->arena, sizeof(int64_t) * t->nlinks);
    t->links[0].target = UINT32_MAX; /* the default calls the compiler */
    for (uint32_t i = 0; i < fs->ncases; i++) {
        t->links[i + 1] = jg_link(g, fs->targets[i], fs->nlive, fs->live);
        t->cases[i] = (int64_t)fs->values[i];
    }
}

void jg_flexswitch_add_case(JgFlexswitch *fs, uint64_t value, uint32_t target)
{
    JgGraph *g = fs->graph;
    if (fs->ncases == fs->capacity) {
        uint32_t cap = fs->capacity ? fs->capacity * 2 : 4;
        uint64_t *values = jg_arena_alloc(g->arena, sizeof(uint64_t) * cap);
        uint32_t *targets = jg_arena_alloc(g->arena, sizeof(uint32_t) * cap);
        if (fs->ncases) {
            memcpy(values, fs->values, sizeof(uint64_t) * fs->ncases);
            memcpy(targets, fs->targets, sizeof(uint32_t) * fs->ncases);
        }
        fs->values = values;
        fs->targets = targets;
        fs->capacity = cap;
    }
    fs->values[fs->ncases] = value;
    fs->targets[fs->ncases] = target;
    fs->ncases++;
    mirror_links(fs);
}

JgFlexswitch *jg_flexswitch_new(JgGraph *g, uint32_t block, JgVal value, uint32_t nlive,
                                const JgVal *live)
{
    JgFlexswitch *fs = jg_arena_alloc(g->arena, sizeof *fs);
    fs->graph = g;
    fs->block = block;
    fs->value = value;
    fs->type = jg_value_type(g, value);
    fs->nlive = nlive;
    if (nlive) {
        fs->live = jg_arena_alloc(g->arena, sizeof(JgVal) * nlive);
        memcpy(fs->live, live, sizeof(JgVal) * nlive);
    }
    JgTerm *t = &g->blocks.items[block].term;
    t->kind = JG_TERM_FLEXSWITCH;
    t->value = value;
    t->flex = fs;
    mirror_links(fs);
    return fs;
}
