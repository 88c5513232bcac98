/* Unrolling recurrence loops (unroll.h). A residual loop whose trip
 * computes m = a * x or m = a + x, where `a` is the m of the trip before,
 * runs at the latency of one multiply (3 cycles on x86-64) or one add per
 * iteration: each result needs the one before. The loop is a cycle of
 * blocks (the partial evaluator makes a block per interpreted instruction),
 * B_j holding the recurrence, C_1 .. C_k the blocks after it:
 *
 *   B_j(.., a, ..):  m = a op x; ...  -> C_1 -> ... -> C_k -> B_j
 *
 * Products: the cycle runs once as it is and once as a copy (chain B),
 * entered from B_j only, whose multiply uses B_j's operands:
 *
 *   B_j:   m1 = a * x1;  ... -> C_1' .. C_k' -> B_j':  m2 = a * (x1 * x2)
 *   B_j' -> C_1 (the original) ...
 *
 * m2 = a * (x1 * x2) = m1 * x2, as integer multiplication wraps, so the
 * loop computes the same numbers; but the chain from one product to the
 * next is one multiply per two iterations, x1 * x2 and m1 (for the exits)
 * running beside it.
 *
 * Sums: two copies, chain A (C_1' .. B_j' as they are) and chain B, which
 * computes its recurrence and its counters from the values chain A starts
 * with (the section "sums" below); the new loop is chain A then chain B,
 * entered from B_j:
 *
 *   B_j -> A: C_1a .. C_ka -> B_ja -> B: C_1b .. C_kb -> B_jb -> C_1a
 *
 * Fibonacci's b_B = a + 2b and n_B = n - 2 are one instruction each per
 * pass, from chain A's parameters.
 *
 * Only cycles made of pure operations whose operands are constants or
 * values of the cycle's blocks that come before in the copy are unrolled,
 * so a copy needs nothing from outside the cycle; B_j is of the current
 * compilation (it is changed), and the copies leave only to blocks of the
 * current compilation or to blocks a dispatcher can enter. The original
 * blocks keep their parameters and flags (dispatchers and merge points that
 * enter them are unaffected); the copies are entered from B_j only (and
 * chain A from chain B), so B_j and chain A dominate the copies after
 * them, whose values they may read. */
#include "unroll.h"

#include <stdlib.h>

#include "frontend/arith.h"
#include "linear.h"

#define MAX_BLOCKS 64 /* the cycle, and ... */
#define MAX_OPS 128   /* ... its operations: the copies double or triple the loop's code */

typedef struct Cycle {
    uint32_t blocks[MAX_BLOCKS]; /* blocks[0] = B_j, then its successors in the cycle */
    uint32_t link[MAX_BLOCKS];   /* the link of blocks[i] to blocks[i + 1] (or B_j) */
    uint32_t n;
    uint32_t rec;   /* index of the recurrence (the multiply, add or subtract) in B_j */
    uint32_t acc;   /* its operand that is the result of the trip before */
    bool one_chain; /* a product: one copy, between B_j and the original C_1 */
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
        /* the link in the cycle needs no check: at pos 0, C_1 reads only its
         * own values, so it may get another predecessor */
        if (l != c->link[(pos + 1) % c->n] && !exit_ok(g, c, pos, target, first_block))
            return false;
        for (uint32_t i = 0; i < t->links[l].nargs; i++)
            if (!operand_ok(g, c, b, pos, t->links[l].args[i]))
                return false;
    }
    return true;
}

/* The cycle through block `start` (c->blocks, c->link, c->n): gotos, and
 * exactly one branch, whose link that comes back is taken; false when there
 * is none within the bounds. It does not depend on the recurrence: it is
 * walked once per block, for all of the block's candidates. */
static bool walk_cycle(const JgGraph *g, uint32_t start, uint32_t first_block, Cycle *c)
{
    uint32_t b = start, ops = 0;
    bool branched = false;
    c->n = 0;
    if (start < first_block)
        return false;
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
        b = t->links[l].target;
        if (b == start)
            return branched;
    }
}

