/* The flow-graph IR (docs/architecture.md, "Flow graphs"): typed SSA values,
 * operations close to LLVM's, blocks with parameters, links that pass
 * arguments to the target block's parameters (no phi nodes), terminators
 * including the flexswitch. Interpreter graphs (read from bitcode) and
 * residual graphs (built by the partial evaluator) use this same IR, so the
 * printer, the verifier and the evaluator serve both. */
#ifndef JITGEN_IR_H
#define JITGEN_IR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"

typedef enum JgType {
    JG_VOID,
    JG_I1,
    JG_I8,
    JG_I16,
    JG_I32,
    JG_I64,
    JG_PTR,
    JG_F32,
    JG_F64,
} JgType;

/* Bytes a value of this type occupies in memory (i1: 1). */
unsigned jg_type_size(JgType t);
const char *jg_type_name(JgType t);
static inline bool jg_type_is_int(JgType t)
{
    return t >= JG_I1 && t <= JG_I64;
}

/* A value is an index into its graph's value table; 0 means "none". */
typedef uint32_t JgVal;

typedef enum JgValueKind {
    JG_VK_CONST, /* bits hold the value (pointers: the address) */
    JG_VK_PARAM, /* parameter `index` of block `block` */
    JG_VK_OP,    /* result of operation `index` of block `block` */
} JgValueKind;

typedef struct JgValueInfo {
    uint8_t type; /* JgType */
    uint8_t kind; /* JgValueKind */
    uint32_t block;
    uint32_t index;
    uint64_t bits;      /* constants: integers zero-extended, doubles bit-cast */
    const char *symbol; /* constants naming a function or global, for printing */
} JgValueInfo;

typedef enum JgOpcode {
    /* integer and float arithmetic: two operands of the result type */
    JG_OP_ADD,
    JG_OP_SUB,
    JG_OP_MUL,
    JG_OP_SDIV,
    JG_OP_UDIV,
    JG_OP_SREM,
    JG_OP_UREM,
    JG_OP_AND,
    JG_OP_OR,
    JG_OP_XOR,
    JG_OP_SHL,
    JG_OP_LSHR,
    JG_OP_ASHR,
    JG_OP_FADD,
    JG_OP_FSUB,
    JG_OP_FMUL,
    JG_OP_FDIV,
    JG_OP_FNEG, /* one operand */
    /* comparisons: result i1, predicate in `pred` */
    JG_OP_ICMP,
    JG_OP_FCMP,
    /* select(cond, if_true, if_false) */
    JG_OP_SELECT,
    /* conversions: one operand, result type in `type` */
    JG_OP_ZEXT,
    JG_OP_SEXT,
    JG_OP_TRUNC,
    JG_OP_PTRTOINT,
    JG_OP_INTTOPTR,
    JG_OP_SITOFP,
    JG_OP_UITOFP,
    JG_OP_FPTOSI,
    JG_OP_FPTOUI,
    JG_OP_FPEXT,
    JG_OP_FPTRUNC,
    JG_OP_BITCAST, /* same-size reinterpretation (i64 <-> f64) */
    /* memory */
    JG_OP_PTRADD, /* ptr + i64 byte offset */
    JG_OP_LOAD,   /* load(ptr): a value of `type` */
    JG_OP_STORE,  /* store(ptr, value) */
    JG_OP_ALLOCA, /* stack memory of `imm` bytes, zero-filled */
    JG_OP_MEMCPY, /* memcpy(dst, src, len) */
    JG_OP_MEMSET, /* memset(dst, byte, len) */
    /* calls: args[0] is the callee (a constant function address for direct
     * calls), args[1..] the arguments; `callee` names the graph of a direct
     * call when the module has one */
    JG_OP_CALL,
    /* hints: identities at run time */
    JG_OP_PROMOTE,
    JG_OP_CONCRETE,
    JG_OP_DEEPFREEZE,
    JG_OP_FORGET,
    JG_OP_MERGE_POINT, /* no operands, no result */
    JG_OP__COUNT
} JgOpcode;

