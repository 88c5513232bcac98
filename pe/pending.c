/* Lazy stores into real memory. A store of a virtual object's pointer into
 * real memory would make the object escape (materialize it). Instead the
 * store is kept pending in the heap cache: loads of that address see the
 * virtual, and the store is emitted only when something could observe the
 * memory (a residual call, a memory operation, a load or store that may
 * alias it, the end of the residual code) or when a merge point cannot
 * carry it. Carried around a loop, the object stays virtual for the whole
 * loop even though the memory it is stored into is real (an object the
 * interpreter allocated before the JIT took over). */
#include "pe_internal.h"

bool pending_keepable(Av value)
{
    return value.kind == AV_VIRT && !value.obj->materialized;
}

/* Residualizing may materialize objects and grow the cache, so the entry is
 * looked up again by index. */
void pending_flush_entry(JgPe *pe, State *s, uint32_t block, uint32_t i)
{
    CacheEntry e = s->cache[i];
    JgVal addr = e.base ? emit_pointer_plus(pe, block, e.base, e.offset)
                        : emit_const(pe, JG_PTR, (uint64_t)e.offset);
    JgVal value = residualize(pe, s, block, e.value);
    JgVal args[2] = {addr, value};
    emit_op(pe, block, JG_OP_STORE, JG_VOID, 2, args);
    pe->stats.pending_flushed++;
    s->cache[i].pending = 0;
    s->cache[i].value = av_var((JgType)e.value.type, value);
}

void pending_flush_all(JgPe *pe, State *s, uint32_t block)
{
    for (uint32_t i = 0; i < s->ncache; i++)
        if (s->cache[i].pending)
            pending_flush_entry(pe, s, block, i);
}

/* Whether the heap cache holds a constant (*bits) for the first word of
 * `base` (a header: an object's type or class, promoted). Two bases whose
 * first words are different constants are different objects: the cache is
 * current (every store invalidates the entries it overlaps, whatever their
 * base), and bases are the starts of objects (the same assumption that lets
 * accesses at disjoint offsets through different bases pass each other),
 * and one object has one first word. */
static bool first_word(const State *s, JgVal base, uint64_t *bits)
{
    for (uint32_t i = 0; base && i < s->ncache; i++) {
        const CacheEntry *e = &s->cache[i];
        if (e->base == base && e->offset == 0 && (e->type == JG_PTR || e->type == JG_I64)) {
            *bits = e->value.bits;
            return e->value.kind == AV_CONST;
        }
    }
    return false;
}

/* Before an access of `type` at (base, offset) to real memory: the pending
 * stores to bytes it may touch are emitted first, in their order, except a
 * store to exactly this address and type (which the access reads or
 * replaces). Different bases at overlapping offsets may be the same object,
 * unless their first words tell them apart (first_word). A load from the
 * host array passes them all: no store goes there. */
void pending_flush_aliases(JgPe *pe, State *s, uint32_t block, JgVal base, int64_t offset,
                           JgType type)
{
    if (base && base == s->host_array)
        return; /* the portal never writes the host array (JgPeOptions.host_array) */
    uint64_t header, other;
    bool known = first_word(s, base, &header); /* the bits, not the entry: flushing may
                                                   grow the cache */
    for (uint32_t i = 0; i < s->ncache; i++) {
        const CacheEntry *e = &s->cache[i];
        if (!e->pending)
            continue;
        if (e->base == base && e->offset == offset && e->type == type)
            continue;
        if (!cache_entry_overlaps(e, offset, type))
            continue;
        if (!known || e->base == base || !first_word(s, e->base, &other) || other == header)
            pending_flush_entry(pe, s, block, i);
    }
}

void pending_put(JgPe *pe, State *s, JgVal base, int64_t offset, JgType type, Av value)
{
    cache_invalidate_store(s, base, offset, type);
    cache_put(pe, s, base, offset, type, value)->pending = 1;
    pe->stats.pending_stores++;
}

uint32_t pending_count(const State *s)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->ncache; i++)
        n += s->cache[i].pending;
    return n;
}

/* ---- which pending stores a merge point can carry ---- */

typedef struct Reach {
    JG_VEC(JgVal) vars;
    uint32_t mark;
} Reach;

static bool reach_has(const Reach *r, JgVal v)
{
    for (uint32_t i = 0; i < r->vars.count; i++)
        if (r->vars.items[i] == v)
            return true;
    return false;
}

static void reach_add(JgPe *pe, Reach *r, JgVal v)
{
    if (!reach_has(r, v))
        JG_VEC_PUSH(pe->rg->arena, r->vars, v);
}

static void reach_av(JgPe *pe, Reach *r, Av a)
{
    if (a.kind == AV_VAR) {
        reach_add(pe, r, a.var);
    } else if (a.kind == AV_VIRT) {
        Virt *o = a.obj;
        if (o->materialized) {
            reach_add(pe, r, o->materialized);
            return;
        }
        if (o->mark == r->mark)
            return;
        o->mark = r->mark;
        for (uint32_t i = 0; i < o->nfields; i++)
            reach_av(pe, r, o->fields[i].value);
    }
}

