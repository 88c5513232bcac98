/* The algebra of the recurrence unrolling's sums (pe/unroll.c), stated once
 * as small pure functions that unroll.c applies and tests/unit/test_proofs.c
 * proves with Z3 at every width it runs at (docs/testing.md, "Proofs"):
 * how a multiple of an operation's result distributes over its operands,
 * and the instruction that multiplies a term by its coefficient. Integer
 * arithmetic wraps, so the coefficients are computed modulo 2^64 and then
 * truncated to the type. */
#ifndef JITGEN_LINEAR_H
#define JITGEN_LINEAR_H

#include <stdbool.h>
#include <stdint.h>

#include "frontend/ir.h"

/* coef * (a op b) = coef[0] * a + coef[1] * b at `type`, for op add, sub,
 * mul or shl; for mul and shl, operand `constant` (0 or 1; shl: 1 only) is
 * the constant k and its coefficient is 0. False: op is not linear so (a
 * shift by k >= the type's bits, a multiply or shift by no constant). */
typedef struct JgLinear {
    uint64_t coef[2];
} JgLinear;
bool jg_linear_split(JgOpcode opcode, JgType type, uint64_t coef, int constant, uint64_t k,
                     JgLinear *out);

/* The instruction of a term `coef * x` (coef truncated to the type, not 0):
 * x itself, its negation (a subtract from the sum, or from 0), a shift
 * left by `amount`, or a multiply by coef. */
typedef enum JgCoefKind { JG_COEF_ONE, JG_COEF_NEG, JG_COEF_SHL, JG_COEF_MUL } JgCoefKind;
typedef struct JgCoefForm {
    JgCoefKind kind;
    uint64_t amount; /* the shift's amount, or the multiplier */
} JgCoefForm;
JgCoefForm jg_coef_form(JgType type, uint64_t coef);

#endif
