/* Unrolling product loops (unroll.h). A residual loop whose trip computes
 * m = a * x, where `a` is the m of the trip before, runs at the latency of
 * one multiply per iteration (3 cycles on x86-64): each product needs the
 * one before. The loop is a cycle of blocks (the partial evaluator makes a
 * block per interpreted instruction), B_j holding the multiply:
 *
 *   B_j(.., a, ..):  m1 = a * x1; ...  -> C_1 -> ... -> B_j
 *
 * Unrolled, the cycle runs once as it is and once as a copy whose blocks
 * carry two more parameters, the multiply's operands of the first trip:
 *
 *   B_j:    m1 = a * x1;  ... -> C_1'(.., a, x1)
 *   C_1' .. B_j'(.., a', .., acc0, xprev):  t = xprev * x2; m2 = acc0 * t
 *   B_j' -> C_1 (the original) ...
 *
 * m2 = a * (x1 * x2) = m1 * x2, as integer multiplication wraps, so the
 * loop computes the same numbers; but the chain from one product to the
 * next is one multiply per two iterations, x1 * x2 and m1 (which the copy
 * still carries, for its exits) running beside it.
 *
 * Only cycles made of pure operations whose operands are constants or
 * values of the cycle's blocks that come before in the copy are unrolled,
 * so a copy needs nothing from outside the cycle; B_j is of the current
 * compilation (it is changed), and the copies leave only to blocks of the
 * current compilation or to blocks a dispatcher can enter. The original
 * blocks keep their parameters and flags (dispatchers and merge points that
 * enter them are unaffected); the copies are entered from B_j only. */
#include "unroll.h"

#include <stdlib.h>

#include "frontend/arith.h"

#define MAX_BLOCKS 64 /* the cycle, and ... */
#define MAX_OPS 128   /* ... its operations: the copy doubles the loop's code */

typedef struct Cycle {
    uint32_t blocks[MAX_BLOCKS]; /* blocks[0] = B_j, then its successors in the cycle */
    uint32_t link[MAX_BLOCKS];   /* the link of blocks[i] to blocks[i + 1] (or B_j) */
    uint32_t n;
    uint32_t mul; /* index of the multiply in B_j */
    uint32_t acc; /* its operand that is the product of the trip before */
} Cycle;

/* Whether block `b`, at position `pos` of the copy chain, may be copied:
 * its operands are constants, its own values or values of blocks before it
 * in the chain (which dominate its copy: each copy is entered from the one
 * before only). */
static bool operand_ok(const JgGraph *g, const Cycle *c, uint32_t b, uint32_t pos, JgVal v)
{
    if (!v)
        return true;
    const JgValueInfo *vi = jg_value(g, v);
    if (vi->kind == JG_VK_CONST || vi->block == b)
        return true;
    for (uint32_t i = 0; i < pos; i++)
        if (c->blocks[(i + 1) % c->n] == vi->block)
            return true;
    return false;
}

/* Whether block `b` (copied at chain position `pos`) has pure operations
 * only, on operands it may use (operand_ok). */
static bool ops_ok(const JgGraph *g, const Cycle *c, uint32_t b, uint32_t pos)
{
    const JgBlock *blk = &g->blocks.items[b];
    for (uint32_t o = 0; o < blk->ops.count; o++) {
        const JgOp *op = &blk->ops.items[o];
        if (!jg_op_is_pure(op->opcode))
            return false;
        for (uint32_t i = 0; i < op->nargs; i++)
            if (!operand_ok(g, c, b, pos, op->args[i]))
                return false;
    }
    return true;
}

/* Whether block `b` reads only its own values and constants: it may get
 * another predecessor. */
static bool self_contained(const JgGraph *g, uint32_t b)
{
    const JgBlock *blk = &g->blocks.items[b];
    const JgTerm *t = &blk->term;
#define OWN(v) (!(v) || jg_is_const(g, (v)) || jg_value(g, (v))->block == b)
    if (!OWN(t->value))
        return false;
    for (uint32_t o = 0; o < blk->ops.count; o++)
        for (uint32_t i = 0; i < blk->ops.items[o].nargs; i++)
            if (!OWN(blk->ops.items[o].args[i]))
                return false;
    for (uint32_t l = 0; l < t->nlinks; l++)
        for (uint32_t i = 0; i < t->links[l].nargs; i++)
            if (!OWN(t->links[l].args[i]))
                return false;
#undef OWN
    return true;
}

