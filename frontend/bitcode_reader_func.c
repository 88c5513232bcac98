/* Function bodies for the bitcode reader (docs/frontend.md, "Block-local
 * SSA"): LLVM's basic blocks (split at merge points into "units") become
 * flow-graph blocks whose parameters are the LLVM phis followed by every
 * value live into the block, so that a block only uses its own parameters,
 * its own results and constants, as in PyPy's flow graphs. */
#include <string.h>

#include "bitcode_reader_internal.h"

/* A straight run of instructions [first, last] of one LLVM block: the whole
 * block, or a piece of it cut before a merge point. */
typedef struct Unit {
    LLVMBasicBlockRef bb;
    LLVMValueRef first, last;
    uint32_t tail;   /* head units: the last unit of the same LLVM block */
    bool head;       /* the first unit of its LLVM block (holds the phis) */
    bool is_tail;    /* ends with the LLVM block's terminator */
    bool reachable;  /* from the entry */
    uint32_t block;  /* its flow-graph block */
    uint32_t npreds; /* reachable predecessor units (with repeats) */
    uint32_t *preds;
    uint32_t nphis;
    LLVMValueRef *phis;
    JG_VEC(uint32_t) live; /* values live on entry (indices), increasing */
    JgVal *params;         /* nphis phis, then one per live value */
} Unit;

typedef struct Use {
    uint32_t value, unit;
} Use;

typedef struct Fn {
    Reader *r;
    FnInfo *fi;
    JgGraph *g;
    JgArena *arena; /* everything below: the reader's per-function arena */
    JG_VEC(Unit) units;
    PtrMap bb_head; /* LLVM block -> its head unit */
    PtrMap index;   /* argument or instruction -> value index */
    JG_VEC(LLVMValueRef) vals;
    JG_VEC(uint32_t) def_unit;
    JG_VEC(Use) uses;
    JgVal *cur;      /* value index -> its flow-graph value in the current block */
    uint32_t *stamp; /* value index -> block + 1 where `cur` is valid */
    PtrMap consts;   /* LLVM constant -> flow-graph constant */
    uint32_t block;  /* the block being filled */
    uint32_t ninsts;
    LLVMBasicBlockRef entry;
} Fn;

/* ---- classifying instructions ---- */

static LLVMValueRef called_function(LLVMValueRef in)
{
    if (!LLVMIsACallInst(in))
        return NULL;
    LLVMValueRef callee = LLVMGetCalledValue(in);
    return callee && LLVMIsAFunction(callee) ? callee : NULL;
}

bool rd_is_dropped_call(Reader *r, LLVMValueRef in)
{
    LLVMValueRef fn = called_function(in);
    unsigned id = fn ? LLVMGetIntrinsicID(fn) : 0;
    const IntrinsicIds *ids = &r->ids;
    return id && (id == ids->lifetime_start || id == ids->lifetime_end || id == ids->dbg_declare ||
                  id == ids->dbg_value || id == ids->dbg_label || id == ids->dbg_assign ||
                  id == ids->assume || id == ids->noalias_decl);
}

static bool all_zero_indices(LLVMValueRef gep)
{
    unsigned n = (unsigned)LLVMGetNumOperands(gep);
    for (unsigned i = 1; i < n; i++) {
        LLVMValueRef idx = LLVMGetOperand(gep, i);
        if (!LLVMIsAConstantInt(idx) || LLVMGetIntTypeWidth(LLVMTypeOf(idx)) > 64 ||
            LLVMConstIntGetZExtValue(idx) != 0)
            return false;
    }
    return true;
}

static bool is_pointer(LLVMValueRef v)
{
    return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind;
}

/* Instructions that are their first operand under another name: freeze,
 * pointer bitcasts, zero-offset GEPs, llvm.expect. They get no value of
 * their own; uses see through them. */
static bool is_alias(Reader *r, LLVMValueRef in)
{
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMFreeze:
        return true;
    case LLVMBitCast:
        return is_pointer(in) && is_pointer(LLVMGetOperand(in, 0));
    case LLVMGetElementPtr:
        return is_pointer(in) && all_zero_indices(in);
    case LLVMCall: {
        LLVMValueRef fn = called_function(in);
        unsigned id = fn ? LLVMGetIntrinsicID(fn) : 0;
        return id && (id == r->ids.expect || id == r->ids.expect_prob);
    }
    default:
        return false;
    }
}

static LLVMValueRef canon(Reader *r, LLVMValueRef v)
{
    while (LLVMIsAInstruction(v) && is_alias(r, v))
        v = LLVMGetOperand(v, 0);
    return v;
}

static bool emits_nothing(Reader *r, LLVMValueRef in)
{
    return LLVMIsAPHINode(in) || rd_is_dropped_call(r, in) || is_alias(r, in);
}

static bool is_merge_point(LLVMValueRef in)
{
    LLVMValueRef fn = called_function(in);
    if (!fn)
        return false;
    size_t len = 0;
    const char *name = LLVMGetValueName2(fn, &len);
    return (len == 15 && memcmp(name, "jit_merge_point", 15) == 0) ||
           (len == 20 && memcmp(name, "jit_merge_point_join", 20) == 0);
}

/* ---- units ---- */

static uint32_t add_unit(Fn *f, LLVMBasicBlockRef bb, LLVMValueRef first, bool head)
{
    Unit u = {.bb = bb, .first = first, .head = head};
    JG_VEC_PUSH(f->arena, f->units, u);
    return f->units.count - 1;
}

/* Cuts every LLVM block into units: a merge point preceded by an op starts a
 * new unit, so that MERGE_POINT is the first op of its flow-graph block. */
