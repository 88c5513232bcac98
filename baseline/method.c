/* One baseline method (docs/baseline.md, "Code"): residual blocks [lo, hi)
 * to x86-64 in one pass, once homes.c has decided where every value lives
 * (a register or a stack slot; constants are immediates). Operations load
 * their operands into scratch registers (rax, rcx, rdx), compute, and write
 * the result home. Around calls, the homes in caller-saved registers go to
 * their slots and come back. The frame:
 *   rbp+8       return address
 *   rbp         saved rbp; below it rbx (= BlFrame *), r12 (= area), r13, r14, r15
 *   rbp-48-8s   slot s
 *   rsp..       call argument arrays */
#include <assert.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "disasm.h"
#include "divide_magic.h"
#include "frontend/arith.h"
#include "frontend/free_list.h"

bool bl_cg_fail(Codegen *c, const char *fmt, ...)
{
    if (c->failed)
        return false;
    c->failed = true;
    int n = snprintf(c->err, c->errsize,
                     "baseline: graph %s: ", c->g->name ? c->g->name : "<anonymous>");
    if (n >= 0 && (size_t)n < c->errsize) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err + n, c->errsize - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return false;
}

static unsigned type_size(JgType t)
{
    switch (t) {
    case JG_I1:
    case JG_I8:
        return 1;
    case JG_I16:
        return 2;
    case JG_I32:
    case JG_F32:
        return 4;
    default:
        return 8;
    }
}

/* ---- values ---- */

/* reg = value v (normalized bits) */
static void load_value(Codegen *c, X64Reg reg, JgVal v)
{
    v = bl_resolve(c, v);
    const JgValueInfo *info = jg_value(c->g, v);
    if (!v) {
        x64_mov_ri(&c->buf, reg, 0);
        return;
    }
    if (info->kind == JG_VK_CONST) {
        x64_mov_ri(&c->buf, reg, jg_truncate_bits((JgType)info->type, info->bits));
        return;
    }
    if (!c->home[v]) {
        bl_cg_fail(c, "v%u (of block %u) is used in block %u but not defined in this method", v,
                   info->block, c->current);
        return;
    }
    if (c->reg[v] != NO_REG) {
        if (c->reg[v] != reg)
            x64_mov_rr(&c->buf, reg, (X64Reg)c->reg[v]);
        return;
    }
    x64_load(&c->buf, 8, reg, X64_RBP, c->home[v]);
}

/* v's home = reg (v defined by the method, not an alias) */
static void store_result(Codegen *c, JgVal v, X64Reg reg)
{
    if (!v || c->alias[v] != v)
        return;
    if (c->reg[v] != NO_REG) {
        if (c->reg[v] != reg)
            x64_mov_rr(&c->buf, (X64Reg)c->reg[v], reg);
        return;
    }
    x64_store(&c->buf, 8, X64_RBP, c->home[v], reg);
}

/* The register v lives in; NO_REG: a slot, or v is a constant. */
static uint8_t reg_of(const Codegen *c, JgVal v)
{
    v = bl_resolve(c, v);
    if (!v || jg_is_const(c->g, v) || !c->home[v])
        return NO_REG;
    return c->reg[v];
}

/* The base (X64_ABS or `scratch` loaded) and displacement of [p + off]:
 * data of the runtime and the host, at addresses known as code is made. */
static X64Reg at(Codegen *c, const void *p, int32_t off, X64Reg scratch, int32_t *disp)
{
    return x64_base_of(&c->buf, (uint64_t)(uintptr_t)p + (uint64_t)(int64_t)off, scratch, disp);
}

/* One added to the 64-bit counter at `counter` (rcx is scratch). */
static void count(Codegen *c, uint64_t *counter)
{
    int32_t disp;
    X64Reg base = at(c, counter, 0, X64_RCX, &disp);
    x64_alu_mi(&c->buf, X64_ADD, base, disp, 1);
}

/* Whether v lives in a slot of the method's frame, [rbp + *disp]. */
static bool slot_of(const Codegen *c, JgVal v, int32_t *disp)
{
    v = bl_resolve(c, v);
    if (!v || jg_is_const(c->g, v) || !c->home[v] || c->reg[v] != NO_REG)
        return false;
    *disp = c->home[v];
    return true;
}

/* A register holding v: its home, or `scratch` loaded with it. */
static X64Reg operand(Codegen *c, JgVal v, X64Reg scratch)
{
    uint8_t r = reg_of(c, v);
    if (r != NO_REG)
        return (X64Reg)r;
    load_value(c, scratch, v);
    return scratch;
}

/* The base register (its home, or rcx loaded) and displacement of a load's
 * or a store's address v: [base + constant] for a pointer addition folded
 * into the access (homes.c, addresses), else [v]; a constant address,
 * absolute where it fits (x64_base_of). */
static X64Reg address(Codegen *c, JgVal v, int32_t *disp)
{
    v = bl_resolve(c, v);
    *disp = 0;
    if (v && c->addressed[v]) {
        const JgValueInfo *info = jg_value(c->g, v);
        const JgOp *add = &c->g->blocks.items[info->block].ops.items[info->index];
        *disp = (int32_t)bl_const_offset(c->g, add->args[1]);
        v = add->args[0];
    }
    if (v && jg_is_const(c->g, v)) /* rcx, if loaded, holds the sum */
        return x64_base_of(&c->buf, jg_value(c->g, v)->bits + (uint64_t)(int64_t)*disp, X64_RCX,
                           disp);
    return operand(c, v, X64_RCX);
}

/* Where an operation computes `result`: its home register, so that
 * store_result moves nothing, or the scratch register choose_scratch
 * picked when it lives in a slot. */
static X64Reg result_reg(const Codegen *c, JgVal result)
{
    if (result && c->alias[result] == result && c->reg[result] != NO_REG)
        return (X64Reg)c->reg[result];
    return c->scratch;
}

/* Whether the lowering of `opcode` other than lower_binary's computes a
 * result in a slot where result_reg says, writing no scratch register
 * after it has chosen it: comparisons, shifts by a constant, casts, loads. */
static bool result_in_scratch(uint32_t opcode)
{
    if (bl_move_cast(opcode))
        return true;
    switch ((JgOpcode)opcode) {
    case JG_OP_ICMP:
    case JG_OP_SHL:
    case JG_OP_LSHR:
    case JG_OP_ASHR:
    case JG_OP_LOAD:
        return true;
    default:
        return false;
    }
}

/* How far choose_scratch looks ahead in a block for reads of a slot. */
#define SCRATCH_LOOKAHEAD 16

/* Whether the slot [rbp + disp] is read by ops from + 1 on of block b
 * (up to SCRATCH_LOOKAHEAD of them, then its terminator), before a value
 * sharing the slot is written there. */
static bool slot_read_later(const Codegen *c, uint32_t b, uint32_t from, int32_t disp)
{
    const JgBlock *bk = &c->g->blocks.items[b];
    int32_t at;
    uint32_t end = from + 1 + SCRATCH_LOOKAHEAD;
    for (uint32_t j = from + 1; j < bk->ops.count; j++) {
        if (j >= end)
            return true; /* not known: assume so */
        const JgOp *op = &bk->ops.items[j];
        for (uint32_t a = 0; a < op->nargs; a++)
            if (slot_of(c, op->args[a], &at) && at == disp)
                return true;
        if (op->result && slot_of(c, op->result, &at) && at == disp)
            return false;
    }
    const JgTerm *t = &bk->term;
    if (slot_of(c, t->value, &at) && at == disp)
        return true;
    if (t->kind == JG_TERM_FLEXSWITCH)
        return true; /* its live values go to the frame: cheap either way */
    for (uint32_t l = 0; l < t->nlinks; l++)
        for (uint32_t i = 0; i < t->links[l].nargs; i++)
            if (slot_of(c, t->links[l].args[i], &at) && at == disp)
                return true;
    return false;
}

/* The scratch register in which op i of block b computes a result that
 * lives in a slot (result_reg). Every such result is also stored to its
 * slot, and the encoder remembers which register holds which slot
 * (X64Buf.mirrors), so a later read of the slot in the same straight-line
 * code is a register read: a chain of temporaries that did not get a
 * home register waits on no store-to-load forwarding. rax as before;
 * rdx or rcx instead where rax holds a slot that is read again soon and
 * they do not, so that the chain's values stay in registers. rcx only
 * where the op does not need it to load its second operand
 * (lower_binary). */
static X64Reg choose_scratch(Codegen *c, uint32_t b, uint32_t i, const JgOp *op)
{
    static const X64Reg candidates[3] = {X64_RAX, X64_RDX, X64_RCX};
    if ((op->result && c->alias[op->result] == op->result && c->reg[op->result] != NO_REG) ||
        bl_no_code(c, op))
        return X64_RAX; /* result_reg takes the home register, or no code */
    bool rcx_free = true;
    int32_t disp;
    if (bl_alu_binary(op->opcode))
        rcx_free = op->nargs == 2 && (reg_of(c, op->args[1]) != NO_REG ||
                                      (op->opcode != JG_OP_MUL && slot_of(c, op->args[1], &disp)));
    else if (!result_in_scratch(op->opcode))
        return X64_RAX;
    /* the operands' slots (these ops have one or two operands) */
    int32_t arg_slot[2];
    bool in_slot[2] = {false, false};
    for (uint32_t a = 0; a < op->nargs && a < 2; a++)
        in_slot[a] = slot_of(c, op->args[a], &arg_slot[a]);
    X64Reg best = X64_RAX;
    int best_score = -1;
    for (uint32_t k = 0; k < 3 && best_score < 3; k++) {
        X64Reg r = candidates[k];
        if (r == X64_RCX && !rcx_free)
            continue;
        int score = 2; /* holds nothing */
        if (x64_mirror_of(&c->buf, r, &disp)) {
            bool first = in_slot[0] && arg_slot[0] == disp;
            bool other = in_slot[1] && arg_slot[1] == disp;
            if (other || slot_read_later(c, b, i, disp))
                score = 0; /* still wanted: another choice keeps it */
            else
                score = first ? 3 : 1; /* the first operand, in place */
        }
        if (score > best_score) {
            best = r;
            best_score = score;
        }
    }
    return best_score > 0 ? best : X64_RAX;
}

/* The operands of a call, staged at [rsp + 8i] before any argument
 * register is written (a value may live in one). */
static void stage(Codegen *c, uint32_t i, JgVal v)
{
    load_value(c, X64_RAX, v);
    x64_store(&c->buf, 8, X64_RSP, 8 * (int32_t)i, X64_RAX);
}

static void unstage(Codegen *c, X64Reg reg, uint32_t i)
{
    x64_load(&c->buf, 8, reg, X64_RSP, 8 * (int32_t)i);
}

/* reg = its low bits of type t, zero-extended (the slot invariant) */
static void normalize(Codegen *c, X64Reg reg, JgType t)
{
    switch (t) {
    case JG_I1:
        x64_alu_ri(&c->buf, X64_AND, reg, 1);
        break;
    case JG_I8:
        x64_zext(&c->buf, reg, 1);
        break;
    case JG_I16:
        x64_zext(&c->buf, reg, 2);
        break;
    case JG_I32:
    case JG_F32:
        x64_zext(&c->buf, reg, 4);
        break;
    default:
        break;
    }
}

/* reg = its low bits of type t, sign-extended to 64 */
static void sign_extend(Codegen *c, X64Reg reg, JgType t)
{
    switch (t) {
    case JG_I1: /* 0 or 1 already */
        x64_neg(&c->buf, reg);
        break;
    case JG_I8:
        x64_sext(&c->buf, reg, 1);
        break;
    case JG_I16:
        x64_sext(&c->buf, reg, 2);
        break;
    case JG_I32:
        x64_sext(&c->buf, reg, 4);
        break;
    default:
        break;
    }
}

/* ---- operations ---- */

/* Any pure operation, through the evaluator's arithmetic (bl_arith). */
static void arith_call(Codegen *c, const JgOp *op)
{
    static const X64Reg regs[3] = {X64_RSI, X64_RDX, X64_RCX};
    for (uint32_t i = 0; i < 3; i++)
        stage(c, i, i < op->nargs ? op->args[i] : 0);
    for (uint32_t i = 0; i < 3; i++)
        unstage(c, regs[i], i);
    x64_mov_ri(&c->buf, X64_RDI, bl_arith_desc(op, jg_value_type(c->g, op->args[0])));
    x64_call_abs(&c->buf, (const void *)bl_arith);
    store_result(c, op->result, X64_RAX);
}

