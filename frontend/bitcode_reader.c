/* The bitcode reader's driver (docs/frontend.md, "Reading bitcode"): parses
 * the bitcode with the LLVM C API, reads the jitgen annotations, finds every
 * function and global reachable from the root, resolves them to native
 * addresses, and translates the bodies (bitcode_reader_func.c) into flow
 * graphs. Errors unwind with longjmp to jg_module_read_bitcode, which frees
 * everything; no LLVM frame is ever crossed. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Support.h>

#include "bitcode_reader_internal.h"

/* ---- PtrMap ---- */

static uint32_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(x >> 32);
}

void pm_init(PtrMap *m, JgArena *arena, uint32_t expected)
{
    uint32_t cap = 16;
    while (cap < 2 * expected)
        cap *= 2;
    m->arena = arena;
    m->cap = cap;
    m->count = 0;
    m->keys = jg_arena_alloc(arena, sizeof *m->keys * cap);
    m->vals = jg_arena_alloc(arena, sizeof *m->vals * cap);
}

bool pm_get(const PtrMap *m, const void *key, uint64_t *val)
{
    uint32_t mask = m->cap - 1;
    for (uint32_t h = hash_ptr(key) & mask; m->keys[h]; h = (h + 1) & mask) {
        if (m->keys[h] == key) {
            *val = m->vals[h];
            return true;
        }
    }
    return false;
}

static void pm_insert(PtrMap *m, const void *key, uint64_t val)
{
    uint32_t mask = m->cap - 1;
    uint32_t h = hash_ptr(key) & mask;
    while (m->keys[h] && m->keys[h] != key)
        h = (h + 1) & mask;
    if (!m->keys[h])
        m->count++;
    m->keys[h] = key;
    m->vals[h] = val;
}

void pm_put(PtrMap *m, const void *key, uint64_t val)
{
    if (2 * (m->count + 1) > m->cap) {
        PtrMap old = *m;
        pm_init(m, old.arena, old.cap);
        for (uint32_t i = 0; i < old.cap; i++)
            if (old.keys[i])
                pm_insert(m, old.keys[i], old.vals[i]);
    }
    pm_insert(m, key, val);
}

/* ---- errors ---- */

_Noreturn void rd_fail(Reader *r, const char *fmt, ...)
{
    if (r->err && r->errsize) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err, r->errsize, fmt, ap);
        va_end(ap);
    }
    longjmp(r->on_error, 1);
}

_Noreturn void rd_fail_at(Reader *r, LLVMValueRef inst, const char *fmt, ...)
{
    if (r->err && r->errsize) {
        unsigned line = inst && LLVMIsAInstruction(inst) ? LLVMGetDebugLocLine(inst) : 0;
        int n = r->cur_global ? snprintf(r->err, r->errsize, "global %s: ", r->cur_global)
                              : snprintf(r->err, r->errsize, "%s:%u: ", r->cur_fn ? r->cur_fn : "?",
                                         line ? line : r->cur_fn_line);
        if (n >= 0 && (size_t)n < r->errsize) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(r->err + n, r->errsize - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    longjmp(r->on_error, 1);
}

/* LLVM reports bitcode errors through the context's diagnostic handler;
 * without one it would print and exit the process. */
static void on_diagnostic(LLVMDiagnosticInfoRef info, void *ctx)
{
    Reader *r = ctx;
    if (LLVMGetDiagInfoSeverity(info) != LLVMDSError || r->diag[0])
        return;
    char *text = LLVMGetDiagInfoDescription(info);
    snprintf(r->diag, sizeof r->diag, "%s", text ? text : "unknown error");
    LLVMDisposeMessage(text);
}

/* ---- small helpers ---- */

const char *rd_name(Reader *r, LLVMValueRef v)
{
    size_t len = 0;
    const char *s = LLVMGetValueName2(v, &len);
    if (len && s[0] == '\1') { /* an asm label: the symbol is the rest */
        s++;
        len--;
    }
    return jg_arena_strndup(&r->m->arena, s ? s : "", len);
}

static const char *type_text(Reader *r, LLVMTypeRef t)
{
    char *s = LLVMPrintTypeToString(t);
    const char *copy = jg_arena_strndup(&r->scratch, s, strlen(s));
    LLVMDisposeMessage(s);
    return copy;
}

JgType rd_type(Reader *r, LLVMTypeRef t, LLVMValueRef where, const char *what)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMVoidTypeKind:
        return JG_VOID;
    case LLVMFloatTypeKind:
        return JG_F32;
    case LLVMDoubleTypeKind:
        return JG_F64;
    case LLVMPointerTypeKind:
        if (LLVMGetPointerAddressSpace(t) == 0)
            return JG_PTR;
        break;
    case LLVMIntegerTypeKind:
        switch (LLVMGetIntTypeWidth(t)) {
        case 1:
            return JG_I1;
        case 8:
            return JG_I8;
        case 16:
            return JG_I16;
        case 32:
            return JG_I32;
        case 64:
            return JG_I64;
        default:
            rd_fail_at(r, where, "unsupported %u-bit integer type in %s", LLVMGetIntTypeWidth(t),
                       what);
        }
    case LLVMVectorTypeKind:
    case LLVMScalableVectorTypeKind:
        rd_fail_at(r, where, "unsupported vector type %s in %s", type_text(r, t), what);
    case LLVMStructTypeKind:
    case LLVMArrayTypeKind:
        rd_fail_at(r, where, "unsupported aggregate value of type %s in %s", type_text(r, t), what);
    default:
        break;
    }
    rd_fail_at(r, where, "unsupported type %s in %s", type_text(r, t), what);
}