static void build_units(Fn *f)
{
    Reader *r = f->r;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f->fi->fn); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef first = LLVMGetFirstInstruction(bb);
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (!first || !term || term != LLVMGetLastInstruction(bb))
            rd_fail_at(r, first, "malformed basic block (no terminator)");
        uint32_t head = add_unit(f, bb, first, true), cur = head;
        pm_put(&f->bb_head, bb, head);
        bool emitted = false;
        LLVMValueRef prev = NULL;
        for (LLVMValueRef in = first; in; in = LLVMGetNextInstruction(in)) {
            f->ninsts++;
            if (is_merge_point(in) && emitted) {
                f->units.items[cur].last = prev;
                cur = add_unit(f, bb, in, false);
            }
            if (!emits_nothing(r, in))
                emitted = true;
            prev = in;
        }
        f->units.items[cur].last = term;
        f->units.items[cur].is_tail = true;
        f->units.items[head].tail = cur;
    }
}

static uint32_t head_of(Fn *f, LLVMBasicBlockRef bb)
{
    uint64_t u = 0;
    if (!pm_get(&f->bb_head, bb, &u))
        rd_fail_at(f->r, NULL, "branch to a block of another function");
    return (uint32_t)u;
}

static void check_terminator(Fn *f, LLVMValueRef term)
{
    switch (LLVMGetInstructionOpcode(term)) {
    case LLVMRet:
    case LLVMBr:
    case LLVMSwitch:
    case LLVMUnreachable:
        return;
    case LLVMInvoke:
        rd_fail_at(f->r, term, "unsupported instruction 'invoke' (exceptions)");
    case LLVMIndirectBr:
        rd_fail_at(f->r, term, "unsupported instruction 'indirectbr' (computed goto)");
    default:
        rd_fail_at(f->r, term, "unsupported terminator (LLVM opcode %d)",
                   (int)LLVMGetInstructionOpcode(term));
    }
}

/* Successor units of unit `u`, written to `out` (capacity: the LLVM
 * terminator's successors, at least 1); returns how many. */
static unsigned successors(Fn *f, uint32_t u, uint32_t *out)
{
    Unit *unit = &f->units.items[u];
    if (!unit->is_tail) {
        out[0] = u + 1;
        return 1;
    }
    check_terminator(f, unit->last);
    unsigned n = LLVMGetNumSuccessors(unit->last);
    for (unsigned i = 0; i < n; i++)
        out[i] = head_of(f, LLVMGetSuccessor(unit->last, i));
    return n;
}

static unsigned max_successors(Fn *f, uint32_t u)
{
    Unit *unit = &f->units.items[u];
    unsigned n = unit->is_tail ? LLVMGetNumSuccessors(unit->last) : 1;
    return n ? n : 1;
}

/* Marks the units reachable from the entry and records their reachable
 * predecessors (unreachable code is not translated). */
static void find_reachable(Fn *f)
{
    uint32_t n = f->units.count;
    uint32_t *stack = jg_arena_alloc(f->arena, sizeof *stack * n);
    uint32_t *count = jg_arena_alloc(f->arena, sizeof *count * n);
    uint32_t sp = 0;
    f->units.items[0].reachable = true;
    stack[sp++] = 0;
    while (sp) {
        uint32_t u = stack[--sp];
        uint32_t *succ = jg_arena_alloc(f->arena, sizeof *succ * max_successors(f, u));
        unsigned ns = successors(f, u, succ);
        for (unsigned i = 0; i < ns; i++) {
            count[succ[i]]++;
            if (!f->units.items[succ[i]].reachable) {
                f->units.items[succ[i]].reachable = true;
                stack[sp++] = succ[i];
            }
        }
    }
    for (uint32_t u = 0; u < n; u++)
        f->units.items[u].preds = jg_arena_alloc(f->arena, sizeof(uint32_t) * (count[u] + 1));
    for (uint32_t u = 0; u < n; u++) {
        if (!f->units.items[u].reachable)
            continue;
        uint32_t *succ = jg_arena_alloc(f->arena, sizeof *succ * max_successors(f, u));
        unsigned ns = successors(f, u, succ);
        for (unsigned i = 0; i < ns; i++) {
            Unit *s = &f->units.items[succ[i]];
            s->preds[s->npreds++] = u;
        }
    }
}

/* ---- values and liveness ---- */

static void add_value(Fn *f, LLVMValueRef v, uint32_t unit)
{
    pm_put(&f->index, v, f->vals.count);
    JG_VEC_PUSH(f->arena, f->vals, v);
    JG_VEC_PUSH(f->arena, f->def_unit, unit);
}

/* Numbers the arguments and every instruction with a result (aliases
 * excepted). */
static void number_values(Fn *f)
{
    pm_init(&f->index, f->arena, f->ninsts + LLVMCountParams(f->fi->fn));
    unsigned nparams = LLVMCountParams(f->fi->fn);
    for (unsigned i = 0; i < nparams; i++)
        add_value(f, LLVMGetParam(f->fi->fn, i), 0);
    for (uint32_t u = 0; u < f->units.count; u++) {
        Unit *unit = &f->units.items[u];
        for (LLVMValueRef in = unit->first;; in = LLVMGetNextInstruction(in)) {
            if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind && !is_alias(f->r, in))
                add_value(f, in, u);
            if (in == unit->last)
                break;
        }
    }
}

static void add_use(Fn *f, LLVMValueRef v, uint32_t unit)
{
    uint64_t idx;
    if (!pm_get(&f->index, canon(f->r, v), &idx))
        return; /* constants, blocks, metadata */
    Use use = {(uint32_t)idx, unit};
    JG_VEC_PUSH(f->arena, f->uses, use);
}

/* A phi's operand is used at the end of the predecessor it comes from. */
static void collect_phi_uses(Fn *f, LLVMValueRef phi)
{
    unsigned n = LLVMCountIncoming(phi);
    for (unsigned k = 0; k < n; k++) {
        uint32_t pred = f->units.items[head_of(f, LLVMGetIncomingBlock(phi, k))].tail;
        if (f->units.items[pred].reachable)
            add_use(f, LLVMGetIncomingValue(phi, k), pred);
    }
}