/* Whether the walked cycle (walk_cycle) carries the recurrence c->rec:
 * its result, followed through the links' arguments, comes back as one of
 * its operands (c->acc; the first of a subtraction). */
static bool find_cycle(const JgGraph *g, uint32_t first_block, Cycle *c)
{
    const JgOp *m = &g->blocks.items[c->blocks[0]].ops.items[c->rec];
    JgVal tracked = m->result;
    for (uint32_t n = 0; n < c->n; n++) {
        const JgLink *link = &g->blocks.items[c->blocks[n]].term.links[c->link[n]];
        const JgBlock *to = &g->blocks.items[link->target];
        /* the result goes on as the parameter it is passed to, or as
         * itself when the block after a branch reads it directly */
        for (uint32_t i = 0; i < link->nargs && i < to->nparams; i++)
            if (link->args[i] == tracked) {
                tracked = to->params[i];
                break;
            }
    }
    /* the operand that is the result of the trip before */
    bool commutes = m->opcode != JG_OP_SUB;
    if (m->args[0] != tracked && (!commutes || m->args[1] != tracked))
        return false;
    c->acc = m->args[0] == tracked ? 0 : 1;
    for (uint32_t pos = 0; pos < c->n; pos++)
        if (!copyable(g, c, pos, first_block))
            return false;
    return true;
}

/* ---- sums: chain B's values as linear combinations ----
 * An add whose result comes back as an operand (m = a + x) puts one add per
 * iteration on the loop-carried chain, and unrolling alone does not shorten
 * it: m_B = m_A + x_B waits for m_A. But m_B is a linear combination of the
 * values the pass starts with (chain A's parameters): fibonacci's m = a + b
 * with (a, b) <- (b, m) gives m_B = a + 2b, which one instruction computes
 * (lea), beside m_A = a + b. Chain B computes m_B that way, and every other
 * add or subtract of one value and constants (a counter: n_B = n - 2 instead
 * of n_A - 1, so the counter too takes one instruction per pass). Values are
 * followed back through adds, subtracts, multiplies and shifts by constants,
 * and through the copies' parameters to what the block before passes: in
 * chain B back into chain A, in chain A back to chain A's first block, whose
 * parameters (the loop's, at the back-edge) are the leaves. */

#define MAX_TERMS 8
#define SUM_BUDGET 256 /* values visited: bounds sums of shared sums */

enum { OUTSIDE, TRIP_A, TRIP_B }; /* where a value of the cycle is computed */

typedef struct Term {
    JgVal v;      /* a value of the cycle's original blocks ... */
    uint8_t trip; /* ... as computed by chain A or B (or v itself, OUTSIDE) */
    uint64_t coef;
} Term;

typedef struct Sum {
    Term terms[MAX_TERMS];
    uint32_t n;
    uint64_t constant;
    uint32_t budget;
    bool ok; /* false: more terms than MAX_TERMS */
} Sum;

static void add_term(Sum *s, JgVal v, uint8_t trip, uint64_t coef)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->terms[i].v == v && s->terms[i].trip == trip) {
            s->terms[i].coef += coef;
            return;
        }
    if (s->n == MAX_TERMS) {
        s->ok = false;
        return;
    }
    s->terms[s->n++] = (Term){.v = v, .trip = trip, .coef = coef};
}

static uint32_t chain_pos(const Cycle *c, uint32_t block)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (c->blocks[i] == block)
            return i;
    return UINT32_MAX;
}

/* The operand of `op` that is a constant (k its bits), for multiplies
 * and shifts by constants; -1: none. */
static int constant_operand(const JgGraph *g, const JgOp *op, uint64_t *k)
{
    for (int i = 0; i < 2; i++)
        if (jg_is_const(g, op->args[i]) && (op->opcode == JG_OP_MUL || i == 1)) {
            *k = jg_value(g, op->args[i])->bits;
            return i;
        }
    return -1;
}

