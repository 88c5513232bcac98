#include "ir.h"

#include <stdlib.h>
#include <string.h>

#include "portal_site.h"

static const char *const type_names[] = {"void", "i1",  "i8",  "i16", "i32",
                                         "i64",  "ptr", "f32", "f64"};
static const unsigned type_sizes[] = {0, 1, 1, 2, 4, 8, 8, 4, 8};

unsigned jg_type_size(JgType t)
{
    return type_sizes[t];
}

const char *jg_type_name(JgType t)
{
    return (unsigned)t < sizeof type_names / sizeof type_names[0] ? type_names[t] : "?";
}

static const char *const opcode_names[JG_OP__COUNT] = {
    [JG_OP_ADD] = "add",
    [JG_OP_SUB] = "sub",
    [JG_OP_MUL] = "mul",
    [JG_OP_SDIV] = "sdiv",
    [JG_OP_UDIV] = "udiv",
    [JG_OP_SREM] = "srem",
    [JG_OP_UREM] = "urem",
    [JG_OP_AND] = "and",
    [JG_OP_OR] = "or",
    [JG_OP_XOR] = "xor",
    [JG_OP_SHL] = "shl",
    [JG_OP_LSHR] = "lshr",
    [JG_OP_ASHR] = "ashr",
    [JG_OP_FADD] = "fadd",
    [JG_OP_FSUB] = "fsub",
    [JG_OP_FMUL] = "fmul",
    [JG_OP_FDIV] = "fdiv",
    [JG_OP_FNEG] = "fneg",
    [JG_OP_ICMP] = "icmp",
    [JG_OP_FCMP] = "fcmp",
    [JG_OP_SELECT] = "select",
    [JG_OP_ZEXT] = "zext",
    [JG_OP_SEXT] = "sext",
    [JG_OP_TRUNC] = "trunc",
    [JG_OP_PTRTOINT] = "ptrtoint",
    [JG_OP_INTTOPTR] = "inttoptr",
    [JG_OP_SITOFP] = "sitofp",
    [JG_OP_UITOFP] = "uitofp",
    [JG_OP_FPTOSI] = "fptosi",
    [JG_OP_FPTOUI] = "fptoui",
    [JG_OP_FPEXT] = "fpext",
    [JG_OP_FPTRUNC] = "fptrunc",
    [JG_OP_BITCAST] = "bitcast",
    [JG_OP_PTRADD] = "ptradd",
    [JG_OP_LOAD] = "load",
    [JG_OP_STORE] = "store",
    [JG_OP_ALLOCA] = "alloca",
    [JG_OP_MEMCPY] = "memcpy",
    [JG_OP_MEMSET] = "memset",
    [JG_OP_CALL] = "call",
    [JG_OP_PROMOTE] = "promote",
    [JG_OP_CONCRETE] = "concrete",
    [JG_OP_DEEPFREEZE] = "deepfreeze",
    [JG_OP_FORGET] = "forget",
    [JG_OP_MERGE_POINT] = "merge_point",
};

const char *jg_opcode_name(JgOpcode op)
{
    return (unsigned)op < JG_OP__COUNT && opcode_names[op] ? opcode_names[op] : "?";
}

static const char *const pred_names[] = {
    "eq",  "ne",  "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle", "oeq", "one",  "ogt",
    "oge", "olt", "ole", "ord", "uno", "ueq", "une", "ugt", "uge", "ult", "ule", "true", "false",
};

const char *jg_pred_name(JgPred p)
{
    return (unsigned)p < sizeof pred_names / sizeof pred_names[0] ? pred_names[p] : "?";
}

uint64_t jg_truncate_bits(JgType type, uint64_t bits)
{
    switch (type) {
    case JG_I1:
        return bits & 1;
    case JG_I8:
        return bits & 0xff;
    case JG_I16:
        return bits & 0xffff;
    case JG_I32:
    case JG_F32:
        return bits & 0xffffffffu;
    default:
        return bits;
    }
}

int64_t jg_sign_extend(JgType type, uint64_t bits)
{
    switch (type) {
    case JG_I1:
        return (bits & 1) ? -1 : 0;
    case JG_I8:
        return (int8_t)(uint8_t)bits;
    case JG_I16:
        return (int16_t)(uint16_t)bits;
    case JG_I32:
        return (int32_t)(uint32_t)bits;
    default:
        return (int64_t)bits;
    }
}

static JgVal new_value(JgGraph *g, JgValueInfo info)
{
    JG_VEC_PUSH(g->arena, g->values, info);
    return g->values.count - 1;
}

JgGraph *jg_graph_new(JgArena *arena, const char *name, JgType ret, uint32_t nparams,
                      const JgType *param_types)
{
    JgGraph *g = jg_arena_alloc(arena, sizeof *g);
    g->arena = arena;
    g->name = name;
    g->ret_type = ret;
    g->nparams = nparams;
    g->param_types = jg_arena_alloc(arena, nparams + 1);
    for (uint32_t i = 0; i < nparams; i++)
        g->param_types[i] = param_types[i];
    JgValueInfo none = {0};
    new_value(g, none);
    jg_block_new(g, nparams, param_types);
    return g;
}

uint32_t jg_block_new(JgGraph *g, uint32_t nparams, const JgType *types)
{
    JgBlock b = {0};
    JG_VEC_PUSH(g->arena, g->blocks, b);
    uint32_t index = g->blocks.count - 1;
    for (uint32_t i = 0; i < nparams; i++)
        jg_block_add_param(g, index, types[i]);
    return index;
}

