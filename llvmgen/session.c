/* The LLVM session: targets, the host target machine, the ORC LLJIT, and
 * the pipeline every module goes through (verify, optimize, dump, emit an
 * object file, measure it, hand it to the JIT). Objects are built here
 * rather than by ORC's IR layer so that the code is generated once and its
 * size is known. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Object.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>

#include "internal.h"
#include "jitgen/driver.h"

double lg_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- targets, initialized once per process ---- */

static pthread_once_t native_once = PTHREAD_ONCE_INIT;
static pthread_once_t aarch64_once = PTHREAD_ONCE_INIT;
static bool native_ok;

/* Process-wide LLVM options, set once before the first compilation:
 *
 * - LLVM's runtime unroller expands a loop's trip count only under a cost
 *   budget (SCEV's "cheap expansion", 4 by default). A residual loop entered
 *   from the dispatcher at its header has no guard on its count before it,
 *   so its trip count has the form n - 1 - smin(0, n - 1), which costs 6:
 *   LLVM would not unroll fibonacci's four-instruction loop that clang
 *   unrolls by 8 in C, where `n > 0` guards the loop (bench/ANALYSIS.md).
 * - Code generation's loop strength reduction is off: its work grows
 *   faster than exponentially with the arithmetic on the induction
 *   variable in a loop body (seconds for a few hundred instructions), so
 *   lg_optimize runs it itself, on modules small enough for it. */
static void set_llvm_options(void)
{
    const char *argv[] = {"jitgen", "-scev-cheap-expansion-budget=6", "-disable-lsr"};
    LLVMParseCommandLineOptions(3, argv, NULL);
}

static void init_native(void)
{
    native_ok = !LLVMInitializeNativeTarget() && !LLVMInitializeNativeAsmPrinter();
    set_llvm_options();
}

/* Foreign triples exist only for --dump=asm. The build links the native
 * target and AArch64 (CMakeLists.txt, JITGEN_LLVM_COMPONENTS): AArch64 is
 * registered on first use; other triples get LLVM's "no target" error. */
static void init_aarch64(void)
{
    LLVMInitializeAArch64TargetInfo();
    LLVMInitializeAArch64Target();
    LLVMInitializeAArch64TargetMC();
    LLVMInitializeAArch64AsmPrinter();
}

/* Takes an LLVMErrorRef's message into `err`. */
static void take_error(LLVMErrorRef e, const char *what, char *err, size_t errsize)
{
    char *msg = LLVMGetErrorMessage(e);
    snprintf(err, errsize, "%s: %s", what, msg);
    LLVMDisposeErrorMessage(msg);
}

static LLVMCodeGenOptLevel codegen_level(int opt)
{
    static const LLVMCodeGenOptLevel levels[] = {LLVMCodeGenLevelNone, LLVMCodeGenLevelLess,
                                                 LLVMCodeGenLevelDefault,
                                                 LLVMCodeGenLevelAggressive};
    return levels[opt];
}

/* A target machine for `triple`; JITLink wants position-independent code
 * in the small code model (absolute addresses are movabs constants). */
static LLVMTargetMachineRef make_tm(const char *triple, const char *cpu, const char *features,
                                    int opt, char *err, size_t errsize)
{
    LLVMTargetRef target;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
        snprintf(err, errsize, "target %s: %s", triple, msg ? msg : "unknown");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
        target, triple, cpu, features, codegen_level(opt), LLVMRelocPIC, LLVMCodeModelSmall);
    if (!tm)
        snprintf(err, errsize, "cannot create a target machine for %s", triple);
    return tm;
}

static bool make_host_tm(JgLlvm *llvm, char *err, size_t errsize)
{
    llvm->triple = LLVMGetDefaultTargetTriple();
    char *cpu = LLVMGetHostCPUName();
    char *features = LLVMGetHostCPUFeatures();
    llvm->tm = make_tm(llvm->triple, cpu, features, llvm->options.opt_level, err, errsize);
    if (llvm->tm && llvm->options.adaptive && llvm->options.opt_level > 0)
        llvm->tm_fast = make_tm(llvm->triple, cpu, features, 0, err, errsize);
    else
        llvm->tm_fast = llvm->tm;
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    if (!llvm->tm || !llvm->tm_fast)
        return false;
    LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(llvm->tm);
    llvm->layout = LLVMCopyStringRepOfTargetData(layout);
    LLVMDisposeTargetData(layout);
    return true;
}