static void unmark_av(Av a)
{
    if (a.kind == AV_VIRT && !a.obj->materialized && a.obj->mark) {
        Virt *o = a.obj;
        o->mark = 0;
        for (uint32_t i = 0; i < o->nfields; i++)
            unmark_av(o->fields[i].value);
    }
}

/* An object of a value allocator (JG_FLAG_VALUE: an immutable box, a
 * number): past the bound it stays virtual wherever it is (merge.c,
 * measure_depths), unlike other objects, which may become variables. */
bool pending_value_object(const Virt *o)
{
    return o->kind == VIRT_HEAP && o->allocator && (o->allocator->flags & JG_FLAG_VALUE);
}

/* A new block's state names memory by its parameters: a pending store
 * survives a merge point only when its base is a residual value the state
 * still holds in a frame (or, transitively, as the known contents of such
 * memory), and its value is still a virtual object. The others are emitted
 * in the arriving block. Past the bound of blocks per key (`SETTLE_BOUND`)
 * only the stores of boxed numbers (pending_value_object) stay: a number
 * stored into an attribute of an object the loop works on stays virtual
 * around the loop, as it does when the object itself is virtual; one
 * whose base the generalized state no longer holds is emitted when the
 * state jumps (merge.c, rebase_pending). `SETTLE_ALL`: every store is
 * emitted. */
void pending_settle(JgPe *pe, State *s, uint32_t block, SettleMode mode)
{
    if (!pending_count(s))
        return;
    if (mode == SETTLE_ALL) {
        pending_flush_all(pe, s, block);
        return;
    }
    if (mode == SETTLE_BOUND)
        for (uint32_t i = 0; i < s->ncache; i++)
            if (s->cache[i].pending && !(pending_keepable(s->cache[i].value) &&
                                         pending_value_object(s->cache[i].value.obj)))
                pending_flush_entry(pe, s, block, i);
    Reach r = {.mark = ++pe->walk};
    for (uint32_t d = 0; d < s->depth; d++)
        for (uint32_t l = 0; l < s->frames[d].nlocals; l++)
            reach_av(pe, &r, s->frames[d].locals[l]);
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t i = 0; i < s->ncache; i++) {
            const CacheEntry *e = &s->cache[i];
            if (e->pending || e->value.kind != AV_VAR || reach_has(&r, e->value.var))
                continue;
            if (!e->base || reach_has(&r, e->base)) {
                reach_add(pe, &r, e->value.var);
                grew = true;
            }
        }
    }
    for (uint32_t d = 0; d < s->depth; d++)
        for (uint32_t l = 0; l < s->frames[d].nlocals; l++)
            unmark_av(s->frames[d].locals[l]);
    for (uint32_t i = 0; i < s->ncache; i++) {
        const CacheEntry *e = &s->cache[i];
        if (e->pending && (!pending_keepable(e->value) || (e->base && !reach_has(&r, e->base))))
            pending_flush_entry(pe, s, block, i);
    }
}

/* ---- which pending stores a loop header keeps ---- */

/* Whether `shape` keeps a pending store at `offset` with `type` (of any
 * base: the bases of a block's shape are its parameters). */
static bool shape_keeps(const State *shape, int64_t offset, uint8_t type)
{
    for (uint32_t i = 0; i < shape->ncache; i++)
        if (shape->cache[i].pending && shape->cache[i].offset == offset &&
            shape->cache[i].type == type)
            return true;
    return false;
}

/* Whether `a` is a virtual object that links to real memory (a field holds
 * a residual pointer or a materialized object, itself or through the
 * virtual objects it holds): a node joining a real structure, which later
 * trips rarely overwrite before it escapes, unlike a boxed number replaced
 * by the next write to its field. `mark` stops at objects seen (virtual
 * objects may form cycles). */
static bool links_real(Av a, uint32_t mark)
{
    if (a.kind != AV_VIRT || a.obj->materialized || a.obj->mark == mark)
        return false;
    a.obj->mark = mark;
    for (uint32_t i = 0; i < a.obj->nfields; i++) {
        Av f = a.obj->fields[i].value;
        if ((f.kind == AV_VAR && f.type == JG_PTR) || (f.kind == AV_VIRT && f.obj->materialized) ||
            links_real(f, mark))
            return true;
    }
    return false;
}

uint32_t pending_narrow(JgPe *pe, State *s, uint32_t block, const State *shape)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->ncache; i++)
        if (s->cache[i].pending && !shape_keeps(shape, s->cache[i].offset, s->cache[i].type)) {
            bool links = links_real(s->cache[i].value, ++pe->walk);
            unmark_av(s->cache[i].value);
            if (links) {
                pending_flush_entry(pe, s, block, i);
                n++;
            }
        }
    return n;
}
