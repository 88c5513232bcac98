#include "object.h"

#include "errors.h"

#include <gc.h>
#include <gc/gc_inline.h>
#include <gc/gc_mark.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

uint64_t tlc_allocations;

/* The collector's free lists of small objects, one per size in granules,
 * for each kind, taken from inline (gc_inline.h): the library's own
 * thread-local lists cost a thread-specific lookup and a call per object.
 * Only the thread running the program allocates TLC objects; the lists are
 * static data, which the collector scans, so the objects on them stay
 * reserved. Sizes count the byte the collector adds at the end of every
 * object (interior pointers are on: compiled code keeps pointers to
 * fields). */
static void *small_atomic[GC_TINY_FREELISTS], *small_normal[GC_TINY_FREELISTS];

static size_t granules_of(uint64_t size)
{
    return (size_t)((size + 1 + GC_GRANULE_BYTES - 1) / GC_GRANULE_BYTES);
}

/* Objects on a pointer-free list are not traced through their link
 * words, so a collection could reclaim them while the list still holds
 * them: the lists are dropped when a collection starts (the collector takes
 * the objects back). Collections start only inside allocations, on the
 * program's thread, never between a pop's load and store. */
static void GC_CALLBACK forget_atomic_lists(void)
{
    memset(small_atomic, 0, sizeof small_atomic);
}

/* An allocation whose free list is empty or whose object is large: the
 * collector's way, which refills the list (GC_FAST_MALLOC_GRANS). */
static __attribute__((noinline)) void *alloc_refill(uint64_t size, TlcSite site, bool atomic)
{
    static bool watching;
    if (atomic && !watching) {
        GC_set_start_callback(forget_atomic_lists);
        watching = true;
    }
    tlc_allocations++;
    void *p;
    size_t granules = granules_of(size);
    void **lists = atomic ? small_atomic : small_normal;
    GC_FAST_MALLOC_GRANS(p, granules, lists, 0, atomic ? GC_I_PTRFREE : GC_I_NORMAL,
                         atomic ? GC_MALLOC_ATOMIC(size) : GC_MALLOC(size), *(void **)p = NULL);
    if (!p)
        tlc_raise_memory(tlc_site_op(site), tlc_site_pc(site));
    if (atomic)
        memset(p, 0, size);
    return p;
}

/* The first object of the free list for `granules`, taken off it, or NULL
 * when it has none: what GC_FAST_MALLOC_GRANS (gc_inline.h) does first,
 * where a head no greater than GC_TINY_FREELISTS + 1 is a count, not an
 * object, and an object's first word links the next. Apart from the
 * refill, so that the path every box takes saves no registers. */
static inline void *pop(void **lists, size_t granules)
{
    void *p = granules < GC_TINY_FREELISTS ? lists[granules] : NULL;
    if ((GC_word)p <= GC_TINY_FREELISTS + 1)
        return NULL;
    lists[granules] = *(void **)p;
    return p;
}

/* The lists compiled code pops (tlc_free_list_allocators). */
static void **normal_list(uint64_t size)
{
    size_t granules = granules_of(size);
    return granules < GC_TINY_FREELISTS ? &small_normal[granules] : NULL;
}

static void **atomic_list(uint64_t size)
{
    size_t granules = granules_of(size);
    return granules < GC_TINY_FREELISTS ? &small_atomic[granules] : NULL;
}

const JgFreeListAllocator tlc_free_list_allocators[2] = {
    {.fn = (const void *)tlc_alloc,
     .list = normal_list,
     .empty_max = GC_TINY_FREELISTS + 1,
     .clear_all = false,
     .counter = &tlc_allocations},
    {.fn = (const void *)tlc_alloc_atomic,
     .list = atomic_list,
     .empty_max = GC_TINY_FREELISTS + 1,
     .clear_all = true,
     .counter = &tlc_allocations},
};

/* The collector clears the objects of a normal list but their link word. */
void *tlc_alloc(uint64_t size, TlcSite site)
{
    void *p = pop(small_normal, granules_of(size));
    if (!p)
        return alloc_refill(size, site, false);
    *(void **)p = NULL;
    tlc_allocations++;
    return p;
}

void *tlc_alloc_atomic(uint64_t size, TlcSite site)
{
    void *p = pop(small_atomic, granules_of(size));
    if (!p)
        return alloc_refill(size, site, true);
    tlc_allocations++;
    /* a constant size clears with stores, a variable one calls memset:
     * integers' boxes, the most frequent, take the first way */
    if (size == sizeof(TlcInt))
        memset(p, 0, sizeof(TlcInt));
    else
        memset(p, 0, size);
    return p;
}

