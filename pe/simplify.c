/* Simplified comparisons (simplify.h). A comparison of a value with a
 * constant is rewritten as a condition over the operations that define the
 * value, in the block being emitted only (a value of another block may sit
 * in another compiled method):
 *   - a bool widened by zext: the bool, its negation, or a constant;
 *   - select c, t, f: (c and [t]) or (not c and [f]);
 *   - anything else: the comparison itself.
 * Conditions combine when both sides are comparisons of the same two
 * values: the outcome of each is a set of the orderings <, =, > of those
 * values, so `and` and `or` are the intersection and union of the sets.
 * The facts these rewritings rest on are cmp_rules.h's, proved with Z3 by
 * tests/unit/test_proofs.c. */
#include "simplify.h"

#include "cmp_rules.h"
#include "fold.h"

#define MAX_DEPTH 4 /* selects of selects: a bound on the rewriting */

typedef enum CondKind {
    COND_FAIL,  /* no known form */
    COND_CONST, /* `bit` */
    COND_TEST,  /* icmp pred a, b; `origin`: an i1 value that is this test */
    COND_NOT,   /* not `origin`, an i1 value that is no comparison */
} CondKind;

typedef struct Cond {
    CondKind kind;
    bool bit;
    JgPred pred;
    JgVal a, b, origin;
} Cond;

static bool const_bits(const JgGraph *g, JgVal v, uint64_t *bits)
{
    if (!v || !jg_is_const(g, v))
        return false;
    *bits = jg_value(g, v)->bits;
    return true;
}

/* Whether a and b are one value: the same, or equal constants. */
static bool same_value(const JgGraph *g, JgVal a, JgVal b)
{
    uint64_t x, y;
    return a == b || (const_bits(g, a, &x) && const_bits(g, b, &y) &&
                      jg_value_type(g, a) == jg_value_type(g, b) && x == y);
}

static bool compare_bits(JgPred pred, JgType type, uint64_t x, uint64_t y)
{
    JgType types[2] = {type, type};
    uint64_t bits[2] = {x, y};
    return jg_fold(JG_OP_ICMP, JG_I1, pred, 2, types, bits) != 0;
}

static Cond constant(bool bit)
{
    return (Cond){.kind = COND_CONST, .bit = bit};
}

/* The condition an i1 value stands for: its comparison when an icmp of
 * `block` defines it. */
static Cond of_bool(const JgGraph *g, uint32_t block, JgVal v)
{
    uint64_t bits;
    if (const_bits(g, v, &bits))
        return constant(bits & 1);
    const JgOp *op = jg_def_in(g, block, v);
    if (op && op->opcode == JG_OP_ICMP && jg_pred_is_int((JgPred)op->pred))
        return (Cond){.kind = COND_TEST,
                      .pred = (JgPred)op->pred,
                      .a = op->args[0],
                      .b = op->args[1],
                      .origin = v};
    return (Cond){.kind = COND_TEST, .pred = JG_NE, .a = v, .b = 0, .origin = v};
}

static Cond negate(Cond c)
{
    switch (c.kind) {
    case COND_CONST:
        return constant(!c.bit);
    case COND_TEST:
        if (!c.b) /* an opaque bool: its negation */
            return (Cond){.kind = COND_NOT, .origin = c.origin};
        return (Cond){.kind = COND_TEST, .pred = jg_pred_negated(c.pred), .a = c.a, .b = c.b};
    case COND_NOT:
        return (Cond){.kind = COND_TEST, .pred = JG_NE, .a = c.origin, .origin = c.origin};
    default:
        return c;
    }
}

/* x and y (both true: `and`), or x or y. */
static Cond combine(const JgGraph *g, Cond x, Cond y, bool both)
{
    if (x.kind == COND_FAIL || y.kind == COND_FAIL)
        return (Cond){.kind = COND_FAIL};
    if (x.kind == COND_CONST)
        return x.bit == both ? y : x;
    if (y.kind == COND_CONST)
        return y.bit == both ? x : y;
    if (x.kind != COND_TEST || y.kind != COND_TEST || !x.b || !y.b || !same_value(g, x.a, y.a) ||
        !same_value(g, x.b, y.b))
        return (Cond){.kind = COND_FAIL};
    JgCmpForm r = jg_pred_combine(x.pred, y.pred, both);
    if (r.kind == JG_CMP_NONE)
        return (Cond){.kind = COND_FAIL};
    if (r.kind != JG_CMP_PRED)
        return constant(r.kind == JG_CMP_TRUE);
    unsigned set = jg_pred_orderings(r.pred); /* x itself or y itself: no new icmp */
    if (set == jg_pred_orderings(x.pred) && x.origin)
        return x;
    if (set == jg_pred_orderings(y.pred) && y.origin)
        return y;
    return (Cond){.kind = COND_TEST, .pred = r.pred, .a = x.a, .b = x.b};
}

/* The condition `icmp pred x, k` (k a constant of x's type) stands for. */
static Cond of_compare(const JgGraph *g, uint32_t block, JgPred pred, JgVal x, uint64_t k,
                       unsigned depth)
{
    JgType type = jg_value_type(g, x);
    uint64_t bits;
    if (const_bits(g, x, &bits))
        return constant(compare_bits(pred, type, bits, k));
    const JgOp *op = jg_def_in(g, block, x);
    JgVal b = x;
    while (op && op->opcode == JG_OP_ZEXT) { /* the widened value */
        b = op->args[0];
        op = jg_def_in(g, block, b);
    }
    if (jg_value_type(g, b) == JG_I1) { /* x is 0 or 1 */
        JgBoolForm w = jg_widened_compare(pred, type, k);
        if (w == JG_BOOL_FALSE || w == JG_BOOL_TRUE)
            return constant(w == JG_BOOL_TRUE);
        Cond c = of_bool(g, block, b);
        return w == JG_BOOL_SAME ? c : negate(c);
    }
    if (op && op->opcode == JG_OP_SELECT && depth < MAX_DEPTH && b == x) {
        Cond c = of_bool(g, block, op->args[0]);
        Cond t = of_compare(g, block, pred, op->args[1], k, depth + 1);
        Cond f = of_compare(g, block, pred, op->args[2], k, depth + 1);
        return combine(g, combine(g, c, t, true), combine(g, negate(c), f, true), false);
    }
    return (Cond){.kind = COND_FAIL};
}

JgVal jg_simplify_icmp(JgGraph *g, uint32_t block, JgPred pred, const JgVal args[2])
{
    if (!jg_pred_is_int(pred))
        return 0;
    JgVal x = args[0];
    uint64_t k;
    if (!const_bits(g, args[1], &k)) {
        if (!const_bits(g, args[0], &k))
            return 0;
        x = args[1];
        pred = jg_pred_swapped(pred);
    }
    const JgOp *op = jg_def_in(g, block, x);
    if (jg_value_type(g, x) != JG_I1 &&
        (!op || (op->opcode != JG_OP_ZEXT && op->opcode != JG_OP_SELECT)))
        return 0; /* the comparison is as simple as it gets */
    Cond c = of_compare(g, block, pred, x, k, 0);
    switch (c.kind) {
    case COND_CONST:
        return jg_const(g, JG_I1, c.bit);
    case COND_TEST:
        if (c.origin)
            return c.origin;
        break;
    default:
        return 0; /* COND_NOT would cost an op too: as good as the icmp */
    }
    JgVal operands[2] = {c.a, c.b};
    JgVal r = jg_emit(g, block, JG_OP_ICMP, JG_I1, 2, operands);
    if (r)
        jg_last_op(g, block)->pred = (uint8_t)c.pred;
    return r;
}
