/* Calls: natives (a constant address), computed function pointers, and
 * portal calls, which go through options.portal_call with the arguments
 * in an array (the portal's compiled code is chosen at run time). */
#include <stdlib.h>

#include "frontend/free_list.h"
#include "internal.h"

/* The function called: a constant address (the callee graph's native
 * address when the constant is null) or a pointer computed at run time. */
static LLVMValueRef callee_value(LgMethod *m, const JgOp *op)
{
    JgVal c = op->args[0];
    if (c == 0 || c >= m->g->values.count)
        return lg_value(m, c);
    const JgValueInfo *info = jg_value(m->g, c);
    if (info->kind == JG_VK_CONST) {
        uint64_t addr = info->bits;
        if (!addr && op->callee && op->callee->native)
            addr = (uint64_t)(uintptr_t)op->callee->native;
        if (!addr)
            return lg_fail(m, "call of a null function%s%s", op->callee ? " for " : "",
                           op->callee && op->callee->name ? op->callee->name : ""),
                   NULL;
        return lg_const_ptr(m->llvm, (const void *)(uintptr_t)addr);
    }
    if (info->type != JG_PTR)
        return lg_fail(m, "call through a %s", jg_type_name((JgType)info->type)), NULL;
    return lg_value(m, c);
}

/* C passes small integers extended: signed (char, short: the evaluator's
 * assumption too) and bool zero-extended. */
static void extension_attribute(LgMethod *m, LLVMValueRef call, unsigned index, JgType t)
{
    const char *kind = t == JG_I1 ? "zeroext" : t == JG_I8 || t == JG_I16 ? "signext" : NULL;
    if (!kind)
        return;
    unsigned id = LLVMGetEnumAttributeKindForName(kind, 7);
    LLVMAddCallSiteAttribute(call, index, LLVMCreateEnumAttribute(m->llvm->ctx, id, 0));
}

static bool native_call(LgMethod *m, const JgOp *op, LLVMValueRef fn)
{
    uint32_t n = op->nargs - 1;
    LLVMTypeRef *types = malloc(sizeof *types * (n ? n : 1));
    LLVMValueRef *args = malloc(sizeof *args * (n ? n : 1));
    if (!types || !args) {
        free(types);
        free(args);
        return lg_fail(m, "out of memory");
    }
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        args[i] = lg_value(m, op->args[i + 1]);
        ok = args[i] != NULL;
        if (ok)
            types[i] = lg_type(m->llvm, jg_value_type(m->g, op->args[i + 1]));
    }
    if (ok) {
        const JgGraph *callee = op->callee;
        bool variadic = callee && callee->variadic && callee->nparams <= n;
        uint32_t nfixed = variadic ? callee->nparams : n;
        LLVMTypeRef fty =
            LLVMFunctionType(lg_type(m->llvm, (JgType)op->type), types, nfixed, variadic);
        LLVMValueRef call = LLVMBuildCall2(m->b, fty, fn, args, n, "");
        for (uint32_t i = 0; i < n; i++)
            extension_attribute(m, call, i + 1, jg_value_type(m->g, op->args[i + 1]));
        if (op->result)
            m->vals[op->result] = call;
    }
    free(types);
    free(args);
    return ok;
}

/* The call through the host: portal_call(ctx, args, site), the arguments
 * widened into an array on the stack; the result as a 64-bit slot. */
static LLVMValueRef host_call(LgMethod *m, const JgOp *op, JgPortalSite *site)
{
    JgLlvm *llvm = m->llvm;
    uint32_t n = op->nargs - 1;
    LLVMValueRef array =
        lg_entry_alloca(m, LLVMArrayType2(llvm->t_i64, n ? n : 1), 8, "portal.args");
    for (uint32_t i = 0; i < n; i++) {
        LLVMValueRef v = lg_value(m, op->args[i + 1]);
        if (!v)
            return NULL;
        LLVMValueRef index = LLVMConstInt(llvm->t_i64, i, 0);
        LLVMValueRef p = LLVMBuildGEP2(m->b, llvm->t_i64, array, &index, 1, "");
        LLVMBuildStore(m->b, lg_to_slot(m, v, jg_value_type(m->g, op->args[i + 1])), p);
    }
    LLVMTypeRef params[3] = {llvm->t_ptr, llvm->t_ptr, llvm->t_ptr};
    LLVMTypeRef fty = LLVMFunctionType(llvm->t_i64, params, 3, 0);
    LLVMValueRef args[3] = {lg_const_ptr(llvm, llvm->options.portal_ctx), array,
                            lg_const_ptr(llvm, site)};
    LLVMValueRef fn = lg_const_ptr(llvm, (const void *)(uintptr_t)llvm->options.portal_call);
    return LLVMBuildCall2(m->b, fty, fn, args, 3, "portal");
}

