/* Where the values of a baseline method live (docs/baseline.md, "Homes").
 * Four quick analyses over the method's blocks:
 *   - parameter aliases: a parameter of a block that only the method's own
 *     links enter, receiving the same value on every link (the long goto
 *     chains partial evaluation leaves), is that value and costs no move;
 *   - liveness (bit sets per block) and interference: values live at the
 *     same time, where one is defined;
 *   - coalescing: a parameter and a value passed to it that do not
 *     interfere share one home, so that the link moves nothing (links
 *     inside loops first);
 *   - registers: the classes of values used most, counting uses inside
 *     loops (approximated by block index) more, live in a register for the
 *     whole method; the others in an 8-byte stack slot each. */
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "frontend/arith.h"

const X64Reg bl_home_regs[NHOME_REGS] = {X64_R14, X64_R15, X64_R13, X64_RSI, X64_RDI,
                                         X64_R8,  X64_R9,  X64_R10, X64_R11};

/* Classes considered for registers, heaviest first. */
#define MAX_COLORED 512u
#define NONE UINT32_MAX

/* Incoming control-flow links of the method's blocks: those of local
 * block i are in[start[i] .. start[i + 1]). */
typedef struct Preds {
    uint32_t *start;
    const JgLink **in;
} Preds;

static bool find_preds(const Codegen *c, Preds *p)
{
    uint32_t n = c->hi - c->lo, total = 0;
    p->start = calloc(n + 1, sizeof *p->start);
    for (uint32_t s = c->lo; s < c->hi && p->start; s++) {
        const JgTerm *t = &c->g->blocks.items[s].term;
        for (uint32_t k = 0; bl_flows(t) && k < t->nlinks; k++)
            if (bl_internal(c, t->links[k].target)) {
                p->start[t->links[k].target - c->lo + 1]++;
                total++;
            }
    }
    p->in = malloc(sizeof *p->in * (total ? total : 1));
    uint32_t *fill = malloc(sizeof *fill * (n ? n : 1));
    if (!p->start || !p->in || !fill) {
        free(p->start);
        free(p->in);
        free(fill);
        return false;
    }
    for (uint32_t i = 0; i < n; i++)
        p->start[i + 1] += p->start[i];
    memcpy(fill, p->start, sizeof *fill * n);
    for (uint32_t s = c->lo; s < c->hi; s++) {
        const JgTerm *t = &c->g->blocks.items[s].term;
        for (uint32_t k = 0; bl_flows(t) && k < t->nlinks; k++)
            if (bl_internal(c, t->links[k].target))
                p->in[fill[t->links[k].target - c->lo]++] = &t->links[k];
    }
    free(fill);
    return true;
}

/* Parameter aliases (see the top of the file): a parameter of a block no
 * method entry starts at, whose every incoming link passes one value v (or
 * the parameter itself), is v. v's definition dominates the block, so
 * every path from it to a use of the parameter passes the block, and the
 * home of v holds the same value there. Iterated until nothing changes. */
static void find_aliases(Codegen *c, const Preds *preds)
{
    const JgGraph *g = c->g;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = c->lo; b < c->hi; b++) {
            const JgBlock *bk = &g->blocks.items[b];
            if (c->bg->enterable[b])
                continue;
            for (uint32_t i = 0; i < bk->nparams; i++) {
                JgVal p = bk->params[i], same = 0;
                if (c->alias[p] != p)
                    continue;
                bool one = true, any = false;
                for (uint32_t k = preds->start[b - c->lo]; k < preds->start[b - c->lo + 1] && one;
                     k++) {
                    const JgLink *l = preds->in[k];
                    if (l->nargs != bk->nparams)
                        continue;
                    JgVal a = bl_resolve(c, l->args[i]);
                    if (a == p)
                        continue;
                    if (jg_value_type(g, l->args[i]) != jg_value_type(g, p))
                        one = false; /* a malformed link: no alias */
                    one = one && (!any || a == same);
                    same = a;
                    any = true;
                }
                if (one && any) { /* `same` may be narrower: aliases keep the bits */
                    c->alias[p] = same;
                    changed = true;
                }
            }
        }
    }
    /* every alias straight to its value: bl_resolve takes one step */
    for (uint32_t b = c->lo; b < c->hi; b++) {
        const JgBlock *bk = &g->blocks.items[b];
        for (uint32_t i = 0; i < bk->nparams; i++)
            c->alias[bk->params[i]] = bl_resolve(c, bk->params[i]);
    }
}

/* Marks (hot[b - lo]) the blocks between a link to an earlier block and
 * that block: the loops, as partial evaluation lays blocks out. A method
 * without a loop (a recursive callee, a consolidated graph whose loops
 * are calls) has every block hot: its links run about as often as each
 * other, and a move left on one is paid at every call. Returns whether
 * some link goes back (true when that is not known). */
static bool find_loops(const Codegen *c, bool *hot)
{
    uint32_t n = c->hi - c->lo;
    int32_t *delta = calloc(n + 1, sizeof *delta);
    if (!delta)
        return true; /* no loops known: only the register choice is worse */
    for (uint32_t s = c->lo; s < c->hi; s++) {
        const JgTerm *t = &c->g->blocks.items[s].term;
        for (uint32_t k = 0; bl_flows(t) && k < t->nlinks; k++) {
            uint32_t target = t->links[k].target;
            if (bl_internal(c, target) && target <= s) {
                delta[target - c->lo]++;
                delta[s - c->lo + 1]--;
            }
        }
    }
    int32_t depth = 0;
    bool any = false;
    for (uint32_t i = 0; i < n; i++) {
        depth += delta[i];
        hot[i] = depth > 0;
        any |= hot[i];
    }
    for (uint32_t i = 0; !any && i < n; i++)
        hot[i] = true;
    free(delta);
    return any;
}

