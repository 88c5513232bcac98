/* Algebraic simplification of residual comparisons as partial evaluation
 * emits them (docs/partial-evaluation.md, "Simplified comparisons").
 * Interpreters compute a comparison's outcome as a value (C's `a < b ? -1 :
 * a > b` of a three-way compare, a bool widened to an int) and then test
 * that value; once the operands are residual, what reaches the residual
 * graph is a chain of icmp, select and zext that one icmp decides. Both
 * backends profit: LLVM has less to optimize, the baseline less to run. */
#ifndef JITGEN_SIMPLIFY_H
#define JITGEN_SIMPLIFY_H

#include "frontend/ir.h"

/* The value that `icmp pred args[0], args[1]` (residual operands of graph
 * g, about to be emitted in `block`) equals, found through the operations
 * that define its operands: a constant, an existing value, or one new
 * icmp emitted into `block`. 0: no simpler form; the caller emits it. */
JgVal jg_simplify_icmp(JgGraph *g, uint32_t block, JgPred pred, const JgVal args[2]);

#endif