/* A block a copy may jump to: of this compilation or enterable by a
 * dispatcher. */
static bool reachable(const JgGraph *g, uint32_t target, uint32_t first_block)
{
    return target >= first_block || (g->blocks.items[target].flags & JG_BLOCK_ENTRY);
}

/* The exit of the copy of the chain's block at `pos` to `target`: the
 * target itself when it reads only its own values, or else a copy of it
 * when it is a stub after a branch (no parameters, pure operations on
 * values of the chain so far, a goto to a block that reads only its own). */
static bool exit_ok(const JgGraph *g, const Cycle *c, uint32_t pos, uint32_t target,
                    uint32_t first_block)
{
    if (!reachable(g, target, first_block))
        return false;
    if (self_contained(g, target))
        return true;
    const JgBlock *blk = &g->blocks.items[target];
    const JgTerm *t = &blk->term;
    if (blk->nparams || t->kind != JG_TERM_GOTO || !reachable(g, t->links[0].target, first_block) ||
        !self_contained(g, t->links[0].target))
        return false;
    if (!ops_ok(g, c, target, pos + 1))
        return false;
    for (uint32_t i = 0; i < t->links[0].nargs; i++)
        if (!operand_ok(g, c, target, pos + 1, t->links[0].args[i]))
            return false;
    return true;
}

/* Pure operations, a goto or branch, operands it may use (operand_ok), and
 * links that a copy may take: to blocks of this compilation or to blocks a
 * dispatcher can enter. */
static bool copyable(const JgGraph *g, const Cycle *c, uint32_t pos, uint32_t first_block)
{
    uint32_t b = c->blocks[(pos + 1) % c->n];
    const JgBlock *blk = &g->blocks.items[b];
    const JgTerm *t = &blk->term;
    if ((t->kind != JG_TERM_GOTO && t->kind != JG_TERM_BRANCH) ||
        !operand_ok(g, c, b, pos, t->value))
        return false;
    if (!ops_ok(g, c, b, pos))
        return false;
    for (uint32_t l = 0; l < t->nlinks; l++) {
        uint32_t target = t->links[l].target;
        bool in_cycle = l == c->link[(pos + 1) % c->n];
        if (in_cycle ? (pos + 1 == c->n && !self_contained(g, target))
                     : !exit_ok(g, c, pos, target, first_block))
            return false;
        for (uint32_t i = 0; i < t->links[l].nargs; i++)
            if (!operand_ok(g, c, b, pos, t->links[l].args[i]))
                return false;
    }
    return true;
}

/* Follows the cycle from the multiply's block: gotos, and at most one
 * branch, whose link that comes back is taken. Tracks the product through
 * the links' arguments; the cycle qualifies when it comes back as one of
 * the multiply's operands (c->acc). */
