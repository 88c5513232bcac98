/* The graph verifier (docs/graph-tools.md): strict block-local SSA, operand
 * types per opcode, links matching their targets' parameters, terminators.
 * It runs on interpreter graphs after reading and on residual graphs after
 * partial evaluation, so its messages name graph, block and op. */
#include "ir.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

typedef struct Verifier {
    const JgGraph *g;
    char *err;
    size_t errsize;
    uint32_t *avail;  /* avail[v] == block + 1: v usable at this point of block */
    uint8_t *defined; /* defined[v]: v already has a definition */
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

/* A use: an existing value that is a constant, or was made available in
 * this block before this point. */
static bool check_use(Verifier *vf, JgVal v, const char *what)
{
    if (v == 0 || v >= vf->g->values.count)
        return fail(vf, "%s: no such value v%" PRIu32, what, v);
    const JgValueInfo *vi = jg_value(vf->g, v);
    if (vi->kind == JG_VK_CONST)
        return true;
    if (vf->avail[v] != vf->block + 1) {
        if (vi->kind == JG_VK_PARAM || vi->kind == JG_VK_OP) {
            if (vi->block != vf->block)
                return fail(vf,
                            "%s: v%" PRIu32 " belongs to block %" PRIu32
                            " (values pass between blocks only through links)",
                            what, v, vi->block);
            return fail(vf, "%s: v%" PRIu32 " used before its definition", what, v);
        }
        return fail(vf, "%s: v%" PRIu32 " has an unknown kind", what, v);
    }
    return true;
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
    vf->avail[v] = vf->block + 1;
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
        return check_nargs(vf, op, 0) &&
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

static bool check_op(Verifier *vf, const JgOp *op, uint32_t index)
{
    if (op->opcode >= JG_OP__COUNT)
        return fail(vf, "unknown opcode %u", op->opcode);
    if (!valid_type(op->type))
        return fail(vf, "invalid result type %u", op->type);
    if (op->nargs && !op->args)
        return fail(vf, "%" PRIu32 " operands but no operand array", op->nargs);
    for (uint32_t i = 0; i < op->nargs; i++) {
        char what[32];
        snprintf(what, sizeof what, "operand %" PRIu32, i);
        if (!check_use(vf, op->args[i], what))
            return false;
    }
    if (!check_op_types(vf, op))
        return false;
    if ((op->type == JG_VOID) != (op->result == 0))
        return fail(vf, "result type %s but %s", jg_type_name((JgType)op->type),
                    op->result ? "a result value" : "no result value");
    if (op->result) {
        if (!define(vf, op->result, JG_VK_OP, index))
            return false;
        if (vtype(vf, op->result) != op->type)
            return fail(vf, "result v%" PRIu32 " is %s, op type %s", op->result,
                        jg_type_name(vtype(vf, op->result)), jg_type_name((JgType)op->type));
    }
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

static bool check_links(Verifier *vf, const JgTerm *t, uint32_t expected)
{
    if (expected != UINT32_MAX && t->nlinks != expected)
        return fail(vf, "%" PRIu32 " links, expected %" PRIu32, t->nlinks, expected);
    if (t->nlinks && !t->links)
        return fail(vf, "%" PRIu32 " links but no link array", t->nlinks);
    for (uint32_t i = 0; i < t->nlinks; i++)
        if (!check_link(vf, &t->links[i], i))
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

static bool check_block(Verifier *vf, uint32_t index)
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
        vf->op = i;
        if (!check_op(vf, &b->ops.items[i], i))
            return false;
    }
    return check_term(vf, &b->term);
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

bool jg_verify_graph(const JgGraph *g, char *err, size_t errsize)
{
    if (err && errsize)
        err[0] = '\0';
    Verifier vf = {.g = g, .err = err, .errsize = errsize};
    if (g->flags & JG_FLAG_EXTERNAL)
        return true; /* a declaration: nothing to check */
    if (g->blocks.count == 0)
        return fail(&vf, "the graph has no blocks");
    if (!check_entry(&vf))
        return false;
    size_t n = g->values.count ? g->values.count : 1;
    vf.avail = calloc(n, sizeof *vf.avail);
    vf.defined = calloc(n, sizeof *vf.defined);
    bool ok;
    if (!vf.avail || !vf.defined) {
        ok = fail(&vf, "out of memory verifying %u values", g->values.count);
    } else {
        ok = true;
        for (unsigned i = 0; ok && i < g->blocks.count; i++)
            ok = check_block(&vf, i);
    }
    free(vf.avail);
    free(vf.defined);
    return ok;
}