static X64Cond int_condition(JgPred p)
{
    static const X64Cond conds[] = {
        [JG_EQ] = X64_E,  [JG_NE] = X64_NE,  [JG_UGT] = X64_A, [JG_UGE] = X64_AE,
        [JG_ULT] = X64_B, [JG_ULE] = X64_BE, [JG_SGT] = X64_G, [JG_SGE] = X64_GE,
        [JG_SLT] = X64_L, [JG_SLE] = X64_LE,
    };
    return conds[p];
}

/* Whether v is a constant that a sign-extended 32-bit immediate gives as
 * the 64-bit operand the operation sees (zero-extended, or sign-extended
 * from `t` when `signed_operand`). */
static bool immediate(const Codegen *c, JgVal v, JgType t, bool signed_operand, int32_t *imm)
{
    v = bl_resolve(c, v);
    if (!v || !jg_is_const(c->g, v))
        return false;
    const JgValueInfo *info = jg_value(c->g, v);
    uint64_t bits = jg_truncate_bits((JgType)info->type, info->bits);
    int64_t x = signed_operand ? jg_sign_extend(t, bits) : (int64_t)bits;
    if (x < INT32_MIN || x > INT32_MAX)
        return false;
    *imm = (int32_t)x;
    return true;
}

/* Whether v is a constant; *d: its value as a signed number of type t. */
static bool signed_constant(const Codegen *c, JgVal v, JgType t, int64_t *d)
{
    v = bl_resolve(c, v);
    if (!v || !jg_is_const(c->g, v))
        return false;
    *d = jg_sign_extend(t, jg_truncate_bits(t, jg_value(c->g, v)->bits));
    return true;
}

/* Sets the flags of the comparison `op` (rax, rcx may be clobbered).
 * Homes hold values zero-extended: only a signed comparison of a type
 * narrower than 64 bits needs its operands sign-extended first. */
static void compare(Codegen *c, const JgOp *op)
{
    JgType t = jg_value_type(c->g, op->args[0]);
    bool is_signed = op->pred >= JG_SGT && op->pred <= JG_SLE;
    bool widen = is_signed && t != JG_I64 && t != JG_PTR;
    int32_t imm, disp;
    X64Reg a = X64_RAX;
    if (!widen && slot_of(c, op->args[0], &disp) && immediate(c, op->args[1], t, is_signed, &imm)) {
        x64_alu_mi(&c->buf, X64_CMP, X64_RBP, disp, imm); /* the slot in place */
        return;
    }
    if (widen) {
        load_value(c, X64_RAX, op->args[0]);
        sign_extend(c, X64_RAX, t);
    } else {
        /* read where a scratch register holds it (not rcx, which may receive
         * the second operand): rax keeps what it holds */
        X64Reg held = slot_of(c, op->args[0], &disp) ? x64_holder(&c->buf, disp) : X64_ABS;
        a = held != X64_ABS && held != X64_RCX ? held : operand(c, op->args[0], X64_RAX);
    }
    if (immediate(c, op->args[1], t, is_signed, &imm)) {
        if (imm == 0) /* the same flags as cmp a, 0 (OF and CF clear), shorter */
            x64_test_rr(&c->buf, a, a);
        else
            x64_alu_ri(&c->buf, X64_CMP, a, imm);
        return;
    }
    X64Reg b = X64_RCX;
    if (!widen && slot_of(c, op->args[1], &disp)) {
        x64_alu_rm(&c->buf, X64_CMP, a, X64_RBP, disp);
        return;
    }
    if (widen) {
        load_value(c, X64_RCX, op->args[1]);
        sign_extend(c, X64_RCX, t);
    } else {
        b = operand(c, op->args[1], X64_RCX);
    }
    x64_alu_rr(&c->buf, X64_CMP, a, b);
}

/* The comparison of a fold (BlFold): x against its immediate. */
static void compare_fold(Codegen *c, const BlFold *f)
{
    int32_t disp;
    if (slot_of(c, f->x, &disp)) {
        x64_alu_mi(&c->buf, X64_CMP, X64_RBP, disp, f->imm);
        return;
    }
    X64Reg a = operand(c, f->x, X64_RAX);
    if (f->imm == 0)
        x64_test_rr(&c->buf, a, a);
    else
        x64_alu_ri(&c->buf, X64_CMP, a, f->imm);
}

static void lower_icmp(Codegen *c, const JgOp *op)
{
    JgType t = jg_value_type(c->g, op->args[0]);
    int64_t k;
    if (op->pred == JG_SLT && t != JG_I1 && signed_constant(c, op->args[1], t, &k) && k == 0) {
        /* x < 0: the sign bit of the zero-extended x, shifted down */
        X64Reg d = result_reg(c, op->result);
        load_value(c, d, op->args[0]);
        x64_shr_ri(&c->buf, d, (uint8_t)(8 * type_size(t) - 1));
        store_result(c, op->result, d);
        return;
    }
    compare(c, op);
    X64Reg d = result_reg(c, op->result);
    x64_setcc(&c->buf, int_condition((JgPred)op->pred), d);
    store_result(c, op->result, d);
}

/* An add of a shift it absorbs (homes.c, scales):
 * lea d, [a + x * 2^k]. */
static bool lower_scaled_add(Codegen *c, const JgOp *op)
{
    JgVal a = bl_resolve(c, op->args[0]), s = bl_resolve(c, op->args[1]);
    if (!c->scaled[s]) {
        JgVal t = a;
        a = s;
        s = t;
        if (!c->scaled[s])
            return false;
    }
    const JgValueInfo *si = jg_value(c->g, s);
    const JgOp *shl = &c->g->blocks.items[si->block].ops.items[si->index];
    X64Reg base = operand(c, a, X64_RAX), index = operand(c, shl->args[0], X64_RCX);
    X64Reg d = result_reg(c, op->result);
    x64_lea_scaled(&c->buf, d, base, index, (unsigned)jg_value(c->g, shl->args[1])->bits);
    normalize(c, d, (JgType)op->type);
    store_result(c, op->result, d);
    return true;
}

/* An add (or a subtract of an immediate) whose result's register holds
 * neither operand, both operands in registers or one an immediate:
 * lea d, [a + b] (or [a + imm], [a - imm]), one instruction where a move
 * and an add would be two. */
static bool lower_three_address(Codegen *c, const JgOp *op)
{
    X64Reg d = result_reg(c, op->result);
    uint8_t r0 = reg_of(c, op->args[0]), r1 = reg_of(c, op->args[1]);
    bool sub = op->opcode == JG_OP_SUB;
    int32_t imm;
    if (r0 == NO_REG || r0 == d || r1 == d)
        return false;
    if (r1 != NO_REG && !sub)
        x64_lea_scaled(&c->buf, d, (X64Reg)r0, (X64Reg)r1, 0);
    else if (r1 == NO_REG && immediate(c, op->args[1], JG_I64, false, &imm) &&
             (!sub || imm != INT32_MIN))
        x64_lea(&c->buf, d, (X64Reg)r0, sub ? -imm : imm);
    else
        return false;
    normalize(c, d, (JgType)op->type);
    store_result(c, op->result, d);
    return true;
}

/* Two-address: the result's register receives the first operand and is
 * combined with the second (an immediate, a register, or rcx loaded). */
static void lower_binary(Codegen *c, const JgOp *op)
{
    if (op->opcode == JG_OP_ADD && lower_scaled_add(c, op))
        return;
    if ((op->opcode == JG_OP_ADD || op->opcode == JG_OP_PTRADD || op->opcode == JG_OP_SUB) &&
        lower_three_address(c, op))
        return;
    static const X64Alu alu[JG_OP__COUNT] = {
        [JG_OP_ADD] = X64_ADD, [JG_OP_PTRADD] = X64_ADD, [JG_OP_SUB] = X64_SUB,
        [JG_OP_AND] = X64_AND, [JG_OP_OR] = X64_OR,      [JG_OP_XOR] = X64_XOR,
    };
    JgVal a0 = op->args[0], a1 = op->args[1];
    X64Reg d = result_reg(c, op->result);
    if (reg_of(c, a1) == d && reg_of(c, a0) != d) { /* writing d first would lose a1 */
        if (op->opcode == JG_OP_SUB) {
            d = X64_RAX;
        } else {
            JgVal t = a0;
            a0 = a1;
            a1 = t;
        }
    }
    int32_t imm, disp;
    if (op->opcode == JG_OP_MUL && immediate(c, a0, JG_I64, false, &imm)) {
        JgVal t = a0; /* the constant second, as an immediate */
        a0 = a1;
        a1 = t;
    }
    if (op->opcode == JG_OP_MUL && immediate(c, a1, JG_I64, false, &imm)) {
        if (imm > 1 && (imm & (imm - 1)) == 0) { /* a power of two: a shift */
            load_value(c, d, a0);
            x64_shl_ri(&c->buf, d, (uint8_t)__builtin_ctz((unsigned)imm));
        } else { /* three-address: a0 stays where it is */
            x64_imul_rri(&c->buf, d, operand(c, a0, d), imm);
        }
        normalize(c, d, (JgType)op->type);
        store_result(c, op->result, d);
        return;
    }
    load_value(c, d, a0);
    if (op->opcode == JG_OP_MUL)
        x64_imul_rr(&c->buf, d, operand(c, a1, X64_RCX));
    else if (immediate(c, a1, JG_I64, false, &imm))
        x64_alu_ri(&c->buf, alu[op->opcode], d, imm);
    else if (slot_of(c, a1, &disp))
        x64_alu_rm(&c->buf, alu[op->opcode], d, X64_RBP, disp);
    else
        x64_alu_rr(&c->buf, alu[op->opcode], d, operand(c, a1, X64_RCX));
    /* and, or, xor of zero-extended operands are zero-extended */
    if (op->opcode != JG_OP_AND && op->opcode != JG_OP_OR && op->opcode != JG_OP_XOR)
        normalize(c, d, (JgType)op->type);
    store_result(c, op->result, d);
}

/* A shift left by a constant (bl_shift_inline): one instruction. The
 * partial evaluator's sums (pe/unroll.c) multiply by powers of two so. */
/* A shift by a constant below the type's width (bl_shift_inline): on the
 * 64-bit register holding the normalized (zero-extended) value, a right
 * arithmetic shift after sign-extending it, then normalized again. */
static void lower_shift_const(Codegen *c, const JgOp *op)
{
    const JgValueInfo *k = jg_value(c->g, op->args[1]);
    uint8_t n = (uint8_t)jg_truncate_bits((JgType)k->type, k->bits);
    X64Reg d = result_reg(c, op->result);
    load_value(c, d, op->args[0]);
    if (op->opcode == JG_OP_SHL) {
        x64_shl_ri(&c->buf, d, n);
    } else if (op->opcode == JG_OP_LSHR) {
        x64_shr_ri(&c->buf, d, n);
    } else {
        sign_extend(c, d, (JgType)op->type);
        x64_sar_ri(&c->buf, d, n);
    }
    normalize(c, d, (JgType)op->type);
    store_result(c, op->result, d);
}

/* log2 of a divisor d that is a power of two from 2 to 2^30, else 0. */
static unsigned power_of_two_divisor(int64_t d)
{
    if (d < 2 || d > (INT64_C(1) << 30) || (d & (d - 1)))
        return 0;
    unsigned k = 0;
    while ((INT64_C(1) << k) != d)
        k++;
    return k;
}

/* The quotient of rax (sign-extended) by the constant `divisor` as a
 * multiplication (divide_magic.h) in rdx, the dividend moved to rcx; with
 * `rem`, the remainder in rcx. An idiv takes 10-20 cycles of latency, the
 * multiplication and its corrections about 6. */
static void divide_by_magic(Codegen *c, const BlMagic *m, int64_t divisor, bool rem)
{
    X64Buf *b = &c->buf;
    x64_mov_rr(b, X64_RCX, X64_RAX);
    x64_mov_ri(b, X64_RAX, (uint64_t)m->multiplier);
    x64_imul_wide(b, X64_RCX); /* rdx = the product's high half */
    if (m->add)
        x64_alu_rr(b, X64_ADD, X64_RDX, X64_RCX);
    if (m->sub)
        x64_alu_rr(b, X64_SUB, X64_RDX, X64_RCX);
    if (m->shift)
        x64_sar_ri(b, X64_RDX, (uint8_t)m->shift);
    x64_mov_rr(b, X64_RAX, X64_RDX);
    x64_shr_ri(b, X64_RAX, 63);
    x64_alu_rr(b, X64_ADD, X64_RDX, X64_RAX); /* rounded towards zero */
    if (!rem)
        return;
    if (divisor >= INT32_MIN && divisor <= INT32_MAX) {
        x64_imul_rri(b, X64_RAX, X64_RDX, (int32_t)divisor);
    } else {
        x64_mov_ri(b, X64_RAX, (uint64_t)divisor);
        x64_imul_rr(b, X64_RAX, X64_RDX);
    }
    x64_alu_rr(b, X64_SUB, X64_RCX, X64_RAX); /* x - q * divisor */
}

