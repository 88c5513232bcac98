/* Unrolling recurrence loops (unroll.h): products here, sums below (the
 * section "sums"). A residual loop whose trip computes m = a * x, where `a`
 * is the m of the trip before, runs at the latency of one multiply per
 * iteration (3 cycles on x86-64): each product needs the one before. The
 * loop is a cycle of blocks (the partial evaluator makes a block per
 * interpreted instruction), B_j holding the multiply:
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
    uint32_t rec; /* index of the recurrence (the multiply, add or subtract) in B_j */
    uint32_t acc; /* its operand that is the result of the trip before */
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

/* Follows the cycle from the recurrence's block: gotos, and at most one
 * branch, whose link that comes back is taken. Tracks the recurrence's
 * result through the links' arguments; the cycle qualifies when it comes
 * back as one of its operands (c->acc; the first of a subtraction). */
static bool find_cycle(const JgGraph *g, uint32_t start, uint32_t first_block, Cycle *c)
{
    const JgBlock *sb = &g->blocks.items[start];
    const JgOp *m = &sb->ops.items[c->rec];
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
        /* the result goes on as the parameter it is passed to, or as
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
    /* the operand that is the result of the trip before */
    bool commutes = m->opcode != JG_OP_SUB;
    if (!branched || start < first_block ||
        (m->args[0] != tracked && (!commutes || m->args[1] != tracked)))
        return false;
    c->acc = m->args[0] == tracked ? 0 : 1;
    for (uint32_t pos = 0; pos < c->n; pos++)
        if (!copyable(g, c, pos, first_block))
            return false;
    return true;
}

/* ---- sums: the second trip's value as a linear combination ----
 * An add whose result comes back as an operand (m = a + x) puts one add per
 * iteration on the loop-carried chain, and unrolling alone does not shorten
 * it: m2 = m1 + x2 waits for m1. But m2 is a linear combination of values
 * known when the first trip starts (x2 may be one of them, or a sum of
 * them): fibonacci's m = a + b with (a, b) <- (b, m) gives m2 = a + 2b,
 * which one instruction computes (lea), beside m1 = a + b. The copy of the
 * add computes m2 that way. Values are followed back from the copy of B_j
 * through adds, subtracts, multiplies and shifts by constants, and through
 * the copies' parameters to what the block before in the chain passes; the
 * first trip's values are followed through B_j's own operations only. */

#define MAX_TERMS 8
#define SUM_BUDGET 256 /* values visited: bounds sums of shared sums */

typedef struct Term {
    JgVal v;
    bool first; /* a value of B_j's first trip (else of the copy: map[v]) */
    uint64_t coef;
} Term;

typedef struct Sum {
    Term terms[MAX_TERMS];
    uint32_t n;
    uint64_t constant;
    uint32_t budget;
    bool ok; /* false: more terms than MAX_TERMS */
} Sum;

static void add_term(Sum *s, JgVal v, bool first, uint64_t coef)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->terms[i].v == v && s->terms[i].first == first) {
            s->terms[i].coef += coef;
            return;
        }
    if (s->n == MAX_TERMS) {
        s->ok = false;
        return;
    }
    s->terms[s->n++] = (Term){.v = v, .first = first, .coef = coef};
}

static uint32_t chain_pos(const Cycle *c, uint32_t block)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (c->blocks[i] == block)
            return i;
    return UINT32_MAX;
}

/* The constant operand of `op` (its other operand in *other), for
 * multiplies and shifts by constants. */
static bool constant_operand(const JgGraph *g, const JgOp *op, uint64_t *k, JgVal *other)
{
    for (uint32_t i = 0; i < 2; i++)
        if (jg_is_const(g, op->args[i]) && (op->opcode == JG_OP_MUL || i == 1)) {
            *k = jg_value(g, op->args[i])->bits;
            *other = op->args[1 - i];
            return true;
        }
    return false;
}

static void expand(const JgGraph *g, const Cycle *c, Sum *s, JgVal v, bool first, uint64_t coef,
                   JgType type);

/* Adds coef * op's result to s when op is linear in its operands; false
 * when it is not. */
static bool expand_op(const JgGraph *g, const Cycle *c, Sum *s, const JgOp *op, bool first,
                      uint64_t coef, JgType type)
{
    if (op->type != type || op->nargs != 2)
        return false;
    uint64_t k;
    JgVal other;
    switch (op->opcode) {
    case JG_OP_ADD:
    case JG_OP_SUB:
        expand(g, c, s, op->args[0], first, coef, type);
        expand(g, c, s, op->args[1], first, op->opcode == JG_OP_ADD ? coef : 0 - coef, type);
        return true;
    case JG_OP_MUL:
        if (!constant_operand(g, op, &k, &other))
            return false;
        expand(g, c, s, other, first, coef * k, type);
        return true;
    case JG_OP_SHL:
        if (!constant_operand(g, op, &k, &other) || k >= jg_type_bits(type))
            return false;
        expand(g, c, s, other, first, coef << k, type);
        return true;
    default:
        return false;
    }
}

