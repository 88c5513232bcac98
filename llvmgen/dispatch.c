/* Dispatchers and InputArgs (docs/backend.md, "Dispatchers"). The primary
 * of a growable graph owns the InputArgs area of its activation (on its
 * stack, seen by a conservative collector) and loops calling the method
 * that owns the current block id; a secondary enters at the block its id
 * names and returns the id of wherever control goes next. Every value
 * crossing methods travels in a 64-bit slot: integers zero-extended,
 * pointers as addresses, floats bit-cast. */
#include <stdlib.h>

#include "internal.h"

LLVMValueRef lg_const_ptr(const JgLlvm *llvm, const void *p)
{
    if (!p)
        return LLVMConstPointerNull(llvm->t_ptr);
    return LLVMConstIntToPtr(LLVMConstInt(llvm->t_i64, (uint64_t)(uintptr_t)p, 0), llvm->t_ptr);
}

LLVMValueRef lg_to_slot(LgMethod *m, LLVMValueRef v, JgType t)
{
    JgLlvm *llvm = m->llvm;
    switch (t) {
    case JG_I1:
    case JG_I8:
    case JG_I16:
    case JG_I32:
        return LLVMBuildZExt(m->b, v, llvm->t_i64, "");
    case JG_PTR:
        return LLVMBuildPtrToInt(m->b, v, llvm->t_i64, "");
    case JG_F64:
        return LLVMBuildBitCast(m->b, v, llvm->t_i64, "");
    case JG_F32:
        return LLVMBuildZExt(m->b, LLVMBuildBitCast(m->b, v, llvm->t_i32, ""), llvm->t_i64, "");
    default:
        return v;
    }
}

LLVMValueRef lg_from_slot(LgMethod *m, LLVMValueRef bits, JgType t)
{
    JgLlvm *llvm = m->llvm;
    switch (t) {
    case JG_I1:
    case JG_I8:
    case JG_I16:
    case JG_I32:
        return LLVMBuildTrunc(m->b, bits, lg_type(llvm, t), "");
    case JG_PTR:
        return LLVMBuildIntToPtr(m->b, bits, llvm->t_ptr, "");
    case JG_F64:
        return LLVMBuildBitCast(m->b, bits, llvm->t_f64, "");
    case JG_F32:
        return LLVMBuildBitCast(m->b, LLVMBuildTrunc(m->b, bits, llvm->t_i32, ""), llvm->t_f32, "");
    default:
        return bits;
    }
}

uint64_t lg_tail(const LgMethod *m)
{
    return LG_IA_SLOTS + 8 * (uint64_t)m->lg->capacity;
}

LLVMValueRef lg_ia_addr(LgMethod *m, uint64_t offset)
{
    if (offset == 0)
        return m->ia;
    LLVMValueRef off = LLVMConstInt(m->llvm->t_i64, offset, 0);
    return LLVMBuildGEP2(m->b, m->llvm->t_i8, m->ia, &off, 1, "");
}

static LLVMValueRef load_slot(LgMethod *m, uint32_t i, JgType t)
{
    LLVMValueRef p = lg_ia_addr(m, LG_IA_SLOTS + 8 * (uint64_t)i);
    return lg_from_slot(m, LLVMBuildLoad2(m->b, m->llvm->t_i64, p, ""), t);
}

void lg_store_slots(LgMethod *m, uint32_t n, const JgVal *vals)
{
    for (uint32_t i = 0; i < n; i++) {
        LLVMValueRef v = lg_value(m, vals[i]);
        if (!v)
            return;
        LLVMValueRef p = lg_ia_addr(m, LG_IA_SLOTS + 8 * (uint64_t)i);
        LLVMBuildStore(m->b, lg_to_slot(m, v, jg_value_type(m->g, vals[i])), p);
    }
}

void lg_emit_exit(LgMethod *m, LLVMValueRef id)
{
    if (!m->primary) {
        LLVMBuildRet(m->b, id);
        return;
    }
    LLVMBasicBlockRef from = LLVMGetInsertBlock(m->b);
    LLVMAddIncoming(m->dispatch_id, &id, &from, 1);
    LLVMBuildBr(m->b, m->dispatch);
}

/* The way in from a dispatcher: parameters from slots 0..n-1. A landing in
 * a forwarding block (forward.c) goes on to its chain's end: the block is
 * never lowered, so its parameters take the loaded values and the link to
 * the chain's end is composed from them. */