/* Where a division leaves its results: the quotient or remainder the op
 * asks for (`result`) and, with an srem paired to the sdiv, the remainder. */
typedef struct DivideOut {
    X64Reg result, remainder;
} DivideOut;

/* Whether lower_divide_by divides by `divisor` without an idiv. */
static bool divides_by_constant(int64_t divisor)
{
    BlMagic magic;
    return power_of_two_divisor(divisor) || bl_divide_magic(divisor, &magic);
}

/* rax (the dividend, sign-extended) divided by the constant `divisor`, for
 * which divides_by_constant holds. A power-of-two divisor 2^k rounds
 * towards zero by adding 2^k - 1 to a negative dividend, then shifts; any
 * other is a multiplication (divide_by_magic). */
static DivideOut lower_divide_by(Codegen *c, int64_t divisor, bool rem, bool rem_too)
{
    unsigned k = power_of_two_divisor(divisor);
    BlMagic magic;
    if (!k) {
        bl_divide_magic(divisor, &magic);
        divide_by_magic(c, &magic, divisor, rem || rem_too);
        return (DivideOut){rem ? X64_RCX : X64_RDX, X64_RCX};
    }
    x64_mov_rr(&c->buf, X64_RDX, X64_RAX);
    x64_sar_ri(&c->buf, X64_RDX, 63);
    x64_shr_ri(&c->buf, X64_RDX, (uint8_t)(64 - k));
    x64_alu_rr(&c->buf, X64_ADD, X64_RDX, X64_RAX); /* x + (x < 0 ? 2^k - 1 : 0) */
    if (rem) {
        x64_alu_ri(&c->buf, X64_AND, X64_RDX, -(INT32_C(1) << k));
        x64_alu_rr(&c->buf, X64_SUB, X64_RAX, X64_RDX);
        return (DivideOut){X64_RAX, X64_RDX};
    }
    if (rem_too) { /* quotient in rdx, remainder in rax */
        x64_mov_rr(&c->buf, X64_RCX, X64_RDX);
        x64_alu_ri(&c->buf, X64_AND, X64_RCX, -(INT32_C(1) << k));
        x64_alu_rr(&c->buf, X64_SUB, X64_RAX, X64_RCX);
        x64_sar_ri(&c->buf, X64_RDX, (uint8_t)k);
        return (DivideOut){X64_RDX, X64_RAX};
    }
    x64_sar_ri(&c->buf, X64_RDX, (uint8_t)k);
    return (DivideOut){X64_RDX, X64_RDX};
}

/* rax by rcx, neither divisor 0 nor -1: quotient in rax, remainder in
 * rdx. Where both operands are below 2^32 and not negative, the 32-bit
 * unsigned div gives the same results as the 64-bit idiv and is cheaper
 * (bench/ANALYSIS.md); the test leaves rdx zero for it. */
static void divide_rax_by_rcx(Codegen *c)
{
    X64Buf *b = &c->buf;
    uint32_t wide = x64_label(b), done = x64_label(b);
    x64_mov_rr(b, X64_RDX, X64_RAX);
    x64_alu_rr(b, X64_OR, X64_RDX, X64_RCX);
    x64_shr_ri(b, X64_RDX, 32);
    x64_jcc(b, X64_NE, wide);
    x64_div32(b, X64_RCX);
    x64_jmp(b, done);
    x64_place(b, wide);
    x64_cqo(b);
    x64_idiv(b, X64_RCX);
    x64_place(b, done);
}

/* rax (the dividend) divided by rcx (the divisor, both sign-extended):
 * quotient in rax, remainder in rdx. Unless `nonzero` (a constant
 * divisor other than 0 and -1), divisors 0 and -1, where idiv would trap,
 * give x * divisor and 0. */
static DivideOut lower_divide_idiv(Codegen *c, bool rem, bool nonzero)
{
    if (nonzero) {
        divide_rax_by_rcx(c);
        return (DivideOut){rem ? X64_RDX : X64_RAX, X64_RDX};
    }
    uint32_t divide = x64_label(&c->buf), done = x64_label(&c->buf);
    x64_lea(&c->buf, X64_RDX, X64_RCX, 1);
    x64_alu_ri(&c->buf, X64_CMP, X64_RDX, 1);
    x64_jcc(&c->buf, X64_A, divide); /* the divisor is neither -1 nor 0 */
    if (!rem)
        x64_imul_rr(&c->buf, X64_RAX, X64_RCX);
    x64_mov_ri(&c->buf, X64_RDX, 0);
    x64_jmp(&c->buf, done);
    x64_place(&c->buf, divide);
    divide_rax_by_rcx(c);
    x64_place(&c->buf, done);
    return (DivideOut){rem ? X64_RDX : X64_RAX, X64_RDX};
}

/* Moves `from`'s results where `to` has them; rcx is free. */
static void move_divide_out(Codegen *c, DivideOut from, DivideOut to, bool both)
{
    if (!both) {
        if (from.result != to.result)
            x64_mov_rr(&c->buf, to.result, from.result);
        return;
    }
    if (from.result == to.remainder && from.remainder == to.result) {
        x64_mov_rr(&c->buf, X64_RCX, from.result);
        from.result = X64_RCX;
    }
    if (from.remainder == to.result) {
        if (from.remainder != to.remainder)
            x64_mov_rr(&c->buf, to.remainder, from.remainder);
        if (from.result != to.result)
            x64_mov_rr(&c->buf, to.result, from.result);
        return;
    }
    if (from.result != to.result)
        x64_mov_rr(&c->buf, to.result, from.result);
    if (from.remainder != to.remainder)
        x64_mov_rr(&c->buf, to.remainder, from.remainder);
}

/* sdiv/srem on operands sign-extended to 64 bits, with the evaluator's
 * results where idiv would trap (frontend/arith.h, signed_divide): divisor
 * 0 gives 0, divisor -1 gives -x and 0; both are x * divisor for the
 * quotient. The result is rax or rdx, both scratch. `rem_too`: an srem of
 * the same operands right after this sdiv (pairs_divide), whose result the
 * same division gives. A constant divisor but 1 and -1 is no idiv
 * (lower_divide_by); a variable one with a likely value (JgOp.likely) is
 * compared with it, divided by it as a constant where equal and with idiv
 * where not. */
static void lower_divide(Codegen *c, const JgOp *op, const JgOp *rem_too)
{
    bool rem = op->opcode == JG_OP_SREM;
    JgType t = (JgType)op->type;
    int64_t divisor, likely; /* constants' values, sign-extended */
    bool constant = signed_constant(c, op->args[1], t, &divisor);
    bool hinted = !constant && op->likely && signed_constant(c, op->likely, t, &likely) &&
                  likely >= INT32_MIN && likely <= INT32_MAX && divides_by_constant(likely);
    DivideOut out;
    load_value(c, X64_RAX, op->args[0]);
    sign_extend(c, X64_RAX, t);
    if (constant && divides_by_constant(divisor)) {
        out = lower_divide_by(c, divisor, rem, rem_too);
    } else {
        load_value(c, X64_RCX, op->args[1]);
        sign_extend(c, X64_RCX, t);
        uint32_t other = 0, done = 0;
        if (hinted) {
            other = x64_label(&c->buf);
            done = x64_label(&c->buf);
            x64_alu_ri(&c->buf, X64_CMP, X64_RCX, (int32_t)likely);
            x64_jcc(&c->buf, X64_NE, other);
            DivideOut fast = lower_divide_by(c, likely, rem, rem_too);
            DivideOut idiv = {rem ? X64_RDX : X64_RAX, X64_RDX};
            move_divide_out(c, fast, idiv, rem_too != NULL);
            x64_jmp(&c->buf, done);
            x64_place(&c->buf, other);
        }
        out = lower_divide_idiv(c, rem, constant && divisor != 0 && divisor != -1);
        if (hinted)
            x64_place(&c->buf, done);
    }
    normalize(c, out.result, t);
    store_result(c, op->result, out.result);
    if (rem_too) { /* homes are never rax, rcx or rdx */
        normalize(c, out.remainder, t);
        store_result(c, rem_too->result, out.remainder);
    }
}

/* Whether `next`, the op after `op`, is an srem of the same operands as
 * the sdiv `op`: one idiv, or one rounding of the dividend for a
 * power-of-two divisor, gives both (lower_divide). TLC's floor division is
 * such a pair. */
static bool pairs_divide(const Codegen *c, const JgOp *op, const JgOp *next)
{
    return op->opcode == JG_OP_SDIV && next->opcode == JG_OP_SREM && op->type == next->type &&
           op->nargs == 2 && next->nargs == 2 && bl_same_operand(c, op->args[0], next->args[0]) &&
           bl_same_operand(c, op->args[1], next->args[1]) && bl_divide_inline(op) &&
           bl_divide_inline(next) && !bl_no_code(c, op) && !bl_no_code(c, next);
}

/* memset(dst, byte, n) with byte and n constant (bl_memset_inline): the
 * byte repeated in rax, stored 8, 4, 2, 1 bytes at a time. */
static void lower_memset_inline(Codegen *c, const JgOp *op)
{
    uint64_t n = jg_value(c->g, op->args[2])->bits;
    uint64_t byte = jg_value(c->g, op->args[1])->bits & 0xff;
    if (n == 0)
        return;
    load_value(c, X64_RCX, op->args[0]);
    x64_mov_ri(&c->buf, X64_RAX, byte * UINT64_C(0x0101010101010101));
    int32_t at = 0;
    for (unsigned size = 8; size; size /= 2)
        for (; n >= size; n -= size, at += (int32_t)size)
            x64_store(&c->buf, size, X64_RCX, at, X64_RAX);
}

static void lower_alloca(Codegen *c, const JgOp *op)
{
    uint64_t size = op->imm > 0 ? (uint64_t)op->imm : 0;
    int32_t at = (int32_t)c->alloca_at[op->result];
    if (size && size <= BL_INLINE_MEMSET) { /* zeroed each time it runs, as the
                                               evaluator does: stores */
        x64_mov_ri(&c->buf, X64_RAX, 0);
        uint64_t n = size;
        int32_t to = at;
        for (unsigned step = 8; step; step /= 2)
            for (; n >= step; n -= step, to += (int32_t)step)
                x64_store(&c->buf, step, AREA, to, X64_RAX);
    } else if (size) { /* rep stosb takes rdi and rcx: no value lives there
                          across an ALLOCA (bl_op_calls) */
        x64_lea(&c->buf, X64_RDI, AREA, at);
        x64_mov_ri(&c->buf, X64_RCX, size);
        x64_mov_ri(&c->buf, X64_RAX, 0);
        x64_rep_stosb(&c->buf);
    }
    /* the address goes home after the zeroing: its home may be rdi, which
       rep stosb leaves `size` bytes further */
    x64_lea(&c->buf, X64_RAX, AREA, at);
    store_result(c, op->result, X64_RAX);
}

/* Whether a native call can pass its arguments and result in integer
 * registers directly. */
static bool simple_call(const Codegen *c, const JgOp *op)
{
    uint32_t n = op->nargs - 1;
    const JgGraph *callee = op->callee;
    if (n > 6 || (callee && callee->variadic))
        return false;
    if (op->type == JG_F32 || op->type == JG_F64)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        JgType t = jg_value_type(c->g, op->args[i + 1]);
        if (t == JG_F32 || t == JG_F64)
            return false;
    }
    return true;
}

/* Whether a simple call's arguments can go straight to their registers
 * regs[i] in order, then the function to r11: no register written before
 * a later operand is read is that operand's home. Else they are staged
 * through the stack first. */
static bool args_in_order(const Codegen *c, const JgOp *op, const X64Reg *regs)
{
    uint32_t n = op->nargs - 1;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j <= n; j++) { /* j = n: the function, op->args[0] */
            JgVal later = j < n ? op->args[j + 1] : op->args[0];
            if (reg_of(c, later) == regs[i])
                return false;
        }
    return true;
}

/* Stores value v (a slot) at [rsp + disp]: a constant that sign-extends
 * from 32 bits as an immediate, the others from a register. */
static void store_arg(Codegen *c, JgVal v, int32_t disp)
{
    int32_t imm;
    if (immediate(c, v, JG_I64, false, &imm))
        x64_mov_mi(&c->buf, X64_RSP, disp, imm);
    else
        x64_store(&c->buf, 8, X64_RSP, disp, operand(c, v, X64_RAX));
}