/* The values the method defines (parameters that are no alias, operation
 * results), numbered densely, and their classes of shared homes. */
typedef struct Classes {
    uint32_t n;
    uint32_t *index; /* per graph value: its number, NONE */
    JgVal *value;    /* per number: the graph value */
    uint32_t *parent;
    uint32_t *next;    /* members of a class: a list from its root */
    uint32_t *size;    /* per root: its members */
    uint32_t words;    /* of a bit set over the numbers */
    uint64_t *rows;    /* per root: what its members interfere with (NULL: no coalescing) */
    uint64_t *crosses; /* bit set: live across a call (or an ALLOCA's rep stosb) */
    uint64_t *live_in; /* per local block: what is live at its start */
} Classes;

static uint32_t find(Classes *k, uint32_t i)
{
    while (k->parent[i] != i)
        i = k->parent[i] = k->parent[k->parent[i]];
    return i;
}

static uint32_t number(const Codegen *c, const Classes *k, JgVal v)
{
    v = bl_resolve(c, v);
    return v && v < c->g->values.count ? k->index[v] : NONE;
}

static void set_add(uint64_t *set, uint32_t i)
{
    if (i != NONE)
        set[i / 64] |= (uint64_t)1 << (i % 64);
}

static void set_remove(uint64_t *set, uint32_t i)
{
    if (i != NONE)
        set[i / 64] &= ~((uint64_t)1 << (i % 64));
}

static bool set_has(const uint64_t *set, uint32_t i)
{
    return (set[i / 64] >> (i % 64)) & 1;
}

/* Whether a second identical `op` may take the first one's result, and
 * whether an unread `op` may be left out: a pure operation (no memory, no
 * call) that method.c computes inline. */
static bool reusable(const JgGraph *g, const JgOp *op)
{
    return op->result && jg_op_is_pure(op->opcode) && !bl_op_calls(g, op);
}

/* Whether argument i of link l goes to a parameter of this method that
 * nothing reads (find_dead_params): no move, no use. */
static bool to_dead_param(const Codegen *c, const JgLink *l, uint32_t i)
{
    if (!bl_internal(c, l->target))
        return false;
    const JgBlock *t = &c->g->blocks.items[l->target];
    return i < t->nparams && c->dead[t->params[i]];
}

/* Adds to `live` what block b reads at its end: the terminator's value and
 * the arguments of its links (a flexswitch: its live values). */
static void end_uses(const Codegen *c, const Classes *k, uint32_t b, uint64_t *live)
{
    const JgTerm *t = &c->g->blocks.items[b].term;
    set_add(live, number(c, k, t->value));
    if (t->kind == JG_TERM_FLEXSWITCH) {
        const JgFlexswitch *fs = t->flex;
        for (uint32_t i = 0; fs && i < fs->nlive; i++)
            set_add(live, number(c, k, fs->live[i]));
        return;
    }
    for (uint32_t l = 0; bl_flows(t) && l < t->nlinks; l++)
        for (uint32_t i = 0; i < t->links[l].nargs; i++)
            if (!to_dead_param(c, &t->links[l], i))
                set_add(live, number(c, k, t->links[l].args[i]));
}

/* Parameters nothing reads: not an operation of the method, a terminator,
 * a flexswitch's live values, a link to another method, nor a parameter
 * read so that a link passes them on (to a fixed point). A loop may carry
 * such a value around (a stale slot of the interpreter's frame that the
 * partial evaluator keeps): without a reader, its moves on every back-edge
 * and its register are waste. dead[] marks them. */
static void find_dead_params(Codegen *c)
{
    const JgGraph *g = c->g;
    bool *read = c->bg->bl->values.read;
#define READ(v) (read[bl_resolve(c, (v))] = true)
    for (uint32_t b = c->lo; b < c->hi; b++) {
        const JgBlock *bk = &g->blocks.items[b];
        for (uint32_t i = 0; i < bk->ops.count; i++)
            for (uint32_t a = 0; a < bk->ops.items[i].nargs; a++)
                READ(bk->ops.items[i].args[a]);
        const JgTerm *t = &bk->term;
        READ(t->value);
        if (t->kind == JG_TERM_FLEXSWITCH && t->flex) {
            const JgFlexswitch *fs = t->flex;
            for (uint32_t i = 0; i < fs->nlive; i++)
                READ(fs->live[i]);
        }
        for (uint32_t l = 0; l < t->nlinks; l++) {
            const JgLink *link = &t->links[l];
            const JgBlock *to =
                link->target < g->blocks.count ? &g->blocks.items[link->target] : NULL;
            for (uint32_t i = 0; i < link->nargs; i++)
                if (!bl_flows(t) || !bl_internal(c, link->target) || !to || i >= to->nparams)
                    READ(link->args[i]);
        }
    }
    /* last block first: reads flow back along links, which mostly go to
     * later blocks, so that a chain of gotos takes one pass, not one per
     * block */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = c->hi; b-- > c->lo;) {
            const JgTerm *t = &g->blocks.items[b].term;
            for (uint32_t l = 0; bl_flows(t) && l < t->nlinks; l++) {
                const JgLink *link = &t->links[l];
                if (!bl_internal(c, link->target))
                    continue;
                const JgBlock *to = &g->blocks.items[link->target];
                for (uint32_t i = 0; i < link->nargs && i < to->nparams; i++) {
                    JgVal p = to->params[i], a = bl_resolve(c, link->args[i]);
                    if (read[bl_resolve(c, p)] && !read[a]) {
                        read[a] = true;
                        changed = true;
                    }
                }
            }
        }
    }