uint64_t rd_alloc_size(Reader *r, LLVMTypeRef t, LLVMValueRef where)
{
    if (!LLVMTypeIsSized(t))
        rd_fail_at(r, where, "unsized type %s", type_text(r, t));
    return LLVMABISizeOfType(r->td, t);
}

/* The hints of include/jitgen/hints.h: calls to them become these ops. */
static const struct {
    const char *name;
    JgOpcode opcode;
    JgType type;
} hints[] = {
    {"jit_merge_point", JG_OP_MERGE_POINT, JG_VOID},
    {"jit_merge_point_join", JG_OP_MERGE_POINT, JG_I64},
    {"jit_concrete_i64", JG_OP_CONCRETE, JG_I64},
    {"jit_concrete_ptr", JG_OP_CONCRETE, JG_PTR},
    {"jit_promote_i64", JG_OP_PROMOTE, JG_I64},
    {"jit_promote_ptr", JG_OP_PROMOTE, JG_PTR},
    {"jit_forget_i64", JG_OP_FORGET, JG_I64},
    {"jit_forget_ptr", JG_OP_FORGET, JG_PTR},
    {"jit_deepfreeze_ptr", JG_OP_DEEPFREEZE, JG_PTR},
    {"jit_load_immutable_ptr", JG_OP_LOAD, JG_PTR},
};

JgOpcode rd_hint_opcode(const char *name, JgType *type)
{
    if (strncmp(name, "jit_", 4) != 0)
        return JG_OP__COUNT;
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++) {
        if (strcmp(name, hints[i].name) == 0) {
            *type = hints[i].type;
            return hints[i].opcode;
        }
    }
    return JG_OP__COUNT;
}

bool rd_is_special(Reader *r, LLVMValueRef fn)
{
    (void)r;
    if (LLVMGetIntrinsicID(fn))
        return true;
    size_t len = 0;
    const char *name = LLVMGetValueName2(fn, &len);
    if (len >= 5 && memcmp(name, "llvm.", 5) == 0)
        return true;
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, name, len);
    buf[len] = '\0';
    JgType t;
    return rd_hint_opcode(buf, &t) != JG_OP__COUNT;
}

static unsigned intrinsic_id(const char *name)
{
    return LLVMLookupIntrinsicID(name, strlen(name));
}