/* Stores the call's arguments at [rsp + 8i]. */
static void spill_args(Codegen *c, const JgOp *op)
{
    for (uint32_t i = 1; i < op->nargs; i++)
        store_arg(c, op->args[i], (int32_t)(8 * (i - 1)));
}

/* A portal call through `site` while the site is bound (else to `host`):
 * the red arguments in the slots of a frame at rsp, then, while no look
 * is due, the callee's entry method called at once (BlGraph.direct_fn),
 * or bl_call_frame; bl_call_more when the method leaves for another
 * block. The result in rax, at `done`. The graph is kept in the frame's
 * result slot across the call, which the callee writes only when it
 * returns: the site may be unbound meanwhile. */
static void direct_call(Codegen *c, const JgOp *op, JgPortalSite *site, uint32_t host,
                        uint32_t done)
{
    _Static_assert(sizeof(sig_atomic_t) == 4, "the code reads look_due as 32 bits");
    X64Buf *b = &c->buf;
    JgBaseline *bl = c->bg->bl;
    uint32_t slow = x64_label(b), more = x64_label(b);
    int32_t disp;
    X64Reg base = at(c, site, (int32_t)offsetof(JgPortalSite, direct), X64_RCX, &disp);
    x64_alu_mi(b, X64_CMP, base, disp, 0);
    x64_jcc(b, X64_E, host);
    const uint32_t *red = bl->options.portal_red_index;
    for (uint32_t i = 0; i < bl->options.portal_nred; i++)
        store_arg(c, op->args[red[i] + 1], (int32_t)(BL_FRAME_SLOTS + 8 * i));
    base = at(c, site, (int32_t)offsetof(JgPortalSite, direct), X64_RDI, &disp);
    x64_load(b, 8, X64_RAX, base, disp);
    x64_load(b, 8, X64_R11, X64_RAX, (int32_t)offsetof(BlGraph, direct_fn));
    x64_test_rr(b, X64_R11, X64_R11);
    x64_jcc(b, X64_E, slow);
    base = at(c, (const void *)&bl->look_due, 0, X64_RCX, &disp);
    x64_load(b, 4, X64_RDX, base, disp);
    x64_test_rr(b, X64_RDX, X64_RDX);
    x64_jcc(b, X64_NE, slow);
    x64_store(b, 8, X64_RSP, 0, X64_RAX);
    x64_load(b, 4, X64_RDI, X64_RAX, (int32_t)offsetof(BlGraph, direct_block));
    x64_mov_rr(b, X64_RSI, X64_RSP);
    x64_mov_ri(b, X64_RDX, 0);
    count(c, &bl->stats.method_entries);
    x64_call_reg(b, X64_R11);
    x64_cmp32_ri(b, X64_RAX, -1);
    x64_jcc(b, X64_NE, more);
    x64_load(b, 8, X64_RAX, X64_RSP, 0);
    x64_jmp(b, done);
    x64_place(b, more);
    x64_load(b, 8, X64_RDI, X64_RSP, 0);
    x64_mov_rr(b, X64_RSI, X64_RSP);
    x64_mov_rr(b, X64_RDX, X64_RAX);
    x64_call_abs(b, (const void *)bl_call_more);
    x64_jmp(b, done);
    x64_place(b, slow);
    x64_mov_ri(b, X64_RDI, (uint64_t)(uintptr_t)site);
    x64_mov_rr(b, X64_RSI, X64_RSP);
    x64_call_abs(b, (const void *)bl_call_frame);
    x64_jmp(b, done);
}

/* The most bytes an inlined allocation clears: larger objects are the
 * allocator's to clear. */
#define BL_INLINE_CLEAR_MAX 64

void **bl_free_list_of(const Codegen *c, const JgOp *op, const JgFreeListAllocator **which)
{
    const JgBaselineOptions *o = &c->bg->bl->options;
    uint64_t size;
    void **list = jg_free_list_of(c->g, op, o->allocators, o->nallocators, which, &size);
    if (!list || op->nargs > 7 || (*which)->empty_max > INT32_MAX ||
        ((*which)->clear_all && size > BL_INLINE_CLEAR_MAX))
        return NULL;
    /* the slow path calls with every operand an integer constant */
    for (uint32_t i = 0; i < op->nargs; i++)
        if (!jg_is_const(c->g, op->args[i]) || jg_value_type(c->g, op->args[i]) == JG_F32 ||
            jg_value_type(c->g, op->args[i]) == JG_F64)
            return NULL;
    return list;
}

/* Whether the ops right after allocation `op` (in `block`) store to every
 * byte of its first `n` before anything else happens: partial evaluation
 * writes a new object's fields right away, and until then nothing can read
 * the object (no call, so no collection), so the clearing can be left out. */
static bool stores_cover(const Codegen *c, uint32_t block, const JgOp *op, uint64_t n)
{
    const JgBlock *bk = &c->g->blocks.items[block];
    uint64_t covered = 0, all = n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
    JgVal derived[8]; /* ptradds of the object, and their offsets */
    int64_t offsets[8];
    uint32_t nderived = 0;
    for (uint32_t i = (uint32_t)(op - bk->ops.items) + 1; i < bk->ops.count; i++) {
        const JgOp *o = &bk->ops.items[i];
        if (o->opcode == JG_OP_PTRADD && o->nargs == 2 && o->args[0] == op->result &&
            jg_is_const(c->g, o->args[1]) && nderived < 8) {
            derived[nderived] = o->result;
            offsets[nderived++] = (int64_t)jg_value(c->g, o->args[1])->bits;
            continue;
        }
        if (o->opcode != JG_OP_STORE || o->nargs != 2)
            break;
        int64_t at = -1;
        if (o->args[0] == op->result)
            at = 0;
        for (uint32_t d = 0; d < nderived; d++)
            if (o->args[0] == derived[d])
                at = offsets[d];
        unsigned size = jg_type_size(jg_value_type(c->g, o->args[1]));
        if (at >= 0 && (uint64_t)at + size <= n)
            covered |= (size >= 64 ? UINT64_MAX : (UINT64_C(1) << size) - 1) << at;
    }
    return (covered & all) == all;
}

/* An allocator's fast path (jitgen/allocator.h): the head of `list`, when
 * it is an object, taken off, counted and cleared (unless the next ops
 * write it all, stores_cover), in rax at `done`; an empty list falls
 * through to the call. rax, rcx and rdx hold no value's home. */
static void inline_allocation(Codegen *c, uint32_t block, const JgOp *op,
                              const JgFreeListAllocator *a, void **list, uint32_t done)
{
    X64Buf *b = &c->buf;
    uint32_t empty = x64_label(b);
    int32_t disp;
    X64Reg head = at(c, list, 0, X64_RCX, &disp);
    x64_load(b, 8, X64_RAX, head, disp);
    x64_alu_ri(b, X64_CMP, X64_RAX, (int32_t)a->empty_max);
    x64_jcc(b, X64_BE, empty);
    x64_load(b, 8, X64_RDX, X64_RAX, 0);
    x64_store(b, 8, head, disp, X64_RDX);
    if (a->counter)
        count(c, a->counter);
    uint64_t n = a->clear_all ? jg_value(c->g, op->args[1])->bits : 8;
    if (stores_cover(c, block, op, n))
        n = 0;
    int32_t at = 0;
    for (unsigned size = 8; size && n; size /= 2)
        for (; n >= size; n -= size, at += (int32_t)size) {
            if (size == 8)
                x64_mov_mi(b, X64_RAX, at, 0);
            else {
                x64_mov_ri(b, X64_RDX, 0);
                x64_store(b, size, X64_RAX, at, X64_RDX);
            }
        }
    x64_jmp(b, done);
    x64_place(b, empty);
}

_Static_assert((NHOME_REGS - NCALLEE_SAVED) % 2 == 0,
               "an allocation's slow path pushes the caller-saved homes in pairs");

/* The System V registers of integer arguments, in order. */
static const X64Reg call_regs[6] = {X64_RDI, X64_RSI, X64_RDX, X64_RCX, X64_R8, X64_R9};

static void lower_call(Codegen *c, uint32_t block, const JgOp *op)
{
    JgBaseline *bl = c->bg->bl;
    if (op->nargs == 0) {
        bl_cg_fail(c, "call without a callee operand in block %u", block);
        return;
    }
    const JgGraph *callee = op->callee;
    uint32_t n = op->nargs - 1;
    if (callee && (callee->flags & JG_FLAG_PORTAL)) {
        if (!bl->options.portal_call) {
            bl_cg_fail(c, "a portal call, but the options have no portal_call function");
            return;
        }
        JgPortalSite *site = jg_portal_site_new(c->g, op, &c->bg->portal_sites);
        if (!site) {
            bl_cg_fail(c, "out of memory");
            return;
        }
        /* a site the host bound to a graph of this backend calls it
         * directly, with the red arguments in a frame at rsp
         * (bl_call_frame), the others through the host */
        uint32_t host = x64_label(&c->buf), done = x64_label(&c->buf);
        if (bl_direct_site(c, op))
            direct_call(c, op, site, host, done);
        x64_place(&c->buf, host);
        spill_args(c, op);
        x64_mov_ri(&c->buf, X64_RDI, (uint64_t)(uintptr_t)bl->options.portal_ctx);
        x64_mov_rr(&c->buf, X64_RSI, X64_RSP);
        x64_mov_ri(&c->buf, X64_RDX, (uint64_t)(uintptr_t)site);
        x64_call_abs(&c->buf, (const void *)bl->options.portal_call);
        x64_place(&c->buf, done);
    } else {
        /* the function: a constant address (the callee graph's native one
         * when the constant is null) or a pointer computed at run time */
        JgVal f = op->args[0];
        const JgValueInfo *info = jg_value(c->g, f);
        uint64_t addr = 0;
        bool constant = info->kind == JG_VK_CONST;
        if (constant) {
            addr = info->bits;
            if (!addr && callee && callee->native)
                addr = (uint64_t)(uintptr_t)callee->native;
            if (!addr) {
                bl_cg_fail(c, "call of a null function%s%s", callee ? " for " : "",
                           callee && callee->name ? callee->name : "");
                return;
            }
        } else if (info->type != JG_PTR) {
            bl_cg_fail(c, "call through a %s", jg_type_name((JgType)info->type));
            return;
        }
        const JgFreeListAllocator *allocator = NULL;
        void **list = bl_free_list_of(c, op, &allocator);
        uint32_t allocated = list ? x64_label(&c->buf) : 0;
        if (list) {
            /* the call, rare, keeps the registers of values that live on:
             * the method's homes take the allocation for no call (homes.c) */
            inline_allocation(c, block, op, allocator, list, allocated);
            for (uint32_t i = NCALLEE_SAVED; i < NHOME_REGS; i++) /* 6: rsp stays aligned */
                x64_push(&c->buf, bl_home_regs[i]);
            for (uint32_t i = 0; i < n; i++) {
                JgType t = jg_value_type(c->g, op->args[i + 1]);
                load_value(c, call_regs[i], op->args[i + 1]);
                if (t == JG_I8 || t == JG_I16) /* C's promotion, as below */
                    sign_extend(c, call_regs[i], t);
            }
            x64_mov_ri(&c->buf, X64_R11, addr);
            x64_call_reg(&c->buf, X64_R11);
            for (uint32_t i = NHOME_REGS; i-- > NCALLEE_SAVED;)
                x64_pop(&c->buf, bl_home_regs[i]);
            x64_place(&c->buf, allocated);
        } else if (simple_call(c, op)) {
            const X64Reg *regs = call_regs;
            bool staged = !args_in_order(c, op, regs);
            for (uint32_t i = 0; staged && i < n; i++)
                stage(c, i, op->args[i + 1]);
            if (staged && !constant)
                stage(c, n, f);
            for (uint32_t i = 0; i < n; i++) {
                JgType t = jg_value_type(c->g, op->args[i + 1]);
                if (staged)
                    unstage(c, regs[i], i);
                else
                    load_value(c, regs[i], op->args[i + 1]);
                if (t == JG_I8 || t == JG_I16) /* C's promotion, as the LLVM backend passes them */
                    sign_extend(c, regs[i], t);
            }
            if (constant)
                x64_mov_ri(&c->buf, X64_R11, addr);
            else if (staged)
                unstage(c, X64_R11, n);
            else
                load_value(c, X64_R11, f);
            x64_call_reg(&c->buf, X64_R11);
        } else {
            BlCallDesc *d = calloc(1, sizeof *d + sizeof(JgType) * (n ? n : 1));
            if (!d) {
                bl_cg_fail(c, "out of memory");
                return;
            }
            d->fn = constant ? (void *)(uintptr_t)addr : NULL;
            d->ret = op->type;
            d->nargs = n;
            d->nfixed = callee && callee->variadic && callee->nparams < n ? callee->nparams : n;
            for (uint32_t i = 0; i < n; i++)
                d->types[i] = jg_value_type(c->g, op->args[i + 1]);
            d->next = c->bg->calls;
            c->bg->calls = d;
            spill_args(c, op);
            if (!constant)
                stage(c, n, f);
            x64_mov_ri(&c->buf, X64_RDI, (uint64_t)(uintptr_t)d);
            if (constant)
                x64_mov_ri(&c->buf, X64_RSI, 0);
            else
                unstage(c, X64_RSI, n);
            x64_mov_rr(&c->buf, X64_RDX, X64_RSP);
            x64_call_abs(&c->buf, (const void *)bl_call_ffi);
        }
        if (callee && (callee->flags & JG_FLAG_NORETURN)) {
            x64_mov_ri(&c->buf, X64_RDI, (uint64_t)(uintptr_t)c->bg);
            x64_mov_ri(&c->buf, X64_RSI, block);
            x64_call_abs(&c->buf, (const void *)bl_noreturn_returned);
            return;
        }
    }
    if (op->result && op->type != JG_VOID) {
        normalize(c, X64_RAX, (JgType)op->type);
        store_result(c, op->result, X64_RAX);
    }
}

