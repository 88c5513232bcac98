/* The algebra of the unrolled sums (linear.h). */
#include "linear.h"

#include "frontend/arith.h"

bool jg_linear_split(JgOpcode opcode, JgType type, uint64_t coef, int constant, uint64_t k,
                     JgLinear *out)
{
    switch (opcode) {
    case JG_OP_ADD:
        *out = (JgLinear){{coef, coef}};
        return true;
    case JG_OP_SUB:
        *out = (JgLinear){{coef, 0 - coef}};
        return true;
    case JG_OP_MUL: /* coef * (x * k) = (coef * k) * x */
        if (constant != 0 && constant != 1)
            return false;
        out->coef[constant] = 0;
        out->coef[1 - constant] = coef * k;
        return true;
    case JG_OP_SHL: /* coef * (x << k) = (coef << k) * x, k below the width */
        if (constant != 1 || k >= jg_type_bits(type))
            return false;
        *out = (JgLinear){{coef << k, 0}};
        return true;
    default:
        return false;
    }
}

JgCoefForm jg_coef_form(JgType type, uint64_t coef)
{
    coef = jg_truncate_bits(type, coef);
    if (coef == jg_truncate_bits(type, UINT64_MAX))
        return (JgCoefForm){.kind = JG_COEF_NEG};
    if (coef == 1)
        return (JgCoefForm){.kind = JG_COEF_ONE};
    if ((coef & (coef - 1)) == 0)
        return (JgCoefForm){.kind = JG_COEF_SHL, .amount = (uint64_t)__builtin_ctzll(coef)};
    return (JgCoefForm){.kind = JG_COEF_MUL, .amount = coef};
}