static void init_ids(Reader *r)
{
    IntrinsicIds *ids = &r->ids;
    ids->lifetime_start = intrinsic_id("llvm.lifetime.start");
    ids->lifetime_end = intrinsic_id("llvm.lifetime.end");
    ids->dbg_declare = intrinsic_id("llvm.dbg.declare");
    ids->dbg_value = intrinsic_id("llvm.dbg.value");
    ids->dbg_label = intrinsic_id("llvm.dbg.label");
    ids->dbg_assign = intrinsic_id("llvm.dbg.assign");
    ids->assume = intrinsic_id("llvm.assume");
    ids->noalias_decl = intrinsic_id("llvm.experimental.noalias.scope.decl");
    ids->expect = intrinsic_id("llvm.expect");
    ids->expect_prob = intrinsic_id("llvm.expect.with.probability");
    ids->memcpy = intrinsic_id("llvm.memcpy");
    ids->memcpy_inline = intrinsic_id("llvm.memcpy.inline");
    ids->memmove = intrinsic_id("llvm.memmove");
    ids->memset = intrinsic_id("llvm.memset");
    ids->memset_inline = intrinsic_id("llvm.memset.inline");
    ids->smax = intrinsic_id("llvm.smax");
    ids->smin = intrinsic_id("llvm.smin");
    ids->umax = intrinsic_id("llvm.umax");
    ids->umin = intrinsic_id("llvm.umin");
    ids->abs = intrinsic_id("llvm.abs");
    ids->fmuladd = intrinsic_id("llvm.fmuladd");
    r->attr_byval = LLVMGetEnumAttributeKindForName("byval", 5);
    r->attr_sret = LLVMGetEnumAttributeKindForName("sret", 4);
    r->attr_inalloca = LLVMGetEnumAttributeKindForName("inalloca", 8);
    r->attr_preallocated = LLVMGetEnumAttributeKindForName("preallocated", 12);
    r->attr_noreturn = LLVMGetEnumAttributeKindForName("noreturn", 8);
}

/* ---- annotations ---- */

static uint32_t annotation_flag(const char *s, size_t len)
{
    static const struct {
        const char *name;
        uint32_t flag;
    } known[] = {
        {"jitgen.elidable", JG_FLAG_ELIDABLE},
        {"jitgen.dont_look_inside", JG_FLAG_DONT_LOOK_INSIDE},
        {"jitgen.allocator", JG_FLAG_ALLOCATOR},
        {"jitgen.value_allocator", JG_FLAG_ALLOCATOR | JG_FLAG_VALUE},
        {"jitgen.portal", JG_FLAG_PORTAL},
    };
    while (len && s[len - 1] == '\0') /* the string constant includes its NUL */
        len--;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strlen(known[i].name) == len && memcmp(known[i].name, s, len) == 0)
            return known[i].flag;
    return 0;
}

/* One entry of @llvm.global.annotations: { ptr fn, ptr str, ptr file, i32, ptr }. */
static void read_annotation(Reader *r, LLVMValueRef entry)
{
    if (!entry || LLVMGetNumOperands(entry) < 2)
        return;
    LLVMValueRef fn = LLVMGetOperand(entry, 0);
    LLVMValueRef str = LLVMGetOperand(entry, 1);
    if (!LLVMIsAFunction(fn) || !LLVMIsAGlobalVariable(str))
        return;
    LLVMValueRef init = LLVMGetInitializer(str);
    if (!init || !LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init))
        return;
    size_t len = 0;
    const char *s = LLVMGetAsString(init, &len);
    uint32_t flag = annotation_flag(s, len);
    if (!flag)
        return;
    uint64_t flags = 0;
    pm_get(&r->annotations, fn, &flags);
    pm_put(&r->annotations, fn, flags | flag);
}

static void read_annotations(Reader *r)
{
    pm_init(&r->annotations, &r->scratch, 64);
    LLVMValueRef ga = LLVMGetNamedGlobal(r->mod, "llvm.global.annotations");
    LLVMValueRef init = ga ? LLVMGetInitializer(ga) : NULL;
    if (!init || !LLVMIsAConstantArray(init))
        return;
    int n = LLVMGetNumOperands(init);
    for (int i = 0; i < n; i++)
        read_annotation(r, LLVMGetOperand(init, (unsigned)i));
}

/* ---- discovery ---- */

static bool has_fn_attr(LLVMValueRef fn, unsigned kind)
{
    return LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind) != NULL;
}