static LLVMBasicBlockRef landing(LgMethod *m, uint32_t block)
{
    char name[32];
    snprintf(name, sizeof name, "enter.b%u", block);
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(m->llvm->ctx, m->fn, name);
    const JgBlock *blk = &m->g->blocks.items[block];
    if (!lg_need_slots(m, blk->nparams))
        return NULL;
    LLVMPositionBuilderAtEnd(m->b, bb);
    bool forwards = lg_final_target(m, block) != block;
    for (uint32_t i = 0; i < blk->nparams; i++) {
        JgVal p = blk->params[i];
        LLVMValueRef v = load_slot(m, i, jg_value_type(m->g, p));
        if (forwards)
            m->vals[p] = v;
        else
            LLVMAddIncoming(m->vals[p], &v, &bb, 1);
    }
    JgLink in = {.target = block, .nargs = blk->nparams, .args = blk->params}, buf;
    const JgLink *l = forwards ? lg_effective_link(m, &in, &buf) : &in;
    if (!l)
        return NULL;
    const JgBlock *dest = &m->g->blocks.items[l->target];
    for (uint32_t i = 0; forwards && i < l->nargs; i++) {
        LLVMValueRef v = lg_value(m, l->args[i]);
        if (!v)
            return NULL;
        LLVMAddIncoming(m->vals[dest->params[i]], &v, &bb, 1);
    }
    LLVMBuildBr(m->b, m->bbs[l->target - m->lo]);
    return bb;
}

/* A landing in the middle of a loop (cold.c): the copy of the method
 * enters there and runs until control leaves it, as this method would. */
static LLVMBasicBlockRef cold_landing(LgMethod *m, uint32_t block, LLVMValueRef id)
{
    char name[32];
    snprintf(name, sizeof name, "cold.b%u", block);
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(m->llvm->ctx, m->fn, name);
    LLVMPositionBuilderAtEnd(m->b, bb);
    JgLlvm *llvm = m->llvm;
    LLVMTypeRef params[2] = {llvm->t_i32, llvm->t_ptr};
    LLVMValueRef args[2] = {id, m->ia};
    LLVMValueRef next = LLVMBuildCall2(m->b, LLVMFunctionType(llvm->t_i32, params, 2, 0),
                                       m->cold_fn, args, 2, "next");
    LLVMSetTailCall(next, 1);
    LLVMBuildRet(m->b, next);
    return bb;
}

static LLVMBasicBlockRef unreachable_block(LgMethod *m)
{
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(m->llvm->ctx, m->fn, "bad.blockid");
    LLVMPositionBuilderAtEnd(m->b, bb);
    LLVMBuildUnreachable(m->b);
    return bb;
}

/* switch (block number of `id`) to the landings (lg_has_landing);
 * the builder must be at the end of the block that ends with it. */
static LLVMValueRef build_block_switch(LgMethod *m, LLVMValueRef id)
{
    LLVMBasicBlockRef here = LLVMGetInsertBlock(m->b);
    LLVMBasicBlockRef bad = unreachable_block(m);
    LLVMPositionBuilderAtEnd(m->b, here);
    LLVMValueRef blockno = LLVMBuildAnd(m->b, id, LLVMConstInt(m->llvm->t_i32, 0xffff, 0), "");
    uint32_t n = 0;
    for (uint32_t b = m->lo; b < m->hi; b++)
        n += lg_has_landing(m, b);
    LLVMValueRef sw = LLVMBuildSwitch(m->b, blockno, bad, n);
    for (uint32_t b = m->lo; b < m->hi; b++) {
        if (!lg_has_landing(m, b))
            continue;
        bool cold = m->cold && m->cold[b - m->lo];
        LLVMBasicBlockRef bb = cold ? cold_landing(m, b, id) : landing(m, b);
        if (!bb)
            return NULL;
        LLVMAddCase(sw, LLVMConstInt(m->llvm->t_i32, b - m->lo, 0), bb);
    }
    LLVMPositionBuilderAtEnd(m->b, here);
    return sw;
}

/* A secondary enters at the block its first argument names. */
static bool secondary_entry(LgMethod *m)
{
    m->ia = LLVMGetParam(m->fn, 1);
    LLVMValueRef id = LLVMGetParam(m->fn, 0);
    LLVMPositionBuilderAtEnd(m->b, m->entry);
    if (m->area_bytes) {
        m->entry_term = lg_area_entry(m, id);
        return build_block_switch(m, id) != NULL;
    }
    m->entry_term = build_block_switch(m, id);
    return m->entry_term != NULL;
}

/* The external-jump counter: a plain add on a global (not atomic). */
static void count_jump(LgMethod *m)
{
    JgLlvm *llvm = m->llvm;
    LLVMValueRef p = lg_const_ptr(llvm, &llvm->stats.external_jumps);
    LLVMValueRef n = LLVMBuildLoad2(m->b, llvm->t_i64, p, "jumps");
    LLVMBuildStore(m->b, LLVMBuildAdd(m->b, n, LLVMConstInt(llvm->t_i64, 1, 0), ""), p);
}