static bool find_cycle(const JgGraph *g, uint32_t start, uint32_t first_block, Cycle *c)
{
    const JgBlock *sb = &g->blocks.items[start];
    const JgOp *m = &sb->ops.items[c->mul];
    JgVal tracked = m->result;
    uint32_t b = start, ops = 0;
    bool branched = false;
    c->n = 0;
    for (;;) {
        if (c->n == MAX_BLOCKS)
            return false;
        const JgBlock *blk = &g->blocks.items[b];
        ops += blk->ops.count;
        if (ops > MAX_OPS)
            return false;
        for (uint32_t i = 0; i < c->n; i++)
            if (c->blocks[i] == b)
                return false; /* a cycle that does not pass B_j again */
        c->blocks[c->n] = b;
        const JgTerm *t = &blk->term;
        if (t->kind != JG_TERM_GOTO && t->kind != JG_TERM_BRANCH)
            return false;
        uint32_t l = 0;
        if (t->kind == JG_TERM_BRANCH) {
            if (branched)
                return false;
            branched = true;
            /* the link that stays in the loop: the one leading back to
             * B_j through gotos (the other leaves) */
            l = 2;
            for (uint32_t k = 0; k < 2 && l == 2; k++) {
                uint32_t s = t->links[k].target;
                for (uint32_t steps = 0; steps < MAX_BLOCKS && s != start; steps++) {
                    const JgTerm *st = &g->blocks.items[s].term;
                    if (st->kind != JG_TERM_GOTO)
                        break;
                    s = st->links[0].target;
                }
                if (s == start)
                    l = k;
            }
            if (l == 2)
                return false;
        }
        c->link[c->n++] = l;
        const JgLink *link = &t->links[l];
        const JgBlock *to = &g->blocks.items[link->target];
        /* the product goes on as the parameter it is passed to, or as
         * itself when the block after a branch reads it directly */
        for (uint32_t i = 0; i < link->nargs && i < to->nparams; i++)
            if (link->args[i] == tracked) {
                tracked = to->params[i];
                break;
            }
        b = link->target;
        if (b == start)
            break;
    }
    /* the operand that is the product of the trip before */
    if (!branched || start < first_block || (m->args[0] != tracked && m->args[1] != tracked))
        return false;
    c->acc = m->args[0] == tracked ? 0 : 1;
    for (uint32_t pos = 0; pos < c->n; pos++)
        if (!copyable(g, c, pos, first_block))
            return false;
    return true;
}

static JgVal mapped(const JgVal *map, const JgGraph *g, JgVal v)
{
    return v && !jg_is_const(g, v) ? map[v] : v;
}

/* Copies block `b` into `copy` (whose parameters are mapped already); the
 * multiply at `mul` (UINT32_MAX: none) becomes acc0 * (xprev * x). */
static void copy_ops(JgGraph *g, uint32_t b, uint32_t copy, JgVal *map, uint32_t mul, JgVal acc0,
                     JgVal xprev, JgVal x)
{
    uint32_t nops = g->blocks.items[b].ops.count;
    for (uint32_t o = 0; o < nops; o++) {
        JgOp op = g->blocks.items[b].ops.items[o]; /* by value: emitting moves blocks */
        if (o == mul) {
            JgVal pair[2] = {xprev, mapped(map, g, x)};
            JgVal t = jg_emit(g, copy, JG_OP_MUL, (JgType)op.type, 2, pair);
            JgVal product[2] = {acc0, t};
            map[op.result] = jg_emit(g, copy, JG_OP_MUL, (JgType)op.type, 2, product);
            continue;
        }
        JgVal args[op.nargs + 1];
        for (uint32_t i = 0; i < op.nargs; i++)
            args[i] = mapped(map, g, op.args[i]);
        JgVal r = jg_emit(g, copy, (JgOpcode)op.opcode, op.result ? (JgType)op.type : JG_VOID,
                          op.nargs, args);
        JgOp *c = jg_last_op(g, copy);
        c->type = op.type;
        c->pred = op.pred;
        c->imm = op.imm;
        c->callee = op.callee;
        c->line = op.line;
        if (op.result)
            map[op.result] = r;
    }
}

/* A link of a copied block: arguments mapped, to `target`, with `extra`
 * appended. */
static JgLink copy_link(JgGraph *g, const JgLink *link, uint32_t target, const JgVal *map,
                        uint32_t nextra, const JgVal *extra)
{
    JgVal args[link->nargs + nextra + 1];
    for (uint32_t i = 0; i < link->nargs; i++)
        args[i] = map ? mapped(map, g, link->args[i]) : link->args[i];
    for (uint32_t i = 0; i < nextra; i++)
        args[link->nargs + i] = extra[i];
    return jg_link(g, target, link->nargs + nextra, args);
}

/* An exit of a copy: to its target, or to a copy of the stub it is
 * (exit_ok). */
static JgLink copy_exit(JgGraph *g, const JgLink *link, JgVal *map)
{
    uint32_t target = link->target;
    if (self_contained(g, target))
        return copy_link(g, link, target, map, 0, NULL);
    uint32_t stub = jg_block_new(g, 0, NULL);
    copy_ops(g, target, stub, map, UINT32_MAX, 0, 0, 0);
    JgTerm t = g->blocks.items[target].term;
    jg_set_goto(g, stub, copy_link(g, &t.links[0], t.links[0].target, map, 0, NULL));
    g->blocks.items[stub].term.line = t.line;
    return copy_link(g, link, stub, map, 0, NULL);
}

