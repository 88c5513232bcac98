/* The semantics of the pure flow-graph operations (LLVM's, at every width,
 * computed in unsigned), shared by the graph evaluator (which inlines them
 * in its loop) and the partial evaluator's constant folding (jg_fold), so
 * that compile time and run time can never disagree. Values are 64-bit
 * slots: integers zero-extended, floats bit-cast. */
#ifndef JITGEN_ARITH_H
#define JITGEN_ARITH_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ir.h"

/* Per-type tables, indexed by (type & 15) so that a corrupt type cannot read
 * past them. */
static const uint64_t type_mask[16] = {
    [JG_I1] = 1,           [JG_I8] = 0xff,        [JG_I16] = 0xffff,      [JG_I32] = 0xffffffffu,
    [JG_I64] = UINT64_MAX, [JG_PTR] = UINT64_MAX, [JG_F32] = 0xffffffffu, [JG_F64] = UINT64_MAX,
};
static const uint64_t sign_bit[16] = {
    [JG_I1] = 1,
    [JG_I8] = 0x80,
    [JG_I16] = 0x8000,
    [JG_I32] = 0x80000000u,
    [JG_I64] = UINT64_C(1) << 63,
    [JG_PTR] = UINT64_C(1) << 63,
    [JG_F32] = 0x80000000u,
    [JG_F64] = UINT64_C(1) << 63,
};
static const unsigned type_bits[16] = {
    [JG_I1] = 1,   [JG_I8] = 8,   [JG_I16] = 16, [JG_I32] = 32,
    [JG_I64] = 64, [JG_PTR] = 64, [JG_F32] = 32, [JG_F64] = 64,
};

#define SIGN64 (UINT64_C(1) << 63)

/* The bits of a value of type t (i1: one). */
static inline unsigned jg_type_bits(unsigned t)
{
    return type_bits[t & 15];
}

static inline uint64_t mask(unsigned t, uint64_t x)
{
    return x & type_mask[t & 15];
}

/* Sign-extension of a `t`-wide value to 64 bits, computed in unsigned
 * arithmetic (no implementation-defined conversions). */
static inline uint64_t sext(unsigned t, uint64_t x)
{
    uint64_t sb = sign_bit[t & 15];
    return ((x & type_mask[t & 15]) ^ sb) - sb;
}

static inline int64_t as_signed(uint64_t x)
{
    int64_t s;
    memcpy(&s, &x, sizeof s);
    return s;
}