static void collect_uses(Fn *f)
{
    for (uint32_t u = 0; u < f->units.count; u++) {
        Unit *unit = &f->units.items[u];
        if (!unit->reachable)
            continue;
        for (LLVMValueRef in = unit->first;; in = LLVMGetNextInstruction(in)) {
            if (LLVMIsAPHINode(in)) {
                collect_phi_uses(f, in);
            } else if (!rd_is_dropped_call(f->r, in) && !is_alias(f->r, in)) {
                int n = LLVMGetNumOperands(in);
                for (int i = 0; i < n; i++)
                    add_use(f, LLVMGetOperand(in, (unsigned)i), u);
            }
            if (in == unit->last)
                break;
        }
    }
}

/* Uses grouped by value, values in increasing order (a counting sort). */
static Use *sort_uses(Fn *f)
{
    uint32_t nv = f->vals.count;
    uint32_t *start = jg_arena_alloc(f->arena, sizeof *start * (nv + 1));
    for (unsigned i = 0; i < f->uses.count; i++)
        start[f->uses.items[i].value + 1]++;
    for (uint32_t v = 0; v < nv; v++)
        start[v + 1] += start[v];
    Use *sorted = jg_arena_alloc(f->arena, sizeof *sorted * (f->uses.count + 1));
    for (unsigned i = 0; i < f->uses.count; i++)
        sorted[start[f->uses.items[i].value]++] = f->uses.items[i];
    return sorted;
}

/* Marks value v live into unit u (once) and queues u to walk its preds. */
static void mark_live(Fn *f, uint32_t v, uint32_t u, uint32_t *mark, uint32_t *stack, uint32_t *sp)
{
    if (mark[u] == v + 1)
        return;
    if (u == 0)
        rd_fail_at(f->r, f->vals.items[v], "malformed SSA: a value does not dominate its use");
    mark[u] = v + 1;
    JG_VEC_PUSH(f->arena, f->units.items[u].live, v);
    stack[(*sp)++] = u;
}

/* Liveness by walking backwards from each use to the definition (the
 * path-exploration algorithm): linear in the size of the live sets, and
 * since values are handled in increasing order every live list comes out
 * sorted. */
static void compute_liveness(Fn *f)
{
    collect_uses(f);
    Use *uses = sort_uses(f);
    uint32_t n = f->units.count;
    uint32_t *mark = jg_arena_alloc(f->arena, sizeof *mark * n);
    uint32_t *stack = jg_arena_alloc(f->arena, sizeof *stack * n);
    for (unsigned i = 0; i < f->uses.count; i++) {
        uint32_t v = uses[i].value, def = f->def_unit.items[v], sp = 0;
        if (uses[i].unit != def)
            mark_live(f, v, uses[i].unit, mark, stack, &sp);
        while (sp) {
            Unit *x = &f->units.items[stack[--sp]];
            for (uint32_t p = 0; p < x->npreds; p++)
                if (x->preds[p] != def)
                    mark_live(f, v, x->preds[p], mark, stack, &sp);
        }
    }
}

/* ---- blocks ---- */

static void collect_phis(Fn *f, Unit *unit)
{
    if (!unit->head)
        return;
    for (LLVMValueRef in = unit->first; in && LLVMIsAPHINode(in); in = LLVMGetNextInstruction(in))
        unit->nphis++;
    unit->phis = jg_arena_alloc(f->arena, sizeof *unit->phis * (unit->nphis + 1));
    LLVMValueRef in = unit->first;
    for (uint32_t i = 0; i < unit->nphis; i++, in = LLVMGetNextInstruction(in))
        unit->phis[i] = in;
}

/* Grows a graph vector to `want` elements at once instead of doubling its
 * way there (the value table is the bulk of a graph). */
#define RESERVE(g, vec, want)                                                                      \
    do {                                                                                           \
        unsigned cap_ = (vec).capacity;                                                            \
        if ((want) > cap_) {                                                                       \
            cap_ = (want) / 2;                                                                     \
            (vec).items =                                                                          \
                jg_vec_grow((g)->arena, (vec).items, (vec).count, &cap_, sizeof *(vec).items);     \
            (vec).capacity = cap_;                                                                 \
        }                                                                                          \
    } while (0)

/* Room for every parameter, op result and constant the graph will get:
 * the live parameters, about one value per instruction (phis become
 * parameters, most instructions one op) and some slack for expansions
 * and constants. Over-reserving costs page faults: the arena zeroes it. */
static void reserve(Fn *f)
{
    unsigned nlive = 0, nblocks = 1;
    for (uint32_t u = 0; u < f->units.count; u++) {
        nlive += f->units.items[u].live.count;
        nblocks += f->units.items[u].reachable;
    }
    RESERVE(f->g, f->g->blocks, nblocks);
    RESERVE(f->g, f->g->values, f->g->values.count + nlive + f->ninsts + f->ninsts / 4 + 32);
}

/* One flow-graph block per reachable unit, in LLVM's order; the entry
 * block (0) already exists with the function's parameters. */
static void create_blocks(Fn *f)
{
    Reader *r = f->r;
    JgGraph *g = f->g;
    reserve(f);
    for (uint32_t u = 0; u < f->units.count; u++) {
        Unit *unit = &f->units.items[u];
        if (!unit->reachable)
            continue;
        collect_phis(f, unit);
        if (u == 0) {
            if (unit->nphis || unit->live.count)
                rd_fail_at(r, unit->first, "malformed entry block");
            unit->block = 0;
            unit->params = g->blocks.items[0].params;
            continue;
        }
        unit->block = jg_block_new(g, 0, NULL);
        for (uint32_t i = 0; i < unit->nphis; i++)
            jg_block_add_param(g, unit->block,
                               rd_type(r, LLVMTypeOf(unit->phis[i]), unit->phis[i], "a phi"));
        for (unsigned i = 0; i < unit->live.count; i++) {
            LLVMValueRef v = f->vals.items[unit->live.items[i]];
            jg_block_add_param(g, unit->block, rd_type(r, LLVMTypeOf(v), v, "a value"));
        }
        unit->params = g->blocks.items[unit->block].params;
    }
}

