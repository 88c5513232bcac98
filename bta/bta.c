#include "bta.h"
#include "bta_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Predecessor links of every block, for walking the graph backwards. */
typedef struct PredLink {
    uint32_t from;
    const JgLink *link;
} PredLink;

typedef struct GraphInfo {
    const JgGraph *g;
    uint32_t *pred_start; /* preds of block b: preds[pred_start[b] .. pred_start[b+1]) */
    PredLink *preds;
    JgVal *origin; /* per value: the value it is a copy of (block params) */
    uint8_t *loop_header;
    uint8_t *merge_point;
    uint32_t **loop_body; /* per loop header: list of body blocks, [0] = count */
    uint8_t *frozen;      /* per value (the same for every variant); NULL: not yet */
} GraphInfo;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void build_preds(JgArena *a, GraphInfo *gi)
{
    const JgGraph *g = gi->g;
    uint32_t nb = g->blocks.count;
    gi->pred_start = jg_arena_alloc(a, sizeof(uint32_t) * (nb + 1));
    uint32_t total = 0;
    for (uint32_t b = 0; b < nb; b++) {
        const JgTerm *t = &g->blocks.items[b].term;
        for (uint32_t l = 0; l < t->nlinks; l++)
            gi->pred_start[t->links[l].target + 1]++;
        total += t->nlinks;
    }
    for (uint32_t b = 0; b < nb; b++)
        gi->pred_start[b + 1] += gi->pred_start[b];
    gi->preds = jg_arena_alloc(a, sizeof(PredLink) * (total + 1));
    uint32_t *fill = jg_arena_alloc(a, sizeof(uint32_t) * (nb + 1));
    for (uint32_t b = 0; b < nb; b++) {
        const JgTerm *t = &g->blocks.items[b].term;
        for (uint32_t l = 0; l < t->nlinks; l++) {
            uint32_t target = t->links[l].target;
            PredLink *p = &gi->preds[gi->pred_start[target] + fill[target]++];
            p->from = b;
            p->link = &t->links[l];
        }
    }
}

/* Finds loop headers (targets of DFS back edges) and, per header, the
 * natural loop body: the blocks that reach a latch without passing the
 * header. Iterative DFS: interpreter graphs can be deep. */
static void find_loops(JgArena *a, GraphInfo *gi)
{
    const JgGraph *g = gi->g;
    uint32_t nb = g->blocks.count;
    gi->loop_header = jg_arena_alloc(a, nb + 1);
    gi->merge_point = jg_arena_alloc(a, nb + 1);
    gi->loop_body = jg_arena_alloc(a, sizeof(uint32_t *) * (nb + 1));
    uint8_t *state = jg_arena_alloc(a, nb + 1); /* 0 new, 1 on stack, 2 done */
    uint32_t *stack = jg_arena_alloc(a, sizeof(uint32_t) * (nb + 1));
    uint32_t *next_link = jg_arena_alloc(a, sizeof(uint32_t) * (nb + 1));
    uint32_t nedges = 0;
    for (uint32_t b = 0; b < nb; b++)
        nedges += g->blocks.items[b].term.nlinks;
    struct {
        uint32_t from, header;
    } *latches = jg_arena_alloc(a, sizeof *latches * (nedges + 1));
    uint32_t nlatches = 0;
    uint32_t depth = 0;
    if (nb == 0)
        return;
    stack[depth++] = 0;
    state[0] = 1;
    while (depth) {
        uint32_t b = stack[depth - 1];
        const JgTerm *t = &g->blocks.items[b].term;
        if (next_link[b] < t->nlinks) {
            uint32_t s = t->links[next_link[b]++].target;
            if (state[s] == 0) {
                state[s] = 1;
                stack[depth++] = s;
            } else if (state[s] == 1) {
                gi->loop_header[s] = 1;
                latches[nlatches].from = b;
                latches[nlatches++].header = s;
            }
        } else {
            state[b] = 2;
            depth--;
        }
    }
    for (uint32_t b = 0; b < nb; b++) {
        const JgBlock *blk = &g->blocks.items[b];
        gi->merge_point[b] = blk->ops.count > 0 && blk->ops.items[0].opcode == JG_OP_MERGE_POINT;
    }
    /* natural loop bodies: walk predecessors backwards from each latch */
    uint8_t *in_body = jg_arena_alloc(a, nb + 1);
    for (uint32_t h = 0; h < nb; h++) {
        if (!gi->loop_header[h])
            continue;
        memset(in_body, 0, nb);
        uint32_t count = 0;
        uint32_t top = 0;
        in_body[h] = 1;
        count++;
        for (uint32_t e = 0; e < nlatches; e++) {
            uint32_t p = latches[e].from;
            if (latches[e].header == h && !in_body[p]) {
                in_body[p] = 1;
                stack[top++] = p;
            }
        }
        while (top) {
            uint32_t b = stack[--top];
            count++;
            for (uint32_t i = gi->pred_start[b]; i < gi->pred_start[b + 1]; i++) {
                uint32_t p = gi->preds[i].from;
                if (state[p] && !in_body[p]) {
                    in_body[p] = 1;
                    stack[top++] = p;
                }
            }
        }
        uint32_t *body = jg_arena_alloc(a, sizeof(uint32_t) * (count + 1));
        body[0] = 0;
        for (uint32_t b = 0; b < nb; b++)
            if (in_body[b])
                body[++body[0]] = b;
        gi->loop_body[h] = body;
    }
}

