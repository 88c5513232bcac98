/* States of the partial evaluator: frames of abstract values, virtual
 * objects and the heap cache, and copying them when a path splits. */
#include <string.h>

#include "pe_internal.h"

static JgArena *arena_of(JgPe *pe)
{
    return pe->rg->arena;
}

/* Per block of `g`, whether every path from it ends in `unreachable`: the
 * least fixed point, so that a loop with no way out is not doomed. */
static bool *find_doomed(JgPe *pe, const JgGraph *g)
{
    uint32_t n = g->blocks.count;
    bool *doomed = jg_arena_alloc(&pe->arena, sizeof *doomed * (n + 1));
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = n; b-- > 0;) {
            const JgTerm *t = &g->blocks.items[b].term;
            bool d = t->kind == JG_TERM_UNREACHABLE;
            if (!d && t->nlinks &&
                (t->kind == JG_TERM_GOTO || t->kind == JG_TERM_BRANCH ||
                 t->kind == JG_TERM_SWITCH)) {
                d = true;
                for (uint32_t l = 0; l < t->nlinks && d; l++)
                    d = t->links[l].target < n && doomed[t->links[l].target];
            }
            if (d && !doomed[b]) {
                doomed[b] = true;
                changed = true;
            }
        }
    }
    return doomed;
}

PeGraphInfo *pe_graph_info(JgPe *pe, const JgGraph *g)
{
    const JgModule *m = pe->module;
    uint32_t index = UINT32_MAX;
    for (uint32_t i = 0; i < m->graphs.count; i++)
        if (m->graphs.items[i] == g) {
            index = i;
            break;
        }
    if (index != UINT32_MAX && pe->infos[index])
        return pe->infos[index];
    PeGraphInfo *info = jg_arena_alloc(&pe->arena, sizeof *info);
    info->g = g;
    info->local_index = jg_arena_alloc(&pe->arena, sizeof(uint32_t) * (g->values.count + 1));
    for (uint32_t v = 0; v < g->values.count; v++)
        info->local_index[v] = PE_NOT_LOCAL; /* constants stay so */
    info->nlocals = jg_arena_alloc(&pe->arena, sizeof(uint32_t) * (g->blocks.count + 1));
    info->locals = jg_arena_alloc(&pe->arena, sizeof(JgVal *) * (g->blocks.count + 1));
    for (uint32_t b = 0; b < g->blocks.count; b++) {
        const JgBlock *blk = &g->blocks.items[b];
        uint32_t n = 0;
        JgVal *values =
            jg_arena_alloc(&pe->arena, sizeof(JgVal) * (blk->nparams + blk->ops.count + 1));
        for (uint32_t p = 0; p < blk->nparams; p++) {
            values[n] = blk->params[p];
            info->local_index[blk->params[p]] = n++;
        }
        for (uint32_t o = 0; o < blk->ops.count; o++)
            if (blk->ops.items[o].result) {
                values[n] = blk->ops.items[o].result;
                info->local_index[blk->ops.items[o].result] = n++;
            }
        info->nlocals[b] = n;
        info->locals[b] = values;
        if (n > info->max_locals)
            info->max_locals = n;
    }
    info->doomed = find_doomed(pe, g);
    if (index != UINT32_MAX)
        pe->infos[index] = info;
    return info;
}

State *state_new(JgPe *pe)
{
    return jg_arena_alloc(arena_of(pe), sizeof(State));
}

Frame *state_push_frame(JgPe *pe, State *s, const JgGraph *g, const JgBtaVariant *bta,
                        uint32_t block)
{
    if (s->depth == s->capacity) {
        uint32_t cap = s->capacity ? s->capacity * 2 : 4;
        Frame *frames = jg_arena_alloc(arena_of(pe), sizeof(Frame) * cap);
        if (s->depth)
            memcpy(frames, s->frames, sizeof(Frame) * s->depth);
        s->frames = frames;
        s->capacity = cap;
    }
    Frame *f = &s->frames[s->depth++];
    /* the locals of a frame popped from this slot (a returned inline call):
     * no other state has them (copies take frames below the depth only),
     * and each inlined call taking a fresh array was a share of the
     * partial evaluator's memory */
    Av *locals = f->locals;
    uint32_t room = f->locals_capacity;
    memset(f, 0, sizeof *f);
    f->locals = locals;
    f->locals_capacity = room;
    f->g = g;
    f->bta = bta;
    f->info = pe_graph_info(pe, g);
    f->portal = (g->flags & JG_FLAG_PORTAL) != 0;
    frame_enter_block(pe, f, block);
    return f;
}