/* ---- values in the block being filled ---- */

static uint32_t value_index(Fn *f, LLVMValueRef v, LLVMValueRef where)
{
    uint64_t idx;
    if (!pm_get(&f->index, v, &idx))
        rd_fail_at(f->r, where, "unsupported operand (inline assembly, metadata or a block)");
    return (uint32_t)idx;
}

static void set_value(Fn *f, uint32_t idx, JgVal v)
{
    f->cur[idx] = v;
    f->stamp[idx] = f->block + 1;
}

static void set_result(Fn *f, LLVMValueRef in, JgVal v)
{
    set_value(f, value_index(f, in, in), v);
}

static JgVal constant(Fn *f, LLVMValueRef c, LLVMValueRef where)
{
    uint64_t cached;
    if (pm_get(&f->consts, c, &cached))
        return (JgVal)cached;
    JgType t = rd_type(f->r, LLVMTypeOf(c), where, "a constant");
    ConstVal cv = rd_const_eval(f->r, c, where);
    JgVal v = t == JG_PTR && cv.symbol
                  ? jg_const_symbol(f->g, (void *)(uintptr_t)cv.bits, cv.symbol)
                  : jg_const(f->g, t, cv.bits);
    pm_put(&f->consts, c, v);
    return v;
}

/* The flow-graph value of an LLVM operand in the current block. */
static JgVal operand(Fn *f, LLVMValueRef v, LLVMValueRef where)
{
    v = canon(f->r, v);
    if (LLVMIsAConstant(v))
        return constant(f, v, where);
    uint32_t idx = value_index(f, v, where);
    if (f->stamp[idx] != f->block + 1)
        rd_fail_at(f->r, where, "malformed SSA: a value is not available where it is used");
    return f->cur[idx];
}

static JgVal arg(Fn *f, LLVMValueRef in, unsigned i)
{
    return operand(f, LLVMGetOperand(in, i), in);
}

static JgVal emit(Fn *f, LLVMValueRef in, JgOpcode op, JgType type, uint32_t n, const JgVal *args)
{
    JgVal v = jg_emit(f->g, f->block, op, type, n, args);
    jg_last_op(f->g, f->block)->line = LLVMGetDebugLocLine(in);
    return v;
}

static JgVal emit2(Fn *f, LLVMValueRef in, JgOpcode op, JgType type, JgVal a, JgVal b)
{
    JgVal args[2] = {a, b};
    return emit(f, in, op, type, 2, args);
}

static JgVal emit_cmp(Fn *f, LLVMValueRef in, JgOpcode op, JgPred pred, JgVal a, JgVal b)
{
    JgVal v = emit2(f, in, op, JG_I1, a, b);
    jg_last_op(f->g, f->block)->pred = (uint8_t)pred;
    return v;
}

static JgType result_type(Fn *f, LLVMValueRef in, const char *what)
{
    return rd_type(f->r, LLVMTypeOf(in), in, what);
}

/* ---- instructions ---- */

static JgOpcode binary_opcode(LLVMOpcode op)
{
    switch (op) {
    case LLVMAdd:
        return JG_OP_ADD;
    case LLVMSub:
        return JG_OP_SUB;
    case LLVMMul:
        return JG_OP_MUL;
    case LLVMSDiv:
        return JG_OP_SDIV;
    case LLVMUDiv:
        return JG_OP_UDIV;
    case LLVMSRem:
        return JG_OP_SREM;
    case LLVMURem:
        return JG_OP_UREM;
    case LLVMAnd:
        return JG_OP_AND;
    case LLVMOr:
        return JG_OP_OR;
    case LLVMXor:
        return JG_OP_XOR;
    case LLVMShl:
        return JG_OP_SHL;
    case LLVMLShr:
        return JG_OP_LSHR;
    case LLVMAShr:
        return JG_OP_ASHR;
    case LLVMFAdd:
        return JG_OP_FADD;
    case LLVMFSub:
        return JG_OP_FSUB;
    case LLVMFMul:
        return JG_OP_FMUL;
    case LLVMFDiv:
        return JG_OP_FDIV;
    default:
        return JG_OP__COUNT;
    }
}

static JgOpcode cast_opcode(LLVMOpcode op)
{
    switch (op) {
    case LLVMZExt:
        return JG_OP_ZEXT;
    case LLVMSExt:
        return JG_OP_SEXT;
    case LLVMTrunc:
        return JG_OP_TRUNC;
    case LLVMPtrToInt:
        return JG_OP_PTRTOINT;
    case LLVMIntToPtr:
        return JG_OP_INTTOPTR;
    case LLVMSIToFP:
        return JG_OP_SITOFP;
    case LLVMUIToFP:
        return JG_OP_UITOFP;
    case LLVMFPToSI:
        return JG_OP_FPTOSI;
    case LLVMFPToUI:
        return JG_OP_FPTOUI;
    case LLVMFPExt:
        return JG_OP_FPEXT;
    case LLVMFPTrunc:
        return JG_OP_FPTRUNC;
    case LLVMBitCast:
        return JG_OP_BITCAST;
    default:
        return JG_OP__COUNT;
    }
}

