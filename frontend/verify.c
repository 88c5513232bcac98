/* The graph verifier (docs/graph-tools.md): SSA (strict block-local SSA for
 * interpreter graphs; dominance for residual graphs, with the entry blocks
 * of later compilations as extra roots), operand types per opcode, links
 * matching their targets' parameters, terminators. It runs on interpreter
 * graphs after reading and on residual graphs after partial evaluation, so
 * its messages name graph, block and op. */
#include "ir.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

typedef struct Verifier {
    const JgGraph *g;
    char *err;
    size_t errsize;
    uint8_t *defined; /* defined[v]: v has a definition (first pass) */
    bool residual;    /* JG_FLAG_RESIDUAL: uses checked by dominance */
    /* residual graphs: the dominator tree as DFS intervals; a block d
     * dominates b iff pre[d] <= pre[b] && post[b] <= post[d]; unreachable
     * blocks have pre == UINT32_MAX */
    uint32_t *pre, *post;
    uint32_t block;
    int64_t op; /* index of the op being checked; -1: the block; -2: terminator */
} Verifier;

static bool fail(Verifier *vf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes "graph G, block B, op I (opcode): message" and returns false. */
static bool fail(Verifier *vf, const char *fmt, ...)
{
    if (!vf->err || vf->errsize == 0)
        return false;
    const char *name = vf->g->name ? vf->g->name : "<anonymous>";
    int n;
    if (vf->op >= 0) {
        const JgOp *op = &vf->g->blocks.items[vf->block].ops.items[vf->op];
        n = snprintf(vf->err, vf->errsize,
                     "graph %s, block %" PRIu32 ", op %" PRId64 " (%s): ", name, vf->block, vf->op,
                     jg_opcode_name((JgOpcode)op->opcode));
    } else if (vf->op == -2) {
        n = snprintf(vf->err, vf->errsize, "graph %s, block %" PRIu32 ", terminator: ", name,
                     vf->block);
    } else {
        n = snprintf(vf->err, vf->errsize, "graph %s, block %" PRIu32 ": ", name, vf->block);
    }
    if (n >= 0 && (size_t)n < vf->errsize) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(vf->err + n, vf->errsize - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Bit width of a type; 0 for void. */
static unsigned type_bits(JgType t)
{
    return t == JG_I1 ? 1 : 8 * jg_type_size(t);
}

static bool is_float(JgType t)
{
    return t == JG_F32 || t == JG_F64;
}

static bool valid_type(unsigned t)
{
    return t <= JG_F64;
}

static JgType vtype(const Verifier *vf, JgVal v)
{
    return jg_value_type(vf->g, v);
}

static bool reachable(const Verifier *vf, uint32_t b)
{
    return vf->pre[b] != UINT32_MAX;
}

static bool dominates(const Verifier *vf, uint32_t d, uint32_t b)
{
    return vf->pre[d] <= vf->pre[b] && vf->post[b] <= vf->post[d];
}

/* A use at the current point (op vf->op of block vf->block, or its
 * terminator): a constant, a parameter of this block, a result of an
 * earlier op of this block, or (residual graphs) a value whose block
 * dominates this one. Uses in unreachable residual blocks only need a
 * definition. */
static bool check_use(Verifier *vf, JgVal v, const char *what)
{
    if (v == 0 || v >= vf->g->values.count)
        return fail(vf, "%s: no such value v%" PRIu32, what, v);
    const JgValueInfo *vi = jg_value(vf->g, v);
    if (vi->kind == JG_VK_CONST)
        return true;
    if (!vf->defined[v])
        return fail(vf, "%s: v%" PRIu32 " is never defined", what, v);
    if (vi->block == vf->block) {
        if (vi->kind == JG_VK_PARAM || vf->op < 0 || (int64_t)vi->index < vf->op)
            return true;
        return fail(vf, "%s: v%" PRIu32 " used before its definition", what, v);
    }
    if (!vf->residual)
        return fail(vf,
                    "%s: v%" PRIu32 " belongs to block %" PRIu32
                    " (values pass between blocks only through links)",
                    what, v, vi->block);
    if (!reachable(vf, vf->block) || dominates(vf, vi->block, vf->block))
        return true;
    return fail(vf, "%s: v%" PRIu32 " of block %" PRIu32 " does not dominate this use", what, v,
                vi->block);
}

/* A definition: the value table must say the same, and only once. */
static bool define(Verifier *vf, JgVal v, JgValueKind kind, uint32_t index)
{
    if (v == 0 || v >= vf->g->values.count)
        return fail(vf, "defines no such value v%" PRIu32, v);
    const JgValueInfo *vi = jg_value(vf->g, v);
    if (vf->defined[v])
        return fail(vf, "v%" PRIu32 " is defined twice", v);
    if (vi->kind != kind || vi->block != vf->block || vi->index != index)
        return fail(vf, "v%" PRIu32 " is recorded as %s %" PRIu32 " of block %" PRIu32, v,
                    vi->kind == JG_VK_CONST   ? "a constant"
                    : vi->kind == JG_VK_PARAM ? "parameter"
                                              : "op",
                    vi->index, vi->block);
    if (!valid_type(vi->type) || vi->type == JG_VOID)
        return fail(vf, "v%" PRIu32 " has no valid type", v);
    vf->defined[v] = 1;
    return true;
}

static bool check_nargs(Verifier *vf, const JgOp *op, uint32_t n)
{
    if (op->nargs != n)
        return fail(vf, "%" PRIu32 " operands, expected %" PRIu32, op->nargs, n);
    return true;
}

/* Every operand has type `t`. */
static bool check_all_typed(Verifier *vf, const JgOp *op, JgType t)
{
    for (uint32_t i = 0; i < op->nargs; i++)
        if (vtype(vf, op->args[i]) != t)
            return fail(vf, "operand %" PRIu32 " is %s, expected %s", i,
                        jg_type_name(vtype(vf, op->args[i])), jg_type_name(t));
    return true;
}

static bool check_binary(Verifier *vf, const JgOp *op)
{
    JgType t = (JgType)op->type;
    bool fl = op->opcode >= JG_OP_FADD;
    if (fl ? !is_float(t) : !jg_type_is_int(t))
        return fail(vf, "result type %s, expected %s", jg_type_name(t), fl ? "a float" : "an int");
    return check_nargs(vf, op, op->opcode == JG_OP_FNEG ? 1 : 2) && check_all_typed(vf, op, t);
}

static bool check_compare(Verifier *vf, const JgOp *op)
{
    if (!check_nargs(vf, op, 2))
        return false;
    if (op->type != JG_I1)
        return fail(vf, "result type %s, expected i1", jg_type_name((JgType)op->type));
    JgType a = vtype(vf, op->args[0]);
    if (vtype(vf, op->args[1]) != a)
        return fail(vf, "operands of different types %s and %s", jg_type_name(a),
                    jg_type_name(vtype(vf, op->args[1])));
    if (op->opcode == JG_OP_ICMP) {
        if (!jg_type_is_int(a) && a != JG_PTR)
            return fail(vf, "compares %s, expected ints or pointers", jg_type_name(a));
        if (op->pred > JG_SLE)
            return fail(vf, "predicate %u is not an icmp predicate", op->pred);
    } else {
        if (!is_float(a))
            return fail(vf, "compares %s, expected floats", jg_type_name(a));
        if (op->pred < JG_FOEQ || op->pred > JG_FFALSE)
            return fail(vf, "predicate %u is not an fcmp predicate", op->pred);
    }
    return true;
}

static bool check_select(Verifier *vf, const JgOp *op)
{
    if (!check_nargs(vf, op, 3))
        return false;
    if (vtype(vf, op->args[0]) != JG_I1)
        return fail(vf, "condition is %s, expected i1", jg_type_name(vtype(vf, op->args[0])));
    for (uint32_t i = 1; i < 3; i++)
        if (vtype(vf, op->args[i]) != op->type)
            return fail(vf, "operand %" PRIu32 " is %s, expected %s", i,
                        jg_type_name(vtype(vf, op->args[i])), jg_type_name((JgType)op->type));
    return true;
}

/* Whether a conversion from `from` to `to` makes sense for the opcode. */
static bool cast_fits(JgOpcode code, JgType from, JgType to)
{
    switch (code) {
    case JG_OP_ZEXT:
    case JG_OP_SEXT:
        return jg_type_is_int(from) && jg_type_is_int(to) && type_bits(from) < type_bits(to);
    case JG_OP_TRUNC:
        return jg_type_is_int(from) && jg_type_is_int(to) && type_bits(from) > type_bits(to);
    case JG_OP_PTRTOINT:
        return from == JG_PTR && jg_type_is_int(to);
    case JG_OP_INTTOPTR:
        return jg_type_is_int(from) && to == JG_PTR;
    case JG_OP_SITOFP:
    case JG_OP_UITOFP:
        return jg_type_is_int(from) && is_float(to);
    case JG_OP_FPTOSI:
    case JG_OP_FPTOUI:
        return is_float(from) && jg_type_is_int(to);
    case JG_OP_FPEXT:
        return from == JG_F32 && to == JG_F64;
    case JG_OP_FPTRUNC:
        return from == JG_F64 && to == JG_F32;
    case JG_OP_BITCAST:
        return from != JG_VOID && to != JG_VOID && type_bits(from) == type_bits(to);
    default:
        return false;
    }
}

static bool check_cast(Verifier *vf, const JgOp *op)
{
    if (!check_nargs(vf, op, 1))
        return false;
    JgType from = vtype(vf, op->args[0]), to = (JgType)op->type;
    if (!cast_fits((JgOpcode)op->opcode, from, to))
        return fail(vf, "cannot convert %s to %s", jg_type_name(from), jg_type_name(to));
    return true;
}

/* Operand i has type t (or, with t == JG_VOID, any integer type). */
static bool check_operand(Verifier *vf, const JgOp *op, uint32_t i, JgType t)
{
    JgType a = vtype(vf, op->args[i]);
    if (t == JG_VOID ? !jg_type_is_int(a) : a != t)
        return fail(vf, "operand %" PRIu32 " is %s, expected %s", i, jg_type_name(a),
                    t == JG_VOID ? "an int" : jg_type_name(t));
    return true;
}

static bool check_memory(Verifier *vf, const JgOp *op)
{
    switch ((JgOpcode)op->opcode) {
    case JG_OP_PTRADD:
        return check_nargs(vf, op, 2) && check_operand(vf, op, 0, JG_PTR) &&
               check_operand(vf, op, 1, JG_I64) &&
               (op->type == JG_PTR || fail(vf, "result type is not ptr"));
    case JG_OP_LOAD:
        return check_nargs(vf, op, 1) && check_operand(vf, op, 0, JG_PTR);
    case JG_OP_STORE:
        if (!check_nargs(vf, op, 2) || !check_operand(vf, op, 0, JG_PTR))
            return false;
        if (op->type != JG_VOID)
            return fail(vf, "a store has no result");
        return true;
    case JG_OP_ALLOCA:
        if (op->imm < 0)
            return fail(vf, "negative size %" PRId64, op->imm);
        return check_nargs(vf, op, 0) && (op->type == JG_PTR || fail(vf, "result is not ptr"));
    case JG_OP_MEMCPY:
        return check_nargs(vf, op, 3) && check_operand(vf, op, 0, JG_PTR) &&
               check_operand(vf, op, 1, JG_PTR) && check_operand(vf, op, 2, JG_VOID);
    case JG_OP_MEMSET:
        return check_nargs(vf, op, 3) && check_operand(vf, op, 0, JG_PTR) &&
               check_operand(vf, op, 1, JG_VOID) && check_operand(vf, op, 2, JG_VOID);
    default:
        return fail(vf, "not a memory op");
    }
}

static bool check_call(Verifier *vf, const JgOp *op)
{
    if (op->nargs < 1)
        return fail(vf, "no callee operand");
    if (!check_operand(vf, op, 0, JG_PTR))
        return false;
    const JgGraph *callee = op->callee;
    if (!callee)
        return true;
    const char *name = callee->name ? callee->name : "<anonymous>";
    uint32_t n = op->nargs - 1;
    if (n < callee->nparams || (n > callee->nparams && !callee->variadic))
        return fail(vf, "%" PRIu32 " arguments to %s, which takes %" PRIu32 "%s", n, name,
                    callee->nparams, callee->variadic ? " or more" : "");
    for (uint32_t i = 0; i < callee->nparams; i++)
        if (vtype(vf, op->args[i + 1]) != callee->param_types[i])
            return fail(vf, "argument %" PRIu32 " to %s is %s, expected %s", i, name,
                        jg_type_name(vtype(vf, op->args[i + 1])),
                        jg_type_name((JgType)callee->param_types[i]));
    if (op->type != callee->ret_type)
        return fail(vf, "result type %s, but %s returns %s", jg_type_name((JgType)op->type), name,
                    jg_type_name((JgType)callee->ret_type));
    return true;
}

static bool check_hint(Verifier *vf, const JgOp *op)
{
    if (op->opcode == JG_OP_MERGE_POINT)
        return check_nargs(vf, op, op->nargs ? 1 : 0) &&
               (op->nargs == 0 || vtype(vf, op->args[0]) == JG_I64 ||
                fail(vf, "a merge point's flag is %s, not i64",
                     jg_type_name(vtype(vf, op->args[0])))) &&
               (op->type == JG_VOID || fail(vf, "a merge point has no result"));
    if (!check_nargs(vf, op, 1))
        return false;
    if (vtype(vf, op->args[0]) != op->type)
        return fail(vf, "operand is %s, result %s", jg_type_name(vtype(vf, op->args[0])),
                    jg_type_name((JgType)op->type));
    return true;
}

/* Types of operands and result, per opcode (opcode groups are contiguous
 * ranges of JgOpcode). */
static bool check_op_types(Verifier *vf, const JgOp *op)
{
    JgOpcode code = (JgOpcode)op->opcode;
    if (code <= JG_OP_FNEG)
        return check_binary(vf, op);
    if (code == JG_OP_ICMP || code == JG_OP_FCMP)
        return check_compare(vf, op);
    if (code == JG_OP_SELECT)
        return check_select(vf, op);
    if (code >= JG_OP_ZEXT && code <= JG_OP_BITCAST)
        return check_cast(vf, op);
    if (code >= JG_OP_PTRADD && code <= JG_OP_MEMSET)
        return check_memory(vf, op);
    if (code == JG_OP_CALL)
        return check_call(vf, op);
    if (code >= JG_OP_PROMOTE && code <= JG_OP_MERGE_POINT)
        return check_hint(vf, op);
    return fail(vf, "unknown opcode %u", op->opcode);
}

/* A likely divisor (JgOp.likely): a constant of the division's type, on a
 * signed division only. */
static bool check_likely(Verifier *vf, const JgOp *op)
{
    if (op->opcode != JG_OP_SDIV && op->opcode != JG_OP_SREM)
        return fail(vf, "a likely divisor on %s", jg_opcode_name((JgOpcode)op->opcode));
    if (op->likely >= vf->g->values.count || jg_value(vf->g, op->likely)->kind != JG_VK_CONST)
        return fail(vf, "likely divisor v%" PRIu32 " is not a constant", op->likely);
    if (vtype(vf, op->likely) != op->type)
        return fail(vf, "likely divisor is %s, division %s", jg_type_name(vtype(vf, op->likely)),
                    jg_type_name((JgType)op->type));
    return true;
}

static bool check_op(Verifier *vf, const JgOp *op)
{
    for (uint32_t i = 0; i < op->nargs; i++) {
        char what[32];
        snprintf(what, sizeof what, "operand %" PRIu32, i);
        if (!check_use(vf, op->args[i], what))
            return false;
    }
    if (!check_op_types(vf, op))
        return false;
    if (op->likely && !check_likely(vf, op))
        return false;
    if (op->result && vtype(vf, op->result) != op->type)
        return fail(vf, "result v%" PRIu32 " is %s, op type %s", op->result,
                    jg_type_name(vtype(vf, op->result)), jg_type_name((JgType)op->type));
    return true;
}

static bool check_link(Verifier *vf, const JgLink *l, uint32_t which)
{
    const JgGraph *g = vf->g;
    if (l->target >= g->blocks.count)
        return fail(vf, "link %" PRIu32 " targets missing block %" PRIu32, which, l->target);
    const JgBlock *t = &g->blocks.items[l->target];
    if (l->nargs != t->nparams)
        return fail(vf,
                    "link %" PRIu32 " passes %" PRIu32 " values to block %" PRIu32
                    ", which has %" PRIu32 " parameters",
                    which, l->nargs, l->target, t->nparams);
    for (uint32_t i = 0; i < l->nargs; i++) {
        char what[48];
        snprintf(what, sizeof what, "link %" PRIu32 " argument %" PRIu32, which, i);
        if (!check_use(vf, l->args[i], what))
            return false;
        JgType a = vtype(vf, l->args[i]), p = vtype(vf, t->params[i]);
        if (a != p)
            return fail(vf,
                        "link %" PRIu32 " argument %" PRIu32 " is %s, parameter %" PRIu32
                        " of block %" PRIu32 " is %s",
                        which, i, jg_type_name(a), i, l->target, jg_type_name(p));
    }
    return true;
}

/* A flexswitch's default link (links[0]) has no target: a miss calls the
 * compiler (flexswitch/flexswitch.h). */
static bool is_flex_default(const JgTerm *t, uint32_t i)
{
    return t->kind == JG_TERM_FLEXSWITCH && i == 0 && t->links[0].target == UINT32_MAX;
}

static bool check_links(Verifier *vf, const JgTerm *t, uint32_t expected)
{
    if (expected != UINT32_MAX && t->nlinks != expected)
        return fail(vf, "%" PRIu32 " links, expected %" PRIu32, t->nlinks, expected);
    if (t->nlinks && !t->links)
        return fail(vf, "%" PRIu32 " links but no link array", t->nlinks);
    for (uint32_t i = 0; i < t->nlinks; i++)
        if (!is_flex_default(t, i) && !check_link(vf, &t->links[i], i))
            return false;
    return true;
}

/* Switch and flexswitch: an int (flexswitch: also a pointer) and distinct
 * case values. */
static bool check_switch(Verifier *vf, const JgTerm *t, bool flex)
{
    if (!check_use(vf, t->value, "switched value"))
        return false;
    JgType vt = vtype(vf, t->value);
    if (!jg_type_is_int(vt) && !(flex && vt == JG_PTR))
        return fail(vf, "switches on %s", jg_type_name(vt));
    if (t->nlinks < 1)
        return fail(vf, "no default link");
    if (t->nlinks > 1 && !t->cases)
        return fail(vf, "no case values");
    for (uint32_t i = 0; i + 1 < t->nlinks; i++)
        for (uint32_t j = 0; j < i; j++)
            if (jg_truncate_bits(vt, (uint64_t)t->cases[i]) ==
                jg_truncate_bits(vt, (uint64_t)t->cases[j]))
                return fail(vf, "case %" PRId64 " appears twice", t->cases[i]);
    return check_links(vf, t, UINT32_MAX);
}

static bool check_return(Verifier *vf, const JgTerm *t)
{
    JgType ret = (JgType)vf->g->ret_type;
    if (t->nlinks)
        return fail(vf, "a return has no links");
    if (t->value == 0)
        return ret == JG_VOID ||
               fail(vf, "returns nothing from a graph returning %s", jg_type_name(ret));
    if (!check_use(vf, t->value, "returned value"))
        return false;
    if (vtype(vf, t->value) != ret)
        return fail(vf, "returns %s from a graph returning %s", jg_type_name(vtype(vf, t->value)),
                    jg_type_name(ret));
    return true;
}

static bool check_term(Verifier *vf, const JgTerm *t)
{
    vf->op = -2;
    switch ((JgTermKind)t->kind) {
    case JG_TERM_NONE:
        return fail(vf, "the block has no terminator");
    case JG_TERM_GOTO:
        return check_links(vf, t, 1);
    case JG_TERM_BRANCH:
        if (!check_use(vf, t->value, "condition"))
            return false;
        if (vtype(vf, t->value) != JG_I1)
            return fail(vf, "branch condition is %s, expected i1",
                        jg_type_name(vtype(vf, t->value)));
        return check_links(vf, t, 2);
    case JG_TERM_SWITCH:
    case JG_TERM_FLEXSWITCH:
        return check_switch(vf, t, t->kind == JG_TERM_FLEXSWITCH);
    case JG_TERM_RETURN:
        return check_return(vf, t);
    case JG_TERM_UNREACHABLE:
        return t->nlinks == 0 || fail(vf, "unreachable has links");
    default:
        return fail(vf, "unknown terminator kind %u", t->kind);
    }
}

/* First pass over a block: its definitions, and what the second pass and
 * the dominator computation rely on (arrays present, opcodes and terminator
 * kinds known, link targets existing). */
static bool define_block(Verifier *vf, uint32_t index)
{
    const JgBlock *b = &vf->g->blocks.items[index];
    vf->block = index;
    vf->op = -1;
    if (b->nparams && !b->params)
        return fail(vf, "%" PRIu32 " parameters but no parameter array", b->nparams);
    for (uint32_t i = 0; i < b->nparams; i++)
        if (!define(vf, b->params[i], JG_VK_PARAM, i))
            return false;
    for (unsigned i = 0; i < b->ops.count; i++) {
        const JgOp *op = &b->ops.items[i];
        vf->op = i;
        if (op->opcode >= JG_OP__COUNT)
            return fail(vf, "unknown opcode %u", op->opcode);
        if (!valid_type(op->type))
            return fail(vf, "invalid result type %u", op->type);
        if (op->nargs && !op->args)
            return fail(vf, "%" PRIu32 " operands but no operand array", op->nargs);
        if ((op->type == JG_VOID) != (op->result == 0))
            return fail(vf, "result type %s but %s", jg_type_name((JgType)op->type),
                        op->result ? "a result value" : "no result value");
        if (op->result && !define(vf, op->result, JG_VK_OP, i))
            return false;
    }
    vf->op = -2;
    const JgTerm *t = &b->term;
    if (t->kind == JG_TERM_NONE)
        return fail(vf, "the block has no terminator");
    if (t->kind > JG_TERM_FLEXSWITCH)
        return fail(vf, "unknown terminator kind %u", t->kind);
    if (t->nlinks && !t->links)
        return fail(vf, "%" PRIu32 " links but no link array", t->nlinks);
    for (uint32_t i = 0; i < t->nlinks; i++) {
        const JgLink *l = &t->links[i];
        if (is_flex_default(t, i))
            continue;
        if (l->target >= vf->g->blocks.count)
            return fail(vf, "link %" PRIu32 " targets missing block %" PRIu32, i, l->target);
        if (l->nargs && !l->args)
            return fail(vf, "link %" PRIu32 " has %" PRIu32 " arguments but no array", i, l->nargs);
    }
    return true;
}

/* Second pass: uses and types. */
static bool check_block(Verifier *vf, uint32_t index)
{
    const JgBlock *b = &vf->g->blocks.items[index];
    vf->block = index;
    for (unsigned i = 0; i < b->ops.count; i++) {
        vf->op = i;
        if (!check_op(vf, &b->ops.items[i]))
            return false;
    }
    return check_term(vf, &b->term);
}

/* ---- dominators of residual graphs ----
 * Cooper, Harvey, Kennedy, "A Simple, Fast Dominance Algorithm", on the
 * block graph plus a virtual root (index n) whose successors are block 0
 * and every JG_BLOCK_ENTRY block: a later compilation may jump into an
 * entry block, so nothing defined before it may be used after it. */

typedef struct Cfg {
    uint32_t n;                  /* blocks; node n is the virtual root */
    uint32_t *succ_start, *succ; /* CSR successor lists, n + 1 nodes */
    uint32_t *pred_start, *pred; /* CSR predecessor lists */
    uint32_t *po;                /* postorder number, UINT32_MAX: unreachable */
    uint32_t *order;             /* nodes in postorder */
    uint32_t *idom;
    uint32_t *stack, *cursor; /* DFS work space */
    uint32_t nreached;
} Cfg;

static uint32_t root_succ_count(const JgGraph *g)
{
    uint32_t k = 1;
    for (unsigned b = 1; b < g->blocks.count; b++)
        k += (g->blocks.items[b].flags & JG_BLOCK_ENTRY) != 0;
    return k;
}

/* Successor and predecessor lists (CSR); links were checked in range. */
static void cfg_edges(Cfg *c, const JgGraph *g)
{
    uint32_t n = c->n, e = 0;
    for (uint32_t b = 0; b < n; b++) {
        c->succ_start[b] = e;
        const JgTerm *t = &g->blocks.items[b].term;
        for (uint32_t i = 0; i < t->nlinks; i++)
            if (!is_flex_default(t, i))
                c->succ[e++] = t->links[i].target;
    }
    c->succ_start[n] = e;
    c->succ[e++] = 0;
    for (uint32_t b = 1; b < n; b++)
        if (g->blocks.items[b].flags & JG_BLOCK_ENTRY)
            c->succ[e++] = b;
    c->succ_start[n + 1] = e;
    for (uint32_t i = 0; i < e; i++)
        c->pred_start[c->succ[i] + 1]++;
    for (uint32_t v = 0; v <= n; v++)
        c->pred_start[v + 1] += c->pred_start[v];
    for (uint32_t v = 0; v <= n; v++)
        for (uint32_t i = c->succ_start[v]; i < c->succ_start[v + 1]; i++)
            c->pred[c->pred_start[c->succ[i]] + c->cursor[c->succ[i]]++] = v;
}

/* Iterative DFS from the root: postorder numbers. */
static void cfg_postorder(Cfg *c)
{
    uint32_t n = c->n, sp = 0, count = 0;
    for (uint32_t v = 0; v <= n; v++) {
        c->po[v] = UINT32_MAX;
        c->cursor[v] = c->succ_start[v];
    }
    c->po[n] = UINT32_MAX - 1; /* on the stack */
    c->stack[sp++] = n;
    while (sp) {
        uint32_t v = c->stack[sp - 1];
        if (c->cursor[v] < c->succ_start[v + 1]) {
            uint32_t w = c->succ[c->cursor[v]++];
            if (c->po[w] == UINT32_MAX) {
                c->po[w] = UINT32_MAX - 1;
                c->stack[sp++] = w;
            }
            continue;
        }
        sp--;
        c->order[count] = v;
        c->po[v] = count++;
    }
    c->nreached = count;
}

static uint32_t intersect(const Cfg *c, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (c->po[a] < c->po[b])
            a = c->idom[a];
        while (c->po[b] < c->po[a])
            b = c->idom[b];
    }
    return a;
}

static void cfg_idoms(Cfg *c)
{
    uint32_t n = c->n;
    for (uint32_t v = 0; v <= n; v++)
        c->idom[v] = UINT32_MAX;
    c->idom[n] = n;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = c->nreached - 1; k-- > 0;) { /* reverse postorder, root excluded */
            uint32_t v = c->order[k], best = UINT32_MAX;
            for (uint32_t i = c->pred_start[v]; i < c->pred_start[v + 1]; i++) {
                uint32_t p = c->pred[i];
                if (c->idom[p] == UINT32_MAX)
                    continue;
                best = best == UINT32_MAX ? p : intersect(c, p, best);
            }
            if (best != c->idom[v]) {
                c->idom[v] = best;
                changed = true;
            }
        }
    }
}

