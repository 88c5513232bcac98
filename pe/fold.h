/* Constant folding for the partial evaluator: the semantics are those of
 * the graph evaluator (frontend/arith.h), so compile time and run time can
 * never disagree. */
#ifndef JITGEN_FOLD_H
#define JITGEN_FOLD_H

#include "frontend/arith.h"
#include "frontend/ir.h"

/* Computes a pure operation (jg_op_is_pure) on constant operands of the
 * given types; the result is masked to `type`. */
uint64_t jg_fold(JgOpcode opcode, JgType type, JgPred pred, uint32_t nargs, const JgType *types,
                 const uint64_t *bits);

#endif