static JgPred fcmp_pred(LLVMRealPredicate p)
{
    static const JgPred map[] = {
        [LLVMRealPredicateFalse] = JG_FFALSE,
        [LLVMRealOEQ] = JG_FOEQ,
        [LLVMRealOGT] = JG_FOGT,
        [LLVMRealOGE] = JG_FOGE,
        [LLVMRealOLT] = JG_FOLT,
        [LLVMRealOLE] = JG_FOLE,
        [LLVMRealONE] = JG_FONE,
        [LLVMRealORD] = JG_FORD,
        [LLVMRealUNO] = JG_FUNO,
        [LLVMRealUEQ] = JG_FUEQ,
        [LLVMRealUGT] = JG_FUGT,
        [LLVMRealUGE] = JG_FUGE,
        [LLVMRealULT] = JG_FULT,
        [LLVMRealULE] = JG_FULE,
        [LLVMRealUNE] = JG_FUNE,
        [LLVMRealPredicateTrue] = JG_FTRUE,
    };
    return (unsigned)p < sizeof map / sizeof map[0] ? map[p] : JG_FFALSE;
}

static void translate_compare(Fn *f, LLVMValueRef in, bool is_float)
{
    JgVal a = arg(f, in, 0), b = arg(f, in, 1);
    JgPred pred;
    if (is_float) {
        pred = fcmp_pred(LLVMGetFCmpPredicate(in));
    } else {
        int p = (int)LLVMGetICmpPredicate(in) - (int)LLVMIntEQ;
        if (p < 0 || p > JG_SLE)
            rd_fail_at(f->r, in, "unknown icmp predicate");
        pred = (JgPred)p;
    }
    result_type(f, in, "a comparison"); /* rejects vector compares */
    set_result(f, in, emit_cmp(f, in, is_float ? JG_OP_FCMP : JG_OP_ICMP, pred, a, b));
}

/* A variable GEP index: sign-extended to i64 and scaled to bytes. */
static JgVal scaled_index(Fn *f, LLVMValueRef in, LLVMValueRef idx, uint64_t scale)
{
    JgVal iv = operand(f, idx, in);
    JgType t = jg_value_type(f->g, iv);
    if (!jg_type_is_int(t))
        rd_fail_at(f->r, in, "getelementptr index is not an integer");
    if (t != JG_I64)
        iv = emit(f, in, JG_OP_SEXT, JG_I64, 1, &iv);
    if (scale != 1)
        iv = emit2(f, in, JG_OP_MUL, JG_I64, iv, jg_const(f->g, JG_I64, scale));
    return iv;
}

/* Adds a constant byte offset, folding it into a constant base address. */
static JgVal add_offset(Fn *f, LLVMValueRef in, JgVal p, uint64_t off)
{
    if (off == 0)
        return p;
    if (jg_is_const(f->g, p)) {
        const JgValueInfo *vi = jg_value(f->g, p);
        uint64_t bits = vi->bits + off;
        const char *sym = rd_offset_symbol(f->r, vi->symbol, (int64_t)off);
        return sym ? jg_const_symbol(f->g, (void *)(uintptr_t)bits, sym)
                   : jg_const(f->g, JG_PTR, bits);
    }
    return emit2(f, in, JG_OP_PTRADD, JG_PTR, p, jg_const(f->g, JG_I64, off));
}

/* GEP: variable indices become SEXT/MUL/PTRADD; constant parts fold into one
 * byte offset computed from the data layout. */
static void translate_gep(Fn *f, LLVMValueRef in)
{
    if (result_type(f, in, "getelementptr") != JG_PTR)
        rd_fail_at(f->r, in, "unsupported getelementptr result");
    LLVMTypeRef ty = LLVMGetGEPSourceElementType(in);
    JgVal p = arg(f, in, 0);
    uint64_t off = 0;
    unsigned n = (unsigned)LLVMGetNumOperands(in);
    for (unsigned i = 1; i < n; i++) {
        LLVMValueRef idx = LLVMGetOperand(in, i);
        uint64_t scale = 0;
        if (!rd_gep_step(f->r, &ty, i, idx, in, &scale, &off) || scale == 0)
            continue;
        if (LLVMIsAConstantInt(idx)) {
            if (LLVMGetIntTypeWidth(LLVMTypeOf(idx)) > 64)
                rd_fail_at(f->r, in, "getelementptr index wider than 64 bits");
            off += (uint64_t)LLVMConstIntGetSExtValue(idx) * scale;
        } else {
            p = emit2(f, in, JG_OP_PTRADD, JG_PTR, p, scaled_index(f, in, idx, scale));
        }
    }
    set_result(f, in, add_offset(f, in, p, off));
}

static void check_plain_access(Fn *f, LLVMValueRef in, const char *what)
{
    if (LLVMGetVolatile(in))
        rd_fail_at(f->r, in, "unsupported volatile %s", what);
    if (LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic)
        rd_fail_at(f->r, in, "unsupported atomic %s", what);
}

static void translate_load(Fn *f, LLVMValueRef in)
{
    check_plain_access(f, in, "load");
    JgType t = result_type(f, in, "a load");
    JgVal p = arg(f, in, 0);
    set_result(f, in, emit(f, in, JG_OP_LOAD, t, 1, &p));
}

static void translate_store(Fn *f, LLVMValueRef in)
{
    check_plain_access(f, in, "store");
    JgVal value = arg(f, in, 0);
    JgVal p = arg(f, in, 1);
    emit2(f, in, JG_OP_STORE, JG_VOID, p, value);
}

