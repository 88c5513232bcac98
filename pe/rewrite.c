/* The residual form of a pure operation (rewrite.h). */
#include "rewrite.h"

#include "fold.h"
#include "simplify.h"

#define MAX_FOLDED 3 /* the most operands of a pure operation (select) */

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
    JgVal r = jg_emit(g, block, (JgOpcode)op->opcode, (JgType)op->type, op->nargs, args);
    JgOp *e = jg_last_op(g, block);
    e->pred = op->pred;
    e->line = op->line;
    *emitted = true;
    return r;
}