/* Copy propagation over block parameters: a parameter all of whose incoming
 * values (ignoring itself) are one value w is a copy of w. Loop-invariant
 * values carried around a loop are such copies. */
static void find_origins(JgArena *a, GraphInfo *gi)
{
    const JgGraph *g = gi->g;
    uint32_t nv = g->values.count;
    gi->origin = jg_arena_alloc(a, sizeof(JgVal) * (nv + 1));
    for (uint32_t v = 0; v < nv; v++)
        gi->origin[v] = v;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t b = 1; b < g->blocks.count; b++) {
            const JgBlock *blk = &g->blocks.items[b];
            for (uint32_t p = 0; p < blk->nparams; p++) {
                JgVal param = blk->params[p], common = 0;
                bool unique = true;
                for (uint32_t i = gi->pred_start[b]; i < gi->pred_start[b + 1] && unique; i++) {
                    JgVal in = gi->origin[gi->preds[i].link->args[p]];
                    if (in == param)
                        continue;
                    if (common && common != in)
                        unique = false;
                    common = in;
                }
                if (unique && common && gi->origin[param] != common) {
                    gi->origin[param] = common;
                    changed = true;
                }
            }
        }
    }
}

static GraphInfo *graph_info(JgArena *a, const JgGraph *g)
{
    GraphInfo *gi = jg_arena_alloc(a, sizeof *gi);
    gi->g = g;
    build_preds(a, gi);
    find_loops(a, gi);
    find_origins(a, gi);
    return gi;
}

/* ---- frozen memory ---- */

static bool const_is_frozen(const JgModule *m, const JgGraph *g, JgVal v)
{
    const JgValueInfo *vi = jg_value(g, v);
    if (vi->type != JG_PTR || vi->bits == 0)
        return false;
    const JgGlobal *gl = jg_module_global_at(m, (const void *)(uintptr_t)vi->bits);
    return gl && gl->constant;
}

