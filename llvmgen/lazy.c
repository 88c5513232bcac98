/* Evaluated methods (docs/backend.md, "Evaluated secondaries"). Most
 * secondaries hold code a program runs once or a few times: the exit of a
 * loop, a type seen once. Compiling each costs LLVM milliseconds, more than
 * evaluating its blocks would. So with `lazy_threshold` a new secondary's
 * method-table entry is `enter` below, which runs the method's blocks in
 * the graph evaluator under the method protocol (parameters from InputArgs
 * slots, leaves with a block id), and counts the work; once the work
 * reaches the threshold the method is compiled and its table entry
 * replaced (a table entry is data: nothing is patched). A loop that gets
 * hot inside an evaluated method goes on in compiled code at the loop's
 * header, which the compiled method can be entered at. */
#include <alloca.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/eval.h"
#include "internal.h"

#define NONE UINT32_MAX

struct LgLazy {
    uint32_t lo, hi, method;
    uint64_t work;       /* blocks evaluated, plus LG_ENTRY_WORK per entry */
    uint32_t area_index; /* its area in the activation (when area_bytes) */
    uint32_t area_bytes; /* memory of all its ALLOCAs, 0: none */
    uint32_t *alloca_at; /* per local block: offset of its first ALLOCA's memory */
    uint8_t *landing;    /* per local block: 0 not known yet, 1 safe, 2 not (landing.c) */
};

/* Whether compiled code may be entered at `block` (lg_safe_landing),
 * remembered per block. */
static bool landing_ok(LgLazy *lz, const JgGraph *g, uint32_t block)
{
    if (!lz->landing && !(lz->landing = calloc(lz->hi - lz->lo, 1)))
        return false;
    uint8_t *known = &lz->landing[block - lz->lo];
    if (!*known)
        *known = lg_safe_landing(g, lz->lo, lz->hi, block) ? 1 : 2;
    return *known == 1;
}

/* The memory an ALLOCA takes in the area: 16-byte aligned, never empty. */
static uint64_t alloca_span(const JgOp *op)
{
    uint64_t size = op->imm > 0 ? (uint64_t)op->imm : 0;
    return (size + 16) & ~(uint64_t)15;
}

/* The area memory of the ALLOCAs among the first `nops` ops of `b`. */
static uint64_t alloca_bytes(const JgBlock *b, uint32_t nops)
{
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < nops; i++)
        if (b->ops.items[i].opcode == JG_OP_ALLOCA)
            bytes += alloca_span(&b->ops.items[i]);
    return bytes;
}

bool lg_lazy_eligible(const JgLlvm *llvm, const LgGraph *lg, uint32_t lo, uint32_t hi)
{
    const JgGraph *g = lg->graph;
    if (!llvm->options.lazy_threshold || g->values.count > LG_LAZY_MAX_VALUES)
        return false;
    /* too many values crossing methods: compiling reports it */
    if (lg_max_values_passed(g, lo, hi) > lg->capacity)
        return false;
    uint64_t bytes = 0;
    for (uint32_t b = lo; b < hi; b++)
        bytes += alloca_bytes(&g->blocks.items[b], g->blocks.items[b].ops.count);
    return bytes <= UINT32_MAX / 2;
}

static bool reserve_methods(LgGraph *lg, uint32_t method)
{
    if (method < lg->lazy_cap)
        return true;
    uint32_t cap = lg->lazy_cap ? 2 * lg->lazy_cap : 16;
    while (cap <= method)
        cap *= 2;
    LgLazy **lazy = realloc(lg->lazy, sizeof *lazy * cap);
    if (!lazy)
        return false;
    memset(lazy + lg->lazy_cap, 0, sizeof *lazy * (cap - lg->lazy_cap));
    lg->lazy = lazy;
    lg->lazy_cap = cap;
    return true;
}

static uint32_t enter(uint32_t id, JgInputArgs *ia);

bool lg_lazy_add(JgLlvm *llvm, LgGraph *lg, uint32_t lo, uint32_t hi, uint32_t method)
{
    const JgGraph *g = lg->graph;
    LgLazy *lz = calloc(1, sizeof *lz);
    uint32_t *at = malloc(sizeof *at * (hi - lo));
    if (!lz || !at || !reserve_methods(lg, method)) {
        free(lz);
        free(at);
        return false;
    }
    uint64_t bytes = 0;
    for (uint32_t b = lo; b < hi; b++) {
        at[b - lo] = (uint32_t)bytes;
        bytes += alloca_bytes(&g->blocks.items[b], g->blocks.items[b].ops.count);
    }
    *lz = (LgLazy){
        .lo = lo, .hi = hi, .method = method, .area_bytes = (uint32_t)bytes, .alloca_at = at};
    if (bytes)
        lz->area_index = lg->nareas++;
    lg->lazy[method] = lz;
    lg->methods[method] = enter;
    llvm->stats.methods_evaluated++;
    return true;
}