/* Adds coef * v to s: v of the first trip (B_j's) or of the copy. */
static void expand(const JgGraph *g, const Cycle *c, Sum *s, JgVal v, bool first, uint64_t coef,
                   JgType type)
{
    const JgValueInfo *vi = jg_value(g, v);
    if (vi->kind == JG_VK_CONST) {
        s->constant += coef * vi->bits;
        return;
    }
    uint32_t pos = chain_pos(c, vi->block);
    if (pos == UINT32_MAX) { /* defined before the loop: the same in every trip */
        add_term(s, v, true, coef);
        return;
    }
    if (s->budget == 0 || vi->type != type || (first && pos != 0)) {
        add_term(s, v, first, coef);
        return;
    }
    s->budget--;
    const JgBlock *blk = &g->blocks.items[vi->block];
    if (vi->kind == JG_VK_OP) {
        if (!expand_op(g, c, s, &blk->ops.items[vi->index], first, coef, type))
            add_term(s, v, first, coef);
        return;
    }
    if (first) { /* B_j's parameter: the loop-carried value itself */
        add_term(s, v, true, coef);
        return;
    }
    /* a copy's parameter: what the block before it in the chain passes,
     * B_j's first trip for the first copy */
    uint32_t prev = (pos + c->n - 1) % c->n;
    const JgLink *link = &g->blocks.items[c->blocks[prev]].term.links[c->link[prev]];
    if (vi->index < link->nargs)
        expand(g, c, s, link->args[vi->index], prev == 0, coef, type);
    else
        add_term(s, v, first, coef);
}

/* The recurrence's second-trip value as a sum, when it is worth computing
 * that way: it has a term besides the loop-carried operand (acc = acc +
 * constant, a counter, gains nothing: LLVM adds the constants itself). */
static bool sum_of_second_trip(const JgGraph *g, const Cycle *c, Sum *s)
{
    const JgOp *m = &g->blocks.items[c->blocks[0]].ops.items[c->rec];
    JgType type = (JgType)m->type;
    *s = (Sum){.budget = SUM_BUDGET, .ok = true};
    if (!expand_op(g, c, s, m, false, 1, type) || !s->ok)
        return false;
    JgVal acc0 = m->args[c->acc];
    for (uint32_t i = 0; i < s->n; i++)
        if (jg_truncate_bits(type, s->terms[i].coef) &&
            !(s->terms[i].first && s->terms[i].v == acc0))
            return true;
    return false;
}

static JgVal mapped(const JgVal *map, const JgGraph *g, JgVal v)
{
    return v && !jg_is_const(g, v) ? map[v] : v;
}

static JgVal emit2(JgGraph *g, uint32_t block, JgOpcode opcode, JgType type, JgVal a, JgVal b,
                   uint32_t line)
{
    JgVal args[2] = {a, b};
    JgVal r = jg_emit(g, block, opcode, type, 2, args);
    jg_last_op(g, block)->line = line;
    return r;
}

/* Emits s into `block`: the other terms first, then the constant, then the
 * loop-carried operand's term (`acc0`), so that the chain from one trip's
 * value to the next goes through one add, or one lea with its coefficient. */
static JgVal emit_sum(JgGraph *g, uint32_t block, const Sum *s, JgVal acc0, JgType type,
                      const JgVal *map, uint32_t line)
{
    JgVal sum = 0;
    uint64_t minus_one = jg_truncate_bits(type, UINT64_MAX);
    for (uint32_t pass = 0; pass < 2; pass++) {
        if (pass == 1 && jg_truncate_bits(type, s->constant)) {
            JgVal k = jg_const(g, type, s->constant);
            sum = sum ? emit2(g, block, JG_OP_ADD, type, sum, k, line) : k;
        }
        for (uint32_t i = 0; i < s->n; i++) {
            const Term *t = &s->terms[i];
            uint64_t coef = jg_truncate_bits(type, t->coef);
            if (!coef || (pass == 1) != (t->first && t->v == acc0))
                continue;
            JgVal term = t->first ? t->v : mapped(map, g, t->v);
            bool negate = coef == minus_one;
            if (!negate && coef != 1) {
                bool power = (coef & (coef - 1)) == 0;
                JgVal k = jg_const(g, type, power ? (uint64_t)__builtin_ctzll(coef) : coef);
                term = emit2(g, block, power ? JG_OP_SHL : JG_OP_MUL, type, term, k, line);
            }
            if (!sum)
                sum = negate ? emit2(g, block, JG_OP_SUB, type, jg_const(g, type, 0), term, line)
                             : term;
            else
                sum = emit2(g, block, negate ? JG_OP_SUB : JG_OP_ADD, type, sum, term, line);
        }
    }
    return sum ? sum : jg_const(g, type, 0);
}

/* ---- the copies ---- */