FnInfo *rd_fn_info(Reader *r, LLVMValueRef fn)
{
    uint64_t v;
    return pm_get(&r->fns, fn, &v) ? (FnInfo *)(uintptr_t)v : NULL;
}

/* Registers a function the graphs refer to; its flags decide whether its
 * body will be translated. */
static FnInfo *enqueue_function(Reader *r, LLVMValueRef fn)
{
    FnInfo *fi = rd_fn_info(r, fn);
    if (fi)
        return fi;
    fi = jg_arena_alloc(&r->scratch, sizeof *fi);
    fi->fn = fn;
    fi->name = rd_name(r, fn);
    uint64_t flags = 0;
    pm_get(&r->annotations, fn, &flags);
    fi->flags = (uint32_t)flags;
    if (has_fn_attr(fn, r->attr_noreturn))
        fi->flags |= JG_FLAG_NORETURN;
    uint32_t opaque = JG_FLAG_ELIDABLE | JG_FLAG_DONT_LOOK_INSIDE | JG_FLAG_ALLOCATOR;
    fi->body = !LLVMIsDeclaration(fn) && !(fi->flags & opaque);
    if (!fi->body)
        fi->flags |= JG_FLAG_EXTERNAL;
    pm_put(&r->fns, fn, (uint64_t)(uintptr_t)fi);
    JG_VEC_PUSH(&r->scratch, r->fnlist, fi);
    return fi;
}

static void visit_constant(Reader *r, LLVMValueRef c);

static void enqueue_global(Reader *r, LLVMValueRef gv)
{
    uint64_t v;
    if (pm_get(&r->globs, gv, &v))
        return;
    GlobInfo *gi = jg_arena_alloc(&r->scratch, sizeof *gi);
    gi->gv = gv;
    pm_put(&r->globs, gv, (uint64_t)(uintptr_t)gi);
    JG_VEC_PUSH(&r->scratch, r->globlist, gi);
    LLVMValueRef init = LLVMGetInitializer(gv);
    if (init)
        visit_constant(r, init);
}

/* Finds the functions and globals a constant refers to, through constant
 * expressions and aggregates (tables of function pointers). */
static void visit_constant(Reader *r, LLVMValueRef c)
{
    if (LLVMIsAFunction(c)) {
        if (!rd_is_special(r, c))
            enqueue_function(r, c);
        return;
    }
    if (LLVMIsAGlobalVariable(c)) {
        enqueue_global(r, c);
        return;
    }
    if (LLVMIsAGlobalValue(c)) /* aliases and ifuncs: reported when translated */
        return;
    if (!LLVMIsAConstantExpr(c) && !LLVMIsAConstantArray(c) && !LLVMIsAConstantStruct(c) &&
        !LLVMIsAConstantVector(c))
        return;
    uint64_t seen;
    if (pm_get(&r->visited, c, &seen))
        return;
    pm_put(&r->visited, c, 1);
    int n = LLVMGetNumOperands(c);
    for (int i = 0; i < n; i++)
        visit_constant(r, LLVMGetOperand(c, (unsigned)i));
}

/* Every constant operand of every instruction, except hints and intrinsics
 * (calls to them become ops; their arguments still count). */
static void scan_body(Reader *r, LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            int n = LLVMGetNumOperands(in);
            for (int i = 0; i < n; i++) {
                LLVMValueRef op = LLVMGetOperand(in, (unsigned)i);
                if (op && LLVMIsAConstant(op) && !(LLVMIsAFunction(op) && rd_is_special(r, op)))
                    visit_constant(r, op);
            }
        }
    }
}

static LLVMValueRef find_root(Reader *r, const char *root)
{
    if (root) {
        LLVMValueRef fn = LLVMGetNamedFunction(r->mod, root);
        if (!fn)
            rd_fail(r, "root function '%s' not found in the bitcode", root);
        return fn;
    }
    LLVMValueRef found = NULL;
    for (LLVMValueRef fn = LLVMGetFirstFunction(r->mod); fn; fn = LLVMGetNextFunction(fn)) {
        uint64_t flags = 0;
        if (!pm_get(&r->annotations, fn, &flags) || !(flags & JG_FLAG_PORTAL))
            continue;
        if (found)
            rd_fail(r, "two functions annotated jitgen.portal: '%s' and '%s'", rd_name(r, found),
                    rd_name(r, fn));
        found = fn;
    }
    if (!found)
        rd_fail(r, "no root given and no function annotated jitgen.portal");
    return found;
}