/* Comparison predicates (LLVM's order for icmp, then fcmp). */
typedef enum JgPred {
    JG_EQ,
    JG_NE,
    JG_UGT,
    JG_UGE,
    JG_ULT,
    JG_ULE,
    JG_SGT,
    JG_SGE,
    JG_SLT,
    JG_SLE,
    JG_FOEQ,
    JG_FONE,
    JG_FOGT,
    JG_FOGE,
    JG_FOLT,
    JG_FOLE,
    JG_FORD,
    JG_FUNO,
    JG_FUEQ,
    JG_FUNE,
    JG_FUGT,
    JG_FUGE,
    JG_FULT,
    JG_FULE,
    JG_FTRUE,
    JG_FFALSE,
} JgPred;

const char *jg_opcode_name(JgOpcode op);
const char *jg_pred_name(JgPred p);

typedef struct JgGraph JgGraph;

/* An arithmetic operation's `imm`: its result is an association the
 * partial evaluator chose (pe/unroll.c: a product of two trips' factors,
 * off the loop's chain of multiplies), which a backend keeps as one value:
 * LLVM's reassociation would otherwise put the loop's accumulator back
 * into it (llvmgen emits a freeze, which it does not look through). */
#define JG_IMM_GROUPED 1
/* A LOAD's `imm`: the word never changes once its object can be reached
 * (the hint jit_load_immutable_ptr): the partial evaluator's heap cache
 * keeps it across calls and stores. */
#define JG_IMM_IMMUTABLE 2

typedef struct JgOp {
    uint16_t opcode; /* JgOpcode */
    uint8_t type;    /* result type; JG_VOID for none; loads: the loaded type */
    uint8_t pred;    /* JgPred for comparisons */
    uint32_t nargs;
    JgVal *args;
    JgVal result;    /* 0 when the op has no result */
    JgVal likely;    /* SDIV, SREM: a constant the divisor likely equals (0: none),
                        which a backend may test for and then divide by as a
                        constant; the result is the same either way */
    int64_t imm;     /* ALLOCA: size in bytes; arithmetic: JG_IMM_GROUPED or 0;
                        LOAD: JG_IMM_IMMUTABLE or 0 */
    JgGraph *callee; /* CALL: the graph of a direct callee, if known */
    uint32_t line;   /* source line, 0 if unknown */
} JgOp;

typedef struct JgLink {
    uint32_t target; /* block index */
    uint32_t nargs;
    JgVal *args; /* one per parameter of the target */
} JgLink;

typedef enum JgTermKind {
    JG_TERM_NONE,        /* block under construction */
    JG_TERM_GOTO,        /* links[0] */
    JG_TERM_BRANCH,      /* cond ? links[0] : links[1] */
    JG_TERM_SWITCH,      /* value == cases[i] ? links[i + 1] : links[0] */
    JG_TERM_RETURN,      /* value (0 for void) */
    JG_TERM_UNREACHABLE, /* after a call that never returns */
    JG_TERM_FLEXSWITCH,  /* residual graphs only: see flexswitch/ */
} JgTermKind;

typedef struct JgTerm {
    uint8_t kind; /* JgTermKind */
    JgVal value;  /* BRANCH: condition; SWITCH/FLEXSWITCH: switched value; RETURN */
    uint32_t nlinks;
    JgLink *links;
    int64_t *cases; /* SWITCH / FLEXSWITCH: nlinks - 1 case values */
    void *flex;     /* FLEXSWITCH: the run-time flexswitch object */
    uint32_t line;
} JgTerm;

enum JgBlockFlags {
    /* residual graphs: the block may be entered from code compiled
     * separately (a merge-point block, or the first block of a compilation):
     * backends must be able to jump to it through a dispatcher */
    JG_BLOCK_ENTRY = 1u << 0,
};

typedef struct JgBlock {
    uint32_t flags; /* JgBlockFlags */
    uint32_t nparams;
    JgVal *params;
    JG_VEC(JgOp) ops;
    JgTerm term;
} JgBlock;

enum JgGraphFlags {
    JG_FLAG_ELIDABLE = 1u << 0,
    JG_FLAG_DONT_LOOK_INSIDE = 1u << 1,
    JG_FLAG_ALLOCATOR = 1u << 2,
    JG_FLAG_PORTAL = 1u << 3,
    JG_FLAG_NORETURN = 1u << 4,
    JG_FLAG_EXTERNAL = 1u << 5, /* declaration only: no blocks, call natively */
    JG_FLAG_RESIDUAL = 1u << 6, /* built by the partial evaluator: values may be used in
                                   any block their definition dominates */
    JG_FLAG_VALUE = 1u << 7,    /* an allocator of values (JIT_VALUE_ALLOCATOR): objects
                                   that may be copied */
};

