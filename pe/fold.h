/* Constant folding of pure flow-graph operations with exact LLVM semantics
 * at every width (wrapping arithmetic computed in unsigned). Shared by the
 * partial evaluator (folding green operations) and the graph evaluator. */
#ifndef JITGEN_FOLD_H
#define JITGEN_FOLD_H

#include "frontend/ir.h"

/* True when `opcode` is pure (no memory, no calls, no hints). */
bool jg_op_is_pure(JgOpcode opcode);

/* Computes a pure operation on constant operands. `types` are the operand
 * types. Division by zero (undefined in LLVM; the interpreters never do it)
 * yields 0 rather than trapping. */
uint64_t jg_fold(JgOpcode opcode, JgType type, JgPred pred, uint32_t nargs, const JgType *types,
                 const uint64_t *bits);

#endif