static void lower_op(Codegen *c, uint32_t block, const JgOp *op)
{
    if (bl_no_code(c, op))
        return; /* a repeat or renaming of another value, or unread (homes.c) */
    if (bl_alu_binary(op->opcode)) {
        lower_binary(c, op);
        return;
    }
    switch ((JgOpcode)op->opcode) {
    case JG_OP_ICMP:
        lower_icmp(c, op);
        return;
    case JG_OP_SELECT: { /* booleans are 0 or 1 */
        load_value(c, X64_RAX, op->args[1]);
        X64Reg if_false = operand(c, op->args[2], X64_RDX);
        X64Reg cond = operand(c, op->args[0], X64_RCX);
        x64_test_rr(&c->buf, cond, cond);
        x64_cmov(&c->buf, X64_E, X64_RAX, if_false);
        store_result(c, op->result, X64_RAX);
        return;
    }
    case JG_OP_ZEXT: /* a normalized value is its zero-extension */
    case JG_OP_TRUNC:
    case JG_OP_PTRTOINT:
    case JG_OP_INTTOPTR:
    case JG_OP_BITCAST:
    case JG_OP_SEXT: { /* in the result's register where it has one */
        X64Reg d = result_reg(c, op->result);
        load_value(c, d, op->args[0]);
        if (op->opcode == JG_OP_SEXT)
            sign_extend(c, d, jg_value_type(c->g, op->args[0]));
        if (op->opcode != JG_OP_ZEXT)
            normalize(c, d, (JgType)op->type);
        store_result(c, op->result, d);
        return;
    }
    case JG_OP_LOAD: {
        int32_t disp;
        X64Reg base = address(c, op->args[0], &disp);
        X64Reg d = result_reg(c, op->result);
        x64_load(&c->buf, type_size((JgType)op->type), d, base, disp);
        normalize(c, d, (JgType)op->type);
        store_result(c, op->result, d);
        return;
    }
    case JG_OP_STORE: {
        int32_t disp;
        X64Reg base = address(c, op->args[0], &disp);
        unsigned size = type_size(jg_value_type(c->g, op->args[1]));
        int32_t imm;
        if (size == 8 && immediate(c, op->args[1], JG_I64, false, &imm))
            x64_mov_mi(&c->buf, base, disp, imm); /* the word sign-extends from 32 bits */
        else
            x64_store(&c->buf, size, base, disp, operand(c, op->args[1], X64_RAX));
        return;
    }
    case JG_OP_ALLOCA:
        lower_alloca(c, op);
        return;
    case JG_OP_MEMSET:
        if (bl_memset_inline(c->g, op)) {
            lower_memset_inline(c, op);
            return;
        }
        /* fall through */
    case JG_OP_MEMCPY:
        for (uint32_t i = 0; i < 3; i++)
            stage(c, i, op->args[i]);
        unstage(c, X64_RDI, 0);
        unstage(c, X64_RSI, 1);
        unstage(c, X64_RDX, 2);
        x64_call_abs(&c->buf, op->opcode == JG_OP_MEMCPY ? (const void *)bl_memmove
                                                         : (const void *)bl_memset);
        return;
    case JG_OP_CALL:
        lower_call(c, block, op);
        return;
    case JG_OP_PROMOTE:
    case JG_OP_CONCRETE:
    case JG_OP_DEEPFREEZE:
    case JG_OP_FORGET:
        load_value(c, X64_RAX, op->args[0]);
        normalize(c, X64_RAX, (JgType)op->type);
        store_result(c, op->result, X64_RAX);
        return;
    case JG_OP_MERGE_POINT:
        return;
    case JG_OP_SDIV:
    case JG_OP_SREM:
        if (bl_divide_inline(op))
            lower_divide(c, op, NULL);
        else
            arith_call(c, op);
        return;
    case JG_OP_SHL:
    case JG_OP_LSHR:
    case JG_OP_ASHR:
        if (bl_shift_inline(c->g, op))
            lower_shift_const(c, op);
        else
            arith_call(c, op);
        return;
    default:
        if (op->opcode < JG_OP__COUNT && op->nargs >= 1 && op->nargs <= 3) {
            arith_call(c, op); /* the remaining pure operations */
            return;
        }
        bl_cg_fail(c, "block %u: unknown opcode %u", block, op->opcode);
    }
}

/* ---- control flow ---- */

/* Leaves the method with block id `id` in eax. */
static void leave_with(Codegen *c, uint32_t id)
{
    x64_mov_ri(&c->buf, X64_RAX, id);
    x64_jmp(&c->buf, c->epilogue);
}

/* Where a value is, for parallel moves. */
typedef struct Loc {
    enum { LOC_CONST, LOC_REG, LOC_SLOT } kind;
    X64Reg reg;
    int32_t disp;
    JgVal v; /* LOC_CONST */
} Loc;

static Loc loc_of(const Codegen *c, JgVal v)
{
    if (!v || jg_is_const(c->g, v))
        return (Loc){.kind = LOC_CONST, .v = v};
    if (c->reg[v] != NO_REG)
        return (Loc){.kind = LOC_REG, .reg = (X64Reg)c->reg[v]};
    return (Loc){.kind = LOC_SLOT, .disp = c->home[v]};
}

static bool same_loc(Loc a, Loc b)
{
    return a.kind == b.kind && a.kind != LOC_CONST &&
           (a.kind == LOC_REG ? a.reg == b.reg : a.disp == b.disp);
}

/* dst = src */
static void transfer(Codegen *c, Loc dst, Loc src)
{
    X64Reg via = dst.kind == LOC_REG ? dst.reg : X64_RAX;
    switch (src.kind) {
    case LOC_CONST:
        load_value(c, via, src.v);
        break;
    case LOC_REG:
        if (dst.kind == LOC_SLOT) {
            x64_store(&c->buf, 8, X64_RBP, dst.disp, src.reg);
            return;
        }
        x64_mov_rr(&c->buf, via, src.reg);
        break;
    case LOC_SLOT:
        x64_load(&c->buf, 8, via, X64_RBP, src.disp);
        break;
    }
    if (dst.kind == LOC_SLOT)
        x64_store(&c->buf, 8, X64_RBP, dst.disp, via);
}

/* The parameters of `t` receive the link's arguments, all read before any
 * is written: moves whose destination nobody still reads go first; a
 * cycle (a loop passing its values around) is broken through rdx. */
static void parallel_move(Codegen *c, const JgLink *l, const JgBlock *t, uint32_t skip)
{
    uint32_t n = 0;
    Loc dst[l->nargs + 1], src[l->nargs + 1]; /* on the stack: one link's moves */
    for (uint32_t i = 0; i < l->nargs; i++) {
        JgVal p = t->params[i], a = bl_resolve(c, l->args[i]);
        if (c->alias[p] != p || a == p || i + 1 == skip || c->dead[p])
            continue;
        Loc d = loc_of(c, p), s = loc_of(c, a);
        if (same_loc(d, s))
            continue;
        dst[n] = d;
        src[n] = s;
        n++;
    }
    while (n) {
        bool progress = false;
        for (uint32_t i = 0; i < n; i++) {
            bool read = false;
            for (uint32_t k = 0; k < n && !read; k++)
                read = k != i && same_loc(src[k], dst[i]);
            if (read)
                continue;
            transfer(c, dst[i], src[i]);
            dst[i] = dst[n - 1];
            src[i] = src[n - 1];
            n--;
            i--;
            progress = true;
        }
        if (progress)
            continue;
        Loc temp = {.kind = LOC_REG, .reg = X64_RDX};
        transfer(c, temp, dst[0]);
        for (uint32_t k = 0; k < n; k++)
            if (same_loc(src[k], dst[0]))
                src[k] = temp;
    }
}

/* A loop's back-edge into merge point `target` (its parameters set): a
 * patchable NOP, which the runtime turns into a jump to an exit stub
 * emitted after the blocks while a look at the tier-up hook is due
 * (patch.c); the stub leaves for the dispatcher, which asks the hook.
 * Nothing is counted in the loop: a count and its branch made fibonacci's
 * loop a quarter slower (bench/ANALYSIS.md). */
static bool add_exit(Codegen *c, BlExit exit)
{
    if (c->nexits == c->exits_cap) {
        uint32_t cap = c->exits_cap ? 2 * c->exits_cap : 8;
        BlExit *exits = realloc(c->exits, sizeof *exits * cap);
        if (!exits)
            return bl_cg_fail(c, "out of memory");
        c->exits = exits;
        c->exits_cap = cap;
    }
    c->exits[c->nexits++] = exit;
    return true;
}

static void look_site(Codegen *c, uint32_t target, uint32_t param, uint64_t value)
{
    uint32_t site = x64_label(&c->buf);
    BlExit exit = {.site = site,
                   .label = x64_label(&c->buf),
                   .target = target,
                   .param = param,
                   .value = value};
    if (!add_exit(c, exit))
        return;
    x64_place(&c->buf, site);
    x64_nop_patchable(&c->buf);
}

/* A back-edge into merge point `target` that is one jump (its parameters
 * already in place, jump_only): the jump itself is the look site, its
 * displacement retargeted to the exit stub while a look is due (patch.c).
 * Nothing more runs in the loop, where a NOP site (look_site) costs an
 * instruction and the jump's own way there. Emits the jump. */
static void look_jump(Codegen *c, uint32_t target, bool conditional, X64Cond cond, uint32_t to)
{
    uint32_t site = x64_label(&c->buf);
    BlExit exit = {
        .site = site, .label = x64_label(&c->buf), .target = target, .jump = conditional ? 2 : 1};
    if (!add_exit(c, exit))
        return;
    /* placed before the jump: a loop alignment in front of it moves both */
    x64_place(&c->buf, site);
    if (conditional)
        x64_jcc(&c->buf, cond, to);
    else
        x64_jmp(&c->buf, to);
}

/* The stubs of look_site: the target's parameters to the frame's
 * slots, and its block id to the dispatcher. */
static void emit_exits(Codegen *c)
{
    for (uint32_t i = 0; i < c->nexits; i++) {
        const JgBlock *t = &c->g->blocks.items[c->exits[i].target];
        x64_place(&c->buf, c->exits[i].label);
        for (uint32_t k = 0; k < t->nparams; k++) {
            if (k + 1 == c->exits[i].param)
                x64_mov_ri(&c->buf, X64_RAX, c->exits[i].value);
            else
                load_value(c, X64_RAX, t->params[k]);
            x64_store(&c->buf, 8, FRAME, BL_FRAME_SLOTS + 8 * (int32_t)k, X64_RAX);
        }
        leave_with(c, c->bg->ids[c->exits[i].target]);
    }
}

/* Whether block t computes nothing (its ops need no code) and goes on to
 * one block: a link into it goes straight on through its goto. */
static bool passes_on(const Codegen *c, const JgBlock *t)
{
    if (t->term.kind != JG_TERM_GOTO || t->term.nlinks != 1)
        return false;
    for (uint32_t i = 0; i < t->ops.count; i++)
        if (!bl_no_code(c, &t->ops.items[i]))
            return false;
    return true;
}

