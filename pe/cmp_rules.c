/* Facts about integer comparisons (cmp_rules.h), as tables. */
#include "cmp_rules.h"

#include "fold.h"

unsigned jg_pred_orderings(JgPred p)
{
    static const unsigned set[] = {
        [JG_EQ] = JG_ORDER_EQ,  [JG_NE] = JG_ORDER_LT | JG_ORDER_GT,
        [JG_UGT] = JG_ORDER_GT, [JG_UGE] = JG_ORDER_GT | JG_ORDER_EQ,
        [JG_ULT] = JG_ORDER_LT, [JG_ULE] = JG_ORDER_LT | JG_ORDER_EQ,
        [JG_SGT] = JG_ORDER_GT, [JG_SGE] = JG_ORDER_GT | JG_ORDER_EQ,
        [JG_SLT] = JG_ORDER_LT, [JG_SLE] = JG_ORDER_LT | JG_ORDER_EQ,
    };
    return set[p];
}

JgCmpSign jg_pred_sign(JgPred p)
{
    return p <= JG_NE ? JG_SIGN_ANY : p <= JG_ULE ? JG_SIGN_UNSIGNED : JG_SIGN_SIGNED;
}

JgPred jg_pred_negated(JgPred p)
{
    static const JgPred inverse[] = {
        [JG_EQ] = JG_NE,   [JG_NE] = JG_EQ,   [JG_UGT] = JG_ULE, [JG_UGE] = JG_ULT,
        [JG_ULT] = JG_UGE, [JG_ULE] = JG_UGT, [JG_SGT] = JG_SLE, [JG_SGE] = JG_SLT,
        [JG_SLT] = JG_SGE, [JG_SLE] = JG_SGT};
    return inverse[p];
}

JgPred jg_pred_swapped(JgPred p)
{
    static const JgPred swap[] = {
        [JG_EQ] = JG_EQ,   [JG_NE] = JG_NE,   [JG_UGT] = JG_ULT, [JG_UGE] = JG_ULE,
        [JG_ULT] = JG_UGT, [JG_ULE] = JG_UGE, [JG_SGT] = JG_SLT, [JG_SGE] = JG_SLE,
        [JG_SLT] = JG_SGT, [JG_SLE] = JG_SGE};
    return swap[p];
}

JgCmpForm jg_pred_of_orderings(unsigned set, JgCmpSign sign)
{
    /* indexed by the set; sets 0 and 7 are constants */
    static const JgPred unsigned_preds[8] = {JG_EQ,  JG_ULT, JG_EQ,  JG_ULE,
                                             JG_UGT, JG_NE,  JG_UGE, JG_EQ};
    static const JgPred signed_preds[8] = {JG_EQ,  JG_SLT, JG_EQ,  JG_SLE,
                                           JG_SGT, JG_NE,  JG_SGE, JG_EQ};
    set &= JG_ORDER_ALL;
    if (set == 0 || set == JG_ORDER_ALL)
        return (JgCmpForm){.kind = set ? JG_CMP_TRUE : JG_CMP_FALSE};
    if (sign == JG_SIGN_ANY && set != JG_ORDER_EQ && set != (JG_ORDER_LT | JG_ORDER_GT))
        return (JgCmpForm){.kind = JG_CMP_NONE};
    return (JgCmpForm){.kind = JG_CMP_PRED,
                       .pred = sign == JG_SIGN_SIGNED ? signed_preds[set] : unsigned_preds[set]};
}

JgCmpForm jg_pred_combine(JgPred p, JgPred q, bool both)
{
    JgCmpSign sp = jg_pred_sign(p), sq = jg_pred_sign(q);
    if (sp && sq && sp != sq)
        return (JgCmpForm){.kind = JG_CMP_NONE};
    unsigned mp = jg_pred_orderings(p), mq = jg_pred_orderings(q);
    return jg_pred_of_orderings(both ? mp & mq : mp | mq, sp ? sp : sq);
}

JgBoolForm jg_widened_compare(JgPred pred, JgType type, uint64_t k)
{
    JgType types[2] = {type, type};
    uint64_t at0[2] = {0, k}, at1[2] = {1, k};
    bool if0 = jg_fold(JG_OP_ICMP, JG_I1, pred, 2, types, at0) != 0;
    bool if1 = jg_fold(JG_OP_ICMP, JG_I1, pred, 2, types, at1) != 0;
    if (if0 == if1)
        return if0 ? JG_BOOL_TRUE : JG_BOOL_FALSE;
    return if1 ? JG_BOOL_SAME : JG_BOOL_NOT;
}