#undef READ
    for (uint32_t b = c->lo; b < c->hi; b++) {
        const JgBlock *bk = &g->blocks.items[b];
        for (uint32_t i = 0; i < bk->nparams; i++)
            if (c->alias[bk->params[i]] == bk->params[i] && !read[bk->params[i]])
                c->dead[bk->params[i]] = true;
    }
}

/* live = what is live at the end of b (given live_in of its successors) */
static void live_out(const Codegen *c, const Classes *k, const uint64_t *live_in, uint32_t b,
                     uint64_t *live)
{
    const JgTerm *t = &c->g->blocks.items[b].term;
    memset(live, 0, sizeof *live * k->words);
    for (uint32_t l = 0; bl_flows(t) && l < t->nlinks; l++) {
        uint32_t s = t->links[l].target;
        if (!bl_internal(c, s))
            continue;
        const uint64_t *in = live_in + (size_t)(s - c->lo) * k->words;
        for (uint32_t w = 0; w < k->words; w++)
            live[w] |= in[w];
    }
    end_uses(c, k, b, live);
}

/* rows[i] and rows[x] for every x in `live` but i: i is defined where they live. */
static void interfere(Classes *k, uint32_t i, const uint64_t *live)
{
    if (i == NONE)
        return;
    uint64_t *row = k->rows + (size_t)i * k->words;
    for (uint32_t w = 0; w < k->words; w++) {
        uint64_t bits = live[w];
        row[w] |= bits;
        while (bits) {
            uint32_t x = w * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            if (x != i)
                set_add(k->rows + (size_t)x * k->words, i);
        }
    }
    set_remove(row, i);
}

/* Walks b backwards from `live` (its live-out): with `k->rows`, records
 * interference; leaves in `live` what is live at b's start. */
static void walk_block(const Codegen *c, Classes *k, uint32_t b, uint64_t *live, bool record)
{
    const JgBlock *bk = &c->g->blocks.items[b];
    for (uint32_t i = bk->ops.count; i-- > 0;) {
        const JgOp *op = &bk->ops.items[i];
        if (op->result && c->alias[op->result] != op->result)
            continue; /* no code: its uses read the value it stands for */
        uint32_t r = op->result ? k->index[op->result] : NONE;
        if (r != NONE && !set_has(live, r) && reusable(c->g, op)) {
            if (record)
                c->dead[op->result] = true; /* nothing reads it: no code */
            continue;
        }
        if (record)
            interfere(k, r, live);
        set_remove(live, r);
        const JgFreeListAllocator *allocator;
        if (record && bl_op_calls(c->g, op) && !bl_free_list_of(c, op, &allocator))
            /* what lives on after a call */
            for (uint32_t w = 0; w < k->words; w++)
                k->crosses[w] |= live[w];
        for (uint32_t a = 0; a < op->nargs; a++)
            set_add(live, number(c, k, op->args[a]));
    }
    for (uint32_t i = 0; record && i < bk->nparams; i++)
        interfere(k, k->index[bk->params[i]], live);
    for (uint32_t i = 0; i < bk->nparams; i++)
        set_remove(live, k->index[bk->params[i]]);
}

/* Liveness to a fixed point, then the interference rows. False: no memory. */
static bool find_interference(const Codegen *c, Classes *k, bool loops)
{
    uint32_t n = c->hi - c->lo;
    uint64_t *live_in = calloc((size_t)n * k->words, sizeof *live_in);
    uint64_t *live = malloc(sizeof *live * k->words);
    k->rows = calloc((size_t)k->n * k->words, sizeof *k->rows);
    k->crosses = calloc(k->words ? k->words : 1, sizeof *k->crosses);
    if (!live_in || !live || !k->rows || !k->crosses) {
        free(live_in);
        free(live);
        free(k->rows);
        free(k->crosses);
        k->rows = NULL;
        k->crosses = NULL;
        return false;
    }
    /* without a link back (`loops`, find_loops), one pass from the last
     * block to the first sees every successor's final live-in, and records
     * as it goes */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = c->hi; b-- > c->lo;) {
            live_out(c, k, live_in, b, live);
            walk_block(c, k, b, live, !loops);
            uint64_t *in = live_in + (size_t)(b - c->lo) * k->words;
            if (memcmp(in, live, sizeof *live * k->words) != 0) {
                memcpy(in, live, sizeof *live * k->words);
                changed = loops;
            }
        }
    }
    for (uint32_t b = c->lo; loops && b < c->hi; b++) {
        live_out(c, k, live_in, b, live);
        walk_block(c, k, b, live, true);
    }
    k->live_in = live_in;
    free(live);
    return true;
}

/* Whether some member of class rb interferes with some member of ra.
 * Interference is symmetric and a root's row holds its members' rows, so
 * the smaller class's members are looked up in the other's row (the
 * classes of a long chain of blocks' parameters have hundreds). */
static bool classes_interfere(Classes *k, uint32_t ra, uint32_t rb)
{
    if (k->size[rb] > k->size[ra]) {
        uint32_t t = ra;
        ra = rb;
        rb = t;
    }
    const uint64_t *row = k->rows + (size_t)ra * k->words;
    for (uint32_t m = rb; m != NONE; m = k->next[m])
        if (set_has(row, m))
            return true;
    return false;
}

static void unite(Classes *k, uint32_t ra, uint32_t rb)
{
    k->parent[rb] = ra;
    k->size[ra] += k->size[rb];
    uint64_t *row = k->rows + (size_t)ra * k->words;
    const uint64_t *other = k->rows + (size_t)rb * k->words;
    for (uint32_t w = 0; w < k->words; w++)
        row[w] |= other[w];
    uint32_t tail = rb;
    while (k->next[tail] != NONE)
        tail = k->next[tail];
    k->next[tail] = k->next[ra];
    k->next[ra] = rb;
}

