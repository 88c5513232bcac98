/* Operations -> LLVM instructions. Semantics follow LLVM where the IR
 * copies it (wrapping arithmetic, division by zero undefined) and the
 * graph evaluator where the IR is more defined than LLVM: shift amounts are
 * taken modulo the width, i1 in memory is a byte whose low bit counts, and
 * memory accesses assume no alignment. */
#include <stdlib.h>

#include "internal.h"

static LLVMValueRef constant(LgMethod *m, const JgValueInfo *info)
{
    JgLlvm *llvm = m->llvm;
    JgType t = (JgType)info->type;
    uint64_t bits = jg_truncate_bits(t, info->bits);
    switch (t) {
    case JG_I1:
    case JG_I8:
    case JG_I16:
    case JG_I32:
    case JG_I64:
        return LLVMConstInt(lg_type(llvm, t), bits, 0);
    case JG_PTR:
        return lg_const_ptr(llvm, (const void *)(uintptr_t)bits);
    case JG_F32:
        return LLVMConstBitCast(LLVMConstInt(llvm->t_i32, bits, 0), llvm->t_f32);
    case JG_F64:
        return LLVMConstBitCast(LLVMConstInt(llvm->t_i64, bits, 0), llvm->t_f64);
    default:
        return NULL;
    }
}

LLVMValueRef lg_value(LgMethod *m, JgVal v)
{
    if (v == 0 || v >= m->g->values.count)
        return lg_fail(m, "operand v%u does not exist", v), NULL;
    if (m->vals[v])
        return m->vals[v];
    const JgValueInfo *info = jg_value(m->g, v);
    if (info->kind == JG_VK_CONST) {
        m->vals[v] = constant(m, info);
        if (!m->vals[v])
            lg_fail(m, "constant v%u of type %s", v, jg_type_name((JgType)info->type));
        return m->vals[v];
    }
    lg_fail(m,
            "v%u (defined in block %u) is used where its definition does not dominate, or "
            "in another method",
            v, info->block);
    return NULL;
}

/* An operand that must have type `t`. */
static LLVMValueRef operand(LgMethod *m, const JgOp *op, uint32_t i, JgType t)
{
    if (i >= op->nargs)
        return lg_fail(m, "%s: missing operand %u", jg_opcode_name(op->opcode), i), NULL;
    if (op->args[i] == 0 || op->args[i] >= m->g->values.count)
        return lg_value(m, op->args[i]);
    JgType have = jg_value_type(m->g, op->args[i]);
    if (have != t)
        return lg_fail(m, "%s: operand %u is a %s, not a %s", jg_opcode_name(op->opcode), i,
                       jg_type_name(have), jg_type_name(t)),
               NULL;
    return lg_value(m, op->args[i]);
}

static JgType arg_type(const LgMethod *m, const JgOp *op, uint32_t i)
{
    return i < op->nargs && op->args[i] < m->g->values.count ? jg_value_type(m->g, op->args[i])
                                                             : JG_VOID;
}

LLVMValueRef lg_entry_alloca(LgMethod *m, LLVMTypeRef type, unsigned align, const char *name)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(m->llvm->ctx);
    LLVMPositionBuilderBefore(b, m->entry_term);
    LLVMValueRef a = LLVMBuildAlloca(b, type, name);
    LLVMSetAlignment(a, align);
    LLVMDisposeBuilder(b);
    return a;
}

/* ---- arithmetic ---- */

static bool is_float(JgType t)
{
    return t == JG_F32 || t == JG_F64;
}

static LLVMValueRef shift_amount(LgMethod *m, LLVMValueRef amount, JgType t)
{
    unsigned width = LLVMGetIntTypeWidth(lg_type(m->llvm, t));
    return LLVMBuildAnd(m->b, amount, LLVMConstInt(lg_type(m->llvm, t), width - 1, 0), "");
}

