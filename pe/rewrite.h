/* The residual form of a pure operation, decided in one place: what the
 * partial evaluator emits for an operation whose operands are residual
 * values, and what the translation validation (tests/unit/test_translation.c)
 * runs on random graphs and proves equivalent with Z3. */
#ifndef JITGEN_REWRITE_H
#define JITGEN_REWRITE_H

#include <stdbool.h>

#include "frontend/ir.h"

/* The value that `op` (a pure operation, jg_op_is_pure, whose operands are
 * `args`, values of graph g) equals in `block`: a constant when every
 * operand is one (jg_fold), a simplified comparison (jg_simplify_icmp), or
 * the operation emitted into `block` (*emitted set, with op's predicate and
 * line). */
JgVal jg_rewrite_pure(JgGraph *g, uint32_t block, const JgOp *op, const JgVal *args, bool *emitted);

/* The shift k that floor division of a value of integer type t by the
 * constant c is (x sdiv c, less one where x < 0 and x srem c != 0, equals
 * x ashr k): c = 2^k with 1 <= k <= width - 2, a positive power of two;
 * else 0. */
unsigned jg_floor_shift_rule(JgType t, uint64_t c);

#endif