void frame_enter_block(JgPe *pe, Frame *f, uint32_t block)
{
    f->block = block;
    f->op = 0;
    f->nlocals = f->info->nlocals[block];
    /* a block's locals die when it jumps (its results reach the next block
     * as parameters, read before this): the frame keeps one array, sized
     * for its graph's largest block, instead of an array per block entered
     * (the largest share of the partial evaluator's memory: 218 of 764 KB
     * for fibonacci's hand-over, each fresh page a fault of about 1.5 us) */
    if (f->nlocals > f->locals_capacity) {
        f->locals_capacity = f->info->max_locals;
        f->locals = jg_arena_alloc(arena_of(pe), sizeof(Av) * (f->locals_capacity + 1));
    } else {
        memset(f->locals, 0, sizeof(Av) * f->nlocals);
    }
}

Virt *virt_new(JgPe *pe, VirtKind kind, int64_t size, const JgGraph *allocator)
{
    Virt *o = jg_arena_alloc(arena_of(pe), sizeof *o);
    o->kind = kind;
    o->size = size;
    o->allocator = allocator;
    pe->stats.virtuals++;
    return o;
}

/* Binary search for the field at `offset`; NULL when absent. */
Field *virt_field(Virt *o, int64_t offset)
{
    uint32_t lo = 0, hi = o->nfields;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (o->fields[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < o->nfields && o->fields[lo].offset == offset ? &o->fields[lo] : NULL;
}

/* True when a field overlaps the bytes an access of `type` at `offset`
 * touches without being exactly those bytes (a byte of a word, a word over
 * bytes): the access cannot be done on the fields, it needs real memory. */
bool virt_overlaps_partly(const Virt *o, int64_t offset, JgType type)
{
    int64_t end = offset + (int64_t)jg_type_size(type);
    uint32_t lo = 0, hi = o->nfields;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (o->fields[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0) { /* the field before may reach into the range */
        const Field *prev = &o->fields[lo - 1];
        if (prev->offset + (int64_t)jg_type_size((JgType)prev->type) > offset)
            return true;
    }
    for (uint32_t i = lo; i < o->nfields && o->fields[i].offset < end; i++)
        if (o->fields[i].offset != offset ||
            jg_type_size((JgType)o->fields[i].type) != jg_type_size(type))
            return true;
    return false;
}

/* Stores keep fields sorted; storing zero removes the field (absent fields
 * read as zero), so equal contents have one representation. */
void virt_store(JgPe *pe, Virt *o, int64_t offset, JgType type, Av value)
{
    uint32_t lo = 0, hi = o->nfields;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (o->fields[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    bool zero = value.kind == AV_CONST && value.bits == 0;
    if (lo < o->nfields && o->fields[lo].offset == offset) {
        if (zero) {
            memmove(&o->fields[lo], &o->fields[lo + 1], sizeof(Field) * (o->nfields - lo - 1));
            o->nfields--;
        } else {
            o->fields[lo].type = type;
            o->fields[lo].value = value;
        }
        return;
    }
    if (zero)
        return;
    if (o->nfields == o->capacity) {
        uint32_t cap = o->capacity ? o->capacity * 2 : 4;
        Field *fields = jg_arena_alloc(arena_of(pe), sizeof(Field) * cap);
        if (o->nfields)
            memcpy(fields, o->fields, sizeof(Field) * o->nfields);
        o->fields = fields;
        o->capacity = cap;
    }
    memmove(&o->fields[lo + 1], &o->fields[lo], sizeof(Field) * (o->nfields - lo));
    o->fields[lo] = (Field){.offset = offset, .type = type, .value = value};
    o->nfields++;
}

/* ---- copying: virtual objects are duplicated once each (aliasing and
 * cycles preserved through Virt.copy, reset by a second walk) ---- */

static Av copy_av(JgPe *pe, Av a);

static Virt *copy_virt(JgPe *pe, Virt *o)
{
    if (o->copy)
        return o->copy;
    Virt *c = jg_arena_alloc(arena_of(pe), sizeof *c);
    *c = *o;
    c->copy = NULL;
    o->copy = c;
    if (o->nfields) {
        c->fields = jg_arena_alloc(arena_of(pe), sizeof(Field) * o->nfields);
        c->capacity = o->nfields;
        for (uint32_t i = 0; i < o->nfields; i++) {
            c->fields[i] = o->fields[i];
            c->fields[i].value = copy_av(pe, o->fields[i].value);
        }
    } else {
        c->fields = NULL;
        c->capacity = 0;
    }
    return c;
}

static Av copy_av(JgPe *pe, Av a)
{
    if (a.kind == AV_VIRT)
        a.obj = copy_virt(pe, a.obj);
    return a;
}

static void clear_copy(Virt *o)
{
    if (!o->copy)
        return;
    o->copy = NULL;
    for (uint32_t i = 0; i < o->nfields; i++)
        if (o->fields[i].value.kind == AV_VIRT)
            clear_copy(o->fields[i].value.obj);
}

static void clear_av(Av a)
{
    if (a.kind == AV_VIRT)
        clear_copy(a.obj);
}

/* A new state with what `s` knows besides its frames and its heap cache. */
static State *state_like(JgPe *pe, const State *s)
{
    State *c = state_new(pe);
    c->history = s->history;
    c->forked = s->forked;
    c->host_array = s->host_array;
    c->on_words = s->on_words;
    c->depth = s->depth;
    return c;
}

/* `runs`: the copy goes on specializing, its frames' locals sized as
 * frame_enter_block sizes them (a copy sized to its block's locals would
 * be copied again at the first larger block). */
static State *copy_frames(JgPe *pe, const State *s, bool runs)
{
    State *c = state_like(pe, s);
    c->capacity = s->depth;
    c->frames = jg_arena_alloc(arena_of(pe), sizeof(Frame) * (s->depth + 1));
    for (uint32_t i = 0; i < s->depth; i++) {
        const Frame *f = &s->frames[i];
        Frame *g = &c->frames[i];
        *g = *f;
        uint32_t room = runs && f->info->max_locals > f->nlocals ? f->info->max_locals : f->nlocals;
        g->locals = jg_arena_alloc(arena_of(pe), sizeof(Av) * (room + 1));
        g->locals_capacity = room;
        memcpy(g->locals, f->locals, sizeof(Av) * f->nlocals);
    }
    return c;
}

State *state_take_frames(JgPe *pe, const State *s)
{
    State *c = state_like(pe, s);
    c->capacity = s->capacity;
    c->frames = s->frames;
    return c;
}

static State *copy_state(JgPe *pe, const State *s, bool runs)
{
    State *c = copy_frames(pe, s, runs);
    for (uint32_t i = 0; i < s->depth; i++) {
        const Frame *f = &s->frames[i];
        Av *locals = c->frames[i].locals;
        for (uint32_t l = 0; l < f->nlocals; l++)
            locals[l] = copy_av(pe, f->locals[l]);
    }
    c->ncache = c->cache_capacity = s->ncache;
    if (s->ncache) {
        c->cache = jg_arena_alloc(arena_of(pe), sizeof(CacheEntry) * s->ncache);
        for (uint32_t i = 0; i < s->ncache; i++) {
            c->cache[i] = s->cache[i];
            c->cache[i].value = copy_av(pe, s->cache[i].value);
        }
    }
    for (uint32_t i = 0; i < s->depth; i++)
        for (uint32_t l = 0; l < s->frames[i].nlocals; l++)
            clear_av(s->frames[i].locals[l]);
    for (uint32_t i = 0; i < s->ncache; i++)
        clear_av(s->cache[i].value);
    return c;
}

State *state_copy(JgPe *pe, const State *s)
{
    return copy_state(pe, s, false);
}

State *state_fork(JgPe *pe, const State *s)
{
    return copy_state(pe, s, true);
}