static void discover(Reader *r, const char *root)
{
    pm_init(&r->fns, &r->scratch, 256);
    pm_init(&r->globs, &r->scratch, 256);
    pm_init(&r->visited, &r->scratch, 256);
    LLVMValueRef fn = find_root(r, root);
    FnInfo *fi = enqueue_function(r, fn);
    if (!fi->body)
        rd_fail(r,
                "root function '%s' has no body to translate (a declaration or annotated "
                "as opaque)",
                fi->name);
    for (unsigned i = 0; i < r->fnlist.count; i++) /* the list grows while we scan */
        if (r->fnlist.items[i]->body)
            scan_body(r, r->fnlist.items[i]->fn);
}

/* ---- graphs and native addresses ---- */

static void set_debug_info(Reader *r, JgGraph *g, LLVMValueRef fn)
{
    unsigned len = 0;
    const char *file = LLVMGetDebugLocFilename(fn, &len);
    if (file && len)
        g->file = jg_arena_strndup(&r->m->arena, file, len);
    g->line = LLVMGetDebugLocLine(fn);
}

/* Parameters whose ABI meaning is not "a scalar value" cannot be passed
 * through a flow-graph call or libffi. */
static void check_param_attrs(Reader *r, FnInfo *fi, unsigned nparams)
{
    unsigned kinds[] = {r->attr_byval, r->attr_sret, r->attr_inalloca, r->attr_preallocated};
    const char *names[] = {"byval", "sret", "inalloca", "preallocated"};
    for (unsigned i = 0; i < nparams; i++)
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            if (LLVMGetEnumAttributeAtIndex(fi->fn, i + 1, kinds[k]))
                rd_fail_at(r, NULL, "unsupported %s parameter %u (structs passed by value)",
                           names[k], i);
}

static void create_graph(Reader *r, FnInfo *fi)
{
    r->cur_fn = fi->name;
    r->cur_fn_line = LLVMGetDebugLocLine(fi->fn);
    LLVMTypeRef fty = LLVMGlobalGetValueType(fi->fn);
    unsigned n = LLVMCountParamTypes(fty);
    LLVMTypeRef *ptypes = jg_arena_alloc(&r->scratch, sizeof *ptypes * (n + 1));
    JgType *types = jg_arena_alloc(&r->scratch, sizeof *types * (n + 1));
    LLVMGetParamTypes(fty, ptypes);
    for (unsigned i = 0; i < n; i++)
        types[i] = rd_type(r, ptypes[i], NULL, "the signature");
    JgType ret = rd_type(r, LLVMGetReturnType(fty), NULL, "the signature");
    check_param_attrs(r, fi, n);
    JgGraph *g = jg_graph_new(&r->m->arena, fi->name, ret, n, types);
    g->flags = fi->flags;
    g->variadic = LLVMIsFunctionVarArg(fty);
    set_debug_info(r, g, fi->fn);
    if (!fi->body)
        g->blocks.count = 0; /* a declaration has no blocks */
    fi->g = g;
    JG_VEC_PUSH(&r->m->arena, r->m->graphs, g);
    if (fi->flags & JG_FLAG_PORTAL && !r->m->portal)
        r->m->portal = g;
}