/* The primary's result after a secondary returned it in InputArgs. */
static LLVMBasicBlockRef return_block(LgMethod *m)
{
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(m->llvm->ctx, m->fn, "returned");
    LLVMPositionBuilderAtEnd(m->b, bb);
    JgType rt = (JgType)m->g->ret_type;
    if (rt == JG_VOID) {
        LLVMBuildRetVoid(m->b);
    } else {
        LLVMValueRef bits = LLVMBuildLoad2(m->b, m->llvm->t_i64, lg_ia_addr(m, LG_IA_RESULT), "");
        LLVMBuildRet(m->b, lg_from_slot(m, bits, rt));
    }
    return bb;
}

/* id names another method: call it through the graph's method table and
 * loop on the id it returns, unless the graph returned. */
static void remote_call(LgMethod *m, LLVMBasicBlockRef remote, LLVMValueRef id, LLVMValueRef method)
{
    JgLlvm *llvm = m->llvm;
    LLVMPositionBuilderAtEnd(m->b, remote);
    LLVMValueRef index = LLVMBuildZExt(m->b, method, llvm->t_i64, "");
    LLVMValueRef slot =
        LLVMBuildGEP2(m->b, llvm->t_ptr, lg_const_ptr(llvm, m->lg->methods), &index, 1, "");
    LLVMValueRef fn = LLVMBuildLoad2(m->b, llvm->t_ptr, slot, "method");
    LLVMTypeRef params[2] = {llvm->t_i32, llvm->t_ptr};
    LLVMValueRef args[2] = {id, m->ia};
    LLVMValueRef next =
        LLVMBuildCall2(m->b, LLVMFunctionType(llvm->t_i32, params, 2, 0), fn, args, 2, "next");
    LLVMBasicBlockRef returned = return_block(m), grant = lg_build_grant(m);
    LLVMPositionBuilderAtEnd(m->b, remote);
    LLVMValueRef sw = LLVMBuildSwitch(m->b, next, m->dispatch, 2);
    LLVMAddCase(sw, LLVMConstInt(llvm->t_i32, JG_BLOCKID_RETURN, 0), returned);
    LLVMAddCase(sw, LLVMConstInt(llvm->t_i32, JG_BLOCKID_NEED_AREA, 0), grant);
    LLVMAddIncoming(m->dispatch_id, &next, &remote, 1);
}

/* The primary's dispatcher loop:
 *   dispatch: id = phi; if (method(id) == 0) switch (block(id)) ...
 *             else { id = methods[method(id)](id, ia); if (id == RETURN)
 *             return ia->result; if (id == NEED_AREA) grant it (areas.c);
 *             goto dispatch; } */
static bool build_dispatcher(LgMethod *m)
{
    JgLlvm *llvm = m->llvm;
    m->dispatch = LLVMAppendBasicBlockInContext(llvm->ctx, m->fn, "dispatch");
    LLVMBasicBlockRef local = LLVMAppendBasicBlockInContext(llvm->ctx, m->fn, "dispatch.local");
    LLVMBasicBlockRef remote = LLVMAppendBasicBlockInContext(llvm->ctx, m->fn, "dispatch.remote");
    LLVMPositionBuilderAtEnd(m->b, m->dispatch);
    m->dispatch_id = LLVMBuildPhi(m->b, llvm->t_i32, "blockid");
    count_jump(m);
    LLVMValueRef method = LLVMBuildLShr(m->b, m->dispatch_id, LLVMConstInt(llvm->t_i32, 16, 0), "");
    LLVMValueRef mine = LLVMBuildICmp(m->b, LLVMIntEQ, method, LLVMConstInt(llvm->t_i32, 0, 0), "");
    LLVMBuildCondBr(m->b, mine, local, remote);
    LLVMPositionBuilderAtEnd(m->b, local);
    if (!build_block_switch(m, m->dispatch_id))
        return false;
    remote_call(m, remote, m->dispatch_id, method);
    return true;
}

/* The primary's own InputArgs, followed by the tail (areas.c). */
static void activation(LgMethod *m)
{
    JgLlvm *llvm = m->llvm;
    uint64_t bytes = lg_tail(m) + LG_TAIL_BYTES;
    m->ia = LLVMBuildAlloca(m->b, LLVMArrayType2(llvm->t_i8, bytes), "inputargs");
    LLVMSetAlignment(m->ia, 16);
    LLVMValueRef cap = LLVMConstInt(llvm->t_i32, m->lg->capacity, 0);
    LLVMBuildStore(m->b, cap, lg_ia_addr(m, LG_IA_CAPACITY));
    LLVMBuildStore(m->b, lg_const_ptr(llvm, m->lg), lg_ia_addr(m, LG_IA_OWNER));
    lg_init_tail(m);
}