/* Copies block `b` into `copy` (whose parameters are mapped already). In
 * the copy of B_j (`rec` set), the recurrence becomes acc0 * (xprev * x)
 * (a multiply; acc0, xprev: extra[0], extra[1]) or `sum` (an add). */
static void copy_ops(JgGraph *g, uint32_t b, uint32_t copy, JgVal *map, const Cycle *rec,
                     const Sum *sum, const JgVal *extra)
{
    uint32_t nops = g->blocks.items[b].ops.count;
    for (uint32_t o = 0; o < nops; o++) {
        JgOp op = g->blocks.items[b].ops.items[o]; /* by value: emitting moves blocks */
        if (rec && o == rec->rec && op.opcode == JG_OP_MUL) {
            JgVal x = mapped(map, g, op.args[1 - rec->acc]);
            JgVal t = emit2(g, copy, JG_OP_MUL, (JgType)op.type, extra[1], x, op.line);
            map[op.result] = emit2(g, copy, JG_OP_MUL, (JgType)op.type, extra[0], t, op.line);
            continue;
        }
        if (rec && o == rec->rec) {
            map[op.result] =
                emit_sum(g, copy, sum, op.args[rec->acc], (JgType)op.type, map, op.line);
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
    copy_ops(g, target, stub, map, NULL, NULL, NULL);
    JgTerm t = g->blocks.items[target].term;
    jg_set_goto(g, stub, copy_link(g, &t.links[0], t.links[0].target, map, 0, NULL));
    g->blocks.items[stub].term.line = t.line;
    return copy_link(g, link, stub, map, 0, NULL);
}

/* Unrolls the cycle. A product's copies carry two more parameters, the
 * multiply's operands of the first trip (acc0, xprev); a sum's copy reads
 * the first trip's values directly (B_j dominates its copies). */
static void unroll(JgGraph *g, const Cycle *c, const Sum *sum, JgVal *map)
{
    const JgOp *m = &g->blocks.items[c->blocks[0]].ops.items[c->rec];
    JgType type = (JgType)m->type;
    JgVal operands[2] = {m->args[c->acc], m->args[1 - c->acc]};
    uint32_t nextra = m->opcode == JG_OP_MUL ? 2 : 0;
    /* the copies, in cycle order from C_1 to B_j', each with the original's
     * parameters (and acc0, xprev) */
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
        for (uint32_t e = 0; e < nextra; e++)
            extra[i][e] = jg_block_add_param(g, copies[i], type);
    }
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t k = (i + 1) % c->n; /* copies[i] is the copy of blocks[k] */
        uint32_t orig = c->blocks[k];
        bool last = k == 0; /* B_j' */
        copy_ops(g, orig, copies[i], map, last ? c : NULL, sum, extra[i]);
        JgTerm t = g->blocks.items[orig].term;
        JgLink links[2];
        for (uint32_t l = 0; l < t.nlinks; l++) {
            if (l != c->link[k])
                links[l] = copy_exit(g, &t.links[l], map);
            else if (last) /* back into the original cycle */
                links[l] = copy_link(g, &t.links[l], t.links[l].target, map, 0, NULL);
            else
                links[l] = copy_link(g, &t.links[l], copies[i + 1], map, nextra, extra[i]);
        }
        if (t.kind == JG_TERM_GOTO)
            jg_set_goto(g, copies[i], links[0]);
        else
            jg_set_branch(g, copies[i], mapped(map, g, t.value), links[0], links[1]);
        g->blocks.items[copies[i]].term.line = t.line;
    }
    /* B_j's link in the cycle now enters the copy (with the operands) */
    JgTerm *t = &g->blocks.items[c->blocks[0]].term;
    t->links[c->link[0]] = copy_link(g, &t->links[c->link[0]], copies[0], NULL, nextra, operands);
}

/* Whether op `o` of block `b` is an integer multiply, add or subtract. */
static bool candidate(const JgGraph *g, uint32_t b, uint32_t o)
{
    const JgOp *op = &g->blocks.items[b].ops.items[o];
    return (op->opcode == JG_OP_MUL || op->opcode == JG_OP_ADD || op->opcode == JG_OP_SUB) &&
           op->type >= JG_I8 && op->type <= JG_I64 && op->nargs == 2;
}

uint32_t jg_unroll_recurrences(JgGraph *g, uint32_t first_block)
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
            Cycle c = {.rec = o};
            Sum sum;
            if (!find_cycle(g, b, first_block, &c))
                continue;
            bool product = g->blocks.items[b].ops.items[o].opcode == JG_OP_MUL;
            if (!product && !sum_of_second_trip(g, &c, &sum))
                continue;
            bool fresh = true; /* not through a cycle unrolled already */
            for (uint32_t i = 0; i < c.n; i++)
                fresh &= !in_loop[c.blocks[i]];
            JgVal *map = fresh ? calloc(g->values.count + 1, sizeof *map) : NULL;
            if (map) {
                unroll(g, &c, product ? NULL : &sum, map);
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