static void translate_alloca(Fn *f, LLVMValueRef in)
{
    if (LLVMGetInstructionParent(in) != f->entry)
        rd_fail_at(f->r, in, "unsupported alloca outside the entry block (dynamic stack memory)");
    LLVMValueRef count = LLVMGetOperand(in, 0);
    if (!LLVMIsAConstantInt(count) || LLVMGetIntTypeWidth(LLVMTypeOf(count)) > 64)
        rd_fail_at(f->r, in, "unsupported variable-size alloca");
    uint64_t size = rd_alloc_size(f->r, LLVMGetAllocatedType(in), in), bytes;
    if (__builtin_mul_overflow(size, LLVMConstIntGetZExtValue(count), &bytes) || bytes > INT64_MAX)
        rd_fail_at(f->r, in, "alloca too large");
    set_result(f, in, emit(f, in, JG_OP_ALLOCA, JG_PTR, 0, NULL));
    jg_last_op(f->g, f->block)->imm = (int64_t)bytes;
}

/* A length operand of a memory intrinsic, as i64. */
static JgVal length_arg(Fn *f, LLVMValueRef in, unsigned i)
{
    JgVal len = arg(f, in, i);
    if (jg_value_type(f->g, len) != JG_I64)
        len = emit(f, in, JG_OP_ZEXT, JG_I64, 1, &len);
    return len;
}

static void translate_memory_intrinsic(Fn *f, LLVMValueRef in, JgOpcode op)
{
    LLVMValueRef vol = LLVMGetOperand(in, 3);
    if (!LLVMIsAConstantInt(vol) || LLVMConstIntGetZExtValue(vol) != 0)
        rd_fail_at(f->r, in, "unsupported volatile memory intrinsic");
    JgVal args[3] = {arg(f, in, 0), arg(f, in, 1), length_arg(f, in, 2)};
    emit(f, in, op, JG_VOID, 3, args);
}

/* min/max as ICMP + SELECT: max(a, b) = a > b ? a : b. */
static void translate_minmax(Fn *f, LLVMValueRef in, JgPred pred)
{
    JgType t = result_type(f, in, "a min/max intrinsic");
    JgVal a = arg(f, in, 0), b = arg(f, in, 1);
    JgVal c = emit_cmp(f, in, JG_OP_ICMP, pred, a, b);
    JgVal sel[3] = {c, a, b};
    set_result(f, in, emit(f, in, JG_OP_SELECT, t, 3, sel));
}

/* abs(x) = x < 0 ? 0 - x : x. */
static void translate_abs(Fn *f, LLVMValueRef in)
{
    JgType t = result_type(f, in, "llvm.abs");
    JgVal x = arg(f, in, 0), zero = jg_const(f->g, t, 0);
    JgVal c = emit_cmp(f, in, JG_OP_ICMP, JG_SLT, x, zero);
    JgVal neg = emit2(f, in, JG_OP_SUB, t, zero, x);
    JgVal sel[3] = {c, neg, x};
    set_result(f, in, emit(f, in, JG_OP_SELECT, t, 3, sel));
}

/* fmuladd(a, b, c) = a * b + c, which LLVM allows to stay unfused (clang
 * emits it for every a * b + c under the default -ffp-contract=on). */
static void translate_fmuladd(Fn *f, LLVMValueRef in)
{
    JgType t = result_type(f, in, "llvm.fmuladd");
    JgVal product = emit2(f, in, JG_OP_FMUL, t, arg(f, in, 0), arg(f, in, 1));
    set_result(f, in, emit2(f, in, JG_OP_FADD, t, product, arg(f, in, 2)));
}

static void translate_intrinsic(Fn *f, LLVMValueRef in, LLVMValueRef fn)
{
    const IntrinsicIds *ids = &f->r->ids;
    unsigned id = LLVMGetIntrinsicID(fn);
    if (id && (id == ids->memcpy || id == ids->memcpy_inline || id == ids->memmove))
        translate_memory_intrinsic(f, in, JG_OP_MEMCPY);
    else if (id && (id == ids->memset || id == ids->memset_inline))
        translate_memory_intrinsic(f, in, JG_OP_MEMSET);
    else if (id && id == ids->smax)
        translate_minmax(f, in, JG_SGT);
    else if (id && id == ids->smin)
        translate_minmax(f, in, JG_SLT);
    else if (id && id == ids->umax)
        translate_minmax(f, in, JG_UGT);
    else if (id && id == ids->umin)
        translate_minmax(f, in, JG_ULT);
    else if (id && id == ids->abs)
        translate_abs(f, in);
    else if (id && id == ids->fmuladd)
        translate_fmuladd(f, in);
    else
        rd_fail_at(f->r, in, "unsupported intrinsic '%s'", rd_name(f->r, fn));
}

static void translate_hint(Fn *f, LLVMValueRef in, JgOpcode op, JgType t, const char *name)
{
    unsigned nargs = LLVMGetNumArgOperands(in);
    if (op == JG_OP_MERGE_POINT) {
        /* jit_merge_point: no argument; jit_merge_point_join (t, i64): its
         * flag */
        unsigned want = t == JG_VOID ? 0 : 1;
        if (nargs != want)
            rd_fail_at(f->r, in, "%s takes %s", name, want ? "one argument" : "no arguments");
        JgVal joins = want ? arg(f, in, 0) : 0;
        if (want && jg_value_type(f->g, joins) != t)
            rd_fail_at(f->r, in, "%s called with the wrong type", name);
        emit(f, in, op, JG_VOID, want, want ? &joins : NULL);
        if (f->g->blocks.items[f->block].ops.count != 1)
            rd_fail_at(f->r, in, "internal error: merge point not first in its block");
        return;
    }
    if (nargs != 1)
        rd_fail_at(f->r, in, "%s takes one argument", name);
    JgVal x = arg(f, in, 0);
    if (jg_value_type(f->g, x) != t || result_type(f, in, name) != t)
        rd_fail_at(f->r, in, "%s called with the wrong type", name);
    set_result(f, in, emit(f, in, op, t, 1, &x));
    if (op == JG_OP_LOAD) /* jit_load_immutable_ptr */
        jg_last_op(f->g, f->block)->imm = JG_IMM_IMMUTABLE;
}

