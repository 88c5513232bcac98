/* Warming LLVM up. The first module a process compiles costs several times
 * what the same module costs later: LLVM's optimizer and code generator are
 * tens of megabytes of code and tables that the first compilation faults in
 * and initializes. The driver opens the backend and starts the session on a
 * second thread while the frontend loads the interpreter's graphs
 * (driver/backend.c), and that thread compiles this method once, so the
 * program's own methods find LLVM warm (docs/backend.md, "Start-up"). */
#include "internal.h"

/* uint32_t warmup(uint32_t blockid, uint64_t *slots): the shape of a
 * secondary method: a dispatch switch, a counting loop over values kept in
 * slots, a multiplication, an indirect call through a loaded pointer, an
 * exit that returns a block id. */
static LLVMModuleRef build_warmup(JgLlvm *llvm, const char *name)
{
    LLVMModuleRef mod = lg_new_module(llvm, name);
    LLVMTypeRef i32 = llvm->t_i32, i64 = llvm->t_i64, ptr = llvm->t_ptr;
    LLVMTypeRef params[2] = {i32, ptr};
    LLVMTypeRef fty = LLVMFunctionType(i32, params, 2, 0);
    LLVMValueRef fn = LLVMAddFunction(mod, name, fty);
    LLVMValueRef id = LLVMGetParam(fn, 0), slots = LLVMGetParam(fn, 1);
    LLVMContextRef c = llvm->ctx;
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c, fn, "entry");
    LLVMBasicBlockRef enter = LLVMAppendBasicBlockInContext(c, fn, "enter");
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c, fn, "head");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c, fn, "body");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c, fn, "done");
    LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(c, fn, "bad");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);

    LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef local = LLVMBuildAnd(b, id, LLVMConstInt(i32, 0xffff, 0), "");
    LLVMValueRef sw = LLVMBuildSwitch(b, local, bad, 2);
    LLVMAddCase(sw, LLVMConstInt(i32, 0, 0), enter);
    LLVMAddCase(sw, LLVMConstInt(i32, 7, 0), done);

    LLVMPositionBuilderAtEnd(b, enter);
    LLVMValueRef n0 = LLVMBuildLoad2(b, i64, slots, "");
    LLVMValueRef p1 =
        LLVMBuildGEP2(b, i64, slots, (LLVMValueRef[]){LLVMConstInt(i64, 1, 0)}, 1, "");
    LLVMValueRef acc0 = LLVMBuildLoad2(b, i64, p1, "");
    LLVMBuildBr(b, head);

    LLVMPositionBuilderAtEnd(b, head);
    LLVMValueRef n = LLVMBuildPhi(b, i64, "n");
    LLVMValueRef acc = LLVMBuildPhi(b, i64, "acc");
    LLVMValueRef more = LLVMBuildICmp(b, LLVMIntSGT, n, LLVMConstInt(i64, 0, 0), "");
    LLVMBuildCondBr(b, more, body, done);

    LLVMPositionBuilderAtEnd(b, body);
    LLVMValueRef acc1 = LLVMBuildMul(b, acc, n, "");
    LLVMValueRef n1 = LLVMBuildSub(b, n, LLVMConstInt(i64, 1, 0), "");
    LLVMBuildBr(b, head);
    LLVMAddIncoming(n, (LLVMValueRef[]){n0, n1}, (LLVMBasicBlockRef[]){enter, body}, 2);
    LLVMAddIncoming(acc, (LLVMValueRef[]){acc0, acc1}, (LLVMBasicBlockRef[]){enter, body}, 2);

    LLVMPositionBuilderAtEnd(b, done);
    LLVMValueRef result = LLVMBuildPhi(b, i64, "result");
    LLVMAddIncoming(result, (LLVMValueRef[]){LLVMConstInt(i64, 0, 0), acc},
                    (LLVMBasicBlockRef[]){entry, head}, 2);
    LLVMValueRef p2 =
        LLVMBuildGEP2(b, i64, slots, (LLVMValueRef[]){LLVMConstInt(i64, 2, 0)}, 1, "");
    LLVMValueRef callee = LLVMBuildIntToPtr(b, LLVMBuildLoad2(b, i64, p2, ""), ptr, "");
    LLVMTypeRef cty = LLVMFunctionType(i64, (LLVMTypeRef[]){i64}, 1, 0);
    LLVMValueRef r = LLVMBuildCall2(b, cty, callee, (LLVMValueRef[]){result}, 1, "");
    LLVMBuildStore(b, r, slots);
    LLVMBuildRet(b, LLVMConstInt(i32, 0xffffffffu, 0));

    LLVMPositionBuilderAtEnd(b, bad);
    LLVMBuildUnreachable(b);
    LLVMDisposeBuilder(b);
    return mod;
}

bool lg_warm_up(JgLlvm *llvm, char *err, size_t errsize)
{
    JgLlvmStats saved = llvm->stats;
    bool ok = true;
    /* with the adaptive level, methods with and without loops take
     * different paths through LLVM: warm both */
    for (int loops = 1; ok && loops >= (llvm->options.adaptive ? 0 : 1); loops--) {
        const char *name = loops ? "jitgen.warmup.loop" : "jitgen.warmup.line";
        LLVMModuleRef mod = build_warmup(llvm, name);
        void *address = NULL;
        ok = lg_optimize(llvm, mod, loops, err, errsize) &&
             lg_emit_and_link(llvm, mod, loops, &name, 1, &address, err, errsize);
        LLVMDisposeModule(mod);
    }
    llvm->stats = saved; /* the program's statistics only */
    return ok;
}