TlcObject *tlc_int_new(int64_t value, TlcSite site)
{
    TlcInt *o = tlc_alloc_atomic(sizeof(TlcInt), site);
    o->base.type = &tlc_int_type;
    o->value = value;
    return &o->base;
}

TlcObject *tlc_cons_new(TlcObject *car, TlcObject *cdr, TlcSite site)
{
    TlcCons *o = tlc_alloc(sizeof(TlcCons), site);
    o->base.type = &tlc_cons_type;
    o->car = car;
    o->cdr = cdr;
    return &o->base;
}

TlcObject *tlc_instance_new(const TlcType *cls, TlcSite site)
{
    cls = jit_deepfreeze(cls);
    TlcInstance *o =
        tlc_alloc(sizeof(TlcInstance) + (uint64_t)cls->nattrs * sizeof(TlcObject *), site);
    o->base.type = cls;
    for (uint32_t i = 0; i < cls->nattrs; i++)
        o->attrs[i] = TLC_NIL;
    return &o->base;
}

/* ---- classes: interned types, one per distinct descriptor ---- */

static TlcType **class_table;
static size_t class_count, class_capacity;

static bool same_descriptor(const TlcType *t, const TlcClassDesc *d)
{
    if (t->nattrs != d->nattrs || t->nmethods != d->nmethods)
        return false;
    for (uint32_t i = 0; i < d->nattrs; i++)
        if (strcmp(t->attrs[i], d->attrs[i]) != 0)
            return false;
    for (uint32_t i = 0; i < d->nmethods; i++)
        if (strcmp(t->method_names[i], d->methods[i].name) != 0 ||
            t->method_pcs[i] != d->methods[i].pc)
            return false;
    return true;
}

static void free_class(TlcType *t)
{
    if (!t)
        return;
    if (t->attrs)
        for (uint32_t i = 0; i < t->nattrs; i++)
            free((char *)t->attrs[i]);
    if (t->method_names)
        for (uint32_t i = 0; i < t->nmethods; i++)
            free((char *)t->method_names[i]);
    free((void *)t->attrs);
    free((void *)t->method_names);
    free((void *)t->method_pcs);
    free(t);
}

/* Copies a descriptor into a fresh class type; NULL when out of memory. */
static TlcType *make_class(const TlcClassDesc *d)
{
    TlcType *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->kind = TLC_KIND_INSTANCE;
    t->name = "object";
    t->ops = &tlc_instance_ops;
    char **attrs = calloc(d->nattrs + 1, sizeof(char *));
    char **names = calloc(d->nmethods + 1, sizeof(char *));
    uint32_t *pcs = calloc(d->nmethods + 1, sizeof(uint32_t));
    t->attrs = (const char *const *)attrs;
    t->method_names = (const char *const *)names;
    t->method_pcs = pcs;
    t->nattrs = d->nattrs;
    t->nmethods = d->nmethods;
    if (!attrs || !names || !pcs) {
        free_class(t);
        return NULL;
    }
    for (uint32_t i = 0; i < d->nattrs; i++)
        if (!(attrs[i] = strdup(d->attrs[i]))) {
            free_class(t);
            return NULL;
        }
    for (uint32_t i = 0; i < d->nmethods; i++) {
        if (!(names[i] = strdup(d->methods[i].name))) {
            free_class(t);
            return NULL;
        }
        pcs[i] = d->methods[i].pc;
    }
    return t;
}

const TlcType *tlc_class_get(const TlcClassDesc *desc)
{
    for (size_t i = 0; i < class_count; i++)
        if (same_descriptor(class_table[i], desc))
            return class_table[i];
    if (class_count == class_capacity) {
        size_t cap = class_capacity ? class_capacity * 2 : 16;
        TlcType **grown = realloc(class_table, cap * sizeof *grown);
        if (!grown)
            return NULL;
        class_table = grown;
        class_capacity = cap;
    }
    TlcType *t = make_class(desc);
    if (!t)
        return NULL;
    class_table[class_count++] = t;
    return t;
}

int64_t tlc_class_attr_index(const TlcType *cls, const char *name)
{
    for (uint32_t i = 0; i < cls->nattrs; i++)
        if (strcmp(cls->attrs[i], name) == 0)
            return i;
    return -1;
}

int64_t tlc_class_method_pc(const TlcType *cls, const char *name)
{
    for (uint32_t i = 0; i < cls->nmethods; i++)
        if (strcmp(cls->method_names[i], name) == 0)
            return cls->method_pcs[i];
    return -1;
}

void tlc_classes_free(void)
{
    for (size_t i = 0; i < class_count; i++)
        free_class(class_table[i]);
    free(class_table);
    class_table = NULL;
    class_count = class_capacity = 0;
}
