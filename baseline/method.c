/* One baseline method (docs/baseline.md, "Code"): residual blocks [lo, hi)
 * to x86-64 in one pass. Every value the method defines has a home, an
 * 8-byte stack slot holding it as the evaluator's frame would (integers
 * zero-extended from their width); constants are immediates. Operations
 * load their operands into scratch registers, compute, and store the
 * result. The frame:
 *   rbp+8     return address
 *   rbp       saved rbp;  rbp-8 saved rbx (= BlFrame *);  rbp-16 saved r12 (= area)
 *   rbp-24-8s home of slot s
 *   rsp..     scratch: link arguments in flight, call argument arrays */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define FRAME X64_RBX /* BlFrame * */
#define AREA X64_R12  /* this method's ALLOCA memory */

typedef struct Codegen {
    BlGraph *bg;
    const JgGraph *g;
    uint32_t lo, hi, method;
    X64Buf buf;
    int32_t *home;       /* per value: rbp offset of its slot, 0: none */
    uint32_t *alloca_at; /* per value (ALLOCA results): offset in the area */
    uint32_t *labels;    /* per local block */
    uint32_t epilogue;
    uint32_t nslots, nscratch, area_bytes;
    char *err;
    size_t errsize;
    bool failed;
} Codegen;

static bool fail(Codegen *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Codegen *c, const char *fmt, ...)
{
    if (c->failed)
        return false;
    c->failed = true;
    int n = snprintf(c->err, c->errsize, "baseline: graph %s: ",
                     c->g->name ? c->g->name : "<anonymous>");
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

static bool internal(const Codegen *c, uint32_t block)
{
    return block >= c->lo && block < c->hi;
}

static void define(Codegen *c, JgVal v)
{
    if (v && !c->home[v])
        c->home[v] = -24 - 8 * (int32_t)c->nslots++;
}

/* Gives a home to every value the method defines. */
static bool assign_homes(Codegen *c)
{
    const JgGraph *g = c->g;
    for (uint32_t b = c->lo; b < c->hi; b++) {
        const JgBlock *bl = &g->blocks.items[b];
        for (uint32_t i = 0; i < bl->nparams; i++)
            define(c, bl->params[i]);
        for (uint32_t i = 0; i < bl->ops.count; i++) {
            const JgOp *op = &bl->ops.items[i];
            define(c, op->result);
            if (op->opcode == JG_OP_ALLOCA && op->result) {
                uint64_t size = op->imm > 0 ? (uint64_t)op->imm : 0;
                c->alloca_at[op->result] = c->area_bytes;
                uint64_t next = c->area_bytes + ((size + 16) & ~(uint64_t)15);
                if (next > UINT32_MAX / 2)
                    return fail(c, "ALLOCAs of block %u take too much memory", b);
                c->area_bytes = (uint32_t)next;
            }
            if (op->opcode == JG_OP_CALL && op->nargs > c->nscratch)
                c->nscratch = op->nargs;
        }
        const JgTerm *t = &bl->term;
        for (uint32_t i = 0; i < t->nlinks; i++)
            if (t->links[i].nargs > c->nscratch)
                c->nscratch = t->links[i].nargs;
        if (t->kind == JG_TERM_FLEXSWITCH && t->flex &&
            ((JgFlexswitch *)t->flex)->nlive > c->bg->capacity)
            c->bg->capacity = ((JgFlexswitch *)t->flex)->nlive;
        for (uint32_t i = 0; i < t->nlinks; i++)
            if (t->links[i].nargs > c->bg->capacity)
                c->bg->capacity = t->links[i].nargs;
        if (bl->nparams > c->bg->capacity)
            c->bg->capacity = bl->nparams;
    }
    if (c->nslots > (1u << 24))
        return fail(c, "too many values for one method (%u)", c->nslots);
    return true;
}

/* reg = value v (normalized bits) */
static void load_value(Codegen *c, X64Reg reg, JgVal v)
{
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
        fail(c, "v%u is used in block %u but not defined in this method", v, info->block);
        return;
    }
    x64_load(&c->buf, 8, reg, X64_RBP, c->home[v]);
}

