/* Emitting residual operations: constants, materializing virtual objects
 * when they escape, and the heap cache of known memory contents. */
#include <string.h>

#include "pe_internal.h"

JgVal emit_const(JgPe *pe, JgType type, uint64_t bits)
{
    return jg_const(pe->rg, type, bits);
}

JgVal emit_op(JgPe *pe, uint32_t block, JgOpcode opcode, JgType type, uint32_t nargs,
              const JgVal *args)
{
    pe->stats.residual_ops++;
    /* memory may change: the host array's objects are no longer known */
    if (opcode == JG_OP_STORE || opcode == JG_OP_MEMCPY || opcode == JG_OP_MEMSET ||
        opcode == JG_OP_CALL) {
        pe->host_array_shapes = NULL;
        pe->host_guess = NULL;
    }
    return jg_emit(pe->rg, block, opcode, type, nargs, args);
}

JgVal emit_pointer_plus(JgPe *pe, uint32_t block, JgVal base, int64_t offset)
{
    if (offset == 0)
        return base;
    JgVal args[2] = {base, emit_const(pe, JG_I64, (uint64_t)offset)};
    return emit_op(pe, block, JG_OP_PTRADD, JG_PTR, 2, args);
}

/* Marks the object escaped before storing its fields, so that a cycle
 * through it refers to the pointer being built. */
JgVal materialize(JgPe *pe, State *s, uint32_t block, Virt *o)
{
    if (o->materialized)
        return o->materialized;
    pe->stats.materialized++;
    JgVal p;
    if (o->kind == VIRT_HEAP) {
        JgVal args[3] = {jg_const_symbol(pe->rg, o->allocator->native, o->allocator->name),
                         emit_const(pe, o->allocator->param_types[0], (uint64_t)o->size), 0};
        if (o->has_tag)
            args[2] = emit_const(pe, o->allocator->param_types[1], o->tag);
        p = emit_op(pe, block, JG_OP_CALL, JG_PTR, o->has_tag ? 3 : 2, args);
    } else {
        p = emit_op(pe, block, JG_OP_ALLOCA, JG_PTR, 0, NULL);
        jg_last_op(pe->rg, block)->imm = o->size;
    }
    o->materialized = p;
    for (uint32_t i = 0; i < o->nfields; i++) {
        Field *f = &o->fields[i];
        JgVal v = residualize(pe, s, block, f->value);
        JgVal args[2] = {emit_pointer_plus(pe, block, p, f->offset), v};
        emit_op(pe, block, JG_OP_STORE, JG_VOID, 2, args);
        cache_put(pe, s, p, f->offset, (JgType)f->type, f->value);
    }
    return p;
}

JgVal residualize(JgPe *pe, State *s, uint32_t block, Av a)
{
    switch (a.kind) {
    case AV_CONST:
        return emit_const(pe, (JgType)a.type, a.bits);
    case AV_VAR:
        return emit_pointer_plus(pe, block, a.var, a.offset);
    case AV_VIRT:
        return emit_pointer_plus(pe, block, materialize(pe, s, block, a.obj), a.offset);
    default:
        pe_fail(pe, "internal error: an abstract value was used before it was computed");
        return emit_const(pe, (JgType)a.type, 0);
    }
}

/* ---- heap cache ---- */

/* Callers emit the pending stores first (pending_flush_all). Words the
 * interpreter loaded as immutable stay known. */
void cache_forget_all(State *s)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < s->ncache; i++)
        if (s->cache[i].immutable)
            s->cache[kept++] = s->cache[i];
    s->ncache = kept;
}

const CacheEntry *cache_find(const State *s, JgVal base, int64_t offset, JgType type)
{
    for (uint32_t i = 0; i < s->ncache; i++) {
        const CacheEntry *e = &s->cache[i];
        if (e->base == base && e->offset == offset && e->type == type)
            return e;
    }
    return NULL;
}

const Av *cache_get(const State *s, JgVal base, int64_t offset, JgType type)
{
    const CacheEntry *e = cache_find(s, base, offset, type);
    return e ? &e->value : NULL;
}

/* A store through (base, offset) invalidates the entries whose byte range
 * overlaps [offset, offset + size), whatever their base: like type-based
 * alias analysis, two accesses at disjoint offsets of their objects are
 * assumed not to alias (objects do not overlap). The store's own entry is
 * then recorded by the caller. A pending store still pending here is one
 * the caller's pending_flush_aliases let pass, its object being another
 * (pe/pending.c): it stays, unless it is to this very address, which the
 * new store replaces; so does an immutable word (another object's). */
void cache_invalidate_store(State *s, JgVal base, int64_t offset, JgType type)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < s->ncache; i++) {
        CacheEntry *e = &s->cache[i];
        bool same = e->base == base && e->offset == offset && e->type == type;
        if (!cache_entry_overlaps(e, offset, type) || ((e->pending || e->immutable) && !same))
            s->cache[kept++] = *e;
    }
    s->ncache = kept;
}

CacheEntry *cache_put(JgPe *pe, State *s, JgVal base, int64_t offset, JgType type, Av value)
{
    for (uint32_t i = 0; i < s->ncache; i++) {
        CacheEntry *e = &s->cache[i];
        if (e->base == base && e->offset == offset && e->type == type) {
            e->value = value;
            e->pending = 0;
            return e;
        }
    }
    if (s->ncache == s->cache_capacity) {
        uint32_t cap = s->cache_capacity ? s->cache_capacity * 2 : 8;
        CacheEntry *grown = jg_arena_alloc(pe->rg->arena, sizeof(CacheEntry) * cap);
        if (s->ncache)
            memcpy(grown, s->cache, sizeof(CacheEntry) * s->ncache);
        s->cache = grown;
        s->cache_capacity = cap;
    }
    s->cache[s->ncache] =
        (CacheEntry){.base = base, .offset = offset, .type = (uint8_t)type, .value = value};
    return &s->cache[s->ncache++];
}
