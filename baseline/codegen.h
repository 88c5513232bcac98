/* The state of one baseline method being compiled, shared by method.c
 * (lowering) and homes.c (where values live). */
#ifndef JITGEN_BASELINE_CODEGEN_H
#define JITGEN_BASELINE_CODEGEN_H

#include "fold_rule.h"
#include "frontend/arith.h"
#include "internal.h"

#define FRAME X64_RBX  /* BlFrame * */
#define AREA X64_R12   /* this method's ALLOCA memory */
#define SLOTS_AT (-48) /* rbp offset of slot 0 */
#define NO_REG BL_VALUES_NO_REG

/* Registers that can be homes: callee-saved first (the only ones for values
 * live across a call), then caller-saved. rax, rcx, rdx are the operations'
 * scratch. */
#define NHOME_REGS 9
#define NCALLEE_SAVED 3
extern const X64Reg bl_home_regs[NHOME_REGS];

/* A loop exit to the dispatcher when a tier-up look is due (method.c,
 * look_site): `site` labels the back-edge's patchable NOP, `label`
 * the exit's code. `param` (1 + an index, 0: none): a parameter of the
 * target whose home the way there did not write, which the exit sets to
 * `value`. */
typedef struct BlExit {
    uint32_t site, label, target, param;
    uint64_t value;
    /* 0: the site is a patchable NOP; else the back-edge's own jump is the
     * site, its rel32 this many bytes after the site's label */
    uint32_t jump;
} BlExit;

/* How a block's goto takes over the branch of the block it goes to, on the
 * flags of its own last comparison (homes.c, find_fused). */
typedef struct BlFuse {
    uint32_t op;    /* 1 + the index of the comparison; 0: no fusion */
    uint32_t param; /* 1 + the index of the target's parameter the
                       comparison's bool goes to, which the target's branch
                       tests: the goto skips it; 0: the target reads the
                       comparison itself (a parameter standing for it) */
    bool invert;    /* the target's branch tests that parameter being 0 */
} BlFuse;

typedef struct Codegen {
    BlGraph *bg;
    const JgGraph *g;
    uint32_t lo, hi, method;
    uint32_t ndefs; /* values the blocks define: a bound on homes.c's classes */
    X64Buf buf;
    /* the per-value arrays are the backend's (BlValueArrays): clean at the
     * start, cleaned after the compile */
    int32_t *home;       /* per value: rbp offset of its slot, 0: none */
    uint8_t *reg;        /* per value: its register home, NO_REG: its slot */
    JgVal *alias;        /* per value: the value it is (itself, for most) */
    uint32_t *alloca_at; /* per value (ALLOCA results): offset in the area */
    uint32_t *labels;    /* per local block */
    uint32_t epilogue;
    uint32_t nslots, nscratch, area_bytes;
    bool looks;         /* back-edges into merge points can leave for the
                           tier-up hook (look_site) */
    uint32_t current;   /* the block being lowered */
    X64Reg scratch;     /* where the op being lowered computes a result that
                           lives in a slot (method.c, choose_scratch) */
    uint32_t rotating;  /* copies of blocks being lowered (method.c, rotates) */
    uint32_t placing;   /* blocks being placed where a jump to them would be
                           (method.c, places_here) */
    BlFuse *fused;      /* per local block: its last op with code when that is
                           an ICMP only a BRANCH reads (its own, or the one of
                           the block its goto goes to), which becomes the
                           branch's compare (homes.c) */
    bool *dead;         /* per value: a pure result nothing reads, no code */
    bool *scaled;       /* per value: a shift by 1..3 that only the next op, an
                           add, reads: no code, the add is an lea (homes.c) */
    bool *folded;       /* per value: a subtraction a comparison absorbs (BlFold) */
    bool *addressed;    /* per value: a pointer addition of a constant that only
                           the next op, a load or store, reads as its address:
                           no code, the constant is its displacement (homes.c) */
    BlFold *fold;       /* per local block: its fused comparison's fold (x: 0, none) */
    const BlFold *wrap; /* the fold whose wrap-around the next two_way checks */
    bool wrap_yes_is_d; /* ... its yes side being where the disjunction holds */
    bool *reached;      /* per local block: it has code (method.c, find_reached) */
    bool *last;         /* per local block: a goto branches through it (BlFuse
                           with a parameter), its code is placed last */
    BlExit *exits;
    uint32_t nexits, exits_cap;
    char *err;
    size_t errsize;
    bool failed;
} Codegen;