static void store_result(Codegen *c, JgVal v, X64Reg reg)
{
    if (v)
        x64_store(&c->buf, 8, X64_RBP, c->home[v], reg);
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
    case JG_I1:
        x64_alu_ri(&c->buf, X64_AND, reg, 1);
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
        load_value(c, regs[i], i < op->nargs ? op->args[i] : 0);
    x64_mov_ri(&c->buf, X64_RDI, bl_arith_desc(op, jg_value_type(c->g, op->args[0])));
    x64_call_abs(&c->buf, (const void *)bl_arith);
    store_result(c, op->result, X64_RAX);
}

static X64Cond int_condition(JgPred p)
{
    static const X64Cond conds[] = {
        [JG_EQ] = X64_E,   [JG_NE] = X64_NE,  [JG_UGT] = X64_A,  [JG_UGE] = X64_AE,
        [JG_ULT] = X64_B,  [JG_ULE] = X64_BE, [JG_SGT] = X64_G,  [JG_SGE] = X64_GE,
        [JG_SLT] = X64_L,  [JG_SLE] = X64_LE,
    };
    return conds[p];
}

static void lower_icmp(Codegen *c, const JgOp *op)
{
    JgType t = jg_value_type(c->g, op->args[0]);
    load_value(c, X64_RAX, op->args[0]);
    load_value(c, X64_RCX, op->args[1]);
    if (op->pred >= JG_SGT && op->pred <= JG_SLE) {
        sign_extend(c, X64_RAX, t);
        sign_extend(c, X64_RCX, t);
    }
    x64_alu_rr(&c->buf, X64_CMP, X64_RAX, X64_RCX);
    x64_setcc(&c->buf, int_condition((JgPred)op->pred), X64_RAX);
    store_result(c, op->result, X64_RAX);
}

static void lower_binary(Codegen *c, const JgOp *op)
{
    load_value(c, X64_RAX, op->args[0]);
    load_value(c, X64_RCX, op->args[1]);
    switch (op->opcode) {
    case JG_OP_ADD:
    case JG_OP_PTRADD:
        x64_alu_rr(&c->buf, X64_ADD, X64_RAX, X64_RCX);
        break;
    case JG_OP_SUB:
        x64_alu_rr(&c->buf, X64_SUB, X64_RAX, X64_RCX);
        break;
    case JG_OP_AND:
        x64_alu_rr(&c->buf, X64_AND, X64_RAX, X64_RCX);
        break;
    case JG_OP_OR:
        x64_alu_rr(&c->buf, X64_OR, X64_RAX, X64_RCX);
        break;
    case JG_OP_XOR:
        x64_alu_rr(&c->buf, X64_XOR, X64_RAX, X64_RCX);
        break;
    default: /* JG_OP_MUL */
        x64_imul_rr(&c->buf, X64_RAX, X64_RCX);
        break;
    }
    normalize(c, X64_RAX, (JgType)op->type);
    store_result(c, op->result, X64_RAX);
}