/* The call of the callee's primary method the host bound the site to
 * (site->direct), with the portal's red arguments; its result as a 64-bit
 * slot. */
static LLVMValueRef direct_call(LgMethod *m, const JgOp *op, LLVMValueRef entry)
{
    JgLlvm *llvm = m->llvm;
    uint32_t n = llvm->options.portal_nred;
    LLVMTypeRef types[n + 1];
    LLVMValueRef args[n + 1];
    for (uint32_t i = 0; i < n; i++) {
        JgVal a = op->args[llvm->options.portal_red_index[i] + 1];
        args[i] = lg_value(m, a);
        if (!args[i])
            return NULL;
        types[i] = lg_type(llvm, jg_value_type(m->g, a));
    }
    if (op->type == JG_VOID) { /* a portal without a result: its graphs return nothing */
        LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(llvm->ctx), types, n, 0);
        LLVMBuildCall2(m->b, fty, entry, args, n, "");
        return LLVMConstInt(llvm->t_i64, 0, 0);
    }
    LLVMTypeRef fty = LLVMFunctionType(lg_type(llvm, (JgType)op->type), types, n, 0);
    LLVMValueRef r = LLVMBuildCall2(m->b, fty, entry, args, n, "direct");
    return lg_to_slot(m, r, (JgType)op->type);
}

/* A portal call: through the host, or, where the host bound the site to
 * the callee's compiled graph, directly (JgLlvmOptions.portal_red_index). */
static bool portal_call(LgMethod *m, const JgOp *op)
{
    JgLlvm *llvm = m->llvm;
    if (!llvm->options.portal_call)
        return lg_fail(m, "a portal call, but the options have no portal_call function");
    uint32_t n = op->nargs - 1;
    JgPortalSite *site = jg_portal_site_new(m->g, op, &llvm->portal_sites);
    if (!site)
        return lg_fail(m, "out of memory");
    bool can_direct = llvm->options.portal_red_index != NULL;
    for (uint32_t i = 0; can_direct && i < llvm->options.portal_nred; i++)
        can_direct = llvm->options.portal_red_index[i] < n;
    LLVMValueRef r;
    if (!can_direct) {
        r = host_call(m, op, site);
    } else {
        LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(m->b));
        LLVMBasicBlockRef direct = LLVMAppendBasicBlockInContext(llvm->ctx, fn, "portal.direct");
        LLVMBasicBlockRef host = LLVMAppendBasicBlockInContext(llvm->ctx, fn, "portal.host");
        LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(llvm->ctx, fn, "portal.join");
        LLVMValueRef entry =
            LLVMBuildLoad2(m->b, llvm->t_ptr, lg_const_ptr(llvm, &site->direct), "entry");
        LLVMBuildCondBr(m->b, LLVMBuildIsNotNull(m->b, entry, ""), direct, host);
        LLVMPositionBuilderAtEnd(m->b, direct);
        LLVMValueRef rd = direct_call(m, op, entry);
        LLVMBasicBlockRef direct_end = LLVMGetInsertBlock(m->b);
        LLVMBuildBr(m->b, join);
        LLVMPositionBuilderAtEnd(m->b, host);
        LLVMValueRef rh = host_call(m, op, site);
        LLVMBasicBlockRef host_end = LLVMGetInsertBlock(m->b);
        LLVMBuildBr(m->b, join);
        LLVMPositionBuilderAtEnd(m->b, join);
        if (!rd || !rh)
            return false;
        r = LLVMBuildPhi(m->b, llvm->t_i64, "portal.result");
        LLVMValueRef in[2] = {rd, rh};
        LLVMBasicBlockRef from[2] = {direct_end, host_end};
        LLVMAddIncoming(r, in, from, 2);
    }
    if (!r)
        return false;
    if (op->result && op->type != JG_VOID)
        m->vals[op->result] = lg_from_slot(m, r, (JgType)op->type);
    return true;
}