/* Whether a member of the class rooted at `root` is live across a call. */
static bool class_crosses(const Classes *k, uint32_t root)
{
    for (uint32_t m = root; m != NONE; m = k->next[m])
        if (set_has(k->crosses, m))
            return true;
    return false;
}

/* Shares homes between link arguments and the parameters they go to
 * (links in hot blocks first). A cold link does not join a class live
 * across a call with one that is not: the joined class could only have a
 * callee-saved register, of which there are three. (A loop's exit to a
 * block that allocates the result would otherwise push the loop's values
 * out of caller-saved registers, to a move saved on the way out.) */
static void coalesce(const Codegen *c, Classes *k, const bool *hot)
{
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t b = c->lo; b < c->hi; b++) {
            if (pass == 0 && !hot[b - c->lo])
                continue;
            const JgTerm *t = &c->g->blocks.items[b].term;
            /* a flexswitch's cases in the method (a consolidated graph) are
               jumps too (method.c, inline_cases) */
            bool jumps = bl_flows(t) || t->kind == JG_TERM_FLEXSWITCH;
            for (uint32_t l = 0; jumps && l < t->nlinks; l++) {
                const JgLink *link = &t->links[l];
                if (!bl_internal(c, link->target))
                    continue;
                const JgBlock *target = &c->g->blocks.items[link->target];
                for (uint32_t i = 0; i < link->nargs && i < target->nparams; i++) {
                    uint32_t p = k->index[target->params[i]], a = number(c, k, link->args[i]);
                    if (p == NONE || a == NONE)
                        continue;
                    uint32_t rp = find(k, p), ra = find(k, a);
                    if (rp == ra || classes_interfere(k, ra, rp))
                        continue;
                    if (pass == 1 && class_crosses(k, ra) != class_crosses(k, rp))
                        continue;
                    unite(k, ra, rp);
                }
            }
        }
}

static void add_value(Classes *k, JgVal v)
{
    if (v && k->index[v] == NONE) {
        k->index[v] = k->n;
        k->value[k->n++] = v;
    }
}

static void count_use(const Codegen *c, Classes *k, uint64_t *weight, JgVal v, bool hot)
{
    uint32_t i = number(c, k, v);
    if (i != NONE)
        weight[find(k, i)] += hot ? 16 : 1;
}

/* Sorts order[0..n) by decreasing weight, equal weights in their order
 * (a merge sort: a method has thousands of classes). */
static void sort_by_weight(uint32_t *order, uint32_t n, const uint64_t *weight)
{
    uint32_t *tmp = malloc(sizeof *tmp * (n ? n : 1));
    if (!tmp) { /* no memory: an insertion sort, slower, the same order */
        for (uint32_t i = 1; i < n; i++) {
            uint32_t x = order[i], j = i;
            for (; j > 0 && weight[order[j - 1]] < weight[x]; j--)
                order[j] = order[j - 1];
            order[j] = x;
        }
        return;
    }
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n;
            uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t a = lo, b = mid, t = lo;
            while (a < mid && b < hi)
                tmp[t++] = weight[order[b]] > weight[order[a]] ? order[b++] : order[a++];
            while (a < mid)
                tmp[t++] = order[a++];
            while (b < hi)
                tmp[t++] = order[b++];
        }
        memcpy(order, tmp, sizeof *order * n);
    }
    free(tmp);
}

/* Registers by greedy coloring of the interference between classes: the
 * heaviest class first (uses, those in loops counting 16), each taking the
 * first register no interfering class holds; classes live across a call
 * only callee-saved ones, the others caller-saved ones first. Without
 * interference (a method too big), every value stays in its slot. */