static LLVMValueRef binary(LgMethod *m, const JgOp *op)
{
    JgType t = (JgType)op->type;
    bool fp = op->opcode >= JG_OP_FADD && op->opcode <= JG_OP_FDIV;
    if (fp ? !is_float(t) : !jg_type_is_int(t))
        return lg_fail(m, "%s on %s", jg_opcode_name(op->opcode), jg_type_name(t)), NULL;
    LLVMValueRef a = operand(m, op, 0, t), b = operand(m, op, 1, t);
    if (!a || !b)
        return NULL;
    static const LLVMOpcode codes[] = {
        [JG_OP_ADD] = LLVMAdd,   [JG_OP_SUB] = LLVMSub,   [JG_OP_MUL] = LLVMMul,
        [JG_OP_SDIV] = LLVMSDiv, [JG_OP_UDIV] = LLVMUDiv, [JG_OP_SREM] = LLVMSRem,
        [JG_OP_UREM] = LLVMURem, [JG_OP_AND] = LLVMAnd,   [JG_OP_OR] = LLVMOr,
        [JG_OP_XOR] = LLVMXor,   [JG_OP_SHL] = LLVMShl,   [JG_OP_LSHR] = LLVMLShr,
        [JG_OP_ASHR] = LLVMAShr, [JG_OP_FADD] = LLVMFAdd, [JG_OP_FSUB] = LLVMFSub,
        [JG_OP_FMUL] = LLVMFMul, [JG_OP_FDIV] = LLVMFDiv,
    };
    if (op->opcode == JG_OP_SHL || op->opcode == JG_OP_LSHR || op->opcode == JG_OP_ASHR)
        b = shift_amount(m, b, t);
    LLVMValueRef r = LLVMBuildBinOp(m->b, codes[op->opcode], a, b, "");
    /* a grouped result stays one value: reassociation stops at a freeze */
    return (op->imm & JG_IMM_GROUPED) ? LLVMBuildFreeze(m->b, r, "") : r;
}

static LLVMValueRef icmp(LgMethod *m, const JgOp *op)
{
    JgType t = arg_type(m, op, 0);
    if ((!jg_type_is_int(t) && t != JG_PTR) || op->pred > JG_SLE)
        return lg_fail(m, "icmp %s on %s", jg_pred_name(op->pred), jg_type_name(t)), NULL;
    LLVMValueRef a = operand(m, op, 0, t), b = operand(m, op, 1, t);
    if (!a || !b)
        return NULL;
    /* JgPred lists icmp predicates in LLVM's order */
    return LLVMBuildICmp(m->b, (LLVMIntPredicate)(LLVMIntEQ + op->pred), a, b, "");
}

static LLVMValueRef fcmp(LgMethod *m, const JgOp *op)
{
    static const LLVMRealPredicate preds[] = {
        [JG_FOEQ] = LLVMRealOEQ,
        [JG_FONE] = LLVMRealONE,
        [JG_FOGT] = LLVMRealOGT,
        [JG_FOGE] = LLVMRealOGE,
        [JG_FOLT] = LLVMRealOLT,
        [JG_FOLE] = LLVMRealOLE,
        [JG_FORD] = LLVMRealORD,
        [JG_FUNO] = LLVMRealUNO,
        [JG_FUEQ] = LLVMRealUEQ,
        [JG_FUNE] = LLVMRealUNE,
        [JG_FUGT] = LLVMRealUGT,
        [JG_FUGE] = LLVMRealUGE,
        [JG_FULT] = LLVMRealULT,
        [JG_FULE] = LLVMRealULE,
        [JG_FTRUE] = LLVMRealPredicateTrue,
        [JG_FFALSE] = LLVMRealPredicateFalse,
    };
    JgType t = arg_type(m, op, 0);
    if ((t != JG_F32 && t != JG_F64) || op->pred < JG_FOEQ || op->pred > JG_FFALSE)
        return lg_fail(m, "fcmp %s on %s", jg_pred_name(op->pred), jg_type_name(t)), NULL;
    LLVMValueRef a = operand(m, op, 0, t), b = operand(m, op, 1, t);
    return a && b ? LLVMBuildFCmp(m->b, preds[op->pred], a, b, "") : NULL;
}

static LLVMValueRef fneg(LgMethod *m, const JgOp *op)
{
    if (!is_float((JgType)op->type))
        return lg_fail(m, "fneg on %s", jg_type_name((JgType)op->type)), NULL;
    LLVMValueRef a = operand(m, op, 0, (JgType)op->type);
    return a ? LLVMBuildFNeg(m->b, a, "") : NULL;
}

static LLVMValueRef select_op(LgMethod *m, const JgOp *op)
{
    JgType t = (JgType)op->type;
    LLVMValueRef c = operand(m, op, 0, JG_I1);
    LLVMValueRef a = operand(m, op, 1, t), b = operand(m, op, 2, t);
    return c && a && b ? LLVMBuildSelect(m->b, c, a, b, "") : NULL;
}

/* ---- conversions ---- */

static unsigned bits_of(JgType t)
{
    return t == JG_I1 ? 1 : 8 * jg_type_size(t);
}

/* Which LLVM cast an op needs; 0 when the value passes unchanged; -1 when
 * the types do not fit the op. */