static bool is_local_linkage(LLVMValueRef gv)
{
    LLVMLinkage l = LLVMGetLinkage(gv);
    return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

/* The native address of a function. An internal function has no symbol the
 * resolver could find (a name lookup could only find an unrelated function
 * of the same name): one with a body gets its graph as a unique token
 * address, one without is an error. */
static void resolve_function(Reader *r, FnInfo *fi)
{
    bool local = is_local_linkage(fi->fn);
    if (fi->body && local) {
        fi->address = fi->g;
        return;
    }
    fi->g->native = local ? NULL : r->resolve(r->resolve_ctx, fi->name);
    if (fi->g->native) {
        fi->address = fi->g->native;
        return;
    }
    rd_fail(r,
            "unresolved symbol '%s': function %s has no native address (is the binary linked "
            "with -rdynamic?)",
            fi->name, fi->body ? "with a body" : "declaration");
}

static void create_graphs(Reader *r)
{
    for (unsigned i = 0; i < r->fnlist.count; i++) {
        create_graph(r, r->fnlist.items[i]);
        resolve_function(r, r->fnlist.items[i]);
    }
    r->cur_fn = NULL;
}

static void resolve_globals(Reader *r)
{
    for (unsigned i = 0; i < r->globlist.count; i++)
        rd_global_address(r, r->globlist.items[i]->gv);
}

static void translate_bodies(Reader *r)
{
    for (unsigned i = 0; i < r->fnlist.count; i++)
        if (r->fnlist.items[i]->body)
            rd_translate_function(r, r->fnlist.items[i]);
    r->cur_fn = NULL;
}

/* ---- entry point ---- */

/* Bitcode with debug information makes LLVM's reader verify the whole module
 * (its debug-info upgrade step): a third of the reading time. The bitcode is
 * the build's own, and every construct translated is checked here, so that
 * verification is switched off. LLVM's options are process-wide; they are
 * set once, and before a second thread may use LLVM (jg_frontend_init). */
static void set_llvm_options(void)
{
    const char *argv[] = {"jitgen", "-disable-auto-upgrade-debug-info"};
    LLVMParseCommandLineOptions(2, argv, NULL);
}

void jg_frontend_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, set_llvm_options);
}

static void parse(Reader *r, const void *bitcode, size_t len)
{
    if (!bitcode || len == 0)
        rd_fail(r, "no bitcode (empty input)");
    jg_frontend_init();
    r->ctx = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(r->ctx, on_diagnostic, r);
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRange(bitcode, len, "jitgen-bitcode", 0);
    LLVMBool failed = LLVMParseBitcodeInContext2(r->ctx, buf, &r->mod);
    LLVMDisposeMemoryBuffer(buf);
    if (failed || !r->mod)
        rd_fail(r, "cannot read bitcode: %s", r->diag[0] ? r->diag : "invalid bitcode");
    r->td = LLVMGetModuleDataLayout(r->mod);
    if (LLVMPointerSize(r->td) != sizeof(void *) || LLVMByteOrder(r->td) != LLVMLittleEndian)
        rd_fail(r, "bitcode data layout does not match this machine (%u-byte pointers%s)",
                LLVMPointerSize(r->td),
                LLVMByteOrder(r->td) == LLVMLittleEndian ? "" : ", big-endian");
}

static void read_module(Reader *r, const void *bitcode, size_t len, const char *root)
{
    parse(r, bitcode, len);
    init_ids(r);
    read_annotations(r);
    discover(r, root);
    create_graphs(r);
    resolve_globals(r);
    translate_bodies(r);
    jg_module_build_index(r->m);
}

/* The setjmp lives here, apart from the Reader it modifies, so that the
 * Reader's contents stay determinate after a longjmp. */
static bool read_guarded(Reader *r, const void *bitcode, size_t len, const char *root)
{
    if (setjmp(r->on_error) != 0)
        return false;
    read_module(r, bitcode, len, root);
    return true;
}

JgModule *jg_module_read_bitcode(const void *bitcode, size_t len, const char *root,
                                 JgSymbolResolver resolve, void *ctx, char *err, size_t errsize)
{
    Reader r = {.resolve = resolve ? resolve : jg_resolve_self,
                .resolve_ctx = ctx,
                .err = err,
                .errsize = errsize};
    if (err && errsize)
        err[0] = '\0';
    r.m = jg_module_new();
    JgModule *result = r.m;
    if (!read_guarded(&r, bitcode, len, root)) {
        jg_module_free(r.m);
        result = NULL;
    }
    if (r.mod)
        LLVMDisposeModule(r.mod);
    if (r.ctx)
        LLVMContextDispose(r.ctx);
    jg_arena_free(&r.scratch);
    jg_arena_free(&r.fn_scratch);
    return result;
}
