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
    JgVal same = same_in_block(g, block, op, args);
    if (same)
        return same;
    JgVal r = jg_emit(g, block, (JgOpcode)op->opcode, (JgType)op->type, op->nargs, args);
    JgOp *e = jg_last_op(g, block);
    e->pred = op->pred;
    e->line = op->line;
    *emitted = true;
    return r;
}
