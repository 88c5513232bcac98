/* The residual form of a pure operation (rewrite.h). */
#include "rewrite.h"

#include "fold.h"
#include "simplify.h"

#define MAX_FOLDED 3 /* the most operands of a pure operation (select) */

/* The last CSE_WINDOW operations of `block`: an earlier one computing the
 * same pure operation of the same operands gives its result (the
 * interpreter computes some values once per instruction, e.g. a frame's
 * depth test, and each copy would travel as a block parameter). */
#define CSE_WINDOW 16
static JgVal same_in_block(const JgGraph *g, uint32_t block, const JgOp *op, const JgVal *args)
{
    const JgBlock *b = &g->blocks.items[block];
    uint32_t n = b->ops.count, lo = n > CSE_WINDOW ? n - CSE_WINDOW : 0;
    for (uint32_t i = n; i-- > lo;) {
        const JgOp *e = &b->ops.items[i];
        if (e->opcode != op->opcode || e->type != op->type || e->pred != op->pred ||
            e->nargs != op->nargs || !e->result)
            continue;
        bool equal = true;
        for (uint32_t a = 0; a < op->nargs && equal; a++)
            equal = e->args[a] == args[a] ||
                    (jg_is_const(g, e->args[a]) && jg_is_const(g, args[a]) &&
                     jg_value_type(g, e->args[a]) == jg_value_type(g, args[a]) &&
                     jg_value(g, e->args[a])->bits == jg_value(g, args[a])->bits);
        if (equal)
            return e->result;
    }
    return 0;
}

/* Whether v is the constant `bits` (truncated to v's type). */
static bool is_const_bits(const JgGraph *g, JgVal v, uint64_t bits)
{
    if (!v || !jg_is_const(g, v))
        return false;
    JgType t = jg_value_type(g, v);
    return jg_truncate_bits(t, jg_value(g, v)->bits) == jg_truncate_bits(t, bits);
}

/* Whether v is a bool widened by zext: 0 or 1. */
static bool is_widened_bool(const JgGraph *g, JgVal v)
{
    const JgValueInfo *info = jg_value(g, v);
    if (!v || info->kind != JG_VK_OP)
        return false;
    const JgOp *def = &g->blocks.items[info->block].ops.items[info->index];
    return def->opcode == JG_OP_ZEXT && jg_value_type(g, def->args[0]) == JG_I1;
}

/* The operand an integer operation leaves unchanged: x + 0, x - 0, x | 0,
 * x ^ 0, x << 0 (and the right shifts), x * 1, x & ~0, and b & 1 for a
 * widened bool b. An interpreter's generic code is full of them once its
 * green operands are constants (`equal == (op == EQ)`). 0: none. */
static JgVal identity_operand(const JgGraph *g, const JgOp *op, const JgVal *args)
{
    if (op->nargs != 2 || !jg_type_is_int((JgType)op->type) ||
        jg_value_type(g, args[0]) != (JgType)op->type ||
        jg_value_type(g, args[1]) != (JgType)op->type)
        return 0;
    JgVal x = args[0], k = args[1];
    switch ((JgOpcode)op->opcode) {
    case JG_OP_ADD:
    case JG_OP_OR:
    case JG_OP_XOR:
        if (is_const_bits(g, x, 0))
            return k;
        /* fall through */
    case JG_OP_SUB:
    case JG_OP_SHL:
    case JG_OP_LSHR:
    case JG_OP_ASHR:
        return is_const_bits(g, k, 0) ? x : 0;
    case JG_OP_MUL:
        if (is_const_bits(g, x, 1))
            return k;
        return is_const_bits(g, k, 1) ? x : 0;
    case JG_OP_AND:
        if (is_const_bits(g, x, UINT64_MAX))
            return k;
        if (is_const_bits(g, k, UINT64_MAX) || (is_const_bits(g, k, 1) && is_widened_bool(g, x)))
            return x;
        return 0;
    default:
        return 0;
    }
}

unsigned jg_floor_shift_rule(JgType t, uint64_t c)
{
    unsigned w = jg_type_bits(t);
    for (unsigned k = 1; k + 2 <= w; k++)
        if (c == UINT64_C(1) << k)
            return k;
    return 0;
}

/* Whether v is `opcode` of x and the constant c (in either order), both
 * operands of v's operation in `block`. */
static bool of_x_and_c(const JgGraph *g, uint32_t block, JgVal v, JgOpcode opcode, JgVal x,
                       uint64_t c)
{
    const JgOp *d = jg_def_in(g, block, v);
    if (!d || d->opcode != opcode || d->nargs != 2)
        return false;
    return (d->args[0] == x && is_const_bits(g, d->args[1], c)) ||
           (d->args[1] == x && is_const_bits(g, d->args[0], c));
}