/* DFS intervals of the dominator tree (children found by scanning idom:
 * reusing the CSR arrays as child lists). */
static void dom_intervals(Cfg *c, uint32_t *pre, uint32_t *post)
{
    uint32_t n = c->n;
    for (uint32_t v = 0; v <= n + 1; v++)
        c->succ_start[v] = 0;
    for (uint32_t v = 0; v < n; v++)
        if (c->idom[v] != UINT32_MAX)
            c->succ_start[c->idom[v] + 1]++;
    for (uint32_t v = 0; v <= n; v++)
        c->succ_start[v + 1] += c->succ_start[v];
    for (uint32_t v = 0; v <= n; v++)
        c->cursor[v] = 0;
    for (uint32_t v = 0; v < n; v++)
        if (c->idom[v] != UINT32_MAX)
            c->succ[c->succ_start[c->idom[v]] + c->cursor[c->idom[v]]++] = v;
    for (uint32_t v = 0; v <= n; v++) {
        pre[v] = post[v] = UINT32_MAX;
        c->cursor[v] = c->succ_start[v];
    }
    uint32_t sp = 0, clock = 0;
    pre[n] = clock++;
    c->stack[sp++] = n;
    while (sp) {
        uint32_t v = c->stack[sp - 1];
        if (c->cursor[v] < c->succ_start[v + 1]) {
            uint32_t w = c->succ[c->cursor[v]++];
            pre[w] = clock++;
            c->stack[sp++] = w;
            continue;
        }
        sp--;
        post[v] = clock++;
    }
}