/* Arguments whose ABI meaning is not "a scalar value". */
static void check_call_attrs(Fn *f, LLVMValueRef in, unsigned nargs)
{
    Reader *r = f->r;
    unsigned kinds[] = {r->attr_byval, r->attr_sret, r->attr_inalloca, r->attr_preallocated};
    for (unsigned i = 0; i < nargs; i++)
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            if (LLVMGetCallSiteEnumAttribute(in, i + 1, kinds[k]))
                rd_fail_at(r, in, "unsupported call passing a struct by value (argument %u)", i);
}

/* args[0] is the callee (a constant address for direct calls), then the
 * arguments; `callee` names the graph of a direct call. */
static void translate_plain_call(Fn *f, LLVMValueRef in, LLVMValueRef target)
{
    LLVMTypeRef fty = LLVMGetCalledFunctionType(in);
    unsigned nargs = LLVMGetNumArgOperands(in);
    check_call_attrs(f, in, nargs);
    FnInfo *fi = NULL;
    if (target) {
        fi = rd_fn_info(f->r, target);
        if (!fi)
            rd_fail_at(f->r, in, "internal error: callee '%s' not discovered",
                       rd_name(f->r, target));
        if (LLVMGlobalGetValueType(target) != fty)
            rd_fail_at(f->r, in, "unsupported call to '%s' with a different function type",
                       fi->name);
    } else if (LLVMIsFunctionVarArg(fty)) {
        rd_fail_at(f->r, in, "unsupported indirect call to a variadic function");
    }
    JgType ret = rd_type(f->r, LLVMGetReturnType(fty), in, "a call result");
    JgVal *args = jg_arena_alloc(f->arena, sizeof *args * (nargs + 1));
    args[0] = operand(f, LLVMGetCalledValue(in), in);
    for (unsigned i = 0; i < nargs; i++)
        args[i + 1] = arg(f, in, i);
    JgVal v = emit(f, in, JG_OP_CALL, ret, nargs + 1, args);
    if (fi)
        jg_last_op(f->g, f->block)->callee = fi->g;
    if (ret != JG_VOID)
        set_result(f, in, v);
}

static void translate_call(Fn *f, LLVMValueRef in)
{
    LLVMValueRef callee = LLVMGetCalledValue(in);
    if (LLVMIsAInlineAsm(callee))
        rd_fail_at(f->r, in, "unsupported inline assembly");
    LLVMValueRef fn = LLVMIsAFunction(callee) ? callee : NULL;
    if (fn && rd_is_special(f->r, fn)) {
        const char *name = rd_name(f->r, fn);
        JgType t;
        JgOpcode hint = rd_hint_opcode(name, &t);
        if (hint != JG_OP__COUNT)
            translate_hint(f, in, hint, t, name);
        else
            translate_intrinsic(f, in, fn);
        return;
    }
    translate_plain_call(f, in, fn);
}

static const char *unsupported_name(LLVMOpcode op)
{
    switch (op) {
    case LLVMFRem:
        return "frem";
    case LLVMAddrSpaceCast:
        return "addrspacecast";
    case LLVMVAArg:
        return "va_arg";
    case LLVMExtractValue:
        return "extractvalue";
    case LLVMInsertValue:
        return "insertvalue";
    case LLVMExtractElement:
        return "extractelement";
    case LLVMInsertElement:
        return "insertelement";
    case LLVMShuffleVector:
        return "shufflevector";
    case LLVMAtomicRMW:
        return "atomicrmw";
    case LLVMAtomicCmpXchg:
        return "cmpxchg";
    case LLVMFence:
        return "fence";
    case LLVMLandingPad:
        return "landingpad";
    case LLVMCallBr:
        return "callbr";
    default:
        return NULL;
    }
}

static void translate_simple(Fn *f, LLVMValueRef in, LLVMOpcode op)
{
    JgOpcode code = binary_opcode(op);
    if (code != JG_OP__COUNT) {
        JgType t = result_type(f, in, "an arithmetic operation");
        set_result(f, in, emit2(f, in, code, t, arg(f, in, 0), arg(f, in, 1)));
        return;
    }
    code = cast_opcode(op);
    if (code != JG_OP__COUNT) {
        JgType t = result_type(f, in, "a conversion");
        JgVal x = arg(f, in, 0);
        set_result(f, in, emit(f, in, code, t, 1, &x));
        return;
    }
    const char *name = unsupported_name(op);
    if (name)
        rd_fail_at(f->r, in, "unsupported instruction '%s'", name);
    rd_fail_at(f->r, in, "unsupported instruction (LLVM opcode %d)", (int)op);
}

static void translate_inst(Fn *f, LLVMValueRef in)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    switch (op) {
    case LLVMFNeg: {
        JgVal x = arg(f, in, 0);
        set_result(f, in, emit(f, in, JG_OP_FNEG, result_type(f, in, "fneg"), 1, &x));
        return;
    }
    case LLVMICmp:
    case LLVMFCmp:
        translate_compare(f, in, op == LLVMFCmp);
        return;
    case LLVMSelect: {
        JgType t = result_type(f, in, "a select");
        JgVal args[3] = {arg(f, in, 0), arg(f, in, 1), arg(f, in, 2)};
        set_result(f, in, emit(f, in, JG_OP_SELECT, t, 3, args));
        return;
    }
    case LLVMGetElementPtr:
        translate_gep(f, in);
        return;
    case LLVMLoad:
        translate_load(f, in);
        return;
    case LLVMStore:
        translate_store(f, in);
        return;
    case LLVMAlloca:
        translate_alloca(f, in);
        return;
    case LLVMCall:
        translate_call(f, in);
        return;
    default:
        translate_simple(f, in, op);
    }
}

/* ---- terminators ---- */