static void unroll(JgGraph *g, const Cycle *c, JgVal *map)
{
    const JgOp *m = &g->blocks.items[c->blocks[0]].ops.items[c->mul];
    JgType type = (JgType)m->type;
    JgVal a = m->args[c->acc], x = m->args[1 - c->acc];
    /* the copies, in cycle order from C_1 to B_j', each with the original's
     * parameters and acc0, xprev */
    uint32_t copies[MAX_BLOCKS];
    JgVal extra[MAX_BLOCKS][2];
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t orig = c->blocks[(i + 1) % c->n];
        copies[i] = jg_block_new(g, 0, NULL);
        uint32_t np = g->blocks.items[orig].nparams;
        for (uint32_t p = 0; p < np; p++) {
            JgVal v = g->blocks.items[orig].params[p];
            map[v] = jg_block_add_param(g, copies[i], jg_value_type(g, v));
        }
        extra[i][0] = jg_block_add_param(g, copies[i], type);
        extra[i][1] = jg_block_add_param(g, copies[i], type);
    }
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t k = (i + 1) % c->n; /* copies[i] is the copy of blocks[k] */
        uint32_t orig = c->blocks[k];
        bool last = k == 0; /* B_j' */
        copy_ops(g, orig, copies[i], map, last ? c->mul : UINT32_MAX, extra[i][0], extra[i][1], x);
        JgTerm t = g->blocks.items[orig].term;
        JgLink links[2];
        for (uint32_t l = 0; l < t.nlinks; l++) {
            if (l != c->link[k])
                links[l] = copy_exit(g, &t.links[l], map);
            else if (last) /* back into the original cycle */
                links[l] = copy_link(g, &t.links[l], t.links[l].target, map, 0, NULL);
            else
                links[l] = copy_link(g, &t.links[l], copies[i + 1], map, 2, extra[i]);
        }
        if (t.kind == JG_TERM_GOTO)
            jg_set_goto(g, copies[i], links[0]);
        else
            jg_set_branch(g, copies[i], mapped(map, g, t.value), links[0], links[1]);
        g->blocks.items[copies[i]].term.line = t.line;
    }
    /* B_j's link in the cycle now enters the copy, with the operands */
    JgTerm *t = &g->blocks.items[c->blocks[0]].term;
    JgVal operands[2] = {a, x};
    t->links[c->link[0]] = copy_link(g, &t->links[c->link[0]], copies[0], NULL, 2, operands);
}

/* Whether op `o` of block `b` is an integer multiply. */
static bool candidate(const JgGraph *g, uint32_t b, uint32_t o)
{
    const JgOp *op = &g->blocks.items[b].ops.items[o];
    return op->opcode == JG_OP_MUL && op->type >= JG_I8 && op->type <= JG_I64 && op->nargs == 2;
}

uint32_t jg_unroll_products(JgGraph *g, uint32_t first_block)
{
    uint32_t end = g->blocks.count, done = 0;
    uint8_t *in_loop = calloc(end + 1, 1); /* blocks of a cycle unrolled already */
    if (!in_loop)
        return 0; /* no unrolling: the loops stay correct */
    for (uint32_t b = first_block; b < end; b++) {
        if (in_loop[b])
            continue;
        uint32_t nops = g->blocks.items[b].ops.count;
        for (uint32_t o = 0; o < nops; o++) {
            if (!candidate(g, b, o))
                continue;
            Cycle c = {.mul = o};
            if (!find_cycle(g, b, first_block, &c))
                continue;
            bool fresh = true; /* not through a cycle unrolled already */
            for (uint32_t i = 0; i < c.n; i++)
                fresh &= !in_loop[c.blocks[i]];
            JgVal *map = fresh ? calloc(g->values.count + 1, sizeof *map) : NULL;
            if (map) {
                unroll(g, &c, map);
                free(map);
                for (uint32_t i = 0; i < c.n; i++)
                    in_loop[c.blocks[i]] = 1;
                done++;
            }
            break;
        }
    }
    free(in_loop);
    return done;
}