/* Greatest fixpoint: everything starts frozen and is demoted. */
static void compute_frozen(const JgModule *m, GraphInfo *gi, uint8_t *frozen)
{
    const JgGraph *g = gi->g;
    uint32_t nv = g->values.count;
    memset(frozen, 1, nv);
    frozen[0] = 0;
    for (uint32_t v = 1; v < nv; v++) {
        const JgValueInfo *vi = jg_value(g, v);
        if (vi->type != JG_PTR)
            frozen[v] = 0;
        else if (vi->kind == JG_VK_CONST)
            frozen[v] = const_is_frozen(m, g, v);
        else if (vi->kind == JG_VK_PARAM && vi->block == 0)
            frozen[v] = 0;
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t b = 0; b < g->blocks.count; b++) {
            const JgBlock *blk = &g->blocks.items[b];
            if (b > 0)
                for (uint32_t p = 0; p < blk->nparams; p++) {
                    JgVal param = blk->params[p];
                    if (!frozen[param])
                        continue;
                    for (uint32_t i = gi->pred_start[b]; i < gi->pred_start[b + 1]; i++)
                        if (!frozen[gi->preds[i].link->args[p]]) {
                            frozen[param] = 0;
                            changed = true;
                            break;
                        }
                }
            for (uint32_t o = 0; o < blk->ops.count; o++) {
                const JgOp *op = &blk->ops.items[o];
                if (!op->result || !frozen[op->result])
                    continue;
                bool keep;
                switch (op->opcode) {
                case JG_OP_DEEPFREEZE:
                    keep = true;
                    break;
                case JG_OP_PTRADD:
                case JG_OP_LOAD:
                case JG_OP_PROMOTE:
                case JG_OP_CONCRETE:
                    keep = frozen[op->args[0]];
                    break;
                case JG_OP_SELECT:
                    keep = frozen[op->args[1]] && frozen[op->args[2]];
                    break;
                default:
                    keep = false;
                    break;
                }
                if (!keep) {
                    frozen[op->result] = 0;
                    changed = true;
                }
            }
        }
    }
}

/* ---- colors ---- */

typedef struct Analysis {
    JgBta *bta;
    GraphInfo *gi;
    JgBtaVariant *v;
    uint8_t *loop_red; /* per value: param made red by a run-time controlled loop */
} Analysis;

static GraphInfo *info_for(JgBta *bta, const JgGraph *g);

static JgColor call_color(Analysis *an, const JgOp *op)
{
    const uint8_t *color = an->v->color;
    const JgGraph *callee = op->callee;
    if (!callee)
        return JG_RED;
    bool all_green = true;
    uint64_t mask = 0;
    for (uint32_t i = 1; i < op->nargs; i++) {
        if (color[op->args[i]] == JG_RED)
            all_green = false;
        else if (i - 1 < 64)
            mask |= (uint64_t)1 << (i - 1);
    }
    if (callee->flags & JG_FLAG_EXTERNAL)
        return (callee->flags & JG_FLAG_ELIDABLE) && all_green ? JG_GREEN : JG_RED;
    if (callee->flags & JG_FLAG_PORTAL)
        return JG_RED;
    const JgBtaVariant *cv = jg_bta_variant(an->bta, callee, mask);
    return cv->in_progress ? JG_RED : cv->ret_color;
}

static JgColor op_color(Analysis *an, const JgOp *op)
{
    const uint8_t *color = an->v->color;
    switch (op->opcode) {
    case JG_OP_PROMOTE:
    case JG_OP_CONCRETE:
        return JG_GREEN;
    case JG_OP_FORGET:
    case JG_OP_ALLOCA:
        return JG_RED;
    case JG_OP_LOAD:
        return color[op->args[0]] == JG_GREEN && an->v->frozen[op->args[0]] ? JG_GREEN : JG_RED;
    case JG_OP_SELECT: /* a red condition splits the path: see docs */
        return color[op->args[1]] == JG_GREEN && color[op->args[2]] == JG_GREEN ? JG_GREEN : JG_RED;
    case JG_OP_CALL:
        return call_color(an, op);
    default:
        for (uint32_t i = 0; i < op->nargs; i++)
            if (color[op->args[i]] == JG_RED)
                return JG_RED;
        return JG_GREEN;
    }
}