static LLVMValueRef incoming_for(Fn *f, LLVMValueRef phi, LLVMBasicBlockRef from)
{
    unsigned n = LLVMCountIncoming(phi);
    for (unsigned k = 0; k < n; k++)
        if (LLVMGetIncomingBlock(phi, k) == from)
            return LLVMGetIncomingValue(phi, k);
    rd_fail_at(f->r, phi, "malformed phi: no value for a predecessor");
}

/* The link from the current unit to unit `to`: its phis' incoming values,
 * then the values live into it. */
static JgLink link_to(Fn *f, const Unit *from, uint32_t to, LLVMValueRef where)
{
    const Unit *t = &f->units.items[to];
    uint32_t n = t->nphis + t->live.count;
    JgVal *args = jg_arena_alloc(f->arena, sizeof *args * (n + 1));
    for (uint32_t i = 0; i < t->nphis; i++)
        args[i] = operand(f, incoming_for(f, t->phis[i], from->bb), where);
    for (unsigned j = 0; j < t->live.count; j++) {
        uint32_t v = t->live.items[j];
        if (f->stamp[v] != f->block + 1)
            rd_fail_at(f->r, where, "malformed SSA: a live value is not available");
        args[t->nphis + j] = f->cur[v];
    }
    return jg_link(f->g, t->block, n, args);
}

static JgLink link_to_bb(Fn *f, const Unit *from, LLVMBasicBlockRef bb, LLVMValueRef where)
{
    return link_to(f, from, head_of(f, bb), where);
}

static void translate_switch(Fn *f, const Unit *u, LLVMValueRef in)
{
    JgVal value = arg(f, in, 0);
    uint32_t n = ((uint32_t)LLVMGetNumOperands(in) - 2) / 2;
    int64_t *cases = jg_arena_alloc(f->arena, sizeof *cases * (n + 1));
    JgLink *links = jg_arena_alloc(f->arena, sizeof *links * (n + 1));
    links[0] = link_to_bb(f, u, LLVMGetSwitchDefaultDest(in), in);
    for (uint32_t i = 0; i < n; i++) {
        LLVMValueRef c = LLVMGetOperand(in, 2 + 2 * i);
        if (!LLVMIsAConstantInt(c) || LLVMGetIntTypeWidth(LLVMTypeOf(c)) > 64)
            rd_fail_at(f->r, in, "malformed switch case");
        cases[i] = LLVMConstIntGetSExtValue(c);
        links[i + 1] = link_to_bb(f, u, LLVMGetSuccessor(in, i + 1), in);
    }
    jg_set_switch(f->g, f->block, value, n, cases, links);
}

static void translate_terminator(Fn *f, const Unit *u, LLVMValueRef in)
{
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMRet:
        jg_set_return(f->g, f->block, LLVMGetNumOperands(in) ? arg(f, in, 0) : 0);
        break;
    case LLVMBr:
        if (LLVMIsConditional(in)) {
            JgVal cond = operand(f, LLVMGetCondition(in), in);
            JgLink t = link_to_bb(f, u, LLVMGetSuccessor(in, 0), in);
            JgLink e = link_to_bb(f, u, LLVMGetSuccessor(in, 1), in);
            jg_set_branch(f->g, f->block, cond, t, e);
        } else {
            jg_set_goto(f->g, f->block, link_to_bb(f, u, LLVMGetSuccessor(in, 0), in));
        }
        break;
    case LLVMSwitch:
        translate_switch(f, u, in);
        break;
    default: /* unreachable; others were rejected by check_terminator */
        jg_set_unreachable(f->g, f->block);
        break;
    }
    f->g->blocks.items[f->block].term.line = LLVMGetDebugLocLine(in);
}

/* ---- the function ---- */

static void enter_block(Fn *f, const Unit *u)
{
    f->block = u->block;
    for (uint32_t i = 0; i < u->nphis; i++)
        set_result(f, u->phis[i], u->params[i]);
    for (unsigned j = 0; j < u->live.count; j++)
        set_value(f, u->live.items[j], u->params[u->nphis + j]);
    if (u->block == 0) /* the entry: the function's parameters */
        for (uint32_t i = 0; i < f->g->nparams; i++)
            set_value(f, i, u->params[i]);
}

static void translate_unit(Fn *f, uint32_t index)
{
    const Unit *u = &f->units.items[index];
    enter_block(f, u);
    for (LLVMValueRef in = u->first;; in = LLVMGetNextInstruction(in)) {
        if (in == u->last && u->is_tail) {
            translate_terminator(f, u, in);
            break;
        }
        if (!emits_nothing(f->r, in))
            translate_inst(f, in);
        if (in == u->last) {
            jg_set_goto(f->g, f->block, link_to(f, u, index + 1, in));
            break;
        }
    }
}

void rd_translate_function(Reader *r, FnInfo *fi)
{
    Fn f = {.r = r,
            .fi = fi,
            .g = fi->g,
            .arena = &r->fn_scratch,
            .entry = LLVMGetEntryBasicBlock(fi->fn)};
    r->cur_fn = fi->name;
    r->cur_fn_line = fi->g->line;
    pm_init(&f.bb_head, f.arena, LLVMCountBasicBlocks(fi->fn));
    build_units(&f);
    find_reachable(&f);
    number_values(&f);
    compute_liveness(&f);
    create_blocks(&f);
    f.cur = jg_arena_alloc(f.arena, sizeof *f.cur * (f.vals.count + 1));
    f.stamp = jg_arena_alloc(f.arena, sizeof *f.stamp * (f.vals.count + 1));
    pm_init(&f.consts, f.arena, 64);
    for (uint32_t u = 0; u < f.units.count; u++)
        if (f.units.items[u].reachable)
            translate_unit(&f, u);
    jg_arena_free(f.arena); /* also freed by the reader after an error */
}