static void lower_alloca(Codegen *c, const JgOp *op)
{
    uint64_t size = op->imm > 0 ? (uint64_t)op->imm : 0;
    int32_t at = (int32_t)c->alloca_at[op->result];
    x64_lea(&c->buf, X64_RAX, AREA, at);
    store_result(c, op->result, X64_RAX);
    if (size) { /* zeroed each time it runs, as the evaluator does */
        x64_lea(&c->buf, X64_RDI, AREA, at);
        x64_mov_ri(&c->buf, X64_RCX, size);
        x64_mov_ri(&c->buf, X64_RAX, 0);
        x64_rep_stosb(&c->buf);
    }
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

/* Stores the call's arguments (slots) at [rsp + 8i]. */
static void spill_args(Codegen *c, const JgOp *op)
{
    for (uint32_t i = 1; i < op->nargs; i++) {
        load_value(c, X64_RAX, op->args[i]);
        x64_store(&c->buf, 8, X64_RSP, (int32_t)(8 * (i - 1)), X64_RAX);
    }
}

static void lower_call(Codegen *c, uint32_t block, const JgOp *op)
{
    JgBaseline *bl = c->bg->bl;
    if (op->nargs == 0) {
        fail(c, "call without a callee operand in block %u", block);
        return;
    }
    const JgGraph *callee = op->callee;
    uint32_t n = op->nargs - 1;
    if (callee && (callee->flags & JG_FLAG_PORTAL)) {
        if (!bl->options.portal_call) {
            fail(c, "a portal call, but the options have no portal_call function");
            return;
        }
        spill_args(c, op);
        x64_mov_ri(&c->buf, X64_RDI, (uint64_t)(uintptr_t)bl->options.portal_ctx);
        x64_mov_rr(&c->buf, X64_RSI, X64_RSP);
        x64_call_abs(&c->buf, (const void *)bl->options.portal_call);
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
                fail(c, "call of a null function%s%s", callee ? " for " : "",
                     callee && callee->name ? callee->name : "");
                return;
            }
        } else if (info->type != JG_PTR) {
            fail(c, "call through a %s", jg_type_name((JgType)info->type));
            return;
        }
        if (simple_call(c, op)) {
            static const X64Reg regs[6] = {X64_RDI, X64_RSI, X64_RDX, X64_RCX, X64_R8, X64_R9};
            if (constant)
                x64_mov_ri(&c->buf, X64_R11, addr);
            else
                load_value(c, X64_R11, f);
            for (uint32_t i = 0; i < n; i++) {
                JgType t = jg_value_type(c->g, op->args[i + 1]);
                load_value(c, regs[i], op->args[i + 1]);
                if (t == JG_I8 || t == JG_I16) /* C's promotion, as the LLVM backend passes them */
                    sign_extend(c, regs[i], t);
            }
            x64_call_reg(&c->buf, X64_R11);
        } else {
            BlCallDesc *d = calloc(1, sizeof *d + sizeof(JgType) * (n ? n : 1));
            if (!d) {
                fail(c, "out of memory");
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
            x64_mov_ri(&c->buf, X64_RDI, (uint64_t)(uintptr_t)d);
            if (constant)
                x64_mov_ri(&c->buf, X64_RSI, 0);
            else
                load_value(c, X64_RSI, f);
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
    switch ((JgOpcode)op->opcode) {
    case JG_OP_ADD:
    case JG_OP_SUB:
    case JG_OP_MUL:
    case JG_OP_AND:
    case JG_OP_OR:
    case JG_OP_XOR:
    case JG_OP_PTRADD:
        lower_binary(c, op);
        return;
    case JG_OP_ICMP:
        lower_icmp(c, op);
        return;
    case JG_OP_SELECT:
        load_value(c, X64_RCX, op->args[0]);
        load_value(c, X64_RAX, op->args[1]);
        load_value(c, X64_RDX, op->args[2]);
        x64_alu_ri(&c->buf, X64_AND, X64_RCX, 1);
        x64_cmov(&c->buf, X64_E, X64_RAX, X64_RDX);
        store_result(c, op->result, X64_RAX);
        return;
    case JG_OP_ZEXT:
    case JG_OP_TRUNC:
    case JG_OP_PTRTOINT:
    case JG_OP_INTTOPTR:
    case JG_OP_BITCAST:
        load_value(c, X64_RAX, op->args[0]);
        normalize(c, X64_RAX, (JgType)op->type);
        store_result(c, op->result, X64_RAX);
        return;
    case JG_OP_SEXT:
        load_value(c, X64_RAX, op->args[0]);
        sign_extend(c, X64_RAX, jg_value_type(c->g, op->args[0]));
        normalize(c, X64_RAX, (JgType)op->type);
        store_result(c, op->result, X64_RAX);
        return;
    case JG_OP_LOAD:
        load_value(c, X64_RCX, op->args[0]);
        x64_load(&c->buf, type_size((JgType)op->type), X64_RAX, X64_RCX, 0);
        normalize(c, X64_RAX, (JgType)op->type);
        store_result(c, op->result, X64_RAX);
        return;
    case JG_OP_STORE:
        load_value(c, X64_RCX, op->args[0]);
        load_value(c, X64_RAX, op->args[1]);
        x64_store(&c->buf, type_size(jg_value_type(c->g, op->args[1])), X64_RCX, 0, X64_RAX);
        return;
    case JG_OP_ALLOCA:
        lower_alloca(c, op);
        return;
    case JG_OP_MEMCPY:
    case JG_OP_MEMSET:
        load_value(c, X64_RDI, op->args[0]);
        load_value(c, X64_RSI, op->args[1]);
        load_value(c, X64_RDX, op->args[2]);
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
    default:
        if (op->opcode < JG_OP__COUNT && op->nargs >= 1 && op->nargs <= 3) {
            arith_call(c, op); /* the remaining pure operations */
            return;
        }
        fail(c, "block %u: unknown opcode %u", block, op->opcode);
    }
}

/* ---- control flow ---- */

/* Leaves the method with block id `id` in eax. */
static void leave_with(Codegen *c, uint32_t id)
{
    x64_mov_ri(&c->buf, X64_RAX, id);
    x64_jmp(&c->buf, c->epilogue);
}

/* Follows link `l`: to a block of this method, parameters receive the
 * arguments (all read before any is written) and control jumps there; to
 * another method's block, the arguments go to the frame's slots and the
 * method returns that block's id. */
static void emit_link(Codegen *c, const JgLink *l)
{
    const JgGraph *g = c->g;
    if (l->target >= g->blocks.count) {
        fail(c, "a link to block %u, which does not exist", l->target);
        return;
    }
    const JgBlock *t = &g->blocks.items[l->target];
    if (l->nargs != t->nparams) {
        fail(c, "a link passes %u values to block %u, which has %u parameters", l->nargs,
             l->target, t->nparams);
        return;
    }
    if (!internal(c, l->target)) {
        if (l->target >= c->bg->ncompiled || !c->bg->enterable[l->target]) {
            fail(c, "a link to block %u, which no method can be entered at", l->target);
            return;
        }
        for (uint32_t i = 0; i < l->nargs; i++) {
            load_value(c, X64_RAX, l->args[i]);
            x64_store(&c->buf, 8, FRAME, BL_FRAME_SLOTS + 8 * (int32_t)i, X64_RAX);
        }
        leave_with(c, c->bg->ids[l->target]);
        return;
    }
    /* through the scratch area when a parameter of the target is also an
     * argument (a loop passing its values around) */
    bool overlap = false;
    for (uint32_t i = 0; i < l->nargs && !overlap; i++)
        for (uint32_t j = 0; j < t->nparams && !overlap; j++)
            overlap = l->args[i] == t->params[j] && i != j;
    for (uint32_t i = 0; i < l->nargs; i++) {
        if (l->args[i] == t->params[i])
            continue;
        load_value(c, X64_RAX, l->args[i]);
        if (overlap)
            x64_store(&c->buf, 8, X64_RSP, 8 * (int32_t)i, X64_RAX);
        else
            store_result(c, t->params[i], X64_RAX);
    }
    for (uint32_t i = 0; overlap && i < l->nargs; i++) {
        if (l->args[i] == t->params[i])
            continue;
        x64_load(&c->buf, 8, X64_RAX, X64_RSP, 8 * (int32_t)i);
        store_result(c, t->params[i], X64_RAX);
    }
    x64_jmp(&c->buf, c->labels[l->target - c->lo]);
}

static void lower_terminator(Codegen *c, uint32_t block)
{
    const JgTerm *t = &c->g->blocks.items[block].term;
    switch ((JgTermKind)t->kind) {
    case JG_TERM_GOTO:
        emit_link(c, &t->links[0]);
        return;
    case JG_TERM_BRANCH: {
        uint32_t if_false = x64_label(&c->buf);
        load_value(c, X64_RAX, t->value);
        x64_alu_ri(&c->buf, X64_AND, X64_RAX, 1);
        x64_jcc(&c->buf, X64_E, if_false);
        emit_link(c, &t->links[0]);
        x64_place(&c->buf, if_false);
        emit_link(c, &t->links[1]);
        return;
    }
    case JG_TERM_SWITCH: {
        JgType vt = jg_value_type(c->g, t->value);
        uint32_t n = t->nlinks - 1;
        uint32_t *cases = malloc(sizeof *cases * (n ? n : 1));
        if (!cases) {
            fail(c, "out of memory");
            return;
        }
        load_value(c, X64_RAX, t->value);
        for (uint32_t i = 0; i < n; i++) {
            cases[i] = x64_label(&c->buf);
            x64_mov_ri(&c->buf, X64_RCX, jg_truncate_bits(vt, (uint64_t)t->cases[i]));
            x64_alu_rr(&c->buf, X64_CMP, X64_RAX, X64_RCX);
            x64_jcc(&c->buf, X64_E, cases[i]);
        }
        emit_link(c, &t->links[0]);
        for (uint32_t i = 0; i < n; i++) {
            x64_place(&c->buf, cases[i]);
            emit_link(c, &t->links[i + 1]);
        }
        free(cases);
        return;
    }
    case JG_TERM_RETURN:
        load_value(c, X64_RAX, t->value);
        x64_store(&c->buf, 8, FRAME, 0, X64_RAX);
        leave_with(c, BL_BLOCKID_RETURN);
        return;
    case JG_TERM_FLEXSWITCH: {
        JgFlexswitch *fs = t->flex;
        if (!fs) {
            fail(c, "block %u: a flexswitch without its object", block);
            return;
        }
        for (uint32_t i = 0; i < fs->nlive; i++) {
            load_value(c, X64_RAX, fs->live[i]);
            x64_store(&c->buf, 8, FRAME, BL_FRAME_SLOTS + 8 * (int32_t)i, X64_RAX);
        }
        x64_mov_ri(&c->buf, X64_RDI, (uint64_t)(uintptr_t)c->bg);
        x64_mov_ri(&c->buf, X64_RSI, (uint64_t)(uintptr_t)fs);
        load_value(c, X64_RDX, t->value);
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
        fail(c, "block %u has no terminator", block);
    }
}

/* ---- the method ---- */

/* Prologue, and the entry of every enterable block: its parameters from
 * the frame's slots. */
static void emit_entry(Codegen *c)
{
    X64Buf *b = &c->buf;
    uint32_t frame = 8 * (c->nslots + c->nscratch);
    frame = (frame + 15) & ~15u;
    x64_push(b, X64_RBP);
    x64_mov_rr(b, X64_RBP, X64_RSP);
    x64_push(b, X64_RBX);
    x64_push(b, X64_R12);
    if (frame)
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
            x64_load(b, 8, X64_RAX, FRAME, BL_FRAME_SLOTS + 8 * (int32_t)i);
            store_result(c, bk->params[i], X64_RAX);
        }
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
    x64_lea(b, X64_RSP, X64_RBP, -16);
    x64_pop(b, X64_R12);
    x64_pop(b, X64_RBX);
    x64_pop(b, X64_RBP);
    x64_ret(b);
}

bool bl_compile_method(BlGraph *bg, uint32_t lo, uint32_t hi, uint32_t method, char *err,
                       size_t errsize)
{
    const JgGraph *g = bg->graph;
    Codegen c = {.bg = bg, .g = g, .lo = lo, .hi = hi, .method = method, .err = err,
                 .errsize = errsize};
    x64_init(&c.buf);
    c.home = calloc(g->values.count, sizeof *c.home);
    c.alloca_at = calloc(g->values.count, sizeof *c.alloca_at);
    c.labels = malloc(sizeof *c.labels * (hi - lo));
    bool ok = c.home && c.alloca_at && c.labels;
    if (!ok)
        fail(&c, "out of memory");
    ok = ok && assign_homes(&c);
    if (ok) {
        for (uint32_t i = 0; i < hi - lo; i++)
            c.labels[i] = x64_label(&c.buf);
        c.epilogue = x64_label(&c.buf);
        emit_entry(&c);
        for (uint32_t b = lo; b < hi && !c.failed; b++) {
            x64_place(&c.buf, c.labels[b - lo]);
            const JgBlock *bk = &g->blocks.items[b];
            for (uint32_t i = 0; i < bk->ops.count && !c.failed; i++)
                lower_op(&c, b, &bk->ops.items[i]);
            lower_terminator(&c, b);
        }
        emit_epilogue(&c);
        ok = !c.failed;
        if (ok && !x64_resolve(&c.buf))
            ok = fail(&c, c.buf.oom ? "out of memory" : "a jump to an unplaced label");
    }
    if (ok) {
        void *code = bl_install(bg->bl, c.buf.code, c.buf.len);
        if (!code) {
            ok = fail(&c, "cannot map executable memory");
        } else {
            BlMethod *m = &bg->methods[method];
            *(void **)&m->fn = code;
            m->lo = lo;
            m->hi = hi;
            m->area_bytes = c.area_bytes;
            bg->bl->stats.code_bytes += c.buf.len;
        }
    }
    x64_free(&c.buf);
    free(c.home);
    free(c.alloca_at);
    free(c.labels);
    return ok;
}