void lg_lazy_free(LgGraph *lg)
{
    for (uint32_t i = 0; i < lg->lazy_cap; i++) {
        if (lg->lazy[i]) {
            free(lg->lazy[i]->alloca_at);
            free(lg->lazy[i]->landing);
        }
        free(lg->lazy[i]);
    }
    free(lg->lazy);
    lg->lazy = NULL;
    lg->lazy_cap = 0;
}

/* ---- one activation ---- */

typedef struct Activation {
    LgGraph *lg;
    LgLazy *lz;
    JgInputArgs *ia;
    uint8_t *area; /* this activation's memory for the method's ALLOCAs */
} Activation;

/* The area of the method in the primary's activation (areas.c), or NULL
 * when the primary has yet to allocate it. */
static uint8_t *find_area(const Activation *a)
{
    uint8_t *tail = (uint8_t *)a->ia + LG_IA_SLOTS + 8 * (uint64_t)a->lg->capacity;
    void **areas;
    uint32_t n;
    memcpy(&areas, tail + LG_TAIL_AREAS, sizeof areas);
    memcpy(&n, tail + LG_TAIL_NAREAS, sizeof n);
    return a->lz->area_index < n ? areas[a->lz->area_index] : NULL;
}

/* Asks the primary for the area, then to dispatch `id` again. */
static uint32_t request_area(const Activation *a, uint32_t id)
{
    uint8_t *tail = (uint8_t *)a->ia + LG_IA_SLOTS + 8 * (uint64_t)a->lg->capacity;
    memcpy(tail + LG_TAIL_REQ_INDEX, &a->lz->area_index, sizeof(uint32_t));
    memcpy(tail + LG_TAIL_REQ_BYTES, &a->lz->area_bytes, sizeof(uint32_t));
    memcpy(tail + LG_TAIL_REQ_ID, &id, sizeof id);
    return JG_BLOCKID_NEED_AREA;
}

/* ALLOCA memory: a fixed place in the area per op, as compiled code has a
 * fixed stack slot per op (zeroed each time the op runs). */
static void *alloca_memory(void *ctx, uint32_t block, uint32_t op, size_t size)
{
    (void)size;
    const Activation *a = ctx;
    const JgBlock *b = &a->lg->graph->blocks.items[block];
    return a->area + a->lz->alloca_at[block - a->lz->lo] + alloca_bytes(b, op);
}

/* Portal calls go where compiled code sends them. */
static bool portal_hook(void *ctx, JgEvaluator *ev, const JgOp *op, const JgGraph *callee,
                        void *native, uint32_t nargs, const uint64_t *args, uint64_t *result)
{
    (void)ev;
    (void)native;
    (void)nargs;
    const JgLlvm *llvm = ctx;
    if (!callee || !(callee->flags & JG_FLAG_PORTAL))
        return false;
    if (!llvm->options.portal_call)
        lg_fatal("a portal call, but the options have no portal_call function");
    /* a site of this call only: the host learns how it passes its
     * arguments, and what it keeps there is dropped */
    JgPortalSite site = {.arg_shapes = jg_portal_call_shapes(op->imm)};
    *result = llvm->options.portal_call(llvm->options.portal_ctx, args, &site);
    return true;
}

static void compile_now(LgGraph *lg, LgLazy *lz)
{
    char err[512];
    if (!lg_compile_secondary_method(lg->llvm, lg, lz->lo, lz->hi, lz->method, err, sizeof err))
        lg_fatal("%s", err);
}

/* Leaves for `target` (a block a dispatcher can enter) with `n` values. */
static uint32_t leave(const Activation *a, uint32_t target, uint32_t n, const JgVal *args,
                      const uint64_t *frame)
{
    const LgGraph *lg = a->lg;
    const char *name = lg->graph->name ? lg->graph->name : "<anonymous>";
    if (target >= lg->ncompiled || !lg->blocks[target].enterable)
        lg_fatal("graph %s: a link to block %u, which no dispatcher can enter", name, target);
    for (uint32_t i = 0; i < n; i++)
        a->ia->slots[i] = frame[args[i]];
    return lg->blocks[target].id;
}

/* Whether `b` ends with links that are control flow (not a flexswitch's). */
static bool flows(const JgGraph *g, uint32_t b)
{
    uint8_t k = g->blocks.items[b].term.kind;
    return k == JG_TERM_GOTO || k == JG_TERM_BRANCH || k == JG_TERM_SWITCH;
}