/* Whether v is `icmp pred y, 0` with y satisfying `is_y` (or the same
 * comparison with its operands swapped). */
static bool test_of_zero(const JgGraph *g, uint32_t block, JgVal v, JgPred pred, JgPred swapped,
                         JgVal *y)
{
    const JgOp *d = jg_def_in(g, block, v);
    if (!d || d->opcode != JG_OP_ICMP || d->nargs != 2)
        return false;
    if (d->pred == pred && is_const_bits(g, d->args[1], 0)) {
        *y = d->args[0];
        return true;
    }
    if (d->pred == swapped && is_const_bits(g, d->args[0], 0)) {
        *y = d->args[1];
        return true;
    }
    return false;
}

/* Whether the i1 v is "x is negative and not a multiple of c": the and
 * of `(x ^ c) < 0` (or `x < 0`) and `(x srem c) != 0`, as an
 * interpreter's floor division tests the sign of x and of the positive
 * divisor c and the remainder. */
static bool rounds_down(const JgGraph *g, uint32_t block, JgVal v, JgVal x, uint64_t c)
{
    const JgOp *d = jg_def_in(g, block, v);
    if (!d || d->opcode != JG_OP_AND || d->nargs != 2 || d->type != JG_I1)
        return false;
    for (int i = 0; i < 2; i++) {
        JgVal sign, rem;
        if (test_of_zero(g, block, d->args[i], JG_SLT, JG_SGT, &sign) &&
            (sign == x || of_x_and_c(g, block, sign, JG_OP_XOR, x, c)) &&
            test_of_zero(g, block, d->args[1 - i], JG_NE, JG_NE, &rem) &&
            of_x_and_c(g, block, rem, JG_OP_SREM, x, c))
            return true;
    }
    return false;
}

/* x sdiv 2^k, less one where x is negative and not a multiple of 2^k:
 * the quotient rounded down, which is x ashr k (jg_floor_shift_rule;
 * tests/unit/test_proofs.c proves it at every width). An interpreter's
 * floor division by a constant power of two leaves this shape: `add q,
 * sext r` with q the sdiv and r rounds_down's test. Its operations stay
 * behind, unread (the backends drop them). 0: no such shape. */
static JgVal floor_shift(JgGraph *g, uint32_t block, const JgOp *op, const JgVal *args)
{
    JgType t = (JgType)op->type;
    if (op->opcode != JG_OP_ADD || op->nargs != 2 || !jg_type_is_int(t) || t == JG_I1)
        return 0;
    for (int i = 0; i < 2; i++) {
        const JgOp *q = jg_def_in(g, block, args[i]), *s = jg_def_in(g, block, args[1 - i]);
        if (!q || !s || q->opcode != JG_OP_SDIV || q->type != t || s->opcode != JG_OP_SEXT ||
            s->nargs != 1 || !jg_is_const(g, q->args[1]))
            continue;
        uint64_t c = jg_truncate_bits(t, jg_value(g, q->args[1])->bits);
        unsigned k = jg_floor_shift_rule(t, c);
        if (!k || !rounds_down(g, block, s->args[0], q->args[0], c))
            continue;
        JgVal r = jg_emit(g, block, JG_OP_ASHR, t, 2, (JgVal[]){q->args[0], jg_const(g, t, k)});
        jg_last_op(g, block)->line = op->line;
        return r;
    }
    return 0;
}

JgVal jg_rewrite_pure(JgGraph *g, uint32_t block, const JgOp *op, const JgVal *args, bool *emitted)
{
    *emitted = false;
    bool all_const = op->nargs <= MAX_FOLDED;
    for (uint32_t i = 0; i < op->nargs && all_const; i++)
        all_const = jg_is_const(g, args[i]);
    if (all_const) {
        uint64_t bits[MAX_FOLDED];
        JgType types[MAX_FOLDED];
        for (uint32_t i = 0; i < op->nargs; i++) {
            bits[i] = jg_value(g, args[i])->bits;
            types[i] = jg_value_type(g, args[i]);
        }
        return jg_const(g, (JgType)op->type,
                        jg_fold((JgOpcode)op->opcode, (JgType)op->type, (JgPred)op->pred, op->nargs,
                                types, bits));
    }
    if (op->opcode == JG_OP_ICMP && op->nargs == 2) {
        JgVal same = jg_simplify_icmp(g, block, (JgPred)op->pred, args);
        if (same)
            return same;
    }
    JgVal same = identity_operand(g, op, args);
    if (!same)
        same = same_in_block(g, block, op, args);
    if (!same)
        same = floor_shift(g, block, op, args);
    if (same)
        return same;
    JgVal r = jg_emit(g, block, (JgOpcode)op->opcode, (JgType)op->type, op->nargs, args);
    JgOp *e = jg_last_op(g, block);
    e->pred = op->pred;
    e->line = op->line;
    *emitted = true;
    return r;
}