static bool is_red_branch(const uint8_t *color, const JgTerm *t)
{
    return (t->kind == JG_TERM_BRANCH || t->kind == JG_TERM_SWITCH) && color[t->value] == JG_RED;
}

/* A loop that is not a merge point and whose control depends on run-time
 * values must close in the residual code: its loop-variant parameters are
 * red, whatever flows in (otherwise the partial evaluator would unroll it
 * forever). */
static bool loop_has_red_control(const Analysis *an, uint32_t header)
{
    const uint32_t *body = an->gi->loop_body[header];
    for (uint32_t i = 1; i <= body[0]; i++)
        if (is_red_branch(an->v->color, &an->gi->g->blocks.items[body[i]].term))
            return true;
    return false;
}

static bool mark_red(uint8_t *color, JgVal v)
{
    if (color[v] == JG_RED)
        return false;
    color[v] = JG_RED;
    return true;
}

static bool propagate_block(Analysis *an, uint32_t b)
{
    const JgGraph *g = an->gi->g;
    const JgBlock *blk = &g->blocks.items[b];
    uint8_t *color = an->v->color;
    bool changed = false;
    if (b > 0) {
        bool red_loop =
            an->gi->loop_header[b] && !an->gi->merge_point[b] && loop_has_red_control(an, b);
        for (uint32_t p = 0; p < blk->nparams; p++) {
            JgVal param = blk->params[p];
            if (color[param] == JG_RED)
                continue;
            if (red_loop && an->gi->origin[param] == param) {
                an->loop_red[param] = 1;
                changed |= mark_red(color, param);
                continue;
            }
            for (uint32_t i = an->gi->pred_start[b]; i < an->gi->pred_start[b + 1]; i++)
                if (color[an->gi->preds[i].link->args[p]] == JG_RED) {
                    changed |= mark_red(color, param);
                    break;
                }
        }
    }
    for (uint32_t o = 0; o < blk->ops.count; o++) {
        const JgOp *op = &blk->ops.items[o];
        if (op->result && color[op->result] == JG_GREEN && op_color(an, op) == JG_RED)
            changed |= mark_red(color, op->result);
    }
    return changed;
}

/* The worklist of propagate: a ring of the blocks to look at, each once. */
typedef struct Worklist {
    uint32_t *ring;
    uint8_t *queued;
    uint32_t size, head, count;
} Worklist;

static void enqueue(Worklist *w, uint32_t b)
{
    if (b >= w->size || w->queued[b])
        return;
    w->queued[b] = 1;
    w->ring[(w->head + w->count) % w->size] = b;
    w->count++;
}

/* Colors only turn red, so the fixpoint is reached in any order that
 * looks again at every block whose inputs turned red: a worklist of blocks
 * (first all, in order), where a block that changed brings back the
 * blocks its links go to (a block's values are its own: its parameters and
 * results) and, when its branch turned red, every loop header (whose red
 * control depends on the colors of the loop's branches). Passing over all
 * blocks until nothing changed took 3 to 5 passes over the interpreter's
 * big graphs: 13 % more instructions for fibonacci's hand-over analysis. */
static void propagate(Analysis *an)
{
    const JgGraph *g = an->gi->g;
    uint32_t nb = g->blocks.count;
    JgArena *a = &an->bta->arena;
    Worklist w = {jg_arena_alloc(a, sizeof(uint32_t) * (nb + 1)), jg_arena_alloc(a, nb + 1), nb, 0,
                  0};
    for (uint32_t b = 0; b < nb; b++)
        enqueue(&w, b);
    while (w.count) {
        uint32_t b = w.ring[w.head];
        w.head = (w.head + 1) % nb;
        w.count--;
        w.queued[b] = 0;
        const JgTerm *t = &g->blocks.items[b].term;
        bool was_red_branch = is_red_branch(an->v->color, t);
        if (!propagate_block(an, b))
            continue;
        for (uint32_t i = 0; i < t->nlinks; i++)
            enqueue(&w, t->links[i].target);
        if (!was_red_branch && is_red_branch(an->v->color, t))
            for (uint32_t h = 0; h < nb; h++)
                if (an->gi->loop_header[h])
                    enqueue(&w, h);
    }
}