/* A function: block 0 is the entry; its parameters are the function's. */
struct JgGraph {
    const char *name;
    uint8_t ret_type; /* JgType */
    uint32_t flags;
    void *native;     /* address of the same function in the running binary */
    uint32_t nparams; /* entry block parameters, and their types: */
    uint8_t *param_types;
    bool variadic;
    JG_VEC(JgBlock) blocks;
    JG_VEC(JgValueInfo) values; /* index 0 unused */
    const char *file;           /* source file, for messages */
    uint32_t line;              /* first source line */
    JgArena *arena;             /* where everything of the graph lives */
};

/* ---- building ---- */

/* A new graph whose entry block has parameters of the given types. */
JgGraph *jg_graph_new(JgArena *arena, const char *name, JgType ret, uint32_t nparams,
                      const JgType *param_types);
/* A new empty block with parameters of the given types; returns its index. */
uint32_t jg_block_new(JgGraph *g, uint32_t nparams, const JgType *types);
/* Adds one parameter to a block (used while translating phis). */
JgVal jg_block_add_param(JgGraph *g, uint32_t block, JgType type);
JgVal jg_const(JgGraph *g, JgType type, uint64_t bits);
JgVal jg_const_symbol(JgGraph *g, void *address, const char *symbol);
/* Appends an operation; returns its result value (0 when type is JG_VOID). */
JgVal jg_emit(JgGraph *g, uint32_t block, JgOpcode opcode, JgType type, uint32_t nargs,
              const JgVal *args);
/* The last operation appended to `block` (to set pred, imm, callee, line). */
JgOp *jg_last_op(JgGraph *g, uint32_t block);
/* The operation defining v in `block`; NULL when v is no result there. */
const JgOp *jg_def_in(const JgGraph *g, uint32_t block, JgVal v);
/* A link to `target` carrying `nargs` values. */
JgLink jg_link(JgGraph *g, uint32_t target, uint32_t nargs, const JgVal *args);
void jg_set_goto(JgGraph *g, uint32_t block, JgLink link);
void jg_set_branch(JgGraph *g, uint32_t block, JgVal cond, JgLink if_true, JgLink if_false);
/* cases: n values; links: n + 1 links, links[0] the default */
void jg_set_switch(JgGraph *g, uint32_t block, JgVal value, uint32_t n, const int64_t *cases,
                   const JgLink *links);
void jg_set_return(JgGraph *g, uint32_t block, JgVal value);
void jg_set_unreachable(JgGraph *g, uint32_t block);

static inline JgValueInfo *jg_value(const JgGraph *g, JgVal v)
{
    return &g->values.items[v];
}
static inline JgType jg_value_type(const JgGraph *g, JgVal v)
{
    return (JgType)g->values.items[v].type;
}
static inline bool jg_is_const(const JgGraph *g, JgVal v)
{
    return g->values.items[v].kind == JG_VK_CONST;
}

/* Masks `bits` to the width of `type` (i1 to one bit, etc.). */
uint64_t jg_truncate_bits(JgType type, uint64_t bits);
/* Sign-extends `bits` of `type` to 64 bits. */
int64_t jg_sign_extend(JgType type, uint64_t bits);

/* ---- printing and checking ---- */

/* Stable, readable text of a graph; `annotate` may add a suffix per value
 * (e.g. its binding-time color). */
typedef const char *(*JgValueAnnotator)(void *ctx, const JgGraph *g, JgVal v);
void jg_print_graph(FILE *out, const JgGraph *g, JgValueAnnotator annotate, void *ctx);

/* Checks SSA (each value defined once, used only where its definition
 * dominates... approximated: defined in the same block before use, or a
 * parameter of the same block, or a constant — values flow between blocks
 * only through links), types of operands, links matching parameters.
 * Returns true, or false with a message in `err`. */
bool jg_verify_graph(const JgGraph *g, char *err, size_t errsize);

#endif