/* Whether link `l` to t is a back-edge where a tier-up look can leave (look_site). */
static bool looks_here(const Codegen *c, const JgLink *l, const JgBlock *t)
{
    return l->target <= c->current && c->looks && c->bg->enterable[l->target] &&
           (t->flags & JG_BLOCK_ENTRY);
}

/* Whether link `l` (well-formed, to this method) moves no value. */
static bool moves_nothing(const Codegen *c, const JgLink *l, const JgBlock *t)
{
    for (uint32_t i = 0; i < l->nargs; i++) {
        JgVal p = t->params[i], a = bl_resolve(c, l->args[i]);
        if (c->alias[p] != p || a == p || c->dead[p])
            continue;
        if (!same_loc(loc_of(c, p), loc_of(c, a)))
            return false;
    }
    return true;
}

/* Whether `l` is well-formed and to a block of this method. */
static bool internal_link(const Codegen *c, const JgLink *l)
{
    return l->target < c->g->blocks.count && bl_internal(c, l->target) &&
           l->nargs == c->g->blocks.items[l->target].nparams;
}

/* The label where following `l` jumps, through the blocks that pass on
 * (emit_link_from's steps); false when the way there moves values, or
 * has a look site and `look` is NULL, or `l` leaves the method. With
 * `look`, the first merge point a look site would be on is *look (else
 * UINT32_MAX): the jump is then a look_jump. */
static bool jump_only(const Codegen *c, const JgLink *l, unsigned depth, uint32_t *label,
                      uint32_t *look)
{
    if (!internal_link(c, l))
        return false;
    const JgBlock *t = &c->g->blocks.items[l->target];
    if (depth == 0 && look)
        *look = UINT32_MAX;
    if (!moves_nothing(c, l, t))
        return false;
    if (looks_here(c, l, t)) {
        if (!look)
            return false;
        if (*look == UINT32_MAX)
            *look = l->target;
    }
    if (passes_on(c, t) && depth < 8)
        return jump_only(c, &t->term.links[0], depth + 1, label, look);
    *label = c->labels[l->target - c->lo];
    return true;
}

/* jcc `cond` to `label`, through look_jump when `look` names a merge point. */
static void jcc_look(Codegen *c, X64Cond cond, uint32_t label, uint32_t look)
{
    if (look != UINT32_MAX)
        look_jump(c, look, true, cond, label);
    else
        x64_jcc(&c->buf, cond, label);
}

/* The block whose code following `l` jumps to (emit_link_from's steps):
 * its index in this method, UINT32_MAX when `l` leaves the method. */
static uint32_t jump_target(const Codegen *c, const JgLink *l)
{
    for (unsigned depth = 0; internal_link(c, l); depth++) {
        const JgBlock *t = &c->g->blocks.items[l->target];
        if (!passes_on(c, t) || depth >= 8)
            return l->target - c->lo;
        l = &t->term.links[0];
    }
    return UINT32_MAX;
}

/* The blocks with code: the enterable ones and those a jump reaches (the
 * others are passed through, or never run). */
static void find_reached(const Codegen *c, bool *reached)
{
    for (uint32_t b = c->lo; b < c->hi; b++)
        reached[b - c->lo] = c->bg->enterable[b];
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = c->lo; b < c->hi; b++) {
            const JgTerm *t = &c->g->blocks.items[b].term;
            if (t->kind == JG_TERM_GOTO && c->fused[b - c->lo].op) /* takes the branch over */
                t = &c->g->blocks.items[t->links[0].target].term;
            /* a flexswitch's cases are jumped to where they are inlined
             * (inline_cases), through the blocks passed on */
            bool flows = bl_flows(t) || t->kind == JG_TERM_FLEXSWITCH;
            for (uint32_t k = 0; reached[b - c->lo] && flows && k < t->nlinks; k++) {
                uint32_t to = jump_target(c, &t->links[k]);
                if (to != UINT32_MAX && !reached[to])
                    changed = reached[to] = true;
            }
        }
    }
}

static void emit_copy(Codegen *c, uint32_t b);
static void emit_here(Codegen *c, uint32_t b);

/* Whether block t, not placed yet, is better placed where a jump to it
 * would be: control falls through instead of jumping (the copies
 * pe/unroll.c appends at the graph's end run in a loop's order so, not in
 * block order). Not inside a rotation's copy (t would be placed there),
 * and only so many blocks deep. */
#define MAX_PLACED_HERE 32
static bool places_here(const Codegen *c, uint32_t t)
{
    uint32_t i = t - c->lo;
    return c->rotating == 0 && c->placing < MAX_PLACED_HERE && c->reached[i] && !c->last[i] &&
           !x64_placed(&c->buf, c->labels[i]);
}

/* The inline pure operations of a loop rotation from block t (rotates):
 * those of t when it ends with a branch (or a goto taking one over,
 * BlFuse), plus those of the block its goto jumps to otherwise, up to
 * MAX_ROTATED_BLOCKS - depth blocks deep; NO_ROTATION when the way does
 * not end with a branch, or calls, touches memory, or leaves the method. */
#define MAX_ROTATED_BLOCKS 2
#define MAX_ROTATED_OPS 4
#define NO_ROTATION UINT32_MAX
static uint32_t rotation_ops(const Codegen *c, uint32_t t, uint32_t depth)
{
    if (depth >= MAX_ROTATED_BLOCKS)
        return NO_ROTATION;
    const JgBlock *bk = &c->g->blocks.items[t];
    uint32_t n = 0;
    for (uint32_t i = 0; i < bk->ops.count; i++) {
        const JgOp *op = &bk->ops.items[i];
        if (bl_no_code(c, op))
            continue;
        if (!jg_op_is_pure(op->opcode) || bl_op_calls(c->g, op))
            return NO_ROTATION;
        n++;
    }
    if (bk->term.kind == JG_TERM_BRANCH ||
        (bk->term.kind == JG_TERM_GOTO && c->fused[t - c->lo].op))
        return n;
    if (bk->term.kind != JG_TERM_GOTO || bk->term.nlinks != 1)
        return NO_ROTATION;
    uint32_t next = jump_target(c, &bk->term.links[0]);
    uint32_t rest = next == UINT32_MAX ? NO_ROTATION : rotation_ops(c, c->lo + next, depth + 1);
    return rest == NO_ROTATION ? NO_ROTATION : n + rest;
}

/* Whether a jump back to block t, whose code is already placed, is better
 * a copy of that code (loop rotation): the way from t to the loop's test
 * computes at most MAX_ROTATED_OPS inline pure operations, so that a
 * loop's back-edge tests the loop's condition itself and jumps back into
 * the body, instead of jumping to the test. Copies nest only along that
 * way (c->rotating blocks deep): the code stays bounded. */
static bool rotates(const Codegen *c, uint32_t t)
{
    return x64_placed(&c->buf, c->labels[t - c->lo]) &&
           rotation_ops(c, t, c->rotating) <= MAX_ROTATED_OPS;
}

/* Follows link `l`: to a block of this method, parameters receive the
 * arguments (all read before any is written) and control jumps there; to
 * another method's block, the arguments go to the frame's slots and the
 * method returns that block's id. A back-edge has one look site
 * (`counted`: already), however many merge points it passes on through. */
static void emit_link_from(Codegen *c, const JgLink *l, unsigned depth, bool counted)
{
    const JgGraph *g = c->g;
    if (l->target >= g->blocks.count) {
        bl_cg_fail(c, "a link to block %u, which does not exist", l->target);
        return;
    }
    const JgBlock *t = &g->blocks.items[l->target];
    if (l->nargs != t->nparams) {
        bl_cg_fail(c, "a link passes %u values to block %u, which has %u parameters", l->nargs,
                   l->target, t->nparams);
        return;
    }
    if (!bl_internal(c, l->target)) {
        if (l->target >= c->bg->ncompiled || !c->bg->enterable[l->target]) {
            bl_cg_fail(c, "a link to block %u, which no method can be entered at", l->target);
            return;
        }
        for (uint32_t i = 0; i < l->nargs; i++) {
            load_value(c, X64_RAX, l->args[i]);
            x64_store(&c->buf, 8, FRAME, BL_FRAME_SLOTS + 8 * (int32_t)i, X64_RAX);
        }
        leave_with(c, c->bg->ids[l->target]);
        return;
    }
    parallel_move(c, l, t, 0);
    if (!counted && looks_here(c, l, t)) {
        look_site(c, l->target, 0, 0);
        counted = true; /* once: the blocks passed on to are one loop's header */
    }
    /* a block that only passes its parameters on: go straight on (a few
     * steps, so that a cycle of such blocks still ends) */
    if (passes_on(c, t) && depth < 8) {
        emit_link_from(c, &t->term.links[0], depth + 1, counted);
        return;
    }
    if (rotates(c, l->target)) {
        emit_copy(c, l->target);
        return;
    }
    if (places_here(c, l->target)) {
        emit_here(c, l->target);
        return;
    }
    x64_jmp(&c->buf, c->labels[l->target - c->lo]);
}

static void emit_link(Codegen *c, const JgLink *l)
{
    emit_link_from(c, l, 0, false);
}

/* One side of two_way: link `l`, after the look site of the back-edge `counted`
 * (when not NULL) with its target's parameter `param` as `bit`. */
static void two_way_side(Codegen *c, const JgLink *l, const JgLink *counted, uint32_t param,
                         bool bit)
{
    if (counted)
        look_site(c, counted->target, param, bit);
    emit_link_from(c, l, 0, counted != NULL);
}

/* `cmp x, wrap` (a fold's wrap-around bound), then `jcc to`. */
static void wrap_check(Codegen *c, const BlFold *f, X64Cond cond, uint32_t to)
{
    X64Reg a = operand(c, f->x, X64_RCX);
    x64_mov_ri(&c->buf, X64_RAX, (uint64_t)f->wrap);
    x64_alu_rr(&c->buf, X64_CMP, a, X64_RAX);
    x64_jcc(&c->buf, cond, to);
}

/* two_way on a fold's order (BlFold): the disjunction D = `x > imm` (the
 * flags) or `x < wrap` leads to one side, the rest to the other; the
 * wrap-around is tested only where the flags say no, so the way the flags
 * take (a loop's back-edge, usually) is one jcc. */
static void two_way_wrapped(Codegen *c, const BlFold *f, bool yes_is_d, const JgLink *yes,
                            const JgLink *no, const JgLink *counted, uint32_t param, bool yes_bit)
{
    const JgLink *d = yes_is_d ? yes : no, *other = yes_is_d ? no : yes;
    bool d_bit = yes_is_d ? yes_bit : !yes_bit;
    uint32_t direct;
    if (!counted && jump_only(c, d, 0, &direct, NULL)) {
        x64_jcc(&c->buf, X64_G, direct);
        wrap_check(c, f, X64_L, direct);
        two_way_side(c, other, counted, param, !d_bit);
        return;
    }
    uint32_t to_d = x64_label(&c->buf), to_other = x64_label(&c->buf);
    x64_jcc(&c->buf, X64_G, to_d);
    wrap_check(c, f, X64_GE, to_other);
    x64_place(&c->buf, to_d);
    two_way_side(c, d, counted, param, d_bit);
    x64_place(&c->buf, to_other);
    two_way_side(c, other, counted, param, !d_bit);
}

/* Follows `yes` when condition `cond` holds, `no` otherwise. A side whose
 * way is only a jump (and has no look site) is a jcc straight there; with
 * `counted`, each side first has that back-edge's look site (two_way_side), its
 * target's parameter `param` being `yes_bit` on the yes side. A fold's
 * order (c->wrap) goes through two_way_wrapped. */
static void two_way(Codegen *c, X64Cond cond, const JgLink *yes, const JgLink *no,
                    const JgLink *counted, uint32_t param, bool yes_bit)
{
    const BlFold *wrap = c->wrap;
    c->wrap = NULL; /* the sides may have branches of their own */
    if (wrap) {
        two_way_wrapped(c, wrap, c->wrap_yes_is_d, yes, no, counted, param, yes_bit);
        return;
    }
    uint32_t direct_yes, direct_no, look_yes = UINT32_MAX, look_no = UINT32_MAX;
    bool jump_yes = !counted && jump_only(c, yes, 0, &direct_yes, &look_yes);
    bool jump_no = !counted && jump_only(c, no, 0, &direct_no, &look_no);
    /* the yes side only jumps to a block not placed yet, the no side moves
     * values first: the block goes here (places_here), the moves aside
     * (a loop's way on falls through, its exit jumps) */
    if (jump_yes && !jump_no && places_here(c, c->lo + jump_target(c, yes)))
        jump_yes = false;
    /* both only jumps: the conditional one goes back (a rotated loop's
     * back-edge), the other one may fall through */
    if (jump_yes &&
        (!jump_no || (x64_placed(&c->buf, direct_yes) && !x64_placed(&c->buf, direct_no)))) {
        jcc_look(c, cond, direct_yes, look_yes);
        two_way_side(c, no, counted, param, !yes_bit);
        return;
    }
    uint32_t if_no = jump_no ? direct_no : x64_label(&c->buf);
    jcc_look(c, (X64Cond)(cond ^ 1), if_no, jump_no ? look_no : UINT32_MAX);
    two_way_side(c, yes, counted, param, yes_bit);
    if (!jump_no) {
        x64_place(&c->buf, if_no);
        two_way_side(c, no, counted, param, !yes_bit);
    }
}

