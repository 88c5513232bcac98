/* Simplified comparisons (simplify.h). A comparison of a value with a
 * constant is rewritten as a condition over the operations that define the
 * value, in the block being emitted only (a value of another block may sit
 * in another compiled method):
 *   - a bool widened by zext: the bool, its negation, or a constant;
 *   - select c, t, f: (c and [t]) or (not c and [f]);
 *   - anything else: the comparison itself.
 * Conditions combine when both sides are comparisons of the same two
 * values: the outcome of each is a set of the orderings <, =, > of those
 * values, so `and` and `or` are the intersection and union of the sets. */
#include "simplify.h"

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

static bool integer_pred(JgPred p)
{
    return p <= JG_SLE;
}

/* The operation defining v in `block`, NULL when v is none there. */
static const JgOp *def_in(const JgGraph *g, uint32_t block, JgVal v)
{
    const JgValueInfo *info = jg_value(g, v);
    if (!v || info->kind != JG_VK_OP || info->block != block)
        return NULL;
    return &g->blocks.items[block].ops.items[info->index];
}

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

/* The orderings of a and b under which `icmp pred a, b` holds: 1 for <,
 * 2 for =, 4 for >; *sign: 0 for eq/ne, 1 unsigned, 2 signed. */
static unsigned orderings(JgPred p, unsigned *sign)
{
    static const unsigned set[] = {
        [JG_EQ] = 2,  [JG_NE] = 5,  [JG_UGT] = 4, [JG_UGE] = 6, [JG_ULT] = 1,
        [JG_ULE] = 3, [JG_SGT] = 4, [JG_SGE] = 6, [JG_SLT] = 1, [JG_SLE] = 3};
    *sign = p <= JG_NE ? 0 : p <= JG_ULE ? 1 : 2;
    return set[p];
}

static Cond constant(bool bit)
{
    return (Cond){.kind = COND_CONST, .bit = bit};
}

/* The condition from a set of orderings (orderings' inverse). */
static Cond from_orderings(unsigned set, unsigned sign, JgVal a, JgVal b)
{
    static const JgPred unsigned_preds[8] = {JG_EQ,  JG_ULT, JG_EQ,  JG_ULE,
                                             JG_UGT, JG_NE,  JG_UGE, JG_EQ};
    static const JgPred signed_preds[8] = {JG_EQ,  JG_SLT, JG_EQ,  JG_SLE,
                                           JG_SGT, JG_NE,  JG_SGE, JG_EQ};
    if (set == 0 || set == 7)
        return constant(set == 7);
    if (sign == 0 && set != 2 && set != 5)
        return (Cond){.kind = COND_FAIL};
    JgPred p = sign == 2 ? signed_preds[set] : unsigned_preds[set];
    return (Cond){.kind = COND_TEST, .pred = p, .a = a, .b = b};
}

/* The condition an i1 value stands for: its comparison when an icmp of
 * `block` defines it. */
static Cond of_bool(const JgGraph *g, uint32_t block, JgVal v)
{
    uint64_t bits;
    if (const_bits(g, v, &bits))
        return constant(bits & 1);
    const JgOp *op = def_in(g, block, v);
    if (op && op->opcode == JG_OP_ICMP && integer_pred((JgPred)op->pred))
        return (Cond){.kind = COND_TEST,
                      .pred = (JgPred)op->pred,
                      .a = op->args[0],
                      .b = op->args[1],
                      .origin = v};
    return (Cond){.kind = COND_TEST, .pred = JG_NE, .a = v, .b = 0, .origin = v};
}

static Cond negate(Cond c)
{
    static const JgPred inverse[] = {
        [JG_EQ] = JG_NE,   [JG_NE] = JG_EQ,   [JG_UGT] = JG_ULE, [JG_UGE] = JG_ULT,
        [JG_ULT] = JG_UGE, [JG_ULE] = JG_UGT, [JG_SGT] = JG_SLE, [JG_SGE] = JG_SLT,
        [JG_SLT] = JG_SGE, [JG_SLE] = JG_SGT};
    switch (c.kind) {
    case COND_CONST:
        return constant(!c.bit);
    case COND_TEST:
        if (!c.b) /* an opaque bool: its negation */
            return (Cond){.kind = COND_NOT, .origin = c.origin};
        return (Cond){.kind = COND_TEST, .pred = inverse[c.pred], .a = c.a, .b = c.b};
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
    unsigned sx, sy;
    unsigned mx = orderings(x.pred, &sx), my = orderings(y.pred, &sy);
    if (sx && sy && sx != sy)
        return (Cond){.kind = COND_FAIL};
    unsigned set = both ? mx & my : mx | my;
    if (set == mx && x.origin)
        return x;
    if (set == my && y.origin)
        return y;
    return from_orderings(set, sx ? sx : sy, x.a, x.b);
}

/* The condition `icmp pred x, k` (k a constant of x's type) stands for. */
static Cond of_compare(const JgGraph *g, uint32_t block, JgPred pred, JgVal x, uint64_t k,
                       unsigned depth)
{
    JgType type = jg_value_type(g, x);
    uint64_t bits;
    if (const_bits(g, x, &bits))
        return constant(compare_bits(pred, type, bits, k));
    const JgOp *op = def_in(g, block, x);
    JgVal b = x;
    while (op && op->opcode == JG_OP_ZEXT) { /* the widened value */
        b = op->args[0];
        op = def_in(g, block, b);
    }
    if (jg_value_type(g, b) == JG_I1) { /* x is 0 or 1 */
        bool if0 = compare_bits(pred, type, 0, k), if1 = compare_bits(pred, type, 1, k);
        if (if0 == if1)
            return constant(if0);
        Cond c = of_bool(g, block, b);
        return if1 ? c : negate(c);
    }
    if (op && op->opcode == JG_OP_SELECT && depth < MAX_DEPTH && b == x) {
        Cond c = of_bool(g, block, op->args[0]);
        Cond t = of_compare(g, block, pred, op->args[1], k, depth + 1);
        Cond f = of_compare(g, block, pred, op->args[2], k, depth + 1);
        return combine(g, combine(g, c, t, true), combine(g, negate(c), f, true), false);
    }
    return (Cond){.kind = COND_FAIL};
}

static JgPred swapped(JgPred p)
{
    static const JgPred swap[] = {
        [JG_EQ] = JG_EQ,   [JG_NE] = JG_NE,   [JG_UGT] = JG_ULT, [JG_UGE] = JG_ULE,
        [JG_ULT] = JG_UGT, [JG_ULE] = JG_UGE, [JG_SGT] = JG_SLT, [JG_SGE] = JG_SLE,
        [JG_SLT] = JG_SGT, [JG_SLE] = JG_SGE};
    return swap[p];
}

JgVal jg_simplify_icmp(JgGraph *g, uint32_t block, JgPred pred, const JgVal args[2])
{
    if (!integer_pred(pred))
        return 0;
    JgVal x = args[0];
    uint64_t k;
    if (!const_bits(g, args[1], &k)) {
        if (!const_bits(g, args[0], &k))
            return 0;
        x = args[1];
        pred = swapped(pred);
    }
    const JgOp *op = def_in(g, block, x);
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