static int cast_code(JgOpcode code, JgType from, JgType to)
{
    bool ints = jg_type_is_int(from) && jg_type_is_int(to);
    switch (code) {
    case JG_OP_ZEXT:
    case JG_OP_SEXT:
        return !ints || bits_of(from) > bits_of(to) ? -1
               : from == to                         ? 0
               : code == JG_OP_ZEXT                 ? LLVMZExt
                                                    : LLVMSExt;
    case JG_OP_TRUNC:
        return !ints || bits_of(from) < bits_of(to) ? -1 : from == to ? 0 : LLVMTrunc;
    case JG_OP_PTRTOINT:
        return from == JG_PTR && jg_type_is_int(to) ? LLVMPtrToInt : -1;
    case JG_OP_INTTOPTR:
        return jg_type_is_int(from) && to == JG_PTR ? LLVMIntToPtr : -1;
    case JG_OP_SITOFP:
    case JG_OP_UITOFP:
        return jg_type_is_int(from) && is_float(to)
                   ? (code == JG_OP_SITOFP ? LLVMSIToFP : LLVMUIToFP)
                   : -1;
    case JG_OP_FPTOSI:
    case JG_OP_FPTOUI:
        return is_float(from) && jg_type_is_int(to)
                   ? (code == JG_OP_FPTOSI ? LLVMFPToSI : LLVMFPToUI)
                   : -1;
    case JG_OP_FPEXT:
        return from == JG_F32 && to == JG_F64 ? LLVMFPExt : from == to && is_float(to) ? 0 : -1;
    case JG_OP_FPTRUNC:
        return from == JG_F64 && to == JG_F32 ? LLVMFPTrunc : from == to && is_float(to) ? 0 : -1;
    default: /* BITCAST: same size; pointers through integers */
        if (from == to)
            return 0;
        if (jg_type_size(from) != jg_type_size(to) || from == JG_I1 || to == JG_I1)
            return -1;
        return from == JG_PTR ? LLVMPtrToInt : to == JG_PTR ? LLVMIntToPtr : LLVMBitCast;
    }
}

static LLVMValueRef cast(LgMethod *m, const JgOp *op)
{
    JgType from = arg_type(m, op, 0), to = (JgType)op->type;
    int code = cast_code((JgOpcode)op->opcode, from, to);
    if (code < 0)
        return lg_fail(m, "%s from %s to %s", jg_opcode_name(op->opcode), jg_type_name(from),
                       jg_type_name(to)),
               NULL;
    LLVMValueRef x = operand(m, op, 0, from);
    if (!x || code == 0)
        return x;
    return LLVMBuildCast(m->b, (LLVMOpcode)code, x, lg_type(m->llvm, to), "");
}

/* ---- memory ---- */

static LLVMValueRef ptradd(LgMethod *m, const JgOp *op)
{
    LLVMValueRef p = operand(m, op, 0, JG_PTR);
    JgType t = arg_type(m, op, 1);
    if (!jg_type_is_int(t))
        return lg_fail(m, "ptradd with an offset of type %s", jg_type_name(t)), NULL;
    LLVMValueRef off = operand(m, op, 1, t);
    return p && off ? LLVMBuildGEP2(m->b, m->llvm->t_i8, p, &off, 1, "") : NULL;
}

static LLVMValueRef load(LgMethod *m, const JgOp *op)
{
    JgType t = (JgType)op->type;
    if (t == JG_VOID)
        return lg_fail(m, "load of void"), NULL;
    LLVMValueRef p = operand(m, op, 0, JG_PTR);
    if (!p)
        return NULL;
    LLVMTypeRef ty = t == JG_I1 ? m->llvm->t_i8 : lg_type(m->llvm, t);
    LLVMValueRef v = LLVMBuildLoad2(m->b, ty, p, "");
    LLVMSetAlignment(v, 1);
    return t == JG_I1 ? LLVMBuildTrunc(m->b, v, m->llvm->t_i1, "") : v;
}

static bool store(LgMethod *m, const JgOp *op)
{
    JgType t = arg_type(m, op, 1);
    LLVMValueRef p = operand(m, op, 0, JG_PTR), v = operand(m, op, 1, t);
    if (!p || !v)
        return false;
    if (t == JG_I1)
        v = LLVMBuildZExt(m->b, v, m->llvm->t_i8, "");
    LLVMSetAlignment(LLVMBuildStore(m->b, v, p), 1);
    return true;
}

/* Memory of a secondary's ALLOCA that must outlive the secondary comes
 * from the method's area in the primary's activation (dispatch.c). */