/* Fills vf->pre / vf->post; false when out of memory. */
static bool compute_dominators(Verifier *vf)
{
    const JgGraph *g = vf->g;
    Cfg c = {.n = g->blocks.count};
    size_t edges = root_succ_count(g);
    for (unsigned b = 0; b < c.n; b++)
        edges += g->blocks.items[b].term.nlinks;
    size_t nodes = (size_t)c.n + 2;
    uint32_t **arrays[] = {&c.succ_start, &c.pred_start, &c.po,    &c.order, &c.idom,
                           &c.stack,      &c.cursor,     &vf->pre, &vf->post};
    bool ok = true;
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        ok &= (*arrays[i] = calloc(nodes, sizeof(uint32_t))) != NULL;
    c.succ = calloc(edges + 1, sizeof(uint32_t));
    c.pred = calloc(edges + 1, sizeof(uint32_t));
    ok &= c.succ && c.pred;
    if (ok) {
        cfg_edges(&c, g);
        cfg_postorder(&c);
        cfg_idoms(&c);
        dom_intervals(&c, vf->pre, vf->post);
    }
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0] - 2; i++)
        free(*arrays[i]);
    free(c.succ);
    free(c.pred);
    return ok;
}

/* The entry block's parameters are the graph's. */
static bool check_entry(Verifier *vf)
{
    const JgGraph *g = vf->g;
    vf->block = 0;
    vf->op = -1;
    if (!valid_type(g->ret_type))
        return fail(vf, "invalid return type %u", g->ret_type);
    const JgBlock *b = &g->blocks.items[0];
    if (b->nparams != g->nparams)
        return fail(vf, "the entry block has %" PRIu32 " parameters, the graph %" PRIu32,
                    b->nparams, g->nparams);
    for (uint32_t i = 0; i < b->nparams; i++) {
        JgVal v = b->params[i];
        if (v == 0 || v >= g->values.count || vtype(vf, v) != g->param_types[i])
            return fail(vf, "entry parameter %" PRIu32 " does not have the graph's type %s", i,
                        jg_type_name((JgType)g->param_types[i]));
    }
    return true;
}