/* Branch `t` (of block `block`) on its value, or, when `cmp` is not NULL,
 * on the flags that comparison has set. */
static void branch(Codegen *c, uint32_t block, const JgTerm *t, const JgOp *cmp)
{
    uint32_t current = c->current;
    c->current = block; /* for the back-edges' look sites */
    X64Cond cond = X64_NE;
    if (cmp) {
        cond = int_condition((JgPred)cmp->pred);
    } else { /* booleans are 0 or 1 */
        int32_t disp;
        if (slot_of(c, t->value, &disp)) {
            x64_alu_mi(&c->buf, X64_CMP, X64_RBP, disp, 0);
        } else {
            X64Reg r = operand(c, t->value, X64_RAX);
            x64_test_rr(&c->buf, r, r);
        }
    }
    two_way(c, cond, &t->links[0], &t->links[1], NULL, 0, false);
    c->current = current;
}

/* The goto of link `l` into the branch of its target t, on the flags of
 * `cmp` (BlFuse with a parameter): jumps where t's branch would go, t's
 * parameter that the comparison's bool goes to left unwritten. A back-edge
 * has a look site on each side, and its exit to the dispatcher stores that
 * parameter as the bool it is on that side. */
static void branch_through(Codegen *c, const JgLink *l, const JgOp *cmp, const BlFuse *fuse)
{
    const JgBlock *t = &c->g->blocks.items[l->target];
    const JgLink *counted = looks_here(c, l, t) ? l : NULL;
    uint32_t current = c->current;
    c->current = l->target; /* for the back-edges' look sites of t's links */
    /* t's branch takes its first link when the bool is not `invert` */
    X64Cond holds = int_condition((JgPred)cmp->pred);
    X64Cond cond = fuse->invert ? (X64Cond)(holds ^ 1) : holds;
    two_way(c, cond, &t->term.links[0], &t->term.links[1], counted, fuse->param, !fuse->invert);
    c->current = current;
}

/* Flags of reg (a normalized value) compared with the constant k: an
 * immediate when sign-extending 32 bits gives k, else through rcx. */
static void compare_with(Codegen *c, X64Reg reg, uint64_t k)
{
    if ((uint64_t)(int64_t)(int32_t)k == k) {
        x64_alu_ri(&c->buf, X64_CMP, reg, (int32_t)k);
        return;
    }
    x64_mov_ri(&c->buf, X64_RCX, k);
    x64_alu_rr(&c->buf, X64_CMP, reg, X64_RCX);
}

/* A flexswitch's cases whose blocks are in this method (a consolidated
 * graph, runtime.c), compared in turn and followed like a goto: no trip
 * through the dispatcher. The first MAX_INLINE_CASES only: a megamorphic
 * site's other cases go on through the cache and the runtime. */
#define MAX_INLINE_CASES 16
static void inline_cases(Codegen *c, const JgTerm *t, const JgFlexswitch *fs)
{
    JgType vt = jg_value_type(c->g, fs->value);
    uint32_t n = fs->ncases < t->nlinks - 1 ? fs->ncases : t->nlinks - 1;
    JgVal known = bl_resolve(c, fs->value);
    if (known && jg_is_const(c->g, known)) { /* the case it takes, or none */
        uint64_t v = jg_truncate_bits(vt, jg_value(c->g, known)->bits);
        for (uint32_t i = 0; i < n && !c->failed; i++)
            if (jg_truncate_bits(vt, fs->values[i]) == v && internal_link(c, &t->links[i + 1])) {
                emit_link(c, &t->links[i + 1]);
                return;
            }
        return;
    }
    /* the value in its register or rax once: a case's code is entered only
       where it matches */
    bool loaded = false;
    X64Reg v = X64_RAX;
    for (uint32_t i = 0, inlined = 0; i < n && inlined < MAX_INLINE_CASES && !c->failed; i++) {
        const JgLink *l = &t->links[i + 1];
        if (!internal_link(c, l))
            continue;
        inlined++;
        uint32_t next = x64_label(&c->buf);
        if (!loaded)
            v = operand(c, fs->value, X64_RAX);
        loaded = true;
        compare_with(c, v, jg_truncate_bits(vt, fs->values[i]));
        x64_jcc(&c->buf, X64_NE, next);
        emit_link(c, l);
        x64_place(&c->buf, next);
    }
}

static void lower_terminator(Codegen *c, uint32_t block)
{
    const JgBlock *bk = &c->g->blocks.items[block];
    const JgTerm *t = &bk->term;
    const BlFuse *fuse = &c->fused[block - c->lo];
    const JgOp *cmp = fuse->op ? &bk->ops.items[fuse->op - 1] : NULL;
    const BlFold *fold = cmp && c->fold[block - c->lo].x ? &c->fold[block - c->lo] : NULL;
    switch ((JgTermKind)t->kind) {
    case JG_TERM_GOTO:
        if (cmp) { /* the comparison, the goto's moves (mov keeps the flags), then the
                      branch of the block it goes to (homes.c, find_fused) */
            const JgLink *l = &t->links[0];
            const JgBlock *to = &c->g->blocks.items[l->target];
            if (fold)
                compare_fold(c, fold);
            else
                compare(c, cmp);
            parallel_move(c, l, to, fuse->param);
            /* the branch takes its yes side where the comparison holds (not
             * holds, through an inverted parameter) */
            c->wrap = fold && fold->ordered ? fold : NULL;
            c->wrap_yes_is_d = fold && fold->pos != (fuse->param && fuse->invert);
            if (fuse->param)
                branch_through(c, l, cmp, fuse);
            else
                branch(c, l->target, &to->term, cmp);
            return;
        }
        emit_link(c, &t->links[0]);
        return;
    case JG_TERM_BRANCH:
        if (fold)
            compare_fold(c, fold);
        else if (cmp)
            compare(c, cmp);
        c->wrap = fold && fold->ordered ? fold : NULL;
        c->wrap_yes_is_d = fold && fold->pos;
        branch(c, block, t, cmp);
        return;
    case JG_TERM_SWITCH: {
        JgType vt = jg_value_type(c->g, t->value);
        uint32_t n = t->nlinks - 1;
        uint32_t cases[n + 1]; /* their labels */
        X64Reg v = operand(c, t->value, X64_RAX);
        for (uint32_t i = 0; i < n; i++) {
            cases[i] = x64_label(&c->buf);
            compare_with(c, v, jg_truncate_bits(vt, (uint64_t)t->cases[i]));
            x64_jcc(&c->buf, X64_E, cases[i]);
        }
        emit_link(c, &t->links[0]);
        for (uint32_t i = 0; i < n; i++) {
            x64_place(&c->buf, cases[i]);
            emit_link(c, &t->links[i + 1]);
        }
        return;
    }
    case JG_TERM_RETURN:
        x64_store(&c->buf, 8, FRAME, 0, operand(c, t->value, X64_RAX));
        leave_with(c, BL_BLOCKID_RETURN);
        return;
    case JG_TERM_FLEXSWITCH: {
        JgFlexswitch *fs = t->flex;
        if (!fs) {
            bl_cg_fail(c, "block %u: a flexswitch without its object", block);
            return;
        }
        inline_cases(c, t, fs);
        for (uint32_t i = 0; i < fs->nlive; i++) {
            load_value(c, X64_RAX, fs->live[i]);
            x64_store(&c->buf, 8, FRAME, BL_FRAME_SLOTS + 8 * (int32_t)i, X64_RAX);
        }
        BlFlexCache *cache = calloc(1, sizeof *cache);
        if (!cache) {
            bl_cg_fail(c, "out of memory");
            return;
        }
        cache->next = c->bg->flex_caches;
        c->bg->flex_caches = cache;
        /* the case taken last, without a call: value and id from the cache */
        load_value(c, X64_RDX, t->value); /* before rdi and rsi, which may be homes */
        uint32_t slow = x64_label(&c->buf);
        int32_t disp;
        X64Reg base = at(c, cache, (int32_t)offsetof(BlFlexCache, value), X64_RCX, &disp);
        x64_load(&c->buf, 8, X64_RAX, base, disp);
        x64_alu_rr(&c->buf, X64_CMP, X64_RDX, X64_RAX);
        x64_jcc(&c->buf, X64_NE, slow);
        base = at(c, cache, (int32_t)offsetof(BlFlexCache, id), X64_RCX, &disp);
        x64_load(&c->buf, 4, X64_RAX, base, disp);
        x64_test_rr(&c->buf, X64_RAX, X64_RAX);
        x64_jcc(&c->buf, X64_NE, c->epilogue);
        x64_place(&c->buf, slow);
        x64_mov_ri(&c->buf, X64_RDI, (uint64_t)(uintptr_t)c->bg);
        x64_mov_ri(&c->buf, X64_RSI, (uint64_t)(uintptr_t)fs);
        x64_mov_ri(&c->buf, X64_RCX, (uint64_t)(uintptr_t)cache);
        x64_call_abs(&c->buf, (const void *)bl_flex_dispatch);
        x64_jmp(&c->buf, c->epilogue);
        return;
    }
    case JG_TERM_UNREACHABLE:
        x64_mov_ri(&c->buf, X64_RDI, (uint64_t)(uintptr_t)c->bg);
        x64_mov_ri(&c->buf, X64_RSI, block);
        x64_call_abs(&c->buf, (const void *)bl_unreachable);
        return;
    default:
        bl_cg_fail(c, "block %u has no terminator", block);
    }
}

/* ---- the method ---- */

/* After an entry at block bk (other than the graph's entry, whose
 * arguments its caller still holds): the frame's slots that held bk's
 * pointer parameters are cleared. The frame lives as long as the
 * activation, and the conservative collector would otherwise keep alive
 * what a slot pointed to on entry, such as the head of a list the loop
 * entered here walks and drops. */
static void clear_pointer_slots(Codegen *c, const JgBlock *bk)
{
    bool zero = false; /* rax is 0: the parameters are in their homes */
    for (uint32_t i = 0; i < bk->nparams; i++) {
        if (jg_value(c->g, bk->params[i])->type != JG_PTR)
            continue;
        if (!zero)
            x64_alu_rr(&c->buf, X64_XOR, X64_RAX, X64_RAX);
        zero = true;
        x64_store(&c->buf, 8, FRAME, BL_FRAME_SLOTS + 8 * (int32_t)i, X64_RAX);
    }
}

/* Prologue, and the entry of every enterable block: its parameters from
 * the frame's slots. */
static void emit_entry(Codegen *c)
{
    X64Buf *b = &c->buf;
    /* five pushes after rbp leave rsp 8 off 16-byte alignment */
    uint32_t frame = 8 * (c->nslots + c->nscratch);
    frame = ((frame + 15) & ~15u) + 8;
    x64_push(b, X64_RBP);
    x64_mov_rr(b, X64_RBP, X64_RSP);
    x64_push(b, X64_RBX);
    x64_push(b, X64_R12);
    x64_push(b, X64_R13);
    x64_push(b, X64_R14);
    x64_push(b, X64_R15);
    x64_alu_ri(b, X64_SUB, X64_RSP, (int32_t)frame);
    x64_mov_rr(b, FRAME, X64_RSI);
    x64_mov_rr(b, AREA, X64_RDX);
    for (uint32_t blk = c->lo; blk < c->hi; blk++) {
        if (!c->bg->enterable[blk])
            continue;
        uint32_t next = x64_label(b);
        x64_cmp32_ri(b, X64_RDI, (int32_t)(blk - c->lo));
        x64_jcc(b, X64_NE, next);
        const JgBlock *bk = &c->g->blocks.items[blk];
        for (uint32_t i = 0; i < bk->nparams; i++) {
            JgVal v = bl_resolve(c, bk->params[i]); /* an alias: its value's home */
            int32_t slot = BL_FRAME_SLOTS + 8 * (int32_t)i;
            if (v && c->reg[v] != NO_REG) { /* bl_resolve: v is its own alias */
                x64_load(b, 8, (X64Reg)c->reg[v], FRAME, slot);
                continue;
            }
            x64_load(b, 8, X64_RAX, FRAME, slot);
            store_result(c, v, X64_RAX);
        }
        if (blk != 0)
            clear_pointer_slots(c, bk);
        x64_jmp(b, c->labels[blk - c->lo]);
        x64_place(b, next);
    }
    x64_mov_rr(b, X64_RDX, X64_RDI);
    x64_mov_ri(b, X64_RDI, (uint64_t)(uintptr_t)c->bg);
    x64_mov_ri(b, X64_RSI, c->method);
    x64_call_abs(b, (const void *)bl_bad_entry);
}