static void assign_registers(Codegen *c, Classes *k, const bool *hot, uint64_t *weight)
{
    const JgGraph *g = c->g;
    if (!k->rows)
        return;
    /* what reads or writes a home: operations, and the moves of links
     * between different classes (a coalesced link moves nothing) */
    for (uint32_t b = c->lo; b < c->hi; b++) {
        const JgBlock *bk = &g->blocks.items[b];
        bool h = hot[b - c->lo];
        for (uint32_t i = 0; i < bk->ops.count; i++) {
            const JgOp *op = &bk->ops.items[i];
            count_use(c, k, weight, op->result, h);
            for (uint32_t a = 0; a < op->nargs; a++)
                count_use(c, k, weight, op->args[a], h);
        }
        const JgTerm *t = &bk->term;
        count_use(c, k, weight, t->value, h);
        for (uint32_t l = 0; bl_flows(t) && l < t->nlinks; l++) {
            const JgLink *link = &t->links[l];
            bool inside = bl_internal(c, link->target);
            const JgBlock *target = &g->blocks.items[link->target];
            for (uint32_t a = 0; a < link->nargs; a++) {
                uint32_t x = number(c, k, link->args[a]);
                uint32_t p = inside && a < target->nparams ? number(c, k, target->params[a]) : NONE;
                if (x != NONE && p != NONE && find(k, x) == find(k, p))
                    continue;
                count_use(c, k, weight, link->args[a], h);
                if (p != NONE)
                    count_use(c, k, weight, target->params[a], h);
            }
        }
    }
    /* the roots, heaviest first */
    uint32_t nroots = 0;
    uint32_t *order = malloc(sizeof *order * (k->n ? k->n : 1));
    uint32_t *color = malloc(sizeof *color * (k->n ? k->n : 1));
    /* per register, the roots colored with it so far, as a list through
     * `same`: a root is checked against those only */
    uint32_t *same = malloc(sizeof *same * (k->n ? k->n : 1));
    uint32_t holders[NHOME_REGS], nholders[NHOME_REGS];
    /* per register, what the roots colored with it interfere with (their
     * rows, or'ed): a root with fewer members than the register has
     * holders looks its members up in this one row rather than walking
     * every holder (the same answer: interference is symmetric) */
    uint64_t *held = calloc((size_t)NHOME_REGS * k->words + 1, sizeof *held);
    if (!order || !color || !same || !held) {
        free(order);
        free(color);
        free(same);
        free(held);
        return; /* no registers: slower code, the same results */
    }
    for (uint32_t r = 0; r < NHOME_REGS; r++) {
        holders[r] = NONE;
        nholders[r] = 0;
    }
    for (uint32_t i = 0; i < k->n; i++)
        if (find(k, i) == i && weight[i] > 0)
            order[nroots++] = i;
    sort_by_weight(order, nroots, weight);
    if (nroots > MAX_COLORED)
        nroots = MAX_COLORED; /* the lightest stay in slots: coloring is quadratic */
    for (uint32_t i = 0; i < nroots; i++) {
        uint32_t root = order[i];
        bool crosses = class_crosses(k, root);
        /* a class not live across a call tries the caller-saved registers
         * first, leaving the callee-saved ones to those that are */
        uint32_t first = crosses ? 0 : NCALLEE_SAVED;
        color[i] = NONE;
        for (uint32_t step = 0; step < NHOME_REGS && color[i] == NONE; step++) {
            uint32_t r = (first + step) % NHOME_REGS;
            if (crosses && r >= NCALLEE_SAVED)
                break;
            bool taken = false;
            if (k->size[root] <= nholders[r]) {
                const uint64_t *row = held + (size_t)r * k->words;
                for (uint32_t m = root; m != NONE && !taken; m = k->next[m])
                    taken = set_has(row, m);
            } else {
                for (uint32_t j = holders[r]; j != NONE && !taken; j = same[j])
                    taken = classes_interfere(k, root, order[j]);
            }
            if (!taken)
                color[i] = r;
        }
        if (color[i] == NONE)
            continue;
        same[i] = holders[color[i]];
        holders[color[i]] = i;
        nholders[color[i]]++;
        uint64_t *row = held + (size_t)color[i] * k->words;
        const uint64_t *own = k->rows + (size_t)root * k->words;
        for (uint32_t w = 0; w < k->words; w++)
            row[w] |= own[w];
        for (uint32_t m = root; m != NONE; m = k->next[m])
            c->reg[k->value[m]] = (uint8_t)bl_home_regs[color[i]];
    }
    free(order);
    free(color);
    free(same);
    free(held);
}

/* The ALLOCA area, the scratch space of calls and the frame capacity, and
 * the values the method defines. */
static bool scan(Codegen *c, Classes *k)
{
    const JgGraph *g = c->g;
    c->nscratch = 3; /* the operands of helper calls (method.c, stage) */
    for (uint32_t b = c->lo; b < c->hi; b++) {
        const JgBlock *bl = &g->blocks.items[b];
        for (uint32_t i = 0; i < bl->nparams; i++)
            if (c->alias[bl->params[i]] == bl->params[i])
                add_value(k, bl->params[i]);
        for (uint32_t i = 0; i < bl->ops.count; i++) {
            const JgOp *op = &bl->ops.items[i];
            if (op->result && c->alias[op->result] == op->result)
                add_value(k, op->result);
            if (op->opcode == JG_OP_ALLOCA && op->result) {
                uint64_t size = op->imm > 0 ? (uint64_t)op->imm : 0;
                c->alloca_at[op->result] = c->area_bytes;
                uint64_t next = c->area_bytes + ((size + 16) & ~(uint64_t)15);
                if (next > UINT32_MAX / 2)
                    return bl_cg_fail(c, "ALLOCAs of block %u take too much memory", b);
                c->area_bytes = (uint32_t)next;
            }
            if (op->opcode == JG_OP_CALL && op->nargs > c->nscratch)
                c->nscratch = op->nargs;
            if (op->opcode == JG_OP_CALL && op->callee && (op->callee->flags & JG_FLAG_PORTAL) &&
                bl_direct_site(c, op) && c->nscratch < 1 + BL_DIRECT_SLOTS)
                c->nscratch = 1 + BL_DIRECT_SLOTS; /* the callee's frame */
        }
        const JgTerm *t = &bl->term;
        if (t->kind == JG_TERM_FLEXSWITCH && t->flex &&
            ((JgFlexswitch *)t->flex)->nlive > c->bg->capacity)
            c->bg->capacity = ((JgFlexswitch *)t->flex)->nlive;
        for (uint32_t i = 0; i < t->nlinks; i++)
            if (t->links[i].nargs > c->bg->capacity)
                c->bg->capacity = t->links[i].nargs;
        if (bl->nparams > c->bg->capacity)
            c->bg->capacity = bl->nparams;
    }
    if (k->n > (1u << 24))
        return bl_cg_fail(c, "too many values for one method (%u)", k->n);
    return true;
}

/* Whether `op` leaves its operand's bits as they are: a zero-extension (a
 * home holds a value zero-extended) or a cast between 64-bit types, of a
 * value that is no constant (constants are immediates of their own type). */
static bool same_bits(const Codegen *c, const JgOp *op)
{
    JgVal a = bl_resolve(c, op->args[0]);
    if (!a || jg_is_const(c->g, a))
        return false;
    JgType from = jg_value_type(c->g, a), to = (JgType)op->type;
    bool wide = (from == JG_I64 || from == JG_PTR) && (to == JG_I64 || to == JG_PTR);
    switch ((JgOpcode)op->opcode) {
    case JG_OP_ZEXT:
        return from != JG_F32 && from != JG_F64;
    case JG_OP_PTRTOINT:
    case JG_OP_INTTOPTR:
    case JG_OP_BITCAST:
        return wide;
    default:
        return false;
    }
}

