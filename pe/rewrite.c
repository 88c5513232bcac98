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
    if (same)
        return same;
    JgVal r = jg_emit(g, block, (JgOpcode)op->opcode, (JgType)op->type, op->nargs, args);
    JgOp *e = jg_last_op(g, block);
    e->pred = op->pred;
    e->line = op->line;
    *emitted = true;
    return r;
}