static LLVMValueRef area_alloca(LgMethod *m, uint64_t size)
{
    uint64_t offset = ((uint64_t)m->area_next + 15) & ~UINT64_C(15);
    if (!m->area || offset + size > m->area_bytes)
        return lg_fail(m, "internal error: ALLOCA area of %u bytes overflows", m->area_bytes), NULL;
    m->area_next = (uint32_t)(offset + size);
    LLVMValueRef off = LLVMConstInt(m->llvm->t_i64, offset, 0);
    return LLVMBuildGEP2(m->b, m->llvm->t_i8, m->area, &off, 1, "");
}

static LLVMValueRef alloca_op(LgMethod *m, const JgOp *op)
{
    uint64_t size = op->imm > 0 ? (uint64_t)op->imm : 0;
    LLVMValueRef p;
    if (m->escapes && m->escapes[op->result]) {
        p = area_alloca(m, size ? size : 1);
    } else {
        p = lg_entry_alloca(m, LLVMArrayType2(m->llvm->t_i8, size ? size : 1), 16, "alloca");
    }
    if (p && size)
        LLVMBuildMemSet(m->b, p, LLVMConstInt(m->llvm->t_i8, 0, 0),
                        LLVMConstInt(m->llvm->t_i64, size, 0), 16);
    return p;
}

/* A length operand as i64 (the memory intrinsics take i32 or i64). */
static LLVMValueRef length(LgMethod *m, const JgOp *op, uint32_t i)
{
    JgType t = arg_type(m, op, i);
    if (!jg_type_is_int(t))
        return lg_fail(m, "%s: length of type %s", jg_opcode_name(op->opcode), jg_type_name(t)),
               NULL;
    LLVMValueRef n = operand(m, op, i, t);
    return n && t != JG_I64 ? LLVMBuildZExt(m->b, n, m->llvm->t_i64, "") : n;
}

static bool memcpy_op(LgMethod *m, const JgOp *op)
{
    LLVMValueRef d = operand(m, op, 0, JG_PTR), s = operand(m, op, 1, JG_PTR);
    LLVMValueRef n = length(m, op, 2);
    if (!d || !s || !n)
        return false;
    LLVMBuildMemMove(m->b, d, 1, s, 1, n);
    return true;
}

static bool memset_op(LgMethod *m, const JgOp *op)
{
    JgType bt = arg_type(m, op, 1);
    if (!jg_type_is_int(bt))
        return lg_fail(m, "memset with a byte of type %s", jg_type_name(bt));
    LLVMValueRef d = operand(m, op, 0, JG_PTR), v = operand(m, op, 1, bt);
    LLVMValueRef n = length(m, op, 2);
    if (!d || !v || !n)
        return false;
    if (bt != JG_I8)
        v = bits_of(bt) < 8 ? LLVMBuildZExt(m->b, v, m->llvm->t_i8, "")
                            : LLVMBuildTrunc(m->b, v, m->llvm->t_i8, "");
    LLVMBuildMemSet(m->b, d, v, n, 1);
    return true;
}

/* ---- dispatch on the opcode ---- */

static LLVMValueRef value_op(LgMethod *m, const JgOp *op)
{
    switch ((JgOpcode)op->opcode) {
    case JG_OP_FNEG:
        return fneg(m, op);
    case JG_OP_ICMP:
        return icmp(m, op);
    case JG_OP_FCMP:
        return fcmp(m, op);
    case JG_OP_SELECT:
        return select_op(m, op);
    case JG_OP_PTRADD:
        return ptradd(m, op);
    case JG_OP_LOAD:
        return load(m, op);
    case JG_OP_ALLOCA:
        return alloca_op(m, op);
    case JG_OP_PROMOTE:
    case JG_OP_CONCRETE:
    case JG_OP_DEEPFREEZE:
    case JG_OP_FORGET:
        return operand(m, op, 0, (JgType)op->type);
    default:
        if (op->opcode <= JG_OP_FDIV)
            return binary(m, op);
        if (op->opcode >= JG_OP_ZEXT && op->opcode <= JG_OP_BITCAST)
            return cast(m, op);
        return lg_fail(m, "unknown opcode %u", op->opcode), NULL;
    }
}

bool lg_lower_op(LgMethod *m, const JgOp *op)
{
    switch ((JgOpcode)op->opcode) {
    case JG_OP_STORE:
        return store(m, op);
    case JG_OP_MEMCPY:
        return memcpy_op(m, op);
    case JG_OP_MEMSET:
        return memset_op(m, op);
    case JG_OP_CALL:
        return lg_lower_call(m, op);
    case JG_OP_MERGE_POINT:
        return true;
    default:
        break;
    }
    LLVMValueRef v = value_op(m, op);
    if (!v)
        return false;
    if (!op->result || op->result >= m->g->values.count)
        return lg_fail(m, "%s without a result", jg_opcode_name(op->opcode));
    m->vals[op->result] = v;
    return true;
}