/* How an ICMP of a value with a constant tests the value when it is 0 or
 * 1: 1 when it is true for 1 and false for 0 (`icmp ne b, 0`, the test of
 * a C bool), 2 the reverse, 0 neither (or `op` is no such ICMP). */
static unsigned tests_bit(const Codegen *c, const JgOp *op)
{
    if (op->opcode != JG_OP_ICMP || op->nargs != 2 || op->pred > JG_SLE)
        return 0;
    JgVal k = bl_resolve(c, op->args[1]);
    if (!k || !jg_is_const(c->g, k))
        return 0;
    JgType t = jg_value_type(c->g, op->args[0]);
    uint64_t kbits = mask(t, jg_value(c->g, k)->bits);
    uint64_t if0[2] = {0, kbits}, if1[2] = {1, kbits};
    bool r0 = jg_arith(JG_OP_ICMP, JG_I1, op->pred, t, if0) & 1;
    bool r1 = jg_arith(JG_OP_ICMP, JG_I1, op->pred, t, if1) & 1;
    return r0 == r1 ? 0 : r1 ? 1 : 2;
}

/* The i1 value an ICMP of a bool (widened by zext: homes.c's aliases) with
 * a constant is, when it is true for 1 and false for 0; 0 otherwise. */
static JgVal bool_test(const Codegen *c, const JgOp *op)
{
    if (tests_bit(c, op) != 1)
        return 0;
    JgVal b = bl_resolve(c, op->args[0]);
    return b && !jg_is_const(c->g, b) && jg_value_type(c->g, b) == JG_I1 ? b : 0;
}

/* Local value numbering: an operation that repeats one a few ops earlier
 * in its block, on the same values, is that op's result (partial
 * evaluation repeats the interpreter's checks); a zero-extension or a
 * cast that keeps the bits is its operand, the test of a bool the bool. */
static void reuse_results(Codegen *c)
{
    const JgGraph *g = c->g;
    for (uint32_t b = c->lo; b < c->hi; b++) {
        const JgBlock *bk = &g->blocks.items[b];
        for (uint32_t i = 0; i < bk->ops.count; i++) {
            const JgOp *op = &bk->ops.items[i];
            if (!reusable(c->g, op) || c->alias[op->result] != op->result)
                continue;
            if (same_bits(c, op)) {
                c->alias[op->result] = bl_resolve(c, op->args[0]);
                continue;
            }
            JgVal b = bool_test(c, op);
            if (b) {
                c->alias[op->result] = b;
                continue;
            }
            for (uint32_t j = i > 16 ? i - 16 : 0; j < i; j++) {
                const JgOp *o = &bk->ops.items[j];
                bool same = o->opcode == op->opcode && o->type == op->type && o->pred == op->pred &&
                            o->nargs == op->nargs && c->alias[o->result] == o->result;
                for (uint32_t a = 0; same && a < op->nargs; a++)
                    same = bl_same_operand(c, o->args[a], op->args[a]);
                if (same) {
                    c->alias[op->result] = o->result;
                    break;
                }
            }
        }
    }
}

/* How many times the method reads each value where it needs the value's
 * home (per graph value, in reads[]): operands of ops with code, terminator
 * values, flexswitch live values, and link arguments that move (an argument
 * passed to a parameter that stands for it moves nothing). */
static void count_reads(const Codegen *c, uint32_t *reads)
{
    for (uint32_t b = c->lo; b < c->hi; b++) {
        const JgBlock *bk = &c->g->blocks.items[b];
        for (uint32_t i = 0; i < bk->ops.count; i++)
            for (uint32_t a = 0; !bl_no_code(c, &bk->ops.items[i]) && a < bk->ops.items[i].nargs;
                 a++)
                reads[bl_resolve(c, bk->ops.items[i].args[a])]++;
        const JgTerm *t = &bk->term;
        reads[bl_resolve(c, t->value)]++;
        if (t->kind == JG_TERM_FLEXSWITCH && t->flex) {
            const JgFlexswitch *fs = t->flex;
            for (uint32_t i = 0; i < fs->nlive; i++)
                reads[bl_resolve(c, fs->live[i])]++;
        }
        for (uint32_t l = 0; bl_flows(t) && l < t->nlinks; l++) {
            const JgLink *link = &t->links[l];
            const JgBlock *to =
                link->target < c->g->blocks.count ? &c->g->blocks.items[link->target] : NULL;
            for (uint32_t a = 0; a < link->nargs; a++) {
                JgVal v = bl_resolve(c, link->args[a]);
                if (!(bl_internal(c, link->target) && to && a < to->nparams &&
                      bl_resolve(c, to->params[a]) == v) &&
                    !to_dead_param(c, link, a))
                    reads[v]++;
            }
        }
    }
}

/* The index + 1 of b's last op with code when it is an ICMP (0: none). */
static uint32_t last_compare(const Codegen *c, const JgBlock *bk)
{
    uint32_t i = bk->ops.count;
    while (i > 0 && bl_no_code(c, &bk->ops.items[i - 1]))
        i--;
    return i > 0 && bk->ops.items[i - 1].opcode == JG_OP_ICMP && bk->ops.items[i - 1].result ? i
                                                                                             : 0;
}