static void analyse(JgBta *bta, JgBtaVariant *v)
{
    JgArena *a = &bta->arena;
    const JgGraph *g = v->graph;
    GraphInfo *gi = info_for(bta, g);
    uint32_t nv = g->values.count;
    v->color = jg_arena_alloc(a, nv + 1);
    /* frozen memory depends on the graph alone: computed for its first
     * variant, shared by the others */
    if (!gi->frozen) {
        gi->frozen = jg_arena_alloc(a, nv + 1);
        compute_frozen(bta->module, gi, gi->frozen);
    }
    v->frozen = gi->frozen;
    v->loop_header = gi->loop_header;
    v->merge_point = gi->merge_point;
    Analysis an = {bta, gi, v, jg_arena_alloc(a, nv + 1)};
    if (g->blocks.count > 0) {
        const JgBlock *entry = &g->blocks.items[0];
        for (uint32_t p = 0; p < entry->nparams; p++)
            if (p >= 64 || !(v->green_params & ((uint64_t)1 << p)))
                v->color[entry->params[p]] = JG_RED;
    }
    propagate(&an);
    v->ret_color = JG_GREEN;
    for (uint32_t b = 0; b < g->blocks.count; b++) {
        const JgTerm *t = &g->blocks.items[b].term;
        if (t->kind == JG_TERM_RETURN && t->value && v->color[t->value] == JG_RED)
            v->ret_color = JG_RED;
    }
    if (g->ret_type == JG_VOID)
        v->ret_color = JG_GREEN;
}

/* GraphInfo is per graph, shared by its variants: cached in a small list. */
typedef struct JgBtaInfoCache {
    const JgGraph *g;
    GraphInfo *gi;
    struct JgBtaInfoCache *next;
} InfoCache;

static GraphInfo *info_for(JgBta *bta, const JgGraph *g)
{
    for (InfoCache *c = bta->infos; c; c = c->next)
        if (c->g == g)
            return c->gi;
    InfoCache *c = jg_arena_alloc(&bta->arena, sizeof *c);
    c->g = g;
    c->gi = graph_info(&bta->arena, g);
    c->next = bta->infos;
    bta->infos = c;
    return c->gi;
}

static uint32_t variant_hash(const JgGraph *g, uint64_t green_params)
{
    uint64_t h = ((uint64_t)(uintptr_t)g >> 4) * UINT64_C(0x9e3779b97f4a7c15) ^ green_params;
    h *= UINT64_C(0xff51afd7ed558ccd);
    return (uint32_t)(h >> 32);
}

/* Adds v to the hash table (open addressing, linear probing), which is
 * rebuilt from the list twice as large once half full. */
static void index_variant(JgBta *bta, JgBtaVariant *v)
{
    if (2 * (bta->nvariants + 1) > bta->by_key_capacity) {
        uint32_t cap = bta->by_key_capacity ? 2 * bta->by_key_capacity : 64;
        bta->by_key = jg_arena_alloc(&bta->arena, sizeof *bta->by_key * cap);
        bta->by_key_capacity = cap;
        bta->nvariants = 0;
        for (JgBtaVariant *w = bta->variants; w; w = w->next)
            if (w != v)
                index_variant(bta, w);
    }
    uint32_t mask = bta->by_key_capacity - 1;
    uint32_t i = variant_hash(v->graph, v->green_params) & mask;
    while (bta->by_key[i])
        i = (i + 1) & mask;
    bta->by_key[i] = v;
    bta->nvariants++;
}

void bta_add_variant(JgBta *bta, JgBtaVariant *v)
{
    v->next = bta->variants;
    bta->variants = v;
    index_variant(bta, v);
}