/* The target machine of --dump=asm when a foreign triple is asked for. */
static bool make_asm_tm(JgLlvm *llvm, char *err, size_t errsize)
{
    const char *want = llvm->options.target_triple;
    if (!want || !*want || !(llvm->options.dumps & JG_DUMP_ASM))
        return true;
    llvm->asm_triple = LLVMNormalizeTargetTriple(want);
    if (strcmp(llvm->asm_triple, llvm->triple) == 0)
        return true;
    pthread_once(&aarch64_once, init_aarch64);
    llvm->asm_tm = make_tm(llvm->asm_triple, "generic", "", llvm->options.opt_level, err, errsize);
    if (!llvm->asm_tm)
        return false;
    llvm->asm_layout = LLVMCreateTargetDataLayout(llvm->asm_tm);
    return true;
}

/* The LLJIT whose main JITDylib also resolves the process's own symbols
 * (libcalls such as memset that code generation may introduce). */
static bool make_jit(JgLlvm *llvm, char *err, size_t errsize)
{
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&llvm->jit, builder);
    if (e) {
        take_error(e, "cannot create the ORC LLJIT", err, errsize);
        llvm->jit = NULL;
        return false;
    }
    llvm->dylib = LLVMOrcLLJITGetMainJITDylib(llvm->jit);
    LLVMOrcDefinitionGeneratorRef gen;
    e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
        &gen, LLVMOrcLLJITGetGlobalPrefix(llvm->jit), NULL, NULL);
    if (e) {
        take_error(e, "cannot resolve the process's symbols", err, errsize);
        return false;
    }
    LLVMOrcJITDylibAddGenerator(llvm->dylib, gen);
    return true;
}

static void make_types(JgLlvm *llvm)
{
    LLVMContextRef c = llvm->ctx;
    llvm->t_void = LLVMVoidTypeInContext(c);
    llvm->t_i1 = LLVMInt1TypeInContext(c);
    llvm->t_i8 = LLVMInt8TypeInContext(c);
    llvm->t_i16 = LLVMInt16TypeInContext(c);
    llvm->t_i32 = LLVMInt32TypeInContext(c);
    llvm->t_i64 = LLVMInt64TypeInContext(c);
    llvm->t_ptr = LLVMPointerTypeInContext(c, 0);
    llvm->t_f32 = LLVMFloatTypeInContext(c);
    llvm->t_f64 = LLVMDoubleTypeInContext(c);
}

LLVMTypeRef lg_type(const JgLlvm *llvm, JgType t)
{
    switch (t) {
    case JG_I1:
        return llvm->t_i1;
    case JG_I8:
        return llvm->t_i8;
    case JG_I16:
        return llvm->t_i16;
    case JG_I32:
        return llvm->t_i32;
    case JG_I64:
        return llvm->t_i64;
    case JG_PTR:
        return llvm->t_ptr;
    case JG_F32:
        return llvm->t_f32;
    case JG_F64:
        return llvm->t_f64;
    default:
        return llvm->t_void;
    }
}

static const char *pipeline(int opt)
{
    static const char *const names[] = {NULL, "default<O1>", "default<O2>", "default<O3>"};
    return names[opt];
}

/* Options, context, types and the optimization pipeline. Below O3,
 * vectorized loops cost more to compile than residual code gains from
 * them: no interleaving here, and no loop vectorization (loop metadata,
 * methods.c: this option alone has no effect in LLVM 19); O3 asks for
 * everything. */
static void configure(JgLlvm *llvm, const JgLlvmOptions *o)
{
    llvm->options = *o;
    if (!llvm->options.dump_out)
        llvm->options.dump_out = stderr;
    llvm->max_methods =
        o->max_methods && o->max_methods < LG_MAX_METHODS ? o->max_methods : LG_MAX_METHODS;
    llvm->passes = pipeline(o->opt_level);
    llvm->ctx = LLVMContextCreate();
    make_types(llvm);
    llvm->pass_options = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(llvm->pass_options, o->opt_level >= 3);
    LLVMPassBuilderOptionsSetLoopInterleaving(llvm->pass_options, o->opt_level >= 3);
    LLVMPassBuilderOptionsSetSLPVectorization(llvm->pass_options, o->opt_level >= 3);
}

JgLlvm *jg_llvm_new(const JgLlvmOptions *options, char *err, size_t errsize)
{
    pthread_once(&native_once, init_native);
    if (!native_ok) {
        snprintf(err, errsize, "LLVM has no native target for this host");
        return NULL;
    }
    JgLlvmOptions o = options ? *options : (JgLlvmOptions){.opt_level = 2};
    if (o.opt_level < 0 || o.opt_level > 3) {
        snprintf(err, errsize, "optimization level %d: want 0..3", o.opt_level);
        return NULL;
    }
    JgLlvm *llvm = calloc(1, sizeof *llvm);
    if (!llvm) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    configure(llvm, &o);
    if (!make_host_tm(llvm, err, errsize) || !make_asm_tm(llvm, err, errsize) ||
        !make_jit(llvm, err, errsize)) {
        jg_llvm_free(llvm);
        return NULL;
    }
    return llvm;
}