static void expand(const JgGraph *g, const Cycle *c, Sum *s, JgVal v, uint8_t trip, uint64_t coef,
                   JgType type);

/* Adds coef * op's result to s when op is linear in its operands; false
 * when it is not. */
static bool expand_op(const JgGraph *g, const Cycle *c, Sum *s, const JgOp *op, uint8_t trip,
                      uint64_t coef, JgType type)
{
    if (op->type != type || op->nargs != 2)
        return false;
    uint64_t k = 0;
    int constant = -1;
    if (op->opcode == JG_OP_MUL || op->opcode == JG_OP_SHL) {
        constant = constant_operand(g, op, &k);
        if (constant < 0)
            return false;
    }
    JgLinear split;
    if (!jg_linear_split((JgOpcode)op->opcode, type, coef, constant, k, &split))
        return false;
    for (int i = 0; i < 2; i++)
        if (i != constant)
            expand(g, c, s, op->args[i], trip, split.coef[i], type);
    return true;
}

/* Adds coef * v to s, v as chain `trip` computes it. */
static void expand(const JgGraph *g, const Cycle *c, Sum *s, JgVal v, uint8_t trip, uint64_t coef,
                   JgType type)
{
    const JgValueInfo *vi = jg_value(g, v);
    if (vi->kind == JG_VK_CONST) {
        s->constant += coef * vi->bits;
        return;
    }
    uint32_t pos = chain_pos(c, vi->block);
    if (pos == UINT32_MAX) { /* defined before the loop: the same in every trip */
        add_term(s, v, OUTSIDE, coef);
        return;
    }
    if (s->budget == 0 || vi->type != type) {
        add_term(s, v, trip, coef);
        return;
    }
    if (trip == TRIP_A && c->one_chain && pos != 0) { /* an original block before B_j */
        add_term(s, v, TRIP_A, coef);
        return;
    }
    s->budget--;
    const JgBlock *blk = &g->blocks.items[vi->block];
    if (vi->kind == JG_VK_OP) {
        if (!expand_op(g, c, s, &blk->ops.items[vi->index], trip, coef, type))
            add_term(s, v, trip, coef);
        return;
    }
    /* a parameter: what the block before in the chain passes; chain A's
     * first block is the loop's header (a leaf), chain B's receives what
     * chain A's last block passes. With one chain, "chain A" is the
     * original blocks: B_j's parameters and values are leaves. */
    uint32_t prev = (pos + c->n - 1) % c->n;
    if (trip == TRIP_A && (prev == 0 || c->one_chain)) {
        add_term(s, v, TRIP_A, coef);
        return;
    }
    const JgLink *link = &g->blocks.items[c->blocks[prev]].term.links[c->link[prev]];
    if (vi->index < link->nargs)
        expand(g, c, s, link->args[vi->index], prev == 0 ? TRIP_A : trip, coef, type);
    else
        add_term(s, v, trip, coef);
}

/* The sum chain B computes for `op` (of the cycle's blocks). */
static bool sum_of(const JgGraph *g, const Cycle *c, const JgOp *op, Sum *s)
{
    *s = (Sum){.budget = SUM_BUDGET, .ok = true};
    return expand_op(g, c, s, op, TRIP_B, 1, (JgType)op->type) && s->ok;
}

/* The number of terms of s that are not 0 in `type`. */
static uint32_t live_terms(const Sum *s, JgType type)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->n; i++)
        n += jg_truncate_bits(type, s->terms[i].coef) != 0;
    return n;
}

/* Whether the recurrence is worth unrolling: a product, or a sum with more
 * than one value (acc = acc + constant, a counter, gains nothing alone),
 * which is *s then. */
static bool worth_unrolling(const JgGraph *g, const Cycle *c, Sum *s)
{
    const JgOp *m = &g->blocks.items[c->blocks[0]].ops.items[c->rec];
    return m->opcode == JG_OP_MUL || (sum_of(g, c, m, s) && live_terms(s, (JgType)m->type) > 1);
}

