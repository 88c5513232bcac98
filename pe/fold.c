#include "fold.h"

#include <math.h>
#include <string.h>

bool jg_op_is_pure(JgOpcode opcode)
{
    return opcode <= JG_OP_BITCAST || opcode == JG_OP_PTRADD;
}

static double as_f64(JgType t, uint64_t bits)
{
    if (t == JG_F32) {
        float f;
        uint32_t b = (uint32_t)bits;
        memcpy(&f, &b, sizeof f);
        return f;
    }
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static uint64_t from_f64(JgType t, double d)
{
    if (t == JG_F32) {
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return b;
    }
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

static unsigned width_of(JgType t)
{
    return t == JG_I1 ? 1 : jg_type_size(t) * 8;
}

static bool icmp(JgPred p, JgType t, uint64_t a, uint64_t b)
{
    uint64_t ua = jg_truncate_bits(t, a), ub = jg_truncate_bits(t, b);
    int64_t sa = jg_sign_extend(t, a), sb = jg_sign_extend(t, b);
    switch (p) {
    case JG_EQ:
        return ua == ub;
    case JG_NE:
        return ua != ub;
    case JG_UGT:
        return ua > ub;
    case JG_UGE:
        return ua >= ub;
    case JG_ULT:
        return ua < ub;
    case JG_ULE:
        return ua <= ub;
    case JG_SGT:
        return sa > sb;
    case JG_SGE:
        return sa >= sb;
    case JG_SLT:
        return sa < sb;
    case JG_SLE:
        return sa <= sb;
    default:
        return false;
    }
}

static bool fcmp(JgPred p, double a, double b)
{
    bool uno = isnan(a) || isnan(b);
    switch (p) {
    case JG_FOEQ:
        return !uno && a == b;
    case JG_FONE:
        return !uno && a != b;
    case JG_FOGT:
        return !uno && a > b;
    case JG_FOGE:
        return !uno && a >= b;
    case JG_FOLT:
        return !uno && a < b;
    case JG_FOLE:
        return !uno && a <= b;
    case JG_FORD:
        return !uno;
    case JG_FUNO:
        return uno;
    case JG_FUEQ:
        return uno || a == b;
    case JG_FUNE:
        return uno || a != b;
    case JG_FUGT:
        return uno || a > b;
    case JG_FUGE:
        return uno || a >= b;
    case JG_FULT:
        return uno || a < b;
    case JG_FULE:
        return uno || a <= b;
    case JG_FTRUE:
        return true;
    default:
        return false;
    }
}

/* Float to integer conversions: out-of-range values are poison in LLVM;
 * saturate instead of invoking C undefined behaviour. */
static uint64_t fp_to_int(double d, JgType to, bool is_signed)
{
    if (isnan(d))
        return 0;
    if (is_signed) {
        if (d <= -9223372036854775808.0)
            return jg_truncate_bits(to, (uint64_t)INT64_MIN);
        if (d >= 9223372036854775807.0)
            return jg_truncate_bits(to, (uint64_t)INT64_MAX);
        return jg_truncate_bits(to, (uint64_t)(int64_t)d);
    }
    if (d <= 0)
        return 0;
    if (d >= 18446744073709551615.0)
        return jg_truncate_bits(to, UINT64_MAX);
    return jg_truncate_bits(to, (uint64_t)d);
}

static uint64_t int_binop(JgOpcode op, JgType t, uint64_t a, uint64_t b)
{
    unsigned w = width_of(t);
    uint64_t ua = jg_truncate_bits(t, a), ub = jg_truncate_bits(t, b);
    int64_t sa = jg_sign_extend(t, a), sb = jg_sign_extend(t, b);
    switch (op) {
    case JG_OP_ADD:
        return ua + ub;
    case JG_OP_SUB:
        return ua - ub;
    case JG_OP_MUL:
        return ua * ub;
    case JG_OP_UDIV:
        return ub ? ua / ub : 0;
    case JG_OP_UREM:
        return ub ? ua % ub : 0;
    case JG_OP_SDIV:
        if (sb == 0)
            return 0;
        if (sb == -1)
            return 0 - (uint64_t)sa;
        return (uint64_t)(sa / sb);
    case JG_OP_SREM:
        if (sb == 0 || sb == -1)
            return 0;
        return (uint64_t)(sa % sb);
    case JG_OP_AND:
        return ua & ub;
    case JG_OP_OR:
        return ua | ub;
    case JG_OP_XOR:
        return ua ^ ub;
    case JG_OP_SHL:
        return ub >= w ? 0 : ua << ub;
    case JG_OP_LSHR:
        return ub >= w ? 0 : ua >> ub;
    case JG_OP_ASHR:
        if (ub >= w)
            return sa < 0 ? UINT64_MAX : 0;
        return sa < 0 ? ~(~(uint64_t)sa >> ub) : (uint64_t)sa >> ub;
    default:
        return 0;
    }
}

uint64_t jg_fold(JgOpcode opcode, JgType type, JgPred pred, uint32_t nargs, const JgType *types,
                 const uint64_t *bits)
{
    (void)nargs;
    JgType t0 = types[0];
    uint64_t r = 0;
    switch (opcode) {
    case JG_OP_FADD:
        r = from_f64(type, as_f64(t0, bits[0]) + as_f64(t0, bits[1]));
        break;
    case JG_OP_FSUB:
        r = from_f64(type, as_f64(t0, bits[0]) - as_f64(t0, bits[1]));
        break;
    case JG_OP_FMUL:
        r = from_f64(type, as_f64(t0, bits[0]) * as_f64(t0, bits[1]));
        break;
    case JG_OP_FDIV:
        r = from_f64(type, as_f64(t0, bits[0]) / as_f64(t0, bits[1]));
        break;
    case JG_OP_FNEG:
        r = from_f64(type, -as_f64(t0, bits[0]));
        break;
    case JG_OP_ICMP:
        r = icmp(pred, t0, bits[0], bits[1]);
        break;
    case JG_OP_FCMP:
        r = fcmp(pred, as_f64(t0, bits[0]), as_f64(t0, bits[1]));
        break;
    case JG_OP_SELECT:
        r = (bits[0] & 1) ? bits[1] : bits[2];
        break;
    case JG_OP_ZEXT:
    case JG_OP_TRUNC:
    case JG_OP_PTRTOINT:
    case JG_OP_INTTOPTR:
    case JG_OP_BITCAST:
        r = jg_truncate_bits(t0, bits[0]);
        break;
    case JG_OP_SEXT:
        r = (uint64_t)jg_sign_extend(t0, bits[0]);
        break;
    case JG_OP_SITOFP:
        r = from_f64(type, (double)jg_sign_extend(t0, bits[0]));
        break;
    case JG_OP_UITOFP:
        r = from_f64(type, (double)jg_truncate_bits(t0, bits[0]));
        break;
    case JG_OP_FPTOSI:
        r = fp_to_int(as_f64(t0, bits[0]), type, true);
        break;
    case JG_OP_FPTOUI:
        r = fp_to_int(as_f64(t0, bits[0]), type, false);
        break;
    case JG_OP_FPEXT:
    case JG_OP_FPTRUNC:
        r = from_f64(type, as_f64(t0, bits[0]));
        break;
    case JG_OP_PTRADD:
        r = bits[0] + bits[1];
        break;
    default:
        r = int_binop(opcode, type, bits[0], bits[1]);
        break;
    }
    return jg_truncate_bits(type, r);
}