/* The fusion of block bk's comparison x (at index i - 1) into the branch of
 * the block t its goto goes to, when t branches on x alone:
 *   - t has no code, branches on a parameter standing for x and is entered
 *     only by this goto: the goto takes t's branch over;
 *   - t is entered from elsewhere too (a merge point, say): x goes to a
 *     parameter p that only t's branch reads (or only an ICMP that tests
 *     it and only the branch reads), t has no other code, and the goto
 *     jumps on x's flags to where t's branch would go, without writing p.
 * x itself must be read only by that goto. */
static BlFuse fuse_through(const Codegen *c, const Preds *preds, const uint32_t *reads,
                           const JgBlock *bk, uint32_t b, uint32_t i)
{
    BlFuse none = {0};
    JgVal x = bk->ops.items[i - 1].result;
    if (bk->term.kind != JG_TERM_GOTO || bk->term.nlinks != 1 || reads[x] != 1)
        return none;
    const JgLink *l = &bk->term.links[0];
    uint32_t to = l->target;
    if (!bl_internal(c, to) || to == b || l->nargs != c->g->blocks.items[to].nparams)
        return none;
    const JgBlock *t = &c->g->blocks.items[to];
    if (t->term.kind != JG_TERM_BRANCH)
        return none;
    JgVal tested = bl_resolve(c, t->term.value);
    const JgOp *code = NULL; /* t's one op with code */
    for (uint32_t j = 0; j < t->ops.count; j++) {
        if (bl_no_code(c, &t->ops.items[j]))
            continue;
        if (code)
            return none;
        code = &t->ops.items[j];
    }
    if (!c->bg->enterable[to] && preds->start[to - c->lo + 1] - preds->start[to - c->lo] == 1) {
        if (!code && tested == x)
            return (BlFuse){.op = i};
        return none;
    }
    uint32_t param = UINT32_MAX;
    for (uint32_t a = 0; a < l->nargs; a++)
        if (bl_resolve(c, l->args[a]) == x)
            param = a;
    if (param == UINT32_MAX)
        return none;
    JgVal p = t->params[param];
    if (c->alias[p] != p || reads[p] != 1)
        return none;
    if (!code)
        return tested == p ? (BlFuse){.op = i, .param = param + 1} : none;
    unsigned how = code->result == tested && reads[tested] == 1 ? tests_bit(c, code) : 0;
    if (!how || bl_resolve(c, code->args[0]) != p)
        return none;
    return (BlFuse){.op = i, .param = param + 1, .invert = how == 2};
}

/* A shift left by 1, 2 or 3 whose result only the next operation reads, an
 * add of the same type taking it once: the add becomes lea d, [a + x * 2^k]
 * (method.c), one instruction where two would chain (the partial
 * evaluator's sums, pe/unroll.c: fibonacci's a + 2b). */
static bool scales(const Codegen *c, const uint32_t *reads, const JgOp *shl, const JgOp *add)
{
    JgVal r = shl->result;
    if (shl->opcode != JG_OP_SHL || !bl_shift_inline(c->g, shl) || reads[r] != 1 ||
        add->opcode != JG_OP_ADD || add->type != shl->type)
        return false;
    uint64_t k = jg_value(c->g, shl->args[1])->bits;
    JgVal a0 = bl_resolve(c, add->args[0]), a1 = bl_resolve(c, add->args[1]);
    return k >= 1 && k <= 3 && (a0 == r) != (a1 == r);
}

/* A pointer addition of a constant that fits a displacement, whose result
 * only the next operation reads, as the address of a load or a store: the
 * access becomes [base + constant] (method.c, address), one instruction
 * where an lea and a move would come first (an interpreter reads fields at
 * constant offsets everywhere). */
static bool addresses(const Codegen *c, const uint32_t *reads, const JgOp *add, const JgOp *use)
{
    JgVal r = add->result;
    if (add->opcode != JG_OP_PTRADD || add->nargs != 2 || reads[r] != 1 ||
        !jg_is_const(c->g, add->args[1]) ||
        (use->opcode != JG_OP_LOAD && use->opcode != JG_OP_STORE) ||
        bl_resolve(c, use->args[0]) != r)
        return false;
    int64_t offset = bl_const_offset(c->g, add->args[1]);
    return offset >= INT32_MIN && offset <= INT32_MAX;
}

/* Operations the next one absorbs (scales, addresses): no code of their
 * own. Their operand is live until them, just before the absorbing
 * operation: nothing writes its home in between. */
static void find_absorbed(Codegen *c, const uint32_t *reads)
{
    for (uint32_t b = c->lo; b < c->hi; b++) {
        const JgBlock *bk = &c->g->blocks.items[b];
        for (uint32_t i = 0; i + 1 < bk->ops.count; i++) {
            const JgOp *op = &bk->ops.items[i], *next = &bk->ops.items[i + 1];
            if (bl_no_code(c, op) || bl_no_code(c, next))
                continue;
            if (scales(c, reads, op, next))
                c->scaled[op->result] = true;
            else if (addresses(c, reads, op, next))
                c->addressed[op->result] = true;
        }
    }
}

/* Comparisons that become the flags of a branch (method.c): a block ending
 * with a branch on its last op with code, an ICMP that nothing else reads,
 * or with that ICMP and a goto into a branch on it (fuse_through). */
static void find_fused(Codegen *c, const Classes *k, const Preds *preds, const uint32_t *reads)
{
    for (uint32_t b = c->lo; b < c->hi; b++) {
        const JgBlock *bk = &c->g->blocks.items[b];
        uint32_t i = last_compare(c, bk);
        if (i == 0)
            continue;
        JgVal x = bk->ops.items[i - 1].result;
        if (k->index[x] == NONE)
            continue;
        if (bk->term.kind == JG_TERM_BRANCH) {
            if (bl_resolve(c, bk->term.value) == x && reads[x] == 1)
                c->fused[b - c->lo] = (BlFuse){.op = i};
            continue;
        }
        c->fused[b - c->lo] = fuse_through(c, preds, reads, bk, b, i);
    }
    find_absorbed(c, reads);
}