const JgBtaVariant *bta_find_variant(const JgBta *bta, const JgGraph *g, uint64_t green_params)
{
    if (bta->by_key_capacity) {
        uint32_t mask = bta->by_key_capacity - 1;
        for (uint32_t i = variant_hash(g, green_params) & mask; bta->by_key[i]; i = (i + 1) & mask)
            if (bta->by_key[i]->graph == g && bta->by_key[i]->green_params == green_params)
                return bta->by_key[i];
    }
    return NULL;
}

const JgBtaVariant *jg_bta_variant(JgBta *bta, const JgGraph *g, uint64_t green_params)
{
    const JgBtaVariant *known = bta_find_variant(bta, g, green_params);
    if (known)
        return known;
    JgBtaVariant *v = jg_arena_alloc(&bta->arena, sizeof *v);
    v->graph = g;
    v->green_params = green_params;
    v->in_progress = true;
    bta_add_variant(bta, v);
    analyse(bta, v);
    v->in_progress = false;
    return v;
}

/* ---- jit_concrete requirements ---- */

typedef struct Blocker {
    JgVal value;     /* the red value that cannot be made green */
    const char *why; /* reason */
    uint32_t line;
} Blocker;

/* Walks back from a red value to what makes it red. Entry parameters are
 * collected into *params (they can be made green); anything else that is
 * red by nature is a blocker. Returns false on a blocker. */
static bool why_red(const JgBtaVariant *v, const GraphInfo *gi, JgVal start, uint64_t *params,
                    Blocker *blk, uint8_t *seen, JgVal *work)
{
    const JgGraph *g = v->graph;
    uint32_t top = 0;
    work[top++] = start;
    seen[start] = 1;
    while (top) {
        JgVal x = work[--top];
        const JgValueInfo *vi = jg_value(g, x);
        if (vi->kind == JG_VK_PARAM && vi->block == 0) {
            if (vi->index >= 64) {
                *blk = (Blocker){x, "is a parameter beyond the 64th", 0};
                return false;
            }
            *params |= (uint64_t)1 << vi->index;
            continue;
        }
#define PUSH_IF_RED(val)                                                                           \
    do {                                                                                           \
        JgVal y_ = (val);                                                                          \
        if (y_ && v->color[y_] == JG_RED && !seen[y_]) {                                           \
            seen[y_] = 1;                                                                          \
            work[top++] = y_;                                                                      \
        }                                                                                          \
    } while (0)
        if (vi->kind == JG_VK_PARAM) {
            if (v->loop_header[vi->block] && !v->merge_point[vi->block] && gi->origin[x] == x) {
                /* loop_red: the loop's control is red */
                bool inputs_green = true;
                for (uint32_t i = gi->pred_start[vi->block]; i < gi->pred_start[vi->block + 1]; i++)
                    if (v->color[gi->preds[i].link->args[vi->index]] == JG_RED)
                        inputs_green = false;
                if (inputs_green) {
                    *blk = (Blocker){x, "changes in a loop controlled by run-time values", 0};
                    return false;
                }
            }
            for (uint32_t i = gi->pred_start[vi->block]; i < gi->pred_start[vi->block + 1]; i++)
                PUSH_IF_RED(gi->preds[i].link->args[vi->index]);
            continue;
        }
        const JgOp *op = &g->blocks.items[vi->block].ops.items[vi->index];
        switch (op->opcode) {
        case JG_OP_LOAD:
            if (v->color[op->args[0]] == JG_RED) {
                PUSH_IF_RED(op->args[0]);
            } else {
                *blk = (Blocker){x, "is loaded from memory that may change (not frozen)", op->line};
                return false;
            }
            break;
        case JG_OP_CALL:
            *blk = (Blocker){x, "is the result of a run-time call", op->line};
            return false;
        case JG_OP_ALLOCA:
            *blk = (Blocker){x, "is a run-time stack address", op->line};
            return false;
        case JG_OP_FORGET:
            *blk = (Blocker){x, "was made red by jit_forget", op->line};
            return false;
        case JG_OP_SELECT:
            PUSH_IF_RED(op->args[1]);
            PUSH_IF_RED(op->args[2]);
            break;
        default:
            for (uint32_t i = 0; i < op->nargs; i++)
                PUSH_IF_RED(op->args[i]);
            break;
        }
#undef PUSH_IF_RED
    }
    return true;
}