/* An allocator's fast path (jitgen/allocator.h): the head of `list`, when
 * it is an object, taken off, counted and cleared (LLVM drops the clearing
 * where the fields are stored next); otherwise the call. */
static bool allocation_call(LgMethod *m, const JgOp *op, LLVMValueRef fn,
                            const JgFreeListAllocator *a, void **list)
{
    JgLlvm *llvm = m->llvm;
    LLVMValueRef f = LLVMGetBasicBlockParent(LLVMGetInsertBlock(m->b));
    LLVMBasicBlockRef take = LLVMAppendBasicBlockInContext(llvm->ctx, f, "alloc.take");
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(llvm->ctx, f, "alloc.call");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(llvm->ctx, f, "alloc.join");
    LLVMValueRef at = lg_const_ptr(llvm, list);
    LLVMValueRef head = LLVMBuildLoad2(m->b, llvm->t_ptr, at, "head");
    LLVMValueRef object =
        LLVMBuildICmp(m->b, LLVMIntUGT, LLVMBuildPtrToInt(m->b, head, llvm->t_i64, ""),
                      LLVMConstInt(llvm->t_i64, a->empty_max, 0), "");
    LLVMBuildCondBr(m->b, object, take, call);
    LLVMPositionBuilderAtEnd(m->b, take);
    LLVMBuildStore(m->b, LLVMBuildLoad2(m->b, llvm->t_ptr, head, "next"), at);
    if (a->counter) {
        LLVMValueRef counter = lg_const_ptr(llvm, a->counter);
        LLVMValueRef n = LLVMBuildLoad2(m->b, llvm->t_i64, counter, "");
        LLVMBuildStore(m->b, LLVMBuildAdd(m->b, n, LLVMConstInt(llvm->t_i64, 1, 0), ""), counter);
    }
    uint64_t bytes = a->clear_all ? jg_value(m->g, op->args[1])->bits : 8;
    LLVMBuildMemSet(m->b, head, LLVMConstInt(LLVMInt8TypeInContext(llvm->ctx), 0, 0),
                    LLVMConstInt(llvm->t_i64, bytes, 0), 8);
    LLVMBuildBr(m->b, join);
    LLVMPositionBuilderAtEnd(m->b, call);
    if (!native_call(m, op, fn))
        return false;
    LLVMValueRef called = m->vals[op->result];
    LLVMBasicBlockRef call_end = LLVMGetInsertBlock(m->b);
    LLVMBuildBr(m->b, join);
    LLVMPositionBuilderAtEnd(m->b, join);
    if (op->result) {
        LLVMValueRef r = LLVMBuildPhi(m->b, llvm->t_ptr, "object");
        LLVMValueRef in[2] = {head, called};
        LLVMBasicBlockRef from[2] = {take, call_end};
        LLVMAddIncoming(r, in, from, 2);
        m->vals[op->result] = r;
    }
    return true;
}

bool lg_lower_call(LgMethod *m, const JgOp *op)
{
    if (op->nargs == 0)
        return lg_fail(m, "call without a callee operand");
    if (op->callee && (op->callee->flags & JG_FLAG_PORTAL))
        return portal_call(m, op);
    LLVMValueRef fn = callee_value(m, op);
    const JgFreeListAllocator *allocator = NULL;
    uint64_t size;
    void **list = fn ? jg_free_list_of(m->g, op, m->llvm->options.allocators,
                                       m->llvm->options.nallocators, &allocator, &size)
                     : NULL;
    if (list)
        return allocation_call(m, op, fn, allocator, list);
    return fn && native_call(m, op, fn);
}