/* The parameter of chain A's first block that receives the recurrence's
 * result (0: none): the loop-carried value a sum adds last. */
static JgVal carried_param(const JgGraph *g, const Cycle *c)
{
    const JgBlock *bj = &g->blocks.items[c->blocks[0]];
    const JgLink *link = &bj->term.links[c->link[0]];
    const JgBlock *head = &g->blocks.items[c->blocks[1 % c->n]];
    for (uint32_t i = 0; i < link->nargs && i < head->nparams; i++)
        if (link->args[i] == bj->ops.items[c->rec].result)
            return head->params[i];
    return 0;
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

/* The two copies of the cycle: maps from the original values to chain A's
 * and chain B's. */
typedef struct Chains {
    JgVal *map[3];         /* [TRIP_A] (NULL: the original values), [TRIP_B] */
    const Sum *recurrence; /* a sum's, as worth_unrolling found it */
    uint32_t block;        /* the block of chain B being written */
} Chains;

/* v as chain `trip` computes it. */
static JgVal in_trip(const JgGraph *g, const Chains *ch, JgVal v, uint8_t trip)
{
    return trip == OUTSIDE || !ch->map[trip] ? v : mapped(ch->map[trip], g, v);
}

static JgVal term_value(const JgGraph *g, const Chains *ch, const Term *t)
{
    return in_trip(g, ch, t->v, t->trip);
}

/* Emits s into `block`: the terms, the one of `last` (the loop-carried
 * value, chain A's) after the others and the constant, so that the chain
 * from one pass's value to the next goes through one add, or one lea with
 * its coefficient. */
static JgVal emit_sum(JgGraph *g, uint32_t block, const Sum *s, JgVal last, JgType type,
                      const Chains *ch, uint32_t line)
{
    JgVal sum = 0;
    for (uint32_t pass = 0; pass < 2; pass++) {
        if (pass == 1 && jg_truncate_bits(type, s->constant)) {
            JgVal k = jg_const(g, type, s->constant);
            sum = sum ? emit2(g, block, JG_OP_ADD, type, sum, k, line) : k;
        }
        for (uint32_t i = 0; i < s->n; i++) {
            const Term *t = &s->terms[i];
            uint64_t coef = jg_truncate_bits(type, t->coef);
            if (!coef || (pass == 1) != (t->trip == TRIP_A && t->v == last))
                continue;
            JgVal term = term_value(g, ch, t);
            JgCoefForm form = jg_coef_form(type, coef);
            bool negate = form.kind == JG_COEF_NEG;
            if (form.kind == JG_COEF_SHL || form.kind == JG_COEF_MUL)
                term = emit2(g, block, form.kind == JG_COEF_SHL ? JG_OP_SHL : JG_OP_MUL, type, term,
                             jg_const(g, type, form.amount), line);
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

/* Chain B's value for `op` (an operation of the cycle's block `b`), or 0
 * where the plain copy serves: the recurrence, and adds and subtracts that
 * come to one value of chain A and a constant (counters). */
static JgVal rewritten(JgGraph *g, const Cycle *c, uint32_t b, uint32_t o, const JgOp *op,
                       const Chains *ch)
{
    JgType type = (JgType)op->type;
    bool rec = b == c->blocks[0] && o == c->rec;
    if (rec && op->opcode == JG_OP_MUL) { /* acc_A * (x_A * x_B) */
        JgVal x = op->args[1 - c->acc];
        JgVal t = emit2(g, ch->block, JG_OP_MUL, type, in_trip(g, ch, x, TRIP_A),
                        in_trip(g, ch, x, TRIP_B), op->line);
        jg_last_op(g, ch->block)->imm = JG_IMM_GROUPED; /* off the chain: kept so */
        return emit2(g, ch->block, JG_OP_MUL, type, in_trip(g, ch, op->args[c->acc], TRIP_A), t,
                     op->line);
    }
    if (op->opcode != JG_OP_ADD && op->opcode != JG_OP_SUB)
        return 0;
    if (type < JG_I8 || type > JG_I64)
        return 0;
    if (rec)
        return emit_sum(g, ch->block, ch->recurrence, carried_param(g, c), type, ch, op->line);
    Sum s;
    if (!sum_of(g, c, op, &s))
        return 0;
    /* one value of chain A plus a constant */
    uint32_t live = 0;
    for (uint32_t i = 0; i < s.n; i++) {
        uint64_t coef = jg_truncate_bits(type, s.terms[i].coef);
        if (coef && (++live > 1 || s.terms[i].trip != TRIP_A || coef != 1))
            return 0;
    }
    return live ? emit_sum(g, ch->block, &s, 0, type, ch, op->line) : 0;
}

/* Copies block `b` into `copy` (whose parameters are mapped already) with
 * `map`; in chain B (`ch`), operations are rewritten (rewritten()). */
static void copy_ops(JgGraph *g, const Cycle *c, uint32_t b, uint32_t copy, JgVal *map, Chains *ch)
{
    uint32_t nops = g->blocks.items[b].ops.count;
    if (ch)
        ch->block = copy; /* where rewritten() emits */
    for (uint32_t o = 0; o < nops; o++) {
        JgOp op = g->blocks.items[b].ops.items[o]; /* by value: emitting moves blocks */
        if (ch) {
            JgVal r = rewritten(g, c, b, o, &op, ch);
            if (r) {
                map[op.result] = r;
                continue;
            }
        }
        JgVal args[op.nargs + 1];
        for (uint32_t i = 0; i < op.nargs; i++)
            args[i] = mapped(map, g, op.args[i]);
        JgVal r = jg_emit(g, copy, (JgOpcode)op.opcode, op.result ? (JgType)op.type : JG_VOID,
                          op.nargs, args);
        JgOp *k = jg_last_op(g, copy);
        k->type = op.type;
        k->pred = op.pred;
        k->imm = op.imm;
        k->callee = op.callee;
        k->line = op.line;
        if (op.result)
            map[op.result] = r;
    }
}

/* A link of a copied block: arguments mapped (map NULL: as they are), to
 * `target`. */
static JgLink copy_link(JgGraph *g, const JgLink *link, uint32_t target, const JgVal *map)
{
    JgVal args[link->nargs + 1];
    for (uint32_t i = 0; i < link->nargs; i++)
        args[i] = map ? mapped(map, g, link->args[i]) : link->args[i];
    return jg_link(g, target, link->nargs, args);
}

/* An exit of a copy: to its target, or to a copy of the stub it is
 * (exit_ok). */
static JgLink copy_exit(JgGraph *g, const Cycle *c, const JgLink *link, JgVal *map)
{
    uint32_t target = link->target;
    if (self_contained(g, target))
        return copy_link(g, link, target, map);
    uint32_t stub = jg_block_new(g, 0, NULL);
    copy_ops(g, c, target, stub, map, NULL);
    JgTerm t = g->blocks.items[target].term;
    jg_set_goto(g, stub, copy_link(g, &t.links[0], t.links[0].target, map));
    g->blocks.items[stub].term.line = t.line;
    return copy_link(g, link, stub, map);
}

/* Unrolls the cycle. A sum: chain A, copies of C_1 .. C_k, B_j as they
 * are, then chain B, copies whose recurrence and counters are computed from
 * chain A's values (rewritten()), then back to chain A's first block, the
 * new loop's header; B_j's link in the cycle enters it. The original blocks
 * stay for the ways in that reach them (dispatchers, merge points), and
 * lead into the new loop at B_j. A product: chain B only, from B_j back to
 * the original C_1, its multiply computed from B_j's values, x1 * x2
 * marked JG_IMM_GROUPED: LLVM's reassociation otherwise ranks the
 * accumulator's phi first and computes (acc * x2) * x1, or pairs acc * x1
 * again where chain A's product is beside it, and the chain of multiplies
 * is two per pass again (factorial at 10^8: 82 against 41 ms). */
static void unroll(JgGraph *g, const Cycle *c, const Sum *recurrence, JgVal *map_a, JgVal *map_b)
{
    uint32_t chain[2][MAX_BLOCKS]; /* chain[x][i]: copy of blocks[(i + 1) % n] */
    JgVal *maps[2] = {map_a, map_b};
    uint32_t first = c->one_chain ? 1 : 0; /* chains first..1: B alone, or A and B */
    for (uint32_t x = first; x < 2; x++)
        for (uint32_t i = 0; i < c->n; i++) {
            uint32_t orig = c->blocks[(i + 1) % c->n];
            chain[x][i] = jg_block_new(g, 0, NULL);
            uint32_t np = g->blocks.items[orig].nparams;
            for (uint32_t p = 0; p < np; p++) {
                JgVal v = g->blocks.items[orig].params[p];
                maps[x][v] = jg_block_add_param(g, chain[x][i], jg_value_type(g, v));
            }
        }
    Chains ch = {.map = {NULL, first ? NULL : map_a, map_b}, .recurrence = recurrence};
    /* after the last block of a chain: the other chain, or (one chain) the
     * original C_1 */
    uint32_t after[2] = {chain[1][0], first ? c->blocks[1 % c->n] : chain[0][0]};
    for (uint32_t x = first; x < 2; x++) {
        JgVal *map = maps[x];
        for (uint32_t i = 0; i < c->n; i++) {
            uint32_t k = (i + 1) % c->n; /* chain[x][i] is the copy of blocks[k] */
            uint32_t orig = c->blocks[k];
            copy_ops(g, c, orig, chain[x][i], map, x == 1 ? &ch : NULL);
            JgTerm t = g->blocks.items[orig].term;
            JgLink links[2];
            for (uint32_t l = 0; l < t.nlinks; l++) {
                uint32_t next = i + 1 < c->n ? chain[x][i + 1] : after[x];
                links[l] = l == c->link[k] ? copy_link(g, &t.links[l], next, map)
                                           : copy_exit(g, c, &t.links[l], map);
            }
            if (t.kind == JG_TERM_GOTO)
                jg_set_goto(g, chain[x][i], links[0]);
            else
                jg_set_branch(g, chain[x][i], mapped(map, g, t.value), links[0], links[1]);
            g->blocks.items[chain[x][i]].term.line = t.line;
        }
    }
    /* chain A's first block is the new loop's header: a dispatcher may
     * enter it, as merge points that close a loop (pe/merge.c), so that the
     * baseline tier counts its back-edge and LLVM's code can take the loop
     * over there */
    if (!first)
        g->blocks.items[chain[0][0]].flags |= JG_BLOCK_ENTRY;
    /* B_j's link in the cycle now enters the first chain */
    JgTerm *t = &g->blocks.items[c->blocks[0]].term;
    t->links[c->link[0]] = copy_link(g, &t->links[c->link[0]], chain[first][0], NULL);
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
        Cycle walk = {0};
        int walked = -1; /* walk_cycle's answer for b; -1: not asked yet */
        for (uint32_t o = 0; o < nops; o++) {
            if (!candidate(g, b, o))
                continue;
            if (walked < 0)
                walked = walk_cycle(g, b, first_block, &walk);
            if (!walked)
                break;
            Cycle c = walk;
            c.rec = o;
            c.one_chain = g->blocks.items[b].ops.items[o].opcode == JG_OP_MUL;
            Sum sum;
            if (!find_cycle(g, first_block, &c) || !worth_unrolling(g, &c, &sum))
                continue;
            bool fresh = true; /* not through a cycle unrolled already */
            for (uint32_t i = 0; i < c.n; i++)
                fresh &= !in_loop[c.blocks[i]];
            JgVal *map = fresh ? calloc(2 * ((size_t)g->values.count + 1), sizeof *map) : NULL;
            if (map) {
                unroll(g, &c, &sum, map, map + g->values.count + 1);
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