static bool internal(const LgLazy *lz, uint32_t b)
{
    return b >= lz->lo && b < lz->hi;
}

/* Marks in `seen` (local indices) the blocks reachable from `from` along
 * internal links: forwards, or backwards with `preds` (predecessors of
 * local block i at preds[pstart[i] .. pstart[i + 1])). */
static void reach(const LgLazy *lz, const JgGraph *g, uint32_t from, const uint32_t *pstart,
                  const uint32_t *preds, bool *seen, uint32_t *stack)
{
    uint32_t sp = 0;
    seen[from - lz->lo] = true;
    stack[sp++] = from;
    while (sp) {
        uint32_t b = stack[--sp];
        if (preds) {
            for (uint32_t p = pstart[b - lz->lo]; p < pstart[b - lz->lo + 1]; p++)
                if (!seen[preds[p] - lz->lo]) {
                    seen[preds[p] - lz->lo] = true;
                    stack[sp++] = preds[p];
                }
            continue;
        }
        const JgTerm *t = &g->blocks.items[b].term;
        for (uint32_t i = 0; flows(g, b) && i < t->nlinks; i++) {
            uint32_t s = t->links[i].target;
            if (internal(lz, s) && !seen[s - lz->lo]) {
                seen[s - lz->lo] = true;
                stack[sp++] = s;
            }
        }
    }
}

/* Predecessor lists of the method's blocks (see reach); false: no memory. */
static bool predecessors(const LgLazy *lz, const JgGraph *g, uint32_t *pstart, uint32_t **preds)
{
    uint32_t n = lz->hi - lz->lo;
    for (uint32_t x = lz->lo; x < lz->hi; x++)
        for (uint32_t i = 0; flows(g, x) && i < g->blocks.items[x].term.nlinks; i++)
            if (internal(lz, g->blocks.items[x].term.links[i].target))
                pstart[g->blocks.items[x].term.links[i].target - lz->lo + 1]++;
    for (uint32_t i = 0; i < n; i++)
        pstart[i + 1] += pstart[i];
    uint32_t *fill = malloc(sizeof *fill * n);
    *preds = malloc(sizeof **preds * (pstart[n] ? pstart[n] : 1));
    if (!fill || !*preds) {
        free(fill);
        return false;
    }
    memcpy(fill, pstart, sizeof *fill * n);
    for (uint32_t x = lz->lo; x < lz->hi; x++)
        for (uint32_t i = 0; flows(g, x) && i < g->blocks.items[x].term.nlinks; i++) {
            uint32_t s = g->blocks.items[x].term.links[i].target;
            if (internal(lz, s))
                (*preds)[fill[s - lz->lo]++] = x;
        }
    free(fill);
    return true;
}

/* The block at which the method's own code enters the cycle `b` is on, so
 * that compiled code entered there sees a loop with one header (cold.c);
 * `b` itself when the cycle has several such blocks or none (or memory
 * runs out); NONE when `b` is on no cycle. */
static uint32_t loop_header(const LgLazy *lz, const JgGraph *g, uint32_t b)
{
    uint32_t n = lz->hi - lz->lo, result = b;
    uint32_t *pstart = calloc(n + 1, sizeof *pstart), *stack = malloc(sizeof *stack * n);
    uint32_t *preds = NULL;
    bool *fwd = calloc(n, sizeof *fwd), *bwd = calloc(n, sizeof *bwd);
    if (!pstart || !stack || !fwd || !bwd || !predecessors(lz, g, pstart, &preds))
        goto out;
    /* what b's successors reach; b is on a cycle when that includes b */
    const JgTerm *t = &g->blocks.items[b].term;
    for (uint32_t i = 0; flows(g, b) && i < t->nlinks; i++)
        if (internal(lz, t->links[i].target) && !fwd[t->links[i].target - lz->lo])
            reach(lz, g, t->links[i].target, NULL, NULL, fwd, stack);
    if (!fwd[b - lz->lo]) {
        result = NONE;
        goto out;
    }
    reach(lz, g, b, pstart, preds, bwd, stack);
    uint32_t header = NONE, count = 0;
    for (uint32_t x = lz->lo; x < lz->hi; x++) {
        if (!fwd[x - lz->lo] || !bwd[x - lz->lo])
            continue; /* not on b's cycle */
        bool entered = x == lz->lo;
        for (uint32_t p = pstart[x - lz->lo]; p < pstart[x - lz->lo + 1] && !entered; p++)
            entered = !fwd[preds[p] - lz->lo] || !bwd[preds[p] - lz->lo];
        if (entered) {
            header = x;
            count++;
        }
    }
    result = count == 1 ? header : b;
out:
    free(pstart);
    free(preds);
    free(stack);
    free(fwd);
    free(bwd);
    return result;
}