static bool verify_body(Verifier *vf)
{
    const JgGraph *g = vf->g;
    for (unsigned i = 0; i < g->blocks.count; i++)
        if (!define_block(vf, i))
            return false;
    if (vf->residual && !compute_dominators(vf)) {
        vf->block = 0;
        vf->op = -1;
        return fail(vf, "out of memory computing dominators of %u blocks", g->blocks.count);
    }
    for (unsigned i = 0; i < g->blocks.count; i++)
        if (!check_block(vf, i))
            return false;
    return true;
}

bool jg_verify_graph(const JgGraph *g, char *err, size_t errsize)
{
    if (err && errsize)
        err[0] = '\0';
    Verifier vf = {.g = g, .err = err, .errsize = errsize};
    vf.residual = (g->flags & JG_FLAG_RESIDUAL) != 0;
    if (g->flags & JG_FLAG_EXTERNAL)
        return true; /* a declaration: nothing to check */
    if (g->blocks.count == 0)
        return fail(&vf, "the graph has no blocks");
    if (!check_entry(&vf))
        return false;
    vf.defined = calloc(g->values.count ? g->values.count : 1, sizeof *vf.defined);
    bool ok = vf.defined ? verify_body(&vf)
                         : fail(&vf, "out of memory verifying %u values", g->values.count);
    free(vf.defined);
    free(vf.pre);
    free(vf.post);
    return ok;
}