static bool primary_entry(LgMethod *m)
{
    const JgBlock *b0 = &m->g->blocks.items[0];
    if (b0->nparams != m->g->nparams)
        return lg_fail(m, "block 0 has %u parameters, the graph %u", b0->nparams, m->g->nparams);
    for (uint32_t i = 0; i < b0->nparams; i++)
        if (jg_value_type(m->g, b0->params[i]) != (JgType)m->g->param_types[i])
            return lg_fail(m, "parameter %u of block 0 is not a %s", i,
                           jg_type_name((JgType)m->g->param_types[i]));
    LLVMPositionBuilderAtEnd(m->b, m->entry);
    if (!m->lg->growable) {
        m->entry_term = LLVMBuildBr(m->b, m->bbs[0]);
    } else {
        /* jg_llvm_call_at: a start pending goes straight to the dispatcher */
        JgLlvm *llvm = m->llvm;
        activation(m);
        LLVMValueRef pending =
            LLVMBuildLoad2(m->b, llvm->t_i32, lg_const_ptr(llvm, &m->lg->start_pending), "");
        LLVMSetVolatile(pending, 1);
        LLVMValueRef start =
            LLVMBuildICmp(m->b, LLVMIntNE, pending, LLVMConstInt(llvm->t_i32, 0, 0), "start");
        m->start = LLVMAppendBasicBlockInContext(llvm->ctx, m->fn, "start");
        m->entry_term = LLVMBuildCondBr(m->b, start, m->start, m->bbs[0]);
    }
    for (uint32_t i = 0; i < b0->nparams; i++) {
        LLVMValueRef v = LLVMGetParam(m->fn, i);
        LLVMAddIncoming(m->vals[b0->params[i]], &v, &m->entry, 1);
    }
    if (!m->lg->growable)
        return true;
    if (!build_dispatcher(m))
        return false;
    JgLlvm *llvm = m->llvm;
    LLVMPositionBuilderAtEnd(m->b, m->start);
    LLVMTypeRef params[2] = {llvm->t_ptr, llvm->t_ptr};
    LLVMTypeRef fty = LLVMFunctionType(llvm->t_i32, params, 2, 0);
    LLVMValueRef args[2] = {lg_const_ptr(llvm, m->lg), m->ia};
    LLVMValueRef id = LLVMBuildCall2(m->b, fty, lg_const_ptr(llvm, (const void *)lg_take_start),
                                     args, 2, "start.id");
    LLVMBuildBr(m->b, m->dispatch);
    LLVMAddIncoming(m->dispatch_id, &id, &m->start, 1);
    return true;
}

bool lg_build_entry(LgMethod *m)
{
    return m->primary ? primary_entry(m) : secondary_entry(m);
}

/* jg_llvm_call's way in: `uint64_t call(const uint64_t *args)` converts
 * the slots to the primary's parameter types and widens its result, so
 * any signature (doubles included) can be called from C. */
bool lg_build_call_wrapper(JgLlvm *llvm, LgGraph *lg, LLVMModuleRef mod, LLVMValueRef primary)
{
    char name[96];
    lg_symbol(lg, "call", 0, name, sizeof name);
    LLVMTypeRef fty = LLVMFunctionType(llvm->t_i64, &llvm->t_ptr, 1, 0);
    LLVMValueRef fn = LLVMAddFunction(mod, name, fty);
    LgMethod w = {.llvm = llvm, .b = LLVMCreateBuilderInContext(llvm->ctx)};
    LLVMPositionBuilderAtEnd(w.b, LLVMAppendBasicBlockInContext(llvm->ctx, fn, "entry"));
    const JgGraph *g = lg->graph;
    LLVMValueRef *args = malloc(sizeof *args * (g->nparams ? g->nparams : 1));
    if (!args) {
        LLVMDisposeBuilder(w.b);
        return false;
    }
    for (uint32_t i = 0; i < g->nparams; i++) {
        LLVMValueRef off = LLVMConstInt(llvm->t_i64, i, 0);
        LLVMValueRef p = LLVMBuildGEP2(w.b, llvm->t_i64, LLVMGetParam(fn, 0), &off, 1, "");
        args[i] =
            lg_from_slot(&w, LLVMBuildLoad2(w.b, llvm->t_i64, p, ""), (JgType)g->param_types[i]);
    }
    LLVMValueRef r =
        LLVMBuildCall2(w.b, LLVMGlobalGetValueType(primary), primary, args, g->nparams, "");
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMAddCallSiteAttribute(r, LLVMAttributeFunctionIndex,
                             LLVMCreateEnumAttribute(llvm->ctx, noinline, 0));
    JgType rt = (JgType)g->ret_type;
    LLVMBuildRet(w.b, rt == JG_VOID ? LLVMConstInt(llvm->t_i64, 0, 0) : lg_to_slot(&w, r, rt));
    free(args);
    LLVMDisposeBuilder(w.b);
    return true;
}
