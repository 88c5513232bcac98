/* The facts about integer comparisons that the simplified comparisons
 * (pe/simplify.c) rewrite with, each stated once, as a table or a small
 * pure function: the rewriting applies them and tests/unit/test_proofs.c
 * proves each of them with Z3 at every integer width (docs/testing.md,
 * "Proofs").
 *
 * The outcome of `icmp pred a, b` is a set of the orderings of a and b
 * (a < b, a = b, a > b, signed or unsigned as the predicate says), so two
 * comparisons of the same values combine as the intersection (and) or the
 * union (or) of their sets. */
#ifndef JITGEN_CMP_RULES_H
#define JITGEN_CMP_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "frontend/ir.h"

enum { JG_ORDER_LT = 1, JG_ORDER_EQ = 2, JG_ORDER_GT = 4, JG_ORDER_ALL = 7 };

/* The order a predicate compares in: eq and ne hold under both. */
typedef enum JgCmpSign { JG_SIGN_ANY, JG_SIGN_UNSIGNED, JG_SIGN_SIGNED } JgCmpSign;

/* A comparison's rewritten form: a constant, an icmp with `pred`, or none. */
typedef enum JgCmpKind { JG_CMP_NONE, JG_CMP_FALSE, JG_CMP_TRUE, JG_CMP_PRED } JgCmpKind;
typedef struct JgCmpForm {
    JgCmpKind kind;
    JgPred pred;
} JgCmpForm;

/* `icmp pred (zext b), k`, b an i1 widened to the compared type: a
 * constant, b itself, or its negation. */
typedef enum JgBoolForm { JG_BOOL_FALSE, JG_BOOL_TRUE, JG_BOOL_SAME, JG_BOOL_NOT } JgBoolForm;

static inline bool jg_pred_is_int(JgPred p)
{
    return p <= JG_SLE;
}

/* The orderings (JG_ORDER_*) under which `icmp p a, b` holds. */
unsigned jg_pred_orderings(JgPred p);
JgCmpSign jg_pred_sign(JgPred p);
/* not (a p b) = a negated(p) b */
JgPred jg_pred_negated(JgPred p);
/* (a p b) = b swapped(p) a */
JgPred jg_pred_swapped(JgPred p);
/* The comparison that holds under exactly the orderings `set` in `sign`
 * (orderings' inverse); JG_CMP_NONE when no predicate does. */
JgCmpForm jg_pred_of_orderings(unsigned set, JgCmpSign sign);
/* `a p b` and `a q b` (both) or `a p b` or `a q b` as one comparison of a
 * and b; JG_CMP_NONE when they compare in different signs. */
JgCmpForm jg_pred_combine(JgPred p, JgPred q, bool both);
/* `icmp pred (zext b), k` at `type` for an i1 b: decided by its outcomes
 * at b = 0 and b = 1. */
JgBoolForm jg_widened_compare(JgPred pred, JgType type, uint64_t k);

#endif