/* Finds the first jit_concrete whose argument is red; returns its op. */
static const JgOp *unsatisfied_concrete(const JgBtaVariant *v)
{
    const JgGraph *g = v->graph;
    for (uint32_t b = 0; b < g->blocks.count; b++) {
        const JgBlock *blk = &g->blocks.items[b];
        for (uint32_t o = 0; o < blk->ops.count; o++) {
            const JgOp *op = &blk->ops.items[o];
            if (op->opcode == JG_OP_CONCRETE && v->color[op->args[0]] == JG_RED)
                return op;
        }
    }
    return NULL;
}

JgBta *jg_bta_new(const JgModule *m, char *err, size_t errsize)
{
    double t0 = now_ms();
    if (!m->portal) {
        snprintf(err, errsize, "no function is annotated JIT_PORTAL");
        return NULL;
    }
    JgBta *bta = calloc(1, sizeof *bta);
    if (!bta) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    bta->module = m;
    const JgGraph *portal = m->portal;
    uint64_t greens = 0;
    uint32_t nv = portal->values.count;
    uint8_t *seen = jg_arena_alloc(&bta->arena, nv + 1);
    JgVal *work = jg_arena_alloc(&bta->arena, sizeof(JgVal) * (nv + 1));
    for (;;) {
        const JgBtaVariant *v = jg_bta_variant(bta, portal, greens);
        const JgOp *op = unsatisfied_concrete(v);
        if (!op) {
            bta->portal = v;
            bta->portal_green_params = greens;
            break;
        }
        uint64_t need = 0;
        Blocker blk = {0};
        memset(seen, 0, nv);
        bool ok = why_red(v, info_for(bta, portal), op->args[0], &need, &blk, seen, work);
        if (ok && (need & ~greens) == 0) {
            blk = (Blocker){op->args[0], "stays red", 0};
            ok = false;
        }
        if (!ok) {
            if (!blk.line)
                snprintf(
                    err, errsize, "%s:%u: jit_concrete cannot be satisfied in %s: value v%u %s",
                    portal->file ? portal->file : "?", op->line, portal->name, blk.value, blk.why);
            else
                snprintf(err, errsize,
                         "%s:%u: jit_concrete cannot be satisfied in %s: value v%u (line %u) %s",
                         portal->file ? portal->file : "?", op->line, portal->name, blk.value,
                         blk.line, blk.why);
            jg_bta_free(bta);
            return NULL;
        }
        greens |= need;
    }
    bta->ms = now_ms() - t0;
    return bta;
}

void jg_bta_free(JgBta *bta)
{
    if (!bta)
        return;
    jg_arena_free(&bta->arena);
    free(bta);
}

static const char *annotate(void *ctx, const JgGraph *g, JgVal v)
{
    (void)g;
    const JgBtaVariant *var = ctx;
    if (var->color[v] == JG_GREEN)
        return var->frozen[v] ? "[G*]" : "[G]";
    return "[R]";
}

void jg_bta_print(FILE *out, const JgBtaVariant *v)
{
    fprintf(out, "; binding times of %s: green parameters", v->graph->name);
    for (uint32_t i = 0; i < v->graph->nparams && i < 64; i++)
        if (v->green_params & ((uint64_t)1 << i))
            fprintf(out, " %u", i);
    fprintf(out, "; [G] green, [G*] green pointer to frozen memory, [R] red\n");
    jg_print_graph(out, v->graph, annotate, (void *)v);
}