void jg_llvm_free(JgLlvm *llvm)
{
    if (!llvm)
        return;
    if (llvm->jit) {
        LLVMErrorRef e = LLVMOrcDisposeLLJIT(llvm->jit);
        if (e)
            LLVMConsumeError(e);
    }
    lg_graphs_free(llvm);
    while (llvm->portal_sites) {
        JgPortalSite *next = llvm->portal_sites->next;
        free(llvm->portal_sites);
        llvm->portal_sites = next;
    }
    if (llvm->pass_options)
        LLVMDisposePassBuilderOptions(llvm->pass_options);
    if (llvm->asm_layout)
        LLVMDisposeTargetData(llvm->asm_layout);
    if (llvm->asm_tm)
        LLVMDisposeTargetMachine(llvm->asm_tm);
    if (llvm->tm_fast && llvm->tm_fast != llvm->tm)
        LLVMDisposeTargetMachine(llvm->tm_fast);
    if (llvm->tm)
        LLVMDisposeTargetMachine(llvm->tm);
    LLVMDisposeMessage(llvm->asm_triple);
    LLVMDisposeMessage(llvm->triple);
    LLVMDisposeMessage(llvm->layout);
    if (llvm->ctx)
        LLVMContextDispose(llvm->ctx);
    free(llvm);
}

LLVMModuleRef lg_new_module(JgLlvm *llvm, const char *name)
{
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(name, llvm->ctx);
    LLVMSetTarget(mod, llvm->triple);
    LLVMSetDataLayout(mod, llvm->layout);
    return mod;
}

const JgLlvmStats *jg_llvm_stats(const JgLlvm *llvm)
{
    return &llvm->stats;
}

/* ---- the per-module pipeline ---- */

/* The instructions of every function of `mod`. */
static uint64_t count_instructions(LLVMModuleRef mod)
{
    uint64_t n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                n++;
    return n;
}

static void dump_module(JgLlvm *llvm, LLVMModuleRef mod, const char *title)
{
    char *text = LLVMPrintModuleToString(mod);
    size_t idlen;
    fprintf(llvm->options.dump_out, "; ---- %s: %s ----\n%s", title,
            LLVMGetModuleIdentifier(mod, &idlen), text);
    LLVMDisposeMessage(text);
}

/* Machine code as assembly text, from a copy (code generation changes the
 * module it runs on). For a foreign triple the copy is retargeted. */
static void dump_asm(JgLlvm *llvm, LLVMModuleRef mod, LLVMTargetMachineRef host_tm)
{
    LLVMModuleRef copy = LLVMCloneModule(mod);
    LLVMTargetMachineRef tm = host_tm;
    const char *triple = llvm->triple;
    if (llvm->asm_tm) {
        tm = llvm->asm_tm;
        triple = llvm->asm_triple;
        LLVMSetTarget(copy, triple);
        LLVMSetModuleDataLayout(copy, llvm->asm_layout);
    }
    char *msg = NULL;
    LLVMMemoryBufferRef buf = NULL;
    FILE *out = llvm->options.dump_out;
    size_t idlen;
    fprintf(out, "; ---- asm (%s): %s ----\n", triple, LLVMGetModuleIdentifier(mod, &idlen));
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, copy, LLVMAssemblyFile, &msg, &buf)) {
        fprintf(out, "; cannot print machine code: %s\n", msg ? msg : "?");
        LLVMDisposeMessage(msg);
    } else {
        fwrite(LLVMGetBufferStart(buf), 1, LLVMGetBufferSize(buf), out);
        LLVMDisposeMemoryBuffer(buf);
    }
    LLVMDisposeModule(copy);
}

/* Bytes of machine code in an object file: its text sections. */
static uint64_t text_bytes(JgLlvm *llvm, LLVMMemoryBufferRef obj)
{
    char *msg = NULL;
    LLVMBinaryRef bin = LLVMCreateBinary(obj, llvm->ctx, &msg);
    if (!bin) {
        LLVMDisposeMessage(msg);
        return LLVMGetBufferSize(obj);
    }
    uint64_t n = 0;
    LLVMSectionIteratorRef it = LLVMObjectFileCopySectionIterator(bin);
    for (; !LLVMObjectFileIsSectionIteratorAtEnd(bin, it); LLVMMoveToNextSection(it)) {
        const char *name = LLVMGetSectionName(it);
        if (name && strncmp(name, ".text", 5) == 0)
            n += LLVMGetSectionSize(it);
    }
    LLVMDisposeSectionIterator(it);
    LLVMDisposeBinary(bin);
    return n;
}