/* Work, in thresholds, after which an evaluated method is compiled and
 * entered at the block it has reached, whether a loop header or not. */
#define LAZY_GIVE_UP 4

/* Runs the method from `block` (its parameters set in `frame`) until
 * control leaves it; returns the block id to go on at. */
static uint32_t run(Activation *a, uint32_t block, uint64_t *frame)
{
    LgGraph *lg = a->lg;
    LgLazy *lz = a->lz;
    JgLlvm *llvm = lg->llvm;
    const JgGraph *g = lg->graph;
    JgEvaluator ev = {
        .hook = portal_hook, .hook_ctx = llvm, .alloca_memory = alloca_memory, .alloca_ctx = a};
    uint64_t threshold = llvm->options.lazy_threshold;
    uint32_t goal = NONE, since = 0;
    for (;;) {
        const JgBlock *b = &g->blocks.items[block];
        if (lz->work >= threshold) {
            /* hot: go on in compiled code at the first block where the
             * compiled method can be entered without a second loop entry */
            if (lg->methods[lz->method] != enter) {
                if (lg->blocks[block].enterable) /* compiled meanwhile */
                    return leave(a, block, b->nparams, b->params, frame);
            } else {
                if (goal == NONE || since > lz->hi - lz->lo) {
                    goal = loop_header(lz, g, block);
                    since = 0;
                }
                since++;
                /* no header met after much more work (the hot loop's
                 * header may lie in another method): enter here, where
                 * that is safe */
                if ((goal == block || lz->work >= LAZY_GIVE_UP * threshold) &&
                    landing_ok(lz, g, block)) {
                    lg->blocks[block].enterable = true;
                    compile_now(lg, lz);
                    return leave(a, block, b->nparams, b->params, frame);
                }
            }
        }
        lz->work++;
        llvm->stats.evaluated_blocks++;
        jg_eval_block(&ev, g, block, frame);
        b = &g->blocks.items[block]; /* a call may have grown the graph */
        const JgTerm *t = &b->term;
        switch (t->kind) {
        case JG_TERM_RETURN:
            a->ia->result = t->value ? frame[t->value] : 0;
            return JG_BLOCKID_RETURN;
        case JG_TERM_FLEXSWITCH: {
            JgFlexswitch *fs = t->flex;
            if (!fs)
                lg_fatal("graph %s: a flexswitch without its object", g->name);
            for (uint32_t i = 0; i < fs->nlive; i++)
                a->ia->slots[i] = frame[fs->live[i]];
            return jg_llvm_flex_dispatch(llvm, fs, frame[t->value]);
        }
        case JG_TERM_GOTO:
        case JG_TERM_BRANCH:
        case JG_TERM_SWITCH: {
            const JgLink *l = jg_eval_successor(g, block, frame);
            if (l->target < lz->lo || l->target >= lz->hi)
                return leave(a, l->target, l->nargs, l->args, frame);
            jg_eval_pass(g, l, frame);
            block = l->target;
            break;
        }
        default:
            lg_fatal("graph %s: block %u ends with %s", g->name ? g->name : "<anonymous>", block,
                     t->kind == JG_TERM_UNREACHABLE ? "unreachable, and was reached"
                                                    : "no terminator");
        }
    }
}

/* The method-table entry of an evaluated method. */
static uint32_t enter(uint32_t id, JgInputArgs *ia)
{
    LgGraph *lg = ia->owner;
    uint32_t method = JG_BLOCKID_METHOD(id);
    LgLazy *lz = lg->lazy[method];
    const JgGraph *g = lg->graph;
    lz->work += LG_ENTRY_WORK;
    if (lz->work >= lg->llvm->options.lazy_threshold || g->values.count > LG_LAZY_MAX_VALUES) {
        if (lg->methods[method] == enter)
            compile_now(lg, lz);
        return lg->methods[method](id, ia);
    }
    Activation a = {.lg = lg, .lz = lz, .ia = ia};
    if (lz->area_bytes && !(a.area = find_area(&a)))
        return request_area(&a, id);
    uint64_t *frame = alloca(sizeof *frame * g->values.count);
    jg_eval_frame_init(g, frame);
    uint32_t block = lz->lo + JG_BLOCKID_BLOCK(id);
    const JgBlock *b = &g->blocks.items[block];
    for (uint32_t i = 0; i < b->nparams; i++)
        frame[b->params[i]] = jg_eval_normalize(jg_value_type(g, b->params[i]), ia->slots[i]);
    return run(&a, block, frame);
}
