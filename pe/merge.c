/* Merge points: keys of green values, residual blocks with the virtual state
 * each assumes, matching an arriving state against them, and generalizing
 * when none fits. Also the walks over a state's residual values used by
 * promotion. */
#include <stdlib.h>
#include <string.h>

#include "pe_internal.h"

/* ---- walking the red part of a state in canonical order ---- */

static bool local_is_green(const Frame *f, uint32_t local_index, JgVal *value_out)
{
    JgVal v = f->info->locals[f->block][local_index];
    *value_out = v;
    return v && f->bta->color[v] == JG_GREEN && f->locals[local_index].kind == AV_CONST;
}

/* ---- keys ---- */

/* A key under construction: make_key allocates its largest size at once. */
typedef struct Buf {
    uint8_t *data;
    uint32_t len;
    JgArena *arena;
} Buf;

static void buf_put(Buf *b, const void *p, uint32_t n)
{
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static uint64_t hash_bytes(const uint8_t *p, uint32_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* The key: position of every frame and the constants of its green locals. */
static void make_key(const State *s, Buf *key)
{
    /* the largest size: per frame its graph, block and op, per local a tag
     * and at most 8 bytes of a constant */
    uint32_t most = 0;
    for (uint32_t d = 0; d < s->depth; d++)
        most += sizeof s->frames[d].g + sizeof s->frames[d].block + sizeof s->frames[d].op +
                (1 + sizeof(uint64_t)) * s->frames[d].nlocals;
    key->data = jg_arena_alloc(key->arena, most);
    for (uint32_t d = 0; d < s->depth; d++) {
        const Frame *f = &s->frames[d];
        buf_put(key, &f->g, sizeof f->g);
        buf_put(key, &f->block, sizeof f->block);
        buf_put(key, &f->op, sizeof f->op);
        for (uint32_t l = 0; l < f->nlocals; l++) {
            JgVal v;
            uint8_t tag = local_is_green(f, l, &v) ? 1 : (f->locals[l].kind == AV_NONE ? 2 : 0);
            buf_put(key, &tag, 1);
            if (tag == 1)
                buf_put(key, &f->locals[l].bits, sizeof(uint64_t));
        }
    }
}

/* ---- parallel walks ---- */

typedef enum WalkMode {
    WALK_MATCH,      /* does `cur` fit `shape` (no materialization)? collect args */
    WALK_GENERALIZE, /* build `shape` from `cur` and a previous shape */
} WalkMode;

typedef struct Walk {
    JgPe *pe;
    WalkMode mode;
    State *cur;
    uint32_t block; /* where residual values are emitted (args) */
    bool ok;
    bool full;                /* generalize everything to variables */
    unsigned in_virt;         /* generalizing a virtual object's fields */
    bool exact;               /* match: a variable slot does not accept a constant */
    bool keep_known;          /* match: the block must know the constants in memory */
    JG_VEC(JgVal) args;       /* link arguments, one per VAR slot of the shape */
    JG_VEC(uint8_t) types;    /* their types (for new block parameters) */
    JG_VEC(Av *) var_slots;   /* generalize: the shape slots that became variables */
    JG_VEC(JgVal) pair_param; /* a shape variable ... */
    JG_VEC(Av) pair_value;    /* ... and the current value in its slot */
    JG_VEC(Virt *) marked;    /* match: the objects match_virt marked */
    uint32_t mark;
    uint32_t depth_walk; /* the walk of measure_depths */
    bool hard;           /* past HARD_BOUND times the bound (measure_depths) */
} Walk;

static void add_pair(Walk *w, JgVal param, Av value)
{
    JG_VEC_PUSH(&w->pe->arena, w->pair_param, param);
    JG_VEC_PUSH(&w->pe->arena, w->pair_value, value);
}

static bool same_av(const Av *a, const Av *b)
{
    return a->kind == b->kind && a->var == b->var && a->offset == b->offset && a->bits == b->bits &&
           a->obj == b->obj;
}

/* Index of the pair of shape variable `param`, or pair_param.count. */
static uint32_t find_param(const Walk *w, JgVal param)
{
    uint32_t k = 0;
    while (k < w->pair_param.count && w->pair_param.items[k] != param)
        k++;
    return k;
}

/* Index of the pair whose current value is the variable `var` + `offset`,
 * or pair_param.count. */
static uint32_t find_value(const Walk *w, JgVal var, int64_t offset)
{
    uint32_t k = 0;
    while (k < w->pair_param.count &&
           !(w->pair_value.items[k].kind == AV_VAR && w->pair_value.items[k].var == var &&
             w->pair_value.items[k].offset == offset))
        k++;
    return k;
}

/* Index of the pair whose current value is the variable `var` at any
 * offset (a base of known memory), or pair_param.count. */
static uint32_t find_base(const Walk *w, JgVal var)
{
    uint32_t k = 0;
    while (k < w->pair_param.count &&
           !(w->pair_value.items[k].kind == AV_VAR && w->pair_value.items[k].var == var))
        k++;
    return k;
}

static void add_arg(Walk *w, Av c, Av *slot)
{
    JgVal v = residualize(w->pe, w->cur, w->block, c);
    JG_VEC_PUSH(&w->pe->arena, w->args, v);
    JG_VEC_PUSH(&w->pe->arena, w->types, c.type);
    if (slot)
        JG_VEC_PUSH(&w->pe->arena, w->var_slots, slot);
}

static void match_av(Walk *w, Av t, Av c);
static void collect_args(Walk *w, Av t, Av c);

/* A current object a shape variable takes (it will be materialized, and
 * every object it reaches with it): none of them may also be an object the
 * shape keeps virtual, or the block would hold two copies of it. */
static void match_escaping(Walk *w, Virt *c)
{
    if (c->materialized || c->escape_walk == w->mark)
        return;
    if (c->mark == w->mark) {
        w->ok = false;
        return;
    }
    c->escape_walk = w->mark;
    for (uint32_t i = 0; i < c->nfields && w->ok; i++)
        if (c->fields[i].value.kind == AV_VIRT)
            match_escaping(w, c->fields[i].value.obj);
}

/* An allocator's tag (the allocation's site) is not part of the match:
 * the target's is kept, so that a loop allocating at two sites still
 * closes; only error messages read it. */
static void match_virt(Walk *w, Virt *t, Virt *c)
{
    if (t->mark == w->mark) {
        if (t->copy != c)
            w->ok = false;
        return;
    }
    if (c->mark == w->mark || c->escape_walk == w->mark || c->materialized || t->kind != c->kind ||
        t->size != c->size || t->allocator != c->allocator || t->nfields != c->nfields) {
        w->ok = false;
        return;
    }
    t->mark = w->mark;
    c->mark = w->mark;
    t->copy = c;
    JG_VEC_PUSH(&w->pe->arena, w->marked, t);
    JG_VEC_PUSH(&w->pe->arena, w->marked, c);
    for (uint32_t i = 0; i < t->nfields && w->ok; i++) {
        if (t->fields[i].offset != c->fields[i].offset || t->fields[i].type != c->fields[i].type) {
            w->ok = false;
            return;
        }
        match_av(w, t->fields[i].value, c->fields[i].value);
    }
}

/* In match mode, `t` is the target shape's slot and `c` the current one. */
static void match_av(Walk *w, Av t, Av c)
{
    if (!w->ok)
        return;
    if (c.kind == AV_VIRT && c.obj->materialized) {
        Av v = av_var(JG_PTR, c.obj->materialized);
        v.offset = c.offset;
        c = v;
    }
    switch (t.kind) {
    case AV_VAR:
        if (c.kind == AV_VIRT && w->mode == WALK_MATCH && !w->full) {
            w->ok = false; /* would escape: prefer a more specialized block */
            return;
        }
        if (c.kind == AV_VIRT) {
            match_escaping(w, c.obj);
            if (!w->ok)
                return;
        }
        if (c.kind == AV_CONST && w->exact) {
            w->ok = false; /* would lose a constant: try the others first */
            return;
        }
        {
            /* a parameter in several slots: the same value in all of them */
            uint32_t k = find_param(w, t.var);
            if (k < w->pair_param.count)
                w->ok = same_av(&w->pair_value.items[k], &c);
            else
                add_pair(w, t.var, c);
        }
        return;
    case AV_CONST:
        if (c.kind != AV_CONST || c.bits != t.bits)
            w->ok = false;
        return;
    case AV_VIRT:
        if (c.kind != AV_VIRT || c.offset != t.offset) {
            w->ok = false;
            return;
        }
        match_virt(w, t.obj, c.obj);
        return;
    default:
        if (c.kind != AV_NONE)
            w->ok = false;
        return;
    }
}

static void clear_marks_av(Av a);

static void clear_marks_virt(Virt *o)
{
    if (!o->mark && !o->copy)
        return;
    o->mark = 0;
    o->copy = NULL;
    for (uint32_t i = 0; i < o->nfields; i++)
        clear_marks_av(o->fields[i].value);
}

static void clear_marks_av(Av a)
{
    if (a.kind == AV_VIRT)
        clear_marks_virt(a.obj);
}

static void clear_marks(State *s)
{
    for (uint32_t d = 0; d < s->depth; d++)
        for (uint32_t l = 0; l < s->frames[d].nlocals; l++)
            clear_marks_av(s->frames[d].locals[l]);
    for (uint32_t i = 0; i < s->ncache; i++)
        clear_marks_av(s->cache[i].value);
}

/* Red slots of a frame: locals that are not green constants. */
static bool red_slot(const Frame *f, uint32_t l)
{
    JgVal v;
    return !local_is_green(f, l, &v);
}

/* Checks whether `cur` fits `shape`; on success, w->args has one entry per
 * VAR slot, filled by a second pass with residual values. */
/* The block assumes known memory contents (its heap cache): the arriving
 * state must know the same addresses, with the same constants where the
 * block has constants; cached variables are passed as extra arguments
 * (after those of the frames) when `collect` is set. */
static bool cache_walk(Walk *w, const State *shape, const State *cur, bool collect)
{
    for (uint32_t i = 0; i < shape->ncache; i++) {
        const CacheEntry *e = &shape->cache[i];
        if (e->pending)
            continue; /* pending_walk */
        JgVal base = 0;
        int64_t offset = e->offset;
        if (e->base) {
            uint32_t k = 0;
            while (k < w->pair_param.count && w->pair_param.items[k] != e->base)
                k++;
            if (k == w->pair_param.count || w->pair_value.items[k].kind != AV_VAR)
                return false;
            base = w->pair_value.items[k].var;
            offset += w->pair_value.items[k].offset;
        }
        const CacheEntry *found = cache_find(cur, base, offset, (JgType)e->type);
        if (!found || found->pending)
            return false;
        const Av *known = &found->value;
        if (e->value.kind == AV_CONST) {
            if (known->kind != AV_CONST || known->bits != e->value.bits)
                return false;
        } else if (known->kind == AV_VIRT) {
            return false; /* the block expects a plain variable */
        } else {
            uint32_t k = find_param(w, e->value.var);
            if (k < w->pair_param.count) {
                /* the block knows this value is the same as one of its
                 * parameters: so must the arriving state */
                const Av *same = &w->pair_value.items[k];
                if (known->kind != same->kind || known->var != same->var ||
                    known->offset != same->offset || known->bits != same->bits)
                    return false;
            } else {
                if (collect)
                    add_arg(w, *known, NULL);
                /* later entries may be based on this value (kept in order) */
                add_pair(w, e->value.var, *known);
            }
        }
    }
    return true;
}

/* The block's pending stores (pe/pending.c) must be exactly the arriving
 * state's: the same addresses (bases through the parameters) holding
 * virtual objects that match. In `collect` mode, the second pass: the
 * arguments for the variables inside those objects. Runs after cache_walk,
 * whose pairs may give the bases, and with the frames' marks still set, so
 * an object both in a frame and in a pending store is one object in both. */
static bool pending_walk(Walk *w, State *shape, State *cur, bool collect)
{
    if (pending_count(shape) != pending_count(cur))
        return false;
    uint8_t used[cur->ncache + 1];
    memset(used, 0, cur->ncache + 1);
    for (uint32_t i = 0; i < shape->ncache; i++) {
        const CacheEntry *e = &shape->cache[i];
        if (!e->pending)
            continue;
        JgVal base = 0;
        int64_t offset = e->offset;
        if (e->base) {
            uint32_t k = find_param(w, e->base);
            if (k == w->pair_param.count || w->pair_value.items[k].kind != AV_VAR)
                return false;
            base = w->pair_value.items[k].var;
            offset += w->pair_value.items[k].offset;
        }
        uint32_t j = 0;
        while (j < cur->ncache &&
               !(cur->cache[j].pending && !used[j] && cur->cache[j].base == base &&
                 cur->cache[j].offset == offset && cur->cache[j].type == e->type))
            j++;
        if (j == cur->ncache)
            return false;
        used[j] = 1;
        if (collect)
            collect_args(w, e->value, cur->cache[j].value);
        else
            match_av(w, e->value, cur->cache[j].value);
        if (!w->ok)
            return false;
    }
    return true;
}

/* Whether `cur` knows a constant in memory (a promoted type) that the
 * block of `shape` would not: an address based on a value the block has as
 * a parameter, or an absolute one. Jumping there loses it, and a loop
 * whose back-edge arrives so promotes the same value again every trip. */
static bool loses_known_constants(const Walk *w, const State *shape, const State *cur)
{
    for (uint32_t i = 0; i < cur->ncache; i++) {
        const CacheEntry *e = &cur->cache[i];
        if (e->pending || e->value.kind != AV_CONST)
            continue;
        JgVal base = 0;
        int64_t offset = e->offset;
        if (e->base) {
            uint32_t k = find_base(w, e->base);
            if (k == w->pair_param.count)
                continue; /* the block would not know the base anyway */
            base = w->pair_param.items[k];
            offset -= w->pair_value.items[k].offset;
        }
        const CacheEntry *known = cache_find(shape, base, offset, (JgType)e->type);
        if (!known || known->value.kind != AV_CONST || known->value.bits != e->value.bits)
            return true;
    }
    return false;
}

static bool match_state(Walk *w, State *shape, State *cur)
{
    w->ok = true;
    w->pair_param.count = 0;
    w->pair_value.count = 0;
    w->mark = ++w->pe->walk;
    for (uint32_t d = 0; d < shape->depth && w->ok; d++) {
        Frame *tf = &shape->frames[d], *cf = &cur->frames[d];
        for (uint32_t l = 0; l < tf->nlocals && w->ok; l++)
            if (red_slot(cf, l))
                match_av(w, tf->locals[l], cf->locals[l]);
    }
    bool ok = w->ok && cache_walk(w, shape, cur, false) && pending_walk(w, shape, cur, false) &&
              !(w->keep_known && loses_known_constants(w, shape, cur));
    /* what clear_marks(shape) and clear_marks(cur) would reset, without
     * walking both states: the match marks no other object */
    for (uint32_t i = 0; i < w->marked.count; i++) {
        w->marked.items[i]->mark = 0;
        w->marked.items[i]->copy = NULL;
    }
    w->marked.count = 0;
    return ok;
}

/* Second pass after a successful match: the residual value of every current
 * slot that the shape holds as a variable, in the same order. */
static void collect_args(Walk *w, Av t, Av c)
{
    if (c.kind == AV_VIRT && c.obj->materialized) {
        Av v = av_var(JG_PTR, c.obj->materialized);
        v.offset = c.offset;
        c = v;
    }
    if (t.kind == AV_VAR) {
        if (find_param(w, t.var) < w->pair_param.count)
            return; /* already passed for an earlier slot */
        add_arg(w, c, NULL);
        add_pair(w, t.var, c);
        return;
    }
    if (t.kind == AV_VIRT && c.kind == AV_VIRT && t.obj->mark != w->mark) {
        t.obj->mark = w->mark;
        for (uint32_t i = 0; i < t.obj->nfields; i++)
            collect_args(w, t.obj->fields[i].value, c.obj->fields[i].value);
    }
}

static void collect_state_args(Walk *w, State *shape, State *cur)
{
    w->args.count = 0;
    w->types.count = 0;
    w->pair_param.count = 0;
    w->pair_value.count = 0;
    w->mark = ++w->pe->walk;
    for (uint32_t d = 0; d < shape->depth; d++) {
        Frame *tf = &shape->frames[d], *cf = &cur->frames[d];
        for (uint32_t l = 0; l < tf->nlocals; l++)
            if (red_slot(cf, l))
                collect_args(w, tf->locals[l], cf->locals[l]);
    }
    cache_walk(w, shape, cur, true);
    pending_walk(w, shape, cur, true);
    clear_marks(shape);
}

/* ---- generalization ---- */

/* Generalizes `c` (current) against `prev` (a previous shape's slot, or
 * AV_NONE when there is no counterpart). Virtuals stay virtual (fields
 * generalized), constants stay constant while unchanged. Returns the shape
 * slot; variables are left as AV_VAR and numbered by bind_params.
 *
 * Past the bound of blocks per key (w->full) termination must be forced:
 * constants without an equal counterpart become variables, and virtual
 * objects deeper than FULL_DEPTH levels below the frames become variables
 * (they are materialized when a state jumps in), so a structure growing
 * around a loop (a list built by consing) cannot grow the shape forever,
 * while the operand stack and the boxes directly in it stay virtual.
 *
 * Past HARD_BOUND times the bound, every object of an allocator but values
 * (hard_variable) becomes a variable at any depth, and what it reaches
 * with it: objects near the frames that differ from trip to trip in which
 * of them a slot holds (a ring of objects whose current node moves) would
 * otherwise make a new block at every arrival, each as general as the last
 * and none fitting the next. */
#define FULL_DEPTH 3
#define HARD_BOUND 4

static Av generalize_av(Walk *w, Av c, Av prev);

typedef JG_VEC(Virt *) VirtQueue;

static void enqueue_depth(Walk *w, VirtQueue *queue, Av a, uint32_t depth)
{
    if (a.kind != AV_VIRT || a.obj->materialized || a.obj->depth_walk == w->depth_walk)
        return;
    a.obj->depth_walk = w->depth_walk;
    a.obj->min_depth = depth;
    JG_VEC_PUSH(&w->pe->arena, *queue, a.obj);
}

/* Whether the hard bound makes `o` a variable: an object of an allocator
 * that is not a value allocator (JG_FLAG_VALUE: immutable boxes whose
 * identity the program cannot tell), not an interpreter's own ALLOCA. */
static bool hard_variable(const Virt *o)
{
    return o->kind == VIRT_HEAP && !(o->allocator && (o->allocator->flags & JG_FLAG_VALUE));
}

/* Sets every virtual object's min_depth: the fewest links from a frame slot
 * or a pending store (depth 1) to it, breadth first; past FULL_DEPTH (and,
 * past the hard bound, for hard_variable objects at any depth) the object
 * and what it reaches are marked to become variables. */
static void measure_depths(Walk *w, const State *cur)
{
    JgPe *pe = w->pe;
    w->depth_walk = ++pe->walk;
    VirtQueue queue = {0};
    for (uint32_t d = 0; d < cur->depth; d++)
        for (uint32_t l = 0; l < cur->frames[d].nlocals; l++)
            if (red_slot(&cur->frames[d], l))
                enqueue_depth(w, &queue, cur->frames[d].locals[l], 1);
    for (uint32_t i = 0; i < cur->ncache; i++)
        if (cur->cache[i].pending)
            enqueue_depth(w, &queue, cur->cache[i].value, 1);
    for (uint32_t head = 0; head < queue.count; head++) {
        Virt *o = queue.items[head];
        for (uint32_t i = 0; i < o->nfields; i++)
            enqueue_depth(w, &queue, o->fields[i].value, o->min_depth + 1);
    }
    /* an object made a variable is materialized, and with it every object
     * it reaches: those must be variables in the shape too (a ring of
     * objects is all virtual or all real) */
    VirtQueue deep = {0};
    for (uint32_t i = 0; i < queue.count; i++)
        if (queue.items[i]->min_depth > FULL_DEPTH || (w->hard && hard_variable(queue.items[i]))) {
            queue.items[i]->min_depth = FULL_DEPTH + 1;
            JG_VEC_PUSH(&pe->arena, deep, queue.items[i]);
        }
    while (deep.count) {
        Virt *o = deep.items[--deep.count];
        for (uint32_t i = 0; i < o->nfields; i++) {
            Av a = o->fields[i].value;
            if (a.kind == AV_VIRT && a.obj->depth_walk == w->depth_walk &&
                a.obj->min_depth <= FULL_DEPTH) {
                a.obj->min_depth = FULL_DEPTH + 1;
                JG_VEC_PUSH(&pe->arena, deep, a.obj);
            }
        }
    }
}

static Virt *generalize_virt(Walk *w, Virt *c, Virt *prev)
{
    if (c->copy)
        return c->copy;
    Virt *g = virt_new(w->pe, (VirtKind)c->kind, c->size, c->allocator);
    g->has_tag = c->has_tag;
    g->tag = c->tag;
    w->pe->stats.virtuals--; /* a shape, not a new object */
    c->copy = g;
    bool parallel =
        prev && prev->kind == c->kind && prev->size == c->size && prev->nfields == c->nfields;
    if (c->nfields) { /* the fields come in order: each store appends */
        g->fields = jg_arena_alloc(w->pe->rg->arena, sizeof(Field) * c->nfields);
        g->capacity = c->nfields;
    }
    for (uint32_t i = 0; i < c->nfields; i++) {
        Av pv = {0};
        if (parallel && prev->fields[i].offset == c->fields[i].offset &&
            prev->fields[i].type == c->fields[i].type)
            pv = prev->fields[i].value;
        w->in_virt++;
        Av v = generalize_av(w, c->fields[i].value, pv);
        w->in_virt--;
        virt_store(w->pe, g, c->fields[i].offset, (JgType)c->fields[i].type, v);
    }
    return g;
}

static Av generalize_av(Walk *w, Av c, Av prev)
{
    if (c.kind == AV_VIRT && c.obj->materialized) {
        Av v = av_var(JG_PTR, c.obj->materialized);
        v.offset = c.offset;
        c = v;
    }
    Av var = {.kind = AV_VAR, .type = c.type};
    switch (c.kind) {
    case AV_CONST:
        /* past the bound, a constant this path never had otherwise becomes
         * a variable, but not a pointer in a virtual object's field: that is
         * the object's class or type (static data, as many as the program
         * has), and a variable class is promoted again by the next send or
         * type test, one flexswitch per merge of such a block */
        if (prev.kind == AV_NONE)
            return w->full && !(w->in_virt && c.type == JG_PTR) ? var : c;
        if (prev.kind != AV_CONST || prev.bits != c.bits)
            return var;
        return c;
    case AV_VAR:
        return var;
    case AV_VIRT: {
        /* by the object's nearest path from the frames, not this path's
         * depth: an object both near and deep (a ring of objects) is kept
         * virtual everywhere or made a variable everywhere, never both, or
         * the block would hold two copies of it */
        if (w->full && c.obj->depth_walk == w->depth_walk && c.obj->min_depth > FULL_DEPTH)
            return var;
        Av r = c;
        r.obj = generalize_virt(w, c.obj, prev.kind == AV_VIRT ? prev.obj : NULL);
        return r;
    }
    default:
        return c;
    }
}

static void clear_copies_av(Av a)
{
    if (a.kind == AV_VIRT && a.obj->copy) {
        Virt *o = a.obj;
        o->copy = NULL;
        for (uint32_t i = 0; i < o->nfields; i++)
            clear_copies_av(o->fields[i].value);
    }
}

/* Numbers the VAR slots of a freshly generalized state as parameters of
 * `block`, in canonical order, and collects the matching link arguments
 * from `cur` (walked in parallel). */
static void bind_params(Walk *w, Av *slot, Av c, uint32_t block)
{
    if (c.kind == AV_VIRT && c.obj->materialized) {
        Av v = av_var(JG_PTR, c.obj->materialized);
        v.offset = c.offset;
        c = v;
    }
    /* binding an earlier slot materialized the object this one holds (one
     * object in several slots, a field's value residualized): the block
     * receives its address, like the other slots holding it */
    if (slot->kind == AV_VIRT && c.kind != AV_VIRT)
        *slot = av_var((JgType)c.type, 0);
    if (slot->kind == AV_VAR) {
        /* the same residual value in several slots stays one parameter, so
         * what is known about it (the heap cache) stays attached */
        uint32_t k = w->pair_param.count;
        for (uint32_t i = 0; i < w->pair_param.count && c.kind != AV_VIRT; i++)
            if (same_av(&w->pair_value.items[i], &c))
                k = i;
        if (k < w->pair_param.count) {
            slot->var = w->pair_param.items[k];
            slot->offset = 0;
            return;
        }
        add_arg(w, c, NULL);
        slot->var = jg_block_add_param(w->pe->rg, block, (JgType)c.type);
        slot->offset = 0;
        add_pair(w, slot->var, c);
        return;
    }
    if (slot->kind == AV_VIRT && slot->obj->mark != w->mark) {
        slot->obj->mark = w->mark;
        for (uint32_t i = 0; i < slot->obj->nfields; i++)
            bind_params(w, &slot->obj->fields[i].value, c.obj->fields[i].value, block);
    }
}

/* The new block keeps the known memory contents whose base is one of its
 * parameters (or an absolute address): constants stay constants (e.g. the
 * promoted type of an object), variables become more parameters. Later
 * arrivals must know the same (cache_walk). */
static void rebase_cache(Walk *w, State *g, const State *cur, uint32_t block)
{
    /* past the bound of blocks per key, only what is known of the frames'
     * own values (and of absolute addresses) is kept: a chain of known
     * contents (a list walked with its head kept, each cell's cdr known)
     * would otherwise grow by one link per trip and never fit again */
    uint32_t bases = w->full ? w->pair_param.count : UINT32_MAX;
    uint32_t n = cur->ncache;
    const CacheEntry *old = cur->cache;
    uint8_t done[n + 1];
    memset(done, 0, n + 1);
    /* room for every entry at once: growing by doubling left the smaller
     * arrays behind in the arena at every merge point */
    g->cache = jg_arena_alloc(w->pe->rg->arena, sizeof(CacheEntry) * (n + 1));
    g->ncache = 0;
    g->cache_capacity = n + 1;
    /* passes until nothing more can be kept: an entry's base may be the
     * value of another entry kept in an earlier pass */
    for (bool progress = true; progress;) {
        progress = false;
        for (uint32_t i = 0; i < n; i++) {
            CacheEntry e = old[i];
            if (done[i] || e.pending || e.value.kind == AV_VIRT)
                continue;
            if (e.base) {
                uint32_t k = find_base(w, e.base);
                if (k == w->pair_param.count || k >= bases)
                    continue;
                e.offset -= w->pair_value.items[k].offset;
                e.base = w->pair_param.items[k];
            }
            if (e.value.kind == AV_VAR) {
                Av was = e.value;
                uint32_t k = find_value(w, was.var, was.offset);
                if (k < w->pair_param.count) {
                    e.value = av_var((JgType)was.type, w->pair_param.items[k]);
                } else {
                    add_arg(w, was, NULL);
                    e.value = av_var((JgType)was.type,
                                     jg_block_add_param(w->pe->rg, block, (JgType)was.type));
                    add_pair(w, e.value.var, was);
                }
            }
            done[i] = 1;
            progress = true;
            cache_put(w->pe, g, e.base, e.offset, (JgType)e.type, e.value)->immutable = e.immutable;
        }
    }
}

/* The shape's pending store that `e` continues around a loop: the one at
 * the same offset with the same type, when there is exactly one. */
static Av previous_pending(const State *shape, const CacheEntry *e)
{
    Av prev = {0};
    unsigned n = 0;
    for (uint32_t i = 0; i < shape->ncache; i++) {
        const CacheEntry *p = &shape->cache[i];
        if (p->pending && p->offset == e->offset && p->type == e->type) {
            prev = p->value;
            n++;
        }
    }
    return n == 1 ? prev : (Av){0};
}

/* The new block keeps the arriving state's pending stores, generalized in
 * `pend` (after the rest of the cache, in the order pending_walk checks
 * them): bases become parameters, and the variables inside the stored
 * objects more parameters. pending_settle left only stores whose base the
 * block has as a parameter, but past the bound, where what holds a base
 * may become a variable, boxed numbers: their stores are emitted as the
 * state jumps. */
static void rebase_pending(Walk *w, State *g, State *cur, CacheEntry *pend, uint32_t npend,
                           uint32_t block)
{
    uint32_t j = 0;
    for (uint32_t i = 0; i < cur->ncache && j < npend; i++) {
        if (!cur->cache[i].pending)
            continue;
        CacheEntry e = pend[j++];
        if (e.base) {
            uint32_t k = find_base(w, e.base);
            if (k == w->pair_param.count && cur->cache[i].value.kind == AV_VIRT &&
                pending_value_object(cur->cache[i].value.obj)) {
                /* past the bound the object stored into became the value
                 * of a variable: the store is emitted before the jump (the
                 * box may stay virtual in the block too: it is a value) */
                pending_flush_entry(w->pe, cur, w->block, i);
                continue;
            }
            if (k == w->pair_param.count) {
                pe_fail(w->pe, "internal error: a pending store's base is not a parameter");
                return;
            }
            e.offset -= w->pair_value.items[k].offset;
            e.base = w->pair_param.items[k];
        }
        bind_params(w, &e.value, cur->cache[i].value, block);
        cache_put(w->pe, g, e.base, e.offset, (JgType)e.type, e.value)->pending = 1;
    }
}

/* ---- the merge point ---- */

/* Blocks of earlier compilations can be jumped to only when their method's
 * dispatcher can enter them (JG_BLOCK_ENTRY): those are the blocks a
 * compilation jumped to from elsewhere in itself, i.e. its loop headers.
 * Marking only those keeps the dispatchers small; a later compilation that
 * needs any other block specializes a copy of its own. */
static bool reachable_entry(const JgPe *pe, const MergeEntry *e, uint32_t compilation)
{
    return e->compilation == compilation || (pe->rg->blocks.items[e->block].flags & JG_BLOCK_ENTRY);
}

/* Whether `e` is on the path that led to state `cur`: a jump there closes
 * a loop (a jump to a block off the path only joins two paths). Only loop
 * headers need to be enterable by later compilations (reachable_entry):
 * marking every join made each one a dispatcher entry, which LLVM's
 * methods pay for in code size (every landing loads its values). */
static bool on_path(const State *cur, const MergeEntry *e)
{
    unsigned steps = 0;
    for (const PathNode *n = cur->history; n && steps < 4096; n = n->parent, steps++)
        if (n->entry == e)
            return true;
    return false;
}

/* Whether the path to `cur` went through an enterable block made by this
 * compilation. */
static bool path_has_entry(const JgPe *pe, const State *cur, uint32_t compilation)
{
    for (const PathNode *n = cur->history; n && n->entry->compilation == compilation; n = n->parent)
        if (pe->rg->blocks.items[n->entry->block].flags & JG_BLOCK_ENTRY)
            return true;
    return false;
}

static PeResidualData *residual_data(JgPe *pe)
{
    PeResidualData *rd = pe->current->pe_private;
    if (!rd) {
        rd = jg_arena_alloc(pe->rg->arena, sizeof *rd);
        rd->merge_buckets = 64;
        rd->merge_table = jg_arena_alloc(pe->rg->arena, sizeof(MergeEntry *) * rd->merge_buckets);
        rd->path_keys = jg_arena_alloc(pe->rg->arena, PE_PATH_KEY_BITS / 8);
        pe->current->pe_private = rd;
    }
    return rd;
}

/* Four times the buckets once there are two entries per bucket: every
 * merge point scans its bucket. Each old chain is relinked in order, so
 * that entries of one key keep their order (newest first), which decides
 * the block a state matches first. */
static void grow_table(JgPe *pe, PeResidualData *rd)
{
    uint32_t n = rd->merge_buckets * 4;
    MergeEntry **table = jg_arena_alloc(pe->rg->arena, sizeof *table * n);
    MergeEntry ***tails = malloc(sizeof *tails * n);
    if (!tails)
        return; /* longer chains, the same blocks */
    for (uint32_t b = 0; b < n; b++)
        tails[b] = &table[b];
    for (uint32_t b = 0; b < rd->merge_buckets; b++)
        for (MergeEntry *e = rd->merge_table[b], *next; e; e = next) {
            next = e->next;
            uint32_t to = (uint32_t)(e->hash % n);
            e->next = NULL;
            *tails[to] = e;
            tails[to] = &e->next;
        }
    free(tails);
    rd->merge_table = table;
    rd->merge_buckets = n;
}

/* A new entry for `block` with state `g` (a copy is kept), first of its
 * bucket, and the node that puts it on g's path (g->history its parent). */
static void add_entry(JgPe *pe, PeResidualData *rd, uint64_t h, uint8_t *key, uint32_t keylen,
                      uint32_t block, State *g)
{
    MergeEntry *e = jg_arena_alloc(pe->rg->arena, sizeof *e);
    e->hash = h;
    e->keylen = keylen;
    e->key = key;
    e->block = block;
    e->compilation = pe->current->compilation_starts.count - 1;
    e->shape = state_copy(pe, g);
    MergeEntry **bucket = &rd->merge_table[h % rd->merge_buckets];
    e->next = *bucket;
    *bucket = e;
    if (++rd->merge_count > 2 * rd->merge_buckets)
        grow_table(pe, rd);
    if (!rd->node_pool_left) {
        rd->node_pool_left = 1024;
        rd->node_pool = jg_arena_alloc(pe->rg->arena, sizeof *rd->node_pool * rd->node_pool_left);
    }
    PathNode *node = rd->node_pool++;
    rd->node_pool_left--;
    node->entry = e;
    node->parent = g->history;
    node->hash = h;
    uint32_t key_bit = (uint32_t)(h % PE_PATH_KEY_BITS);
    rd->path_keys[key_bit / 64] |= (uint64_t)1 << (key_bit % 64);
    g->history = node;
}

static void jump(JgPe *pe, Walk *w, uint32_t from, uint32_t to)
{
    jg_set_goto(pe->rg, from, jg_link(pe->rg, to, w->args.count, w->args.items));
}

/* After a successful match_state: the arguments for `e`'s block, and the
 * jump there. False, with no jump, when the arguments do not fill the
 * block's parameters: collecting materializes the virtual objects that go
 * to parameters, with the objects reachable from them, and a shape that
 * keeps one of those virtual in another slot then has no argument for the
 * fields it expected (the match saw the object before it escaped). The
 * state, its escaped objects now real, looks for another block. */
static bool collect_and_jump(JgPe *pe, Walk *w, const MergeEntry *e, State *cur, uint32_t from)
{
    collect_state_args(w, e->shape, cur);
    if (w->args.count != pe->rg->blocks.items[e->block].nparams)
        return false;
    jump(pe, w, from, e->block);
    return true;
}

/* Residual blocks per merge-point key before termination is forced. */
static unsigned limit_of(const JgPe *pe)
{
    return pe->options.max_specializations ? pe->options.max_specializations : 6;
}

/* The newest block of key `h` on the path to `cur` (a loop's last trip
 * through it), or NULL. */
static MergeEntry *last_on_path(const PeResidualData *rd, const State *cur, uint64_t h,
                                const Buf *key)
{
    uint32_t key_bit = (uint32_t)(h % PE_PATH_KEY_BITS);
    if (!(rd->path_keys[key_bit / 64] >> (key_bit % 64) & 1))
        return NULL;
    unsigned steps = 0;
    for (PathNode *n = cur->history; n && steps < 1024; n = n->parent, steps++)
        if (n->hash == h && n->entry->keylen == key->len &&
            memcmp(n->entry->key, key->data, key->len) == 0)
            return n->entry;
    return NULL;
}

/* The locals of every frame of `cur`, one after the other, in the partial
 * evaluator's scratch array: what the state arrived with, once its frames
 * (state_take_frames) hold the new block's generalized values. The array
 * grows by doubling in the partial evaluator's own arena. */
static const Av *keep_locals(JgPe *pe, const State *cur)
{
    uint32_t n = 0;
    for (uint32_t d = 0; d < cur->depth; d++)
        n += cur->frames[d].nlocals;
    if (n > pe->kept_capacity) {
        pe->kept_capacity = n > 2 * pe->kept_capacity ? n : 2 * pe->kept_capacity;
        pe->kept = jg_arena_alloc(&pe->arena, sizeof(Av) * (pe->kept_capacity + 1));
    }
    for (uint32_t d = 0, at = 0; d < cur->depth; at += cur->frames[d++].nlocals)
        memcpy(pe->kept + at, cur->frames[d].locals, sizeof(Av) * cur->frames[d].nlocals);
    return pe->kept;
}

bool merge_point(JgPe *pe, State **state, uint32_t *block)
{
    State *cur = *state;
    pending_settle(pe, cur, *block, SETTLE_MERGE);
    PeResidualData *rd = residual_data(pe);
    Buf key = {.arena = pe->rg->arena};
    make_key(cur, &key);
    uint64_t h = hash_bytes(key.data, key.len);
    MergeEntry **bucket = &rd->merge_table[h % rd->merge_buckets];
    Walk w = {.pe = pe, .cur = cur, .block = *block, .mode = WALK_MATCH};
    unsigned count = 0, limit = limit_of(pe);
    bool unreachable_seen = false;
    MergeEntry *last = NULL;
    uint32_t compilation = pe->current->compilation_starts.count - 1;
    for (bool narrowed = false;; narrowed = true) {
        count = 0;
        unreachable_seen = false;
        /* past the bound of blocks per key (counted in the first pass) a
         * block may lose what the arriving state knows of memory */
        for (int pass = 0; pass < 2; pass++) {
            w.exact = pass == 0;
            w.keep_known = pass == 0 || count < limit;
            for (MergeEntry *e = *bucket; e; e = e->next) {
                if (e->hash != h || e->keylen != key.len ||
                    memcmp(e->key, key.data, key.len) != 0 || e->shape->on_words != cur->on_words)
                    continue;
                if (!reachable_entry(pe, e, compilation)) {
                    unreachable_seen = true;
                    continue;
                }
                count += pass == 0;
                if (match_state(&w, e->shape, cur) && collect_and_jump(pe, &w, e, cur, *block)) {
                    /* the jump closes a loop: its header is entered from
                     * within (and guess_late looks at it) */
                    bool own = e->compilation == compilation;
                    if ((own || rd->late) && on_path(cur, e)) {
                        if (own)
                            pe->rg->blocks.items[e->block].flags |= JG_BLOCK_ENTRY;
                        if (rd->late)
                            pe->closed = e;
                    }
                    return true;
                }
            }
        }
        if (narrowed)
            break;
        last = last_on_path(rd, cur, h, &key);
        /* past the first block of the path that keeps pending stores, a
         * trip that stores a node linking to real memory where that block
         * kept none emits the store and looks again (pending_narrow): kept
         * pending, each node pushed onto a structure of real memory made
         * one more block */
        if (!(count < limit && last && pending_count(last->shape) &&
              pending_narrow(pe, cur, *block, last->shape)))
            break;
    }
    w.exact = false;
    w.keep_known = false;
    w.full = count >= limit;
    w.hard = count >= HARD_BOUND * limit;
    if (w.full) {
        pending_settle(pe, cur, *block, w.hard ? SETTLE_ALL : SETTLE_BOUND);
        /* past the bound: reuse a fully general block when one exists */
        for (MergeEntry *e = *bucket; e; e = e->next) {
            if (e->hash != h || e->keylen != key.len || memcmp(e->key, key.data, key.len) != 0 ||
                e->shape->on_words != cur->on_words)
                continue;
            w.args.count = 0;
            if (!reachable_entry(pe, e, compilation))
                continue;
            if (match_state(&w, e->shape, cur) && collect_and_jump(pe, &w, e, cur, *block))
                return true;
        }
    }
    /* a new block whose state generalizes what changed along this path
     * since it last went through this key (`last`, a loop): constants that
     * differ between paths that never met stay constants in blocks of their
     * own. The new block's state: green constants as they are, every red local
     * generalized below, the cache set after binding (so nothing of `cur`
     * needs copying deeply) */
    const Av *kept = keep_locals(pe, cur);
    State *g = state_take_frames(pe, cur);
    g->forked = false;
    w.mode = WALK_GENERALIZE;
    if (w.full)
        measure_depths(&w, cur);
    for (uint32_t d = 0, at = 0; d < g->depth; at += g->frames[d++].nlocals) {
        Frame *gf = &g->frames[d];
        const Frame *pf = last ? &last->shape->frames[d] : NULL;
        for (uint32_t l = 0; l < gf->nlocals; l++)
            if (red_slot(gf, l))
                gf->locals[l] = generalize_av(&w, kept[at + l], pf ? pf->locals[l] : (Av){0});
    }
    uint32_t npend = 0, pending = 0;
    for (uint32_t i = 0; i < cur->ncache; i++)
        pending += cur->cache[i].pending;
    CacheEntry *pend = pending ? jg_arena_alloc(pe->rg->arena, sizeof(CacheEntry) * pending) : NULL;
    for (uint32_t i = 0; i < cur->ncache; i++)
        if (cur->cache[i].pending) {
            pend[npend] = cur->cache[i];
            Av prev = last ? previous_pending(last->shape, &cur->cache[i]) : (Av){0};
            pend[npend++].value = generalize_av(&w, cur->cache[i].value, prev);
        }
    for (uint32_t d = 0, at = 0; d < g->depth; at += g->frames[d++].nlocals)
        for (uint32_t l = 0; l < g->frames[d].nlocals; l++)
            clear_copies_av(kept[at + l]);
    for (uint32_t i = 0; i < cur->ncache; i++)
        clear_copies_av(cur->cache[i].value);
    uint32_t nb = jg_block_new(pe->rg, 0, NULL);
    pe->stats.residual_blocks++;
    /* This key has a block in an earlier compilation that its method cannot
     * be entered at: a loop whose body promotes ends every compilation
     * before it closes, so each resumption would copy the loop once more
     * and it would never close. This block is made enterable at once, so
     * the compilations that reach the key later jump to it. One such block
     * per path of a compilation is enough to close the loop (the path goes
     * round it); the next one it meets would only be one more landing in
     * every backend's method. */
    if (unreachable_seen && !path_has_entry(pe, cur, compilation))
        pe->rg->blocks.items[nb].flags |= JG_BLOCK_ENTRY;
    w.args.count = 0;
    w.types.count = 0;
    w.pair_param.count = 0;
    w.pair_value.count = 0;
    w.mark = ++pe->walk;
    for (uint32_t d = 0, at = 0; d < g->depth; at += g->frames[d++].nlocals) {
        Frame *gf = &g->frames[d];
        for (uint32_t l = 0; l < gf->nlocals; l++)
            if (red_slot(gf, l))
                bind_params(&w, &gf->locals[l], kept[at + l], nb);
    }
    /* binding may have materialized virtuals (the stores made fields known):
     * the block starts from the cache of the state as it jumps, which
     * rebase_cache only reads (it builds the block's own cache anew) */
    rebase_cache(&w, g, cur, nb);
    rebase_pending(&w, g, cur, pend, npend, nb);
    /* the host array goes on as the parameter it came to, if any */
    uint32_t host = cur->host_array ? find_value(&w, cur->host_array, 0) : w.pair_param.count;
    g->host_array = host < w.pair_param.count ? w.pair_param.items[host] : 0;
    clear_marks(g);
    jump(pe, &w, *block, nb);
    add_entry(pe, rd, h, key.data, key.len, nb, g);
    *state = g;
    *block = nb;
    return false;
}

void merge_add_variant(JgPe *pe, const MergeEntry *like, uint32_t block, State *shape)
{
    add_entry(pe, residual_data(pe), like->hash, like->key, like->keylen, block, shape);
}

void merge_forget_from(JgPe *pe, uint32_t first)
{
    PeResidualData *rd = pe->current->pe_private;
    if (!rd)
        return;
    for (uint32_t b = 0; b < rd->merge_buckets; b++)
        for (MergeEntry **e = &rd->merge_table[b]; *e;) {
            if ((*e)->block >= first) {
                *e = (*e)->next;
                rd->merge_count--;
            } else {
                e = &(*e)->next;
            }
        }
}

/* ---- live values and renaming (promotion) ---- */

typedef struct LiveWalk {
    JgVal *out;
    uint32_t n, max;
    uint32_t mark;
} LiveWalk;

static void live_av(LiveWalk *lw, Av a)
{
    if (a.kind == AV_VAR) {
        for (uint32_t i = 0; i < lw->n && i < lw->max; i++)
            if (lw->out[i] == a.var)
                return;
        if (lw->n < lw->max)
            lw->out[lw->n] = a.var;
        lw->n++;
    } else if (a.kind == AV_VIRT) {
        Virt *o = a.obj;
        if (o->materialized) {
            live_av(lw, av_var(JG_PTR, o->materialized));
            return;
        }
        if (o->mark == lw->mark)
            return;
        o->mark = lw->mark;
        for (uint32_t i = 0; i < o->nfields; i++)
            live_av(lw, o->fields[i].value);
    }
}

uint32_t state_live_vars(JgPe *pe, const State *s, JgVal *out, uint32_t max)
{
    LiveWalk lw = {out, 0, max, ++pe->walk};
    for (uint32_t d = 0; d < s->depth; d++)
        for (uint32_t l = 0; l < s->frames[d].nlocals; l++)
            live_av(&lw, s->frames[d].locals[l]);
    for (uint32_t i = 0; i < s->ncache; i++) {
        if (s->cache[i].base)
            live_av(&lw, av_var(JG_PTR, s->cache[i].base));
        live_av(&lw, s->cache[i].value);
    }
    for (uint32_t d = 0; d < s->depth; d++)
        for (uint32_t l = 0; l < s->frames[d].nlocals; l++)
            clear_marks_av(s->frames[d].locals[l]);
    for (uint32_t i = 0; i < s->ncache; i++)
        clear_marks_av(s->cache[i].value);
    return lw.n;
}

typedef struct Rename {
    uint32_t n;
    const JgVal *from;
    const Av *to;
    uint32_t mark;
} Rename;

static void rename_av(Rename *r, Av *a)
{
    if (a->kind == AV_VAR) {
        for (uint32_t i = 0; i < r->n; i++)
            if (r->from[i] == a->var) {
                int64_t offset = a->offset;
                uint8_t type = a->type;
                *a = r->to[i];
                a->type = type;
                if (a->kind == AV_CONST)
                    a->bits = jg_truncate_bits((JgType)type, a->bits + (uint64_t)offset);
                else
                    a->offset += offset;
                return;
            }
    } else if (a->kind == AV_VIRT) {
        Virt *o = a->obj;
        if (o->materialized) {
            /* its address is the value that lives on (state_live_vars) */
            Av p = av_var(JG_PTR, o->materialized);
            p.offset = a->offset;
            rename_av(r, &p);
            *a = p;
            return;
        }
        if (o->mark == r->mark)
            return;
        o->mark = r->mark;
        for (uint32_t i = 0; i < o->nfields; i++)
            rename_av(r, &o->fields[i].value);
    }
}

void state_rename(JgPe *pe, State *s, uint32_t n, const JgVal *from, const Av *to)
{
    Rename r = {n, from, to, ++pe->walk};
    for (uint32_t d = 0; d < s->depth; d++)
        for (uint32_t l = 0; l < s->frames[d].nlocals; l++)
            rename_av(&r, &s->frames[d].locals[l]);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < s->ncache; i++) {
        CacheEntry e = s->cache[i];
        if (e.base) {
            Av base = av_var(JG_PTR, e.base);
            rename_av(&r, &base);
            if (base.kind == AV_CONST && e.pending) {
                /* a store still to do: now to an absolute address */
                e.base = 0;
                e.offset = (int64_t)(base.bits + (uint64_t)e.offset);
            } else if (base.kind != AV_VAR) {
                continue; /* the base became a constant: forget the entry */
            } else {
                e.base = base.var;
                e.offset += base.offset;
            }
        }
        rename_av(&r, &e.value);
        s->cache[kept++] = e;
    }
    s->ncache = kept;
    for (uint32_t d = 0; d < s->depth; d++)
        for (uint32_t l = 0; l < s->frames[d].nlocals; l++)
            clear_marks_av(s->frames[d].locals[l]);
}