static bool verify(LLVMModuleRef mod, char *err, size_t errsize)
{
    char *msg = NULL;
    if (!LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
        LLVMDisposeMessage(msg);
        return true;
    }
    snprintf(err, errsize, "LLVM rejects the generated IR: %s", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    return false;
}

/* Loop strength reduction, which code generation would run (set_llvm_options
 * turns it off there), on a module of at most LG_LSR_MAX_INSTRUCTIONS after
 * optimization: in a tight loop it chooses the induction variables' form
 * (and so which multiplications the backend can reassociate: factorial's
 * unrolled loop runs one multiply chain, not two), in a long loop body its
 * cost explodes for little gain (docs/backend.md, "Loop strength
 * reduction"). */
static LLVMErrorRef reduce_strength(JgLlvm *llvm, LLVMModuleRef mod)
{
    if (count_instructions(mod) > LG_LSR_MAX_INSTRUCTIONS) {
        llvm->stats.lsr_skipped++;
        return NULL;
    }
    return LLVMRunPasses(mod, "function(loop(canon-freeze,loop-reduce))", llvm->tm,
                         llvm->pass_options);
}

bool lg_optimize(JgLlvm *llvm, LLVMModuleRef mod, bool loops, char *err, size_t errsize)
{
    if (!llvm->passes || (llvm->options.adaptive && !loops))
        return true;
    double t0 = lg_now_ms();
    LLVMErrorRef e = LLVMRunPasses(mod, llvm->passes, llvm->tm, llvm->pass_options);
    if (!e)
        e = reduce_strength(llvm, mod);
    llvm->stats.opt_ms += lg_now_ms() - t0;
    if (e) {
        take_error(e, "LLVM optimization", err, errsize);
        return false;
    }
    return true;
}

/* Emits the object, adds it to the JIT and resolves the names (which links
 * it into executable memory). */
bool lg_emit_and_link(JgLlvm *llvm, LLVMModuleRef mod, bool loops, const char *const *names,
                      uint32_t nnames, void **out, char *err, size_t errsize)
{
    double t0 = lg_now_ms();
    char *msg = NULL;
    LLVMMemoryBufferRef obj = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(lg_target_machine(llvm, loops), mod, LLVMObjectFile,
                                            &msg, &obj)) {
        snprintf(err, errsize, "LLVM code generation: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return false;
    }
    llvm->stats.code_bytes += text_bytes(llvm, obj);
    LLVMErrorRef e = LLVMOrcLLJITAddObjectFile(llvm->jit, llvm->dylib, obj);
    if (e) {
        take_error(e, "ORC rejects the object", err, errsize);
        return false;
    }
    for (uint32_t i = 0; i < nnames; i++) {
        LLVMOrcExecutorAddress addr = 0;
        e = LLVMOrcLLJITLookup(llvm->jit, &addr, names[i]);
        if (e) {
            take_error(e, "ORC cannot link the method", err, errsize);
            return false;
        }
        out[i] = (void *)(uintptr_t)addr;
    }
    llvm->stats.codegen_ms += lg_now_ms() - t0;
    return true;
}

LLVMTargetMachineRef lg_target_machine(const JgLlvm *llvm, bool loops)
{
    return llvm->options.adaptive && !loops ? llvm->tm_fast : llvm->tm;
}

bool lg_finish_module(JgLlvm *llvm, LLVMModuleRef mod, bool loops, const char *const *names,
                      uint32_t nnames, void **out, char *err, size_t errsize)
{
    llvm->stats.llvm_instructions += count_instructions(mod);
    bool ok = verify(mod, err, errsize);
    unsigned dumps = llvm->options.dumps;
    if (dumps & JG_DUMP_LLVM)
        dump_module(llvm, mod, "llvm");
    ok = ok && lg_optimize(llvm, mod, loops, err, errsize);
    if (ok && (dumps & JG_DUMP_LLVM_OPT))
        dump_module(llvm, mod, "llvm-opt");
    if (ok && (dumps & JG_DUMP_ASM))
        dump_asm(llvm, mod, lg_target_machine(llvm, loops));
    ok = ok && lg_emit_and_link(llvm, mod, loops, names, nnames, out, err, errsize);
    LLVMDisposeModule(mod);
    return ok;
}