/* The fold of block b's fused comparison `cmp` (BlFold), when its first
 * operand is `x - C` that nothing else reads and x lives on after b (its
 * home still holds it once b's goto has moved its arguments). */
static BlFold fold_of(const Codegen *c, const Classes *k, const uint32_t *reads, uint32_t b,
                      const JgOp *cmp)
{
    BlFold none = {0};
    const JgGraph *g = c->g;
    if (cmp->nargs != 2 || jg_value_type(g, cmp->args[0]) != JG_I64 ||
        !jg_is_const(g, cmp->args[1]))
        return none;
    JgVal t = bl_resolve(c, cmp->args[0]);
    const JgValueInfo *info = jg_value(g, t);
    if (!t || info->kind != JG_VK_OP || !bl_internal(c, info->block) || reads[t] != 1)
        return none;
    const JgOp *sub = &g->blocks.items[info->block].ops.items[info->index];
    if ((sub->opcode != JG_OP_SUB && sub->opcode != JG_OP_ADD) || sub->type != JG_I64 ||
        sub->nargs != 2 || !jg_is_const(g, sub->args[1]) || bl_no_code(c, sub))
        return none;
    BlFold fold;
    if (!bl_fold_compare((JgPred)cmp->pred, (JgOpcode)sub->opcode,
                         (int64_t)jg_value(g, sub->args[1])->bits,
                         (int64_t)jg_value(g, cmp->args[1])->bits, &fold))
        return none;
    JgVal x = bl_resolve(c, sub->args[0]);
    uint32_t xi = number(c, k, x);
    if (!x || jg_is_const(g, x) || xi == NONE)
        return none;
    bool lives_on = false;
    const JgTerm *term = &g->blocks.items[b].term;
    for (uint32_t l = 0; bl_flows(term) && l < term->nlinks; l++) {
        uint32_t s = term->links[l].target;
        if (bl_internal(c, s) && set_has(k->live_in + (size_t)(s - c->lo) * k->words, xi))
            lives_on = true;
    }
    if (!lives_on)
        return none;
    fold.x = x;
    return fold;
}

/* Folds (BlFold) of the method's fused comparisons, once homes are known.
 * `reads` are find_fused's, counted before scaled shifts (find_absorbed) hid
 * their operands' reads: the lea of a scaled add still reads its x. */
static void find_folds(Codegen *c, const Classes *k, const uint32_t *reads)
{
    for (uint32_t b = c->lo; b < c->hi; b++) {
        const BlFuse *fuse = &c->fused[b - c->lo];
        if (!fuse->op)
            continue;
        const JgOp *cmp = &c->g->blocks.items[b].ops.items[fuse->op - 1];
        BlFold f = fold_of(c, k, reads, b, cmp);
        if (!f.x)
            continue;
        c->fold[b - c->lo] = f;
        c->folded[bl_resolve(c, cmp->args[0])] = true;
    }
}

static void free_classes(Classes *k)
{
    free(k->value);
    free(k->parent);
    free(k->next);
    free(k->size);
    free(k->rows);
    free(k->crosses);
    free(k->live_in);
}

bool bl_assign_homes(Codegen *c)
{
    uint32_t nblocks = c->hi - c->lo;
    Preds preds;
    if (!find_preds(c, &preds))
        return bl_cg_fail(c, "out of memory");
    reuse_results(c);
    find_aliases(c, &preds);
    reuse_results(c); /* again: parameters now stand for what they receive */
    find_dead_params(c);
    Classes k = {0};
    uint32_t ndefs = c->ndefs ? c->ndefs : 1;
    k.index = c->bg->bl->values.index;
    k.value = malloc(sizeof *k.value * ndefs);
    k.parent = malloc(sizeof *k.parent * ndefs);
    k.next = malloc(sizeof *k.next * ndefs);
    k.size = malloc(sizeof *k.size * ndefs);
    bool *hot = calloc(nblocks ? nblocks : 1, sizeof *hot);
    uint64_t *weight = calloc(ndefs, sizeof *weight);
    uint32_t *reads = c->bg->bl->values.reads; /* per value: its reads (count_reads) */
    bool counted = false;
    bool ok = k.value && k.parent && k.next && k.size && hot && weight;
    if (ok) {
        ok = scan(c, &k);
    } else {
        bl_cg_fail(c, "out of memory");
    }
    if (ok) {
        for (uint32_t i = 0; i < k.n; i++) {
            k.parent[i] = i;
            k.next[i] = NONE;
            k.size[i] = 1;
        }
        k.words = (k.n + 63) / 64;
        bool loops = find_loops(c, hot);
        if (k.n > BL_MAX_COALESCED && c->bg->consolidating) {
            ok = bl_cg_fail(c, "%u values: too many to consolidate", k.n);
        } else if (k.n <= BL_MAX_COALESCED && find_interference(c, &k, loops)) {
            coalesce(c, &k, hot);
            count_reads(c, reads);
            find_fused(c, &k, &preds, reads);
            counted = true;
        }
        /* a slot per class */
        for (uint32_t i = 0; i < k.n; i++)
            if (find(&k, i) == i)
                for (uint32_t m = i, slot = c->nslots++; m != NONE; m = k.next[m])
                    c->home[k.value[m]] = SLOTS_AT - 8 * (int32_t)slot;
        assign_registers(c, &k, hot, weight);
        if (counted)
            find_folds(c, &k, reads);
    }
    free_classes(&k);
    free(preds.start);
    free(preds.in);
    free(hot);
    free(weight);
    return ok;
}