static inline double as_f64(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static inline float as_f32(uint64_t bits)
{
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static inline uint64_t from_f64(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

static inline uint64_t from_f32(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* A float operand of type t (f32 or f64) as a double (exact for f32). */
static inline double as_float(unsigned t, uint64_t bits)
{
    return t == JG_F32 ? (double)as_f32(bits) : as_f64(bits);
}

/* A double rounded to the float type t, as slot bits. */
static inline uint64_t from_float(unsigned t, double d)
{
    return t == JG_F32 ? from_f32((float)d) : from_f64(d);
}

/* ---- arithmetic with LLVM's semantics at every width ---- */

/* sdiv/srem: division by zero and INT_MIN / -1 are undefined in LLVM; the
 * evaluator must not trap on them, so they yield 0 (srem) or wrap (sdiv). */
static inline uint64_t signed_divide(bool rem, unsigned t, uint64_t a, uint64_t b)
{
    int64_t x = as_signed(sext(t, a)), y = as_signed(sext(t, b));
    if (y == 0)
        return 0;
    if (y == -1)
        return rem ? 0 : 0 - (uint64_t)x;
    return (uint64_t)(rem ? x % y : x / y);
}

static inline uint64_t shift_amount(unsigned t, uint64_t b)
{
    return b & (type_bits[t & 15] - 1);
}

static inline uint64_t ashr(unsigned t, uint64_t a, uint64_t b)
{
    uint64_t x = sext(t, a), s = shift_amount(t, b);
    return (x & SIGN64) ? ~(~x >> s) : x >> s;
}

static inline uint64_t float_binary(unsigned code, unsigned t, uint64_t a, uint64_t b)
{
    if (t == JG_F32) {
        float x = as_f32(a), y = as_f32(b);
        switch (code) {
        case JG_OP_FADD:
            return from_f32(x + y);
        case JG_OP_FSUB:
            return from_f32(x - y);
        case JG_OP_FMUL:
            return from_f32(x * y);
        default:
            return from_f32(x / y);
        }
    }
    double x = as_f64(a), y = as_f64(b);
    switch (code) {
    case JG_OP_FADD:
        return from_f64(x + y);
    case JG_OP_FSUB:
        return from_f64(x - y);
    case JG_OP_FMUL:
        return from_f64(x * y);
    default:
        return from_f64(x / y);
    }
}

static inline bool icmp(unsigned pred, unsigned t, uint64_t x, uint64_t y)
{
    if (pred >= JG_SGT) {
        x = sext(t, x) ^ SIGN64; /* order-preserving map of signed onto unsigned */
        y = sext(t, y) ^ SIGN64;
    }
    switch (pred) {
    case JG_EQ:
        return x == y;
    case JG_NE:
        return x != y;
    case JG_UGT:
    case JG_SGT:
        return x > y;
    case JG_UGE:
    case JG_SGE:
        return x >= y;
    case JG_ULT:
    case JG_SLT:
        return x < y;
    default:
        return x <= y;
    }
}

static inline bool fcmp(unsigned pred, double x, double y)
{
    bool uno = x != x || y != y;
    switch (pred) {
    case JG_FOEQ:
        return !uno && x == y;
    case JG_FONE:
        return !uno && x != y;
    case JG_FOGT:
        return !uno && x > y;
    case JG_FOGE:
        return !uno && x >= y;
    case JG_FOLT:
        return !uno && x < y;
    case JG_FOLE:
        return !uno && x <= y;
    case JG_FORD:
        return !uno;
    case JG_FUNO:
        return uno;
    case JG_FUEQ:
        return uno || x == y;
    case JG_FUNE:
        return uno || x != y;
    case JG_FUGT:
        return uno || x > y;
    case JG_FUGE:
        return uno || x >= y;
    case JG_FULT:
        return uno || x < y;
    case JG_FULE:
        return uno || x <= y;
    case JG_FTRUE:
        return true;
    default:
        return false;
    }
}

/* fptosi / fptoui: out of range (and NaN) is poison in LLVM and undefined
 * in C; the evaluator yields 0 there. */
static inline uint64_t float_to_int(bool is_signed, double d)
{
    if (is_signed)
        return d >= -9223372036854775808.0 && d < 9223372036854775808.0 ? (uint64_t)(int64_t)d : 0;
    return d > -1.0 && d < 18446744073709551616.0 ? (uint64_t)d : 0;
}

static inline uint64_t convert(unsigned code, unsigned from, unsigned to, uint64_t x)
{
    switch (code) {
    case JG_OP_SEXT:
        return sext(from, x);
    case JG_OP_SITOFP:
        return from_float(to, (double)as_signed(sext(from, x)));
    case JG_OP_UITOFP:
        return to == JG_F32 ? from_f32((float)x) : from_f64((double)x);
    case JG_OP_FPTOSI:
    case JG_OP_FPTOUI:
        return float_to_int(code == JG_OP_FPTOSI, as_float(from, x));
    case JG_OP_FPEXT:
        return from_f64((double)as_f32(x));
    case JG_OP_FPTRUNC:
        return from_f32((float)as_f64(x));
    default: /* zext, trunc, ptrtoint, inttoptr, bitcast: the mask does it */
        return x;
    }
}

/* A pure operation (jg_op_is_pure) on operand slots `x` (masked to their
 * types); `t` is the result type, `t0` the first operand's type. The result
 * is not masked yet. */
static inline uint64_t jg_arith(unsigned opcode, unsigned t, unsigned pred, unsigned t0,
                                const uint64_t *x)
{
    switch ((JgOpcode)opcode) {
    case JG_OP_ADD:
        return x[0] + x[1];
    case JG_OP_SUB:
        return x[0] - x[1];
    case JG_OP_MUL:
        return x[0] * x[1];
    case JG_OP_SDIV:
    case JG_OP_SREM:
        return signed_divide(opcode == JG_OP_SREM, t, x[0], x[1]);
    case JG_OP_UDIV:
        return x[1] ? x[0] / x[1] : 0;
    case JG_OP_UREM:
        return x[1] ? x[0] % x[1] : 0;
    case JG_OP_AND:
        return x[0] & x[1];
    case JG_OP_OR:
        return x[0] | x[1];
    case JG_OP_XOR:
        return x[0] ^ x[1];
    case JG_OP_SHL:
        return x[0] << shift_amount(t, x[1]);
    case JG_OP_LSHR:
        return x[0] >> shift_amount(t, x[1]);
    case JG_OP_ASHR:
        return ashr(t, x[0], x[1]);
    case JG_OP_FADD:
    case JG_OP_FSUB:
    case JG_OP_FMUL:
    case JG_OP_FDIV:
        return float_binary(opcode, t, x[0], x[1]);
    case JG_OP_FNEG:
        return x[0] ^ sign_bit[t & 15];
    case JG_OP_ICMP:
        return icmp(pred, t0, x[0], x[1]);
    case JG_OP_FCMP:
        return fcmp(pred, as_float(t0, x[0]), as_float(t0, x[1]));
    case JG_OP_SELECT:
        return (x[0] & 1) ? x[1] : x[2];
    case JG_OP_ZEXT:
    case JG_OP_TRUNC:
    case JG_OP_PTRTOINT:
    case JG_OP_INTTOPTR:
    case JG_OP_BITCAST:
        return x[0];
    case JG_OP_SEXT:
    case JG_OP_SITOFP:
    case JG_OP_UITOFP:
    case JG_OP_FPTOSI:
    case JG_OP_FPTOUI:
    case JG_OP_FPEXT:
    case JG_OP_FPTRUNC:
        return convert(opcode, t0, t, x[0]);
    case JG_OP_PTRADD:
        return x[0] + x[1];
    default:
        return 0;
    }
}

/* True for the operations jg_arith computes: no memory, calls or hints. */
static inline bool jg_op_is_pure(unsigned opcode)
{
    return opcode <= JG_OP_BITCAST || opcode == JG_OP_PTRADD;
}

#endif