JgVal jg_block_add_param(JgGraph *g, uint32_t block, JgType type)
{
    JgBlock *b = &g->blocks.items[block];
    JgValueInfo info = {.type = type, .kind = JG_VK_PARAM, .block = block, .index = b->nparams};
    JgVal v = new_value(g, info);
    b = &g->blocks.items[block];
    /* params arrays grow one by one: keep a power-of-two capacity */
    uint32_t n = b->nparams;
    if ((n & (n - 1)) == 0) {
        JgVal *grown = jg_arena_alloc(g->arena, sizeof(JgVal) * (n ? 2 * n : 1));
        if (n)
            memcpy(grown, b->params, sizeof(JgVal) * n);
        b->params = grown;
    }
    b->params[b->nparams++] = v;
    return v;
}

JgVal jg_const(JgGraph *g, JgType type, uint64_t bits)
{
    JgValueInfo info = {.type = type, .kind = JG_VK_CONST, .bits = jg_truncate_bits(type, bits)};
    return new_value(g, info);
}

JgVal jg_const_symbol(JgGraph *g, void *address, const char *symbol)
{
    JgValueInfo info = {.type = JG_PTR,
                        .kind = JG_VK_CONST,
                        .bits = (uint64_t)(uintptr_t)address,
                        .symbol = symbol};
    return new_value(g, info);
}

JgVal jg_emit(JgGraph *g, uint32_t block, JgOpcode opcode, JgType type, uint32_t nargs,
              const JgVal *args)
{
    JgOp op = {.opcode = opcode, .type = type, .nargs = nargs};
    if (nargs) {
        op.args = jg_arena_alloc(g->arena, sizeof(JgVal) * nargs);
        memcpy(op.args, args, sizeof(JgVal) * nargs);
    }
    JgBlock *b = &g->blocks.items[block];
    if (type != JG_VOID) {
        JgValueInfo info = {.type = type, .kind = JG_VK_OP, .block = block, .index = b->ops.count};
        op.result = new_value(g, info);
        b = &g->blocks.items[block];
    }
    JG_VEC_PUSH(g->arena, b->ops, op);
    return op.result;
}

JgOp *jg_last_op(JgGraph *g, uint32_t block)
{
    JgBlock *b = &g->blocks.items[block];
    return &b->ops.items[b->ops.count - 1];
}

const JgOp *jg_def_in(const JgGraph *g, uint32_t block, JgVal v)
{
    const JgValueInfo *info = jg_value(g, v);
    if (!v || info->kind != JG_VK_OP || info->block != block)
        return NULL;
    return &g->blocks.items[block].ops.items[info->index];
}

JgLink jg_link(JgGraph *g, uint32_t target, uint32_t nargs, const JgVal *args)
{
    JgLink l = {.target = target, .nargs = nargs};
    if (nargs) {
        l.args = jg_arena_alloc(g->arena, sizeof(JgVal) * nargs);
        memcpy(l.args, args, sizeof(JgVal) * nargs);
    }
    return l;
}

static void set_term(JgGraph *g, uint32_t block, JgTermKind kind, JgVal value, uint32_t nlinks,
                     const JgLink *links)
{
    JgTerm *t = &g->blocks.items[block].term;
    t->kind = kind;
    t->value = value;
    t->nlinks = nlinks;
    t->links = NULL;
    if (nlinks) {
        t->links = jg_arena_alloc(g->arena, sizeof(JgLink) * nlinks);
        memcpy(t->links, links, sizeof(JgLink) * nlinks);
    }
}

void jg_set_goto(JgGraph *g, uint32_t block, JgLink link)
{
    set_term(g, block, JG_TERM_GOTO, 0, 1, &link);
}

void jg_set_branch(JgGraph *g, uint32_t block, JgVal cond, JgLink if_true, JgLink if_false)
{
    JgLink links[2] = {if_true, if_false};
    set_term(g, block, JG_TERM_BRANCH, cond, 2, links);
}

void jg_set_switch(JgGraph *g, uint32_t block, JgVal value, uint32_t n, const int64_t *cases,
                   const JgLink *links)
{
    set_term(g, block, JG_TERM_SWITCH, value, n + 1, links);
    JgTerm *t = &g->blocks.items[block].term;
    t->cases = jg_arena_alloc(g->arena, sizeof(int64_t) * (n + 1));
    memcpy(t->cases, cases, sizeof(int64_t) * n);
}

void jg_set_return(JgGraph *g, uint32_t block, JgVal value)
{
    set_term(g, block, JG_TERM_RETURN, value, 0, NULL);
}

void jg_set_unreachable(JgGraph *g, uint32_t block)
{
    set_term(g, block, JG_TERM_UNREACHABLE, 0, 0, NULL);
}

JgPortalSite *jg_portal_site_new(const JgGraph *g, const JgOp *op, JgPortalSite **list)
{
    JgPortalSite *site = calloc(1, sizeof *site);
    if (!site)
        return NULL;
    site->next = *list;
    *list = site;
    site->arg_shapes = jg_portal_call_shapes(op->imm);
    for (uint32_t i = 0; i + 1 < op->nargs && i < 64; i++)
        if (jg_is_const(g, op->args[i + 1]))
            site->constant |= (uint64_t)1 << i;
    return site;
}