bool bl_cg_fail(Codegen *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline bool bl_internal(const Codegen *c, uint32_t block)
{
    return block >= c->lo && block < c->hi;
}

/* Whether a terminator's links are control flow within the graph. */
static inline bool bl_flows(const JgTerm *t)
{
    return t->kind == JG_TERM_GOTO || t->kind == JG_TERM_BRANCH || t->kind == JG_TERM_SWITCH;
}

/* The value v stands for (parameter aliases, homes.c). */
static inline JgVal bl_resolve(const Codegen *c, JgVal v)
{
    while (v && c->alias[v] != v)
        v = c->alias[v];
    return v;
}

/* Whether a and b are the same value: one value, or equal constants. */
static inline bool bl_same_operand(const Codegen *c, JgVal a, JgVal b)
{
    a = bl_resolve(c, a);
    b = bl_resolve(c, b);
    if (a == b)
        return true;
    return jg_is_const(c->g, a) && jg_is_const(c->g, b) &&
           jg_value_type(c->g, a) == jg_value_type(c->g, b) &&
           jg_value(c->g, a)->bits == jg_value(c->g, b)->bits;
}

/* Whether portal call `op` can call a graph bound to its site directly:
 * the backend knows the portal's red parameters, which fit the frame the
 * call builds (BL_DIRECT_SLOTS), and the call passes them all. */
static inline bool bl_direct_site(const Codegen *c, const JgOp *op)
{
    const JgBaselineOptions *o = &c->bg->bl->options;
    if (!o->portal_red_index || o->portal_nred > BL_DIRECT_SLOTS)
        return false;
    for (uint32_t i = 0; i < o->portal_nred; i++)
        if (o->portal_red_index[i] + 1 >= op->nargs)
            return false;
    return true;
}

/* Whether `op` is a shift left by a constant below its type's width,
 * which method.c computes inline (other shifts call the evaluator's
 * arithmetic). */
static inline bool bl_shift_inline(const JgGraph *g, const JgOp *op)
{
    bool shift = op->opcode == JG_OP_SHL || op->opcode == JG_OP_LSHR || op->opcode == JG_OP_ASHR;
    if (!shift || op->nargs != 2 || !op->args[1] || !jg_is_const(g, op->args[1]))
        return false;
    const JgValueInfo *k = jg_value(g, op->args[1]);
    return jg_truncate_bits((JgType)k->type, k->bits) < jg_type_bits(op->type);
}

/* The constant v (an integer) sign-extended from its type: an offset. */
static inline int64_t bl_const_offset(const JgGraph *g, JgVal v)
{
    const JgValueInfo *k = jg_value(g, v);
    return jg_sign_extend((JgType)k->type, jg_truncate_bits((JgType)k->type, k->bits));
}

/* A memset of a constant byte over at most BL_INLINE_MEMSET constant bytes
 * is stores (method.c), not a call: the interpreter clears its few call
 * arguments after every call. */
#define BL_INLINE_MEMSET 64
static inline bool bl_memset_inline(const JgGraph *g, const JgOp *op)
{
    return op->nargs == 3 && jg_is_const(g, op->args[1]) && jg_is_const(g, op->args[2]) &&
           jg_value(g, op->args[2])->bits <= BL_INLINE_MEMSET;
}

/* A signed division or remainder of integers wider than a bool: inline
 * (method.c, lower_divide), a shift sequence for a power-of-two divisor,
 * else idiv guarded against the divisors that trap. */
static inline bool bl_divide_inline(const JgOp *op)
{
    return (op->opcode == JG_OP_SDIV || op->opcode == JG_OP_SREM) && op->nargs == 2 &&
           op->type >= JG_I8 && op->type <= JG_I64;
}

/* Whether method.c's lower_binary lowers `opcode` (two-address ALU
 * operations, always inline). */
static inline bool bl_alu_binary(uint32_t opcode)
{
    switch ((JgOpcode)opcode) {
    case JG_OP_ADD:
    case JG_OP_SUB:
    case JG_OP_MUL:
    case JG_OP_AND:
    case JG_OP_OR:
    case JG_OP_XOR:
    case JG_OP_PTRADD:
        return true;
    default:
        return false;
    }
}

/* Whether `opcode` is a cast between integers and pointers, or a bitcast:
 * a move or an extension in method.c, always inline. */
static inline bool bl_move_cast(uint32_t opcode)
{
    switch ((JgOpcode)opcode) {
    case JG_OP_ZEXT:
    case JG_OP_SEXT:
    case JG_OP_TRUNC:
    case JG_OP_PTRTOINT:
    case JG_OP_INTTOPTR:
    case JG_OP_BITCAST:
        return true;
    default:
        return false;
    }
}

/* Whether the lowering of `op` calls out of the method (clobbering the
 * caller-saved registers): what method.c does not inline. */
static inline bool bl_op_calls(const JgGraph *g, const JgOp *op)
{
    if (bl_alu_binary(op->opcode) || bl_move_cast(op->opcode))
        return false;
    switch ((JgOpcode)op->opcode) {
    case JG_OP_SHL:
    case JG_OP_LSHR:
    case JG_OP_ASHR:
        return !bl_shift_inline(g, op);
    case JG_OP_MEMSET:
        return !bl_memset_inline(g, op);
    case JG_OP_SDIV:
    case JG_OP_SREM:
        return !bl_divide_inline(op);
    case JG_OP_ICMP:
    case JG_OP_SELECT:
    case JG_OP_LOAD:
    case JG_OP_STORE:
    case JG_OP_PROMOTE:
    case JG_OP_CONCRETE:
    case JG_OP_DEEPFREEZE:
    case JG_OP_FORGET:
    case JG_OP_MERGE_POINT:
        return false;
    case JG_OP_ALLOCA: /* rep stosb takes rdi and rcx; a small one is stores */
        return op->imm > BL_INLINE_MEMSET;
    default:
        return true;
    }
}

/* The free list whose head a call of an allocator the host described
 * (JgBaselineOptions.allocators) takes in place, all its operands
 * constants, and the allocator in *which; NULL when the call is an
 * ordinary one (method.c, inline_allocation). Such a call is no call for
 * the homes: its rare slow path keeps the caller-saved registers. */
void **bl_free_list_of(const Codegen *c, const JgOp *op, const JgFreeListAllocator **which);

/* Whether `op` needs no code: its result repeats or renames another value
 * (homes.c, alias), or nothing reads it (dead). */
static inline bool bl_no_code(const Codegen *c, const JgOp *op)
{
    return op->result &&
           (c->alias[op->result] != op->result || c->dead[op->result] || c->scaled[op->result] ||
            c->folded[op->result] || c->addressed[op->result]);
}

/* Aliases, homes and registers of every value the method defines, the
 * ALLOCA area, the scratch space of calls and the frame capacity. */
bool bl_assign_homes(Codegen *c);

#endif
