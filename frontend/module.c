/* Modules: their lifetime and lookups (by name, by native address, global
 * containing an address). The reader fills a module; this file only indexes
 * what it recorded. */
#include "module.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "module_internal.h"

typedef struct NativeSlot {
    const void *address;
    JgGraph *graph;
} NativeSlot;

typedef struct ModuleIndex {
    JgGraph **by_name; /* open addressing on the graph's name */
    uint32_t name_cap;
    NativeSlot *by_native; /* open addressing on the address */
    uint32_t native_cap;
    const JgGlobal **sorted; /* globals by address, for range lookups */
    uint32_t nsorted;
} ModuleIndex;

void *jg_resolve_self(void *ctx, const char *name)
{
    (void)ctx;
    return dlsym(RTLD_DEFAULT, name);
}

JgModule *jg_module_new(void)
{
    JgArena arena = {0};
    JgModule *m = jg_arena_alloc(&arena, sizeof *m);
    m->arena = arena;
    return m;
}

void jg_module_free(JgModule *m)
{
    if (!m)
        return;
    JgArena arena = m->arena; /* m lives in its own arena */
    jg_arena_free(&arena);
}

/* FNV-1a: names are short, a simple hash is enough. */
static uint32_t hash_name(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static uint32_t hash_address(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(x >> 32);
}

/* Smallest power of two at least twice `n` (load factor <= 1/2). */
static uint32_t table_capacity(uint32_t n)
{
    uint32_t cap = 8;
    while (cap < 2 * n)
        cap *= 2;
    return cap;
}

static void index_by_name(JgModule *m, ModuleIndex *ix)
{
    ix->name_cap = table_capacity(m->graphs.count);
    ix->by_name = jg_arena_alloc(&m->arena, sizeof *ix->by_name * ix->name_cap);
    for (unsigned i = 0; i < m->graphs.count; i++) {
        JgGraph *g = m->graphs.items[i];
        uint32_t h = hash_name(g->name) & (ix->name_cap - 1);
        while (ix->by_name[h] && strcmp(ix->by_name[h]->name, g->name) != 0)
            h = (h + 1) & (ix->name_cap - 1);
        if (!ix->by_name[h])
            ix->by_name[h] = g;
    }
}

/* The address a reference to `g` evaluates to: its native address, or for
 * an internal function without one, the graph itself as a unique token. */
static const void *graph_address(const JgGraph *g)
{
    if (g->native)
        return g->native;
    return (g->flags & JG_FLAG_EXTERNAL) ? NULL : g;
}

static void index_by_native(JgModule *m, ModuleIndex *ix)
{
    ix->native_cap = table_capacity(m->graphs.count);
    ix->by_native = jg_arena_alloc(&m->arena, sizeof *ix->by_native * ix->native_cap);
    for (unsigned i = 0; i < m->graphs.count; i++) {
        JgGraph *g = m->graphs.items[i];
        const void *address = graph_address(g);
        if (!address)
            continue;
        uint32_t h = hash_address(address) & (ix->native_cap - 1);
        while (ix->by_native[h].address && ix->by_native[h].address != address)
            h = (h + 1) & (ix->native_cap - 1);
        if (!ix->by_native[h].address)
            ix->by_native[h] = (NativeSlot){address, g};
    }
}

static int compare_globals(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)(*(const JgGlobal *const *)a)->address;
    uintptr_t y = (uintptr_t)(*(const JgGlobal *const *)b)->address;
    return x < y ? -1 : x > y;
}

static void index_globals(JgModule *m, ModuleIndex *ix)
{
    ix->nsorted = m->globals.count;
    ix->sorted = jg_arena_alloc(&m->arena, sizeof *ix->sorted * (ix->nsorted + 1));
    for (uint32_t i = 0; i < ix->nsorted; i++)
        ix->sorted[i] = &m->globals.items[i];
    qsort(ix->sorted, ix->nsorted, sizeof *ix->sorted, compare_globals);
}

void jg_module_build_index(JgModule *m)
{
    ModuleIndex *ix = jg_arena_alloc(&m->arena, sizeof *ix);
    index_by_name(m, ix);
    index_by_native(m, ix);
    index_globals(m, ix);
    m->index = ix;
}

JgGraph *jg_module_graph_by_name(const JgModule *m, const char *name)
{
    const ModuleIndex *ix = m ? m->index : NULL;
    if (!ix || !name)
        return NULL;
    uint32_t h = hash_name(name) & (ix->name_cap - 1);
    for (; ix->by_name[h]; h = (h + 1) & (ix->name_cap - 1))
        if (strcmp(ix->by_name[h]->name, name) == 0)
            return ix->by_name[h];
    return NULL;
}

JgGraph *jg_module_graph_by_native(const JgModule *m, const void *address)
{
    const ModuleIndex *ix = m ? m->index : NULL;
    if (!ix || !address)
        return NULL;
    uint32_t h = hash_address(address) & (ix->native_cap - 1);
    for (; ix->by_native[h].address; h = (h + 1) & (ix->native_cap - 1))
        if (ix->by_native[h].address == address)
            return ix->by_native[h].graph;
    return NULL;
}

/* Binary search for the last global starting at or below `address`; a
 * global of size 0 contains only its own address. */
const JgGlobal *jg_module_global_at(const JgModule *m, const void *address)
{
    const ModuleIndex *ix = m ? m->index : NULL;
    if (!ix || ix->nsorted == 0)
        return NULL;
    uintptr_t a = (uintptr_t)address;
    uint32_t lo = 0, hi = ix->nsorted; /* first global starting above a */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)ix->sorted[mid]->address <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const JgGlobal *g = ix->sorted[lo - 1];
    uintptr_t start = (uintptr_t)g->address;
    uint64_t size = g->size ? g->size : 1;
    return a - start < size ? g : NULL;
}
