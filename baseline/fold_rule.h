/* The baseline backend's folded comparisons: the rule, stated once as a
 * pure function that homes.c applies and tests/unit/test_proofs.c proves
 * with Z3 (docs/testing.md, "Proofs"). */
#ifndef JITGEN_BASELINE_FOLD_RULE_H
#define JITGEN_BASELINE_FOLD_RULE_H

#include <stdbool.h>
#include <stdint.h>

#include "frontend/ir.h"

/* A fused comparison of `t = x - C` (C > 0 a constant, t read by nothing
 * else) with a constant, that compares x instead (homes.c, find_folds): the
 * subtraction needs no code. An equality compares x with K + C; an order
 * holds where `x > imm` or, as t wraps around, `x < wrap` (INT64_MIN + C),
 * which is checked on the way where the first test fails (method.c,
 * two_way_wrapped); `pos`: that disjunction is the comparison holding (sgt,
 * sge), not failing (slt, sle). All comparisons of x are signed 64-bit,
 * imm sign-extended (x86-64's cmp r64, imm32). */
typedef struct BlFold {
    JgVal x;
    int32_t imm;
    bool ordered, pos;
    int64_t wrap;
} BlFold;

/* The fold of `icmp pred t, k` (i64) where t = `x sub step` or `x add
 * step` (`opcode`): false when there is none (an unsigned order, a C out
 * of (0, INT32_MAX], an immediate out of 32 bits, or an order whose bound
 * K + C overflows). Sets every field but x. */
bool bl_fold_compare(JgPred pred, JgOpcode opcode, int64_t step, int64_t k, BlFold *fold);

#endif