static void emit_epilogue(Codegen *c)
{
    X64Buf *b = &c->buf;
    x64_place(b, c->epilogue);
    x64_lea(b, X64_RSP, X64_RBP, -40);
    x64_pop(b, X64_R15);
    x64_pop(b, X64_R14);
    x64_pop(b, X64_R13);
    x64_pop(b, X64_R12);
    x64_pop(b, X64_RBX);
    x64_pop(b, X64_RBP);
    x64_ret(b);
}

/* The operations and terminator of block b. */
static void lower_block(Codegen *c, uint32_t b)
{
    const JgBlock *bk = &c->g->blocks.items[b];
    c->current = b;
    uint32_t fused = c->fused[b - c->lo].op; /* 1 + its index: lowered by the branch */
    for (uint32_t i = 0; i < bk->ops.count && !c->failed; i++) {
        const JgOp *op = &bk->ops.items[i];
        if (i + 1 == fused)
            continue;
        if (i + 1 < bk->ops.count && i + 2 != fused && pairs_divide(c, op, op + 1)) {
            lower_divide(c, op, op + 1);
            i++;
            continue;
        }
        c->scratch = choose_scratch(c, b, i, op);
        lower_op(c, b, op);
    }
    c->scratch = X64_RAX;
    lower_terminator(c, b);
}

/* The code of block b, at its label. */
static void emit_block(Codegen *c, uint32_t b)
{
    x64_place(&c->buf, c->labels[b - c->lo]);
    lower_block(c, b);
}

/* Block b's code where a jump to it would be, `depth` counting such
 * blocks in progress: the block itself placed there (places_here), or a
 * copy of it (rotates). The block lowered around it goes on afterwards. */
static void emit_nested(Codegen *c, uint32_t b, uint32_t *depth, bool place)
{
    uint32_t current = c->current;
    (*depth)++;
    if (place)
        emit_block(c, b);
    else
        lower_block(c, b);
    (*depth)--;
    c->current = current;
}

static void emit_here(Codegen *c, uint32_t b)
{
    emit_nested(c, b, &c->placing, true);
}

static void emit_copy(Codegen *c, uint32_t b)
{
    emit_nested(c, b, &c->rotating, false);
}

/* The code of the loop a look site closes, [*start, end): from the target
 * of the first jump after the site, when that jump goes back over the site
 * (the loop's back-edge, after the header's test copied there), to the
 * jump's end; 0 when the site is followed by no such jump. */
static uint32_t loop_code(const X64Buf *b, uint32_t site, uint32_t *start)
{
    const X64Fixup *next = NULL;
    for (uint32_t i = 0; i < b->nfixups; i++)
        if (b->fixups[i].at > site && (!next || b->fixups[i].at < next->at))
            next = &b->fixups[i];
    if (!next || next->label >= b->nlabels)
        return 0;
    uint32_t target = b->labels[next->label], end = next->at + 4;
    *start = target;
    return target <= site ? end : 0;
}

/* The code offsets of the method's flexswitch blocks that have a case, in
 * `at` (room for the method's blocks); their count. A flexswitch without
 * cases has never been reached (a cold path's, an error's check, or a
 * promotion on a path not taken yet): a loop it sits in does not take it;
 * once taken, its case grows the graph into another method, which the
 * tier-up's count of method entries sees until consolidation compiles
 * the graph again. */
static uint32_t flexswitch_offsets(const Codegen *c, uint32_t *at)
{
    uint32_t n = 0;
    for (uint32_t b = c->lo; b < c->hi; b++) {
        uint32_t label = c->labels[b - c->lo];
        const JgTerm *t = &c->g->blocks.items[b].term;
        if (t->kind == JG_TERM_FLEXSWITCH && t->nlinks > 1 && x64_placed(&c->buf, label))
            at[n++] = c->buf.labels[label];
    }
    return n;
}

/* Each loop header's loops (BlGraph.loops): what the tier-up weighs LLVM's
 * gain by (driver/tier_policy.h), known from the code. Nothing is counted
 * in it: one word incremented in memory on every case taken is a chain of
 * store-to-load forwards through the loop (docs/baseline.md, "Tiers").
 * False when out of memory. */
static bool note_loops(Codegen *c)
{
    if (!c->nexits)
        return true;
    uint32_t *cases = malloc(sizeof *cases * (c->hi - c->lo));
    if (!cases)
        return bl_cg_fail(c, "out of memory");
    uint32_t ncases = flexswitch_offsets(c, cases);
    for (uint32_t i = 0; i < c->nexits; i++) {
        JgBaselineLoop *loop = &c->bg->loops[c->exits[i].target];
        uint32_t start = 0, end = loop_code(&c->buf, c->buf.labels[c->exits[i].site], &start);
        if (!end)
            continue;
        if (end - start > loop->bytes)
            loop->bytes = end - start;
        for (uint32_t k = 0; k < ncases && !loop->takes_cases; k++)
            loop->takes_cases = cases[k] >= start && cases[k] < end;
    }
    free(cases);
    return true;
}

/* The finished code in executable memory, its back-edges' look sites
 * registered; NULL on failure. */
static void *install(Codegen *c)
{
    uint8_t *code = bl_install(c->bg->bl, c->buf.code, c->buf.len);
    BlSite *sites = malloc(sizeof *sites * (c->nexits ? c->nexits : 1));
    bool ok = code && sites;
    for (uint32_t i = 0; ok && i < c->nexits; i++) {
        const BlExit *e = &c->exits[i];
        sites[i] = (BlSite){.at = code + c->buf.labels[e->site] + e->jump,
                            .stub = code + c->buf.labels[e->label],
                            .jump = e->jump != 0};
        if (e->jump)
            memcpy(&sites[i].rel, sites[i].at, sizeof sites[i].rel);
    }
    ok = ok && bl_sites_add(c->bg->bl, sites, c->nexits);
    free(sites);
    return ok ? code : NULL;
}

/* The range [*vlo, *vhi) of the value numbers blocks [lo, hi) name (their
 * parameters, results, operands, terminators' values, links' arguments and
 * flexswitches' live values; 0 aside), and how many values they define:
 * the entries of the per-value arrays this compile writes (BlValueArrays)
 * and a bound on its classes (homes.c). */
static void named_values(const JgGraph *g, uint32_t lo, uint32_t hi, uint32_t *vlo, uint32_t *vhi,
                         uint32_t *ndefs)
{
    uint32_t min = UINT32_MAX, max = 0, defs = 0;
#define NAME(v)                                                                                    \
    do {                                                                                           \
        JgVal v_ = (v);                                                                            \
        if (v_ && v_ < min)                                                                        \
            min = v_;                                                                              \
        if (v_ > max)                                                                              \
            max = v_;                                                                              \
    } while (0)
    for (uint32_t b = lo; b < hi; b++) {
        const JgBlock *bk = &g->blocks.items[b];
        defs += bk->nparams;
        for (uint32_t i = 0; i < bk->nparams; i++)
            NAME(bk->params[i]);
        for (uint32_t i = 0; i < bk->ops.count; i++) {
            const JgOp *op = &bk->ops.items[i];
            defs += op->result != 0;
            NAME(op->result);
            for (uint32_t a = 0; a < op->nargs; a++)
                NAME(op->args[a]);
        }
        const JgTerm *t = &bk->term;
        NAME(t->value);
        for (uint32_t l = 0; l < t->nlinks; l++)
            for (uint32_t a = 0; a < t->links[l].nargs; a++)
                NAME(t->links[l].args[a]);
        if (t->kind == JG_TERM_FLEXSWITCH && t->flex) {
            const JgFlexswitch *fs = t->flex;
            for (uint32_t i = 0; i < fs->nlive; i++)
                NAME(fs->live[i]);
        }
    }
#undef NAME
    *vlo = min == UINT32_MAX ? 0 : min;
    *vhi = max + 1;
    *ndefs = defs;
}

bool bl_compile_method(BlGraph *bg, uint32_t lo, uint32_t hi, uint32_t method, char *err,
                       size_t errsize)
{
    const JgGraph *g = bg->graph;
    Codegen c = {
        .bg = bg, .g = g, .lo = lo, .hi = hi, .method = method, .err = err, .errsize = errsize};
    x64_init(&c.buf);
    BlValueArrays *va = &bg->bl->values;
    uint32_t vlo, vhi;
    named_values(g, lo, hi, &vlo, &vhi, &c.ndefs);
    bool ok = bl_values_reserve(va, g->values.count);
    if (ok) {
        c.home = va->home;
        c.alloca_at = va->alloca_at;
        c.reg = va->reg;
        c.alias = va->alias;
        c.dead = va->dead;
        c.scaled = va->scaled;
        c.folded = va->folded;
        c.addressed = va->addressed;
    }
    c.labels = malloc(sizeof *c.labels * (hi - lo));
    c.fused = calloc(hi - lo, sizeof *c.fused);
    c.fold = calloc(hi - lo, sizeof *c.fold);
    c.reached = calloc(hi - lo, sizeof *c.reached);
    c.last = calloc(hi - lo, sizeof *c.last);
    ok = ok && c.labels && c.fused && c.fold && c.reached && c.last;
    if (!ok)
        bl_cg_fail(&c, "out of memory");
    ok = ok && bl_assign_homes(&c);
    c.looks = bl_looks_enabled(bg->bl);
    if (ok) {
        for (uint32_t i = 0; i < hi - lo; i++)
            c.labels[i] = x64_label(&c.buf);
        c.epilogue = x64_label(&c.buf);
        emit_entry(&c);
        find_reached(&c, c.reached);
        /* blocks a goto branches through (BlFuse with a parameter) keep
         * their code for their other ways in, placed last: the goto's way
         * on is then often the next block, without a jump */
        for (uint32_t b = lo; b < hi; b++) {
            if (c.fused[b - lo].param)
                c.last[g->blocks.items[b].term.links[0].target - lo] = true;
            /* a block that ends the run (an error raised) is placed last
             * too, never where a branch would fall into it: a loop's way on
             * then falls through and stays on its cache lines */
            if (g->blocks.items[b].term.kind == JG_TERM_UNREACHABLE)
                c.last[b - lo] = true;
        }
        for (uint32_t pass = 0; pass < 2; pass++)
            for (uint32_t b = lo; b < hi && !c.failed; b++)
                if (c.reached[b - lo] && c.last[b - lo] == pass &&
                    !x64_placed(&c.buf, c.labels[b - lo]))
                    emit_block(&c, b);
        emit_exits(&c);
        emit_epilogue(&c);
        ok = !c.failed;
        if (ok && !x64_resolve(&c.buf))
            ok = bl_cg_fail(&c, c.buf.oom ? "out of memory" : "a jump to an unplaced label");
    }
    ok = ok && note_loops(&c);
    if (ok) {
        void *code = install(&c);
        if (!code) {
            ok = bl_cg_fail(&c, "cannot map executable memory");
        } else {
            BlMethod *m = &bg->methods[method];
            *(void **)&m->fn = code;
            if (bg->bl->options.dump_asm) {
                fprintf(bg->bl->options.dump_asm,
                        "; ---- baseline asm: %s, method %u (blocks %u..%u) ----\n",
                        g->name ? g->name : "<anonymous>", method, lo, hi - 1);
                x64_disasm(bg->bl->options.dump_asm, c.buf.code, c.buf.len,
                           (uint64_t)(uintptr_t)code);
            }
            m->lo = lo;
            m->hi = hi;
            m->area_bytes = c.area_bytes;
            bg->bl->stats.code_bytes += c.buf.len;
        }
    }
    x64_free(&c.buf);
    bl_values_clean(va, vlo, vhi);
    assert(bl_values_all_clean(va, g->values.count));
    free(c.labels);
    free(c.exits);
    free(c.fused);
    free(c.fold);
    free(c.reached);
    free(c.last);
    return ok;
}
