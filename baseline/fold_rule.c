/* The folded comparisons' rule (fold_rule.h). */
#include "fold_rule.h"

bool bl_fold_compare(JgPred pred, JgOpcode opcode, int64_t step, int64_t k, BlFold *fold)
{
    bool ordered = pred >= JG_SGT && pred <= JG_SLE;
    if (!ordered && pred != JG_EQ && pred != JG_NE)
        return false;
    if (opcode != JG_OP_SUB && opcode != JG_OP_ADD)
        return false;
    int64_t minus = opcode == JG_OP_SUB ? step : (int64_t)(0 - (uint64_t)step);
    if (minus <= 0 || minus > INT32_MAX)
        return false;
    /* as `t > k2` (pos) or its negation */
    bool pos = pred == JG_SGT || pred == JG_SGE;
    int64_t k2 = k;
    if (pred == JG_SGE || pred == JG_SLT) {
        if (k == INT64_MIN)
            return false;
        k2 = k - 1;
    }
    /* t = x - minus: x > k2 + minus, or t wrapped around (x < INT64_MIN +
     * minus, t near INT64_MAX, above k2 when k2 + minus fits) */
    if (ordered && k2 > INT64_MAX - minus)
        return false;
    int64_t imm = (int64_t)((uint64_t)(ordered ? k2 : k) + (uint64_t)minus);
    if (imm < INT32_MIN || imm > INT32_MAX)
        return false;
    *fold = (BlFold){.imm = (int32_t)imm,
                     .ordered = ordered,
                     .pos = pos,
                     .wrap = (int64_t)((uint64_t)INT64_MIN + (uint64_t)minus)};
    return true;
}
