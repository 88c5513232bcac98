/* The graph evaluator (eval.h, docs/graph-tools.md).
 *
 * One activation = one frame of uint64 slots, one per value of the graph
 * (constants included, so an operand is always frame[v]). Every slot holds
 * its value zero-extended from its type's width: results are masked when
 * written, so operations never see stray high bits. The frame, the memory of
 * ALLOCA ops and the argument arrays of calls all live on the C stack
 * (alloca / VLAs, never malloc): a conservative collector scanning the stack
 * (Boehm, used by the interpreter) then sees every pointer the evaluated
 * code holds, exactly as it would for the native code. Residual graphs may
 * use a value in any block its definition dominates: the frame, shared by
 * all blocks of the activation, already provides that.
 *
 * The evaluator trusts the graph to be verified (jg_verify_graph); it checks
 * only what would otherwise corrupt its own memory (link and call arity,
 * missing terminators) and aborts with a message on those bugs. */
#include "eval.h"
#include "fatal.h"

#include "flexswitch/flexswitch.h"

#include <alloca.h>
#include <ffi.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"

/* A bug in a graph or in its caller: report and stop (never continue with a
 * wrong result). */
static _Noreturn void eval_bug(const JgGraph *g, uint32_t block, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static _Noreturn void eval_bug(const JgGraph *g, uint32_t block, const char *fmt, ...)
{
    fflush(stdout);
    fprintf(stderr, "jitgen: eval: graph %s, block %" PRIu32 ": ",
            g && g->name ? g->name : "<anonymous>", block);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/* ---- memory ---- */

static inline uint64_t load(uint64_t addr, unsigned t)
{
    const void *p = (const void *)(uintptr_t)addr;
    switch (type_bits[t & 15]) {
    case 1:
    case 8: {
        uint8_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case 16: {
        uint16_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case 32: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    }
}

static inline void store(uint64_t addr, unsigned t, uint64_t x)
{
    void *p = (void *)(uintptr_t)addr;
    switch (type_bits[t & 15]) {
    case 1:
    case 8: {
        uint8_t v = (uint8_t)x;
        memcpy(p, &v, sizeof v);
        return;
    }
    case 16: {
        uint16_t v = (uint16_t)x;
        memcpy(p, &v, sizeof v);
        return;
    }
    case 32: {
        uint32_t v = (uint32_t)x;
        memcpy(p, &v, sizeof v);
        return;
    }
    default:
        memcpy(p, &x, sizeof x);
        return;
    }
}

/* ---- native calls through libffi ---- */

static ffi_type *ffi_type_of(JgType t)
{
    switch (t) {
    case JG_VOID:
        return &ffi_type_void;
    case JG_I1:
        return &ffi_type_uint8; /* C bool: zero-extended */
    case JG_I8:
        return &ffi_type_sint8; /* the IR does not record signext/zeroext: */
    case JG_I16:
        return &ffi_type_sint16; /* assume C's default signed char/short */
    case JG_I32:
        return &ffi_type_sint32;
    case JG_I64:
        return &ffi_type_sint64;
    case JG_PTR:
        return &ffi_type_pointer;
    case JG_F32:
        return &ffi_type_float;
    case JG_F64:
        return &ffi_type_double;
    }
    return NULL;
}

/* One argument in the C type libffi reads for it. */
typedef union NativeArg {
    uint8_t u8;
    int8_t s8;
    int16_t s16;
    int32_t s32;
    int64_t s64;
    void *p;
    float f;
    double d;
} NativeArg;

static void set_native_arg(NativeArg *a, JgType t, uint64_t bits)
{
    switch (t) {
    case JG_I1:
        a->u8 = (uint8_t)(bits & 1);
        break;
    case JG_I8:
        a->s8 = (int8_t)as_signed(sext(JG_I8, bits));
        break;
    case JG_I16:
        a->s16 = (int16_t)as_signed(sext(JG_I16, bits));
        break;
    case JG_I32:
        a->s32 = (int32_t)as_signed(sext(JG_I32, bits));
        break;
    case JG_PTR:
        a->p = (void *)(uintptr_t)bits;
        break;
    case JG_F32:
        a->f = as_f32(bits);
        break;
    case JG_F64:
        a->d = as_f64(bits);
        break;
    default:
        a->s64 = as_signed(bits);
        break;
    }
}

/* Where libffi writes a result: small integers come back widened to a full
 * ffi_arg, so the buffer is at least that large. */
typedef union NativeResult {
    ffi_arg a;
    uint64_t u64;
    void *p;
    float f;
    double d;
} NativeResult;

static uint64_t native_result_bits(JgType t, const NativeResult *r)
{
    switch (t) {
    case JG_VOID:
        return 0;
    case JG_I1:
    case JG_I8:
    case JG_I16:
    case JG_I32:
        return mask(t, (uint64_t)r->a);
    case JG_PTR:
        return (uint64_t)(uintptr_t)r->p;
    case JG_F32:
        return from_f32(r->f);
    case JG_F64:
        return from_f64(r->d);
    default:
        return r->u64;
    }
}

/* Describes a call to libffi in `cif`, which keeps pointing at `atypes`. */
static void prep_cif(ffi_cif *cif, ffi_type **atypes, JgType ret, uint32_t nargs,
                     const JgType *types, uint32_t nfixed)
{
    for (uint32_t i = 0; i < nargs; i++) {
        atypes[i] = types[i] == JG_VOID ? NULL : ffi_type_of(types[i]);
        if (!atypes[i])
            eval_bug(NULL, 0, "native call: argument %" PRIu32 " has type %s", i,
                     jg_type_name(types[i]));
    }
    ffi_type *rtype = ffi_type_of(ret);
    if (!rtype)
        eval_bug(NULL, 0, "native call: bad result type %u", (unsigned)ret);
    ffi_status st = nfixed < nargs
                        ? ffi_prep_cif_var(cif, FFI_DEFAULT_ABI, nfixed, nargs, rtype, atypes)
                        : ffi_prep_cif(cif, FFI_DEFAULT_ABI, nargs, rtype, atypes);
    if (st != FFI_OK)
        eval_bug(NULL, 0, "native call: libffi cannot describe the call (status %d)", (int)st);
}

/* A cache of call descriptions by signature: ffi_prep_cif costs about as
 * much as the call itself, and the interpreter makes the same few kinds of
 * native calls over and over. Direct-mapped, per thread (no locking), in
 * static memory (nothing to free); signatures with many arguments are not
 * cached. */
#define CIF_CACHE_SLOTS 64
#define CIF_CACHE_MAX_ARGS 8

typedef struct CifEntry {
    bool valid;
    uint8_t ret, nargs, nfixed;
    uint8_t types[CIF_CACHE_MAX_ARGS];
    ffi_type *atypes[CIF_CACHE_MAX_ARGS];
    ffi_cif cif;
} CifEntry;

static _Thread_local CifEntry cif_cache[CIF_CACHE_SLOTS];

static bool cif_entry_matches(const CifEntry *e, JgType ret, uint32_t nargs, const JgType *types,
                              uint32_t nfixed)
{
    if (!e->valid || e->ret != ret || e->nargs != nargs || e->nfixed != nfixed)
        return false;
    for (uint32_t i = 0; i < nargs; i++)
        if (e->types[i] != types[i])
            return false;
    return true;
}

/* The cached description of a signature, prepared on first use; NULL when
 * the signature is too long to cache. */
static const ffi_cif *cached_cif(JgType ret, uint32_t nargs, const JgType *types, uint32_t nfixed)
{
    if (nargs > CIF_CACHE_MAX_ARGS)
        return NULL;
    uint32_t h = (uint32_t)ret * 31u + nargs * 7u + nfixed;
    for (uint32_t i = 0; i < nargs; i++)
        h = h * 31u + (uint32_t)types[i];
    CifEntry *e = &cif_cache[(h ^ (h >> 7)) % CIF_CACHE_SLOTS];
    if (cif_entry_matches(e, ret, nargs, types, nfixed))
        return &e->cif;
    e->valid = false;
    prep_cif(&e->cif, e->atypes, ret, nargs, types, nfixed);
    e->ret = (uint8_t)ret;
    e->nargs = (uint8_t)nargs;
    e->nfixed = (uint8_t)nfixed;
    /* nargs <= CIF_CACHE_MAX_ARGS (checked above); the bound repeats it for
     * GCC -O3, which otherwise warns of an overflow */
    for (uint32_t i = 0; i < nargs && i < CIF_CACHE_MAX_ARGS; i++)
        e->types[i] = (uint8_t)types[i];
    e->valid = true;
    return &e->cif;
}

uint64_t jg_call_native(void *fn, JgType ret, uint32_t nargs, const JgType *types,
                        const uint64_t *args, uint32_t nfixed)
{
    if (nfixed > nargs)
        nfixed = nargs;
    NativeArg storage[nargs + 1];
    void *values[nargs + 1];
    for (uint32_t i = 0; i < nargs; i++) {
        set_native_arg(&storage[i], types[i], args[i]);
        values[i] = &storage[i];
    }
    ffi_cif local;
    ffi_type *local_atypes[nargs + 1];
    const ffi_cif *cif = cached_cif(ret, nargs, types, nfixed);
    if (!cif) {
        prep_cif(&local, local_atypes, ret, nargs, types, nfixed);
        cif = &local;
    }
    NativeResult result;
    memset(&result, 0, sizeof result);
    ffi_call((ffi_cif *)cif, FFI_FN(fn), &result, values);
    return native_result_bits(ret, &result);
}

/* ---- calls ---- */

static bool has_body(const JgGraph *g)
{
    return !(g->flags & JG_FLAG_EXTERNAL) && g->blocks.count > 0 && !g->variadic;
}

/* A call the evaluator does not evaluate: through libffi, with the types of
 * the argument values and of the op's result. */
static uint64_t call_native_op(const JgGraph *g, uint32_t block, const JgOp *op, void *fn,
                               const JgGraph *callee, uint32_t n, const uint64_t *argv)
{
    if (!fn)
        eval_bug(g, block, "call to a null function pointer%s%s", callee ? " for " : "",
                 callee && callee->name ? callee->name : "");
    JgType types[n + 1];
    for (uint32_t i = 0; i < n; i++)
        types[i] = jg_value_type(g, op->args[i + 1]);
    uint32_t nfixed = callee && callee->variadic && callee->nparams < n ? callee->nparams : n;
    return jg_call_native(fn, (JgType)op->type, n, types, argv, nfixed);
}

/* Kept out of line so the argument array is released when the call returns
 * (the caller's loop must not grow its own frame per call). */
static __attribute__((noinline)) uint64_t do_call(JgEvaluator *ev, const JgGraph *g, uint32_t block,
                                                  const JgOp *op, const uint64_t *frame)
{
    if (op->nargs == 0)
        eval_bug(g, block, "call without a callee operand");
    uint32_t n = op->nargs - 1;
    uint64_t argv[n + 1];
    for (uint32_t i = 0; i < n; i++)
        argv[i] = frame[op->args[i + 1]];
    void *fn = (void *)(uintptr_t)frame[op->args[0]];
    const JgGraph *callee = op->callee;
    if (!callee && ev->module && fn)
        callee = jg_module_graph_by_native(ev->module, fn);
    if (!fn && callee)
        fn = callee->native;
    uint64_t r = 0;
    if (!ev->hook || !ev->hook(ev->hook_ctx, ev, op, callee, fn, n, argv, &r)) {
        if (callee && has_body(callee)) {
            if (n != callee->nparams)
                eval_bug(g, block, "%" PRIu32 " arguments to %s, which takes %" PRIu32, n,
                         callee->name ? callee->name : "<anonymous>", callee->nparams);
            r = jg_eval(ev, callee, argv);
        } else {
            r = call_native_op(g, block, op, fn, callee, n, argv);
        }
    }
    if (callee && (callee->flags & JG_FLAG_NORETURN))
        eval_bug(g, block, "%s is noreturn, but returned",
                 callee->name ? callee->name : "<anonymous>");
    return r;
}

/* ---- the interpreter loop ---- */

static const JgLink *switch_target(const JgGraph *g, const JgTerm *t, uint64_t v)
{
    unsigned vt = jg_value_type(g, t->value);
    for (uint32_t i = 1; i < t->nlinks; i++)
        if (mask(vt, (uint64_t)t->cases[i - 1]) == v)
            return &t->links[i];
    return &t->links[0];
}

/* The link a terminator takes, or NULL for a return (result in *ret). */
static const JgLink *take_terminator(const JgGraph *g, uint32_t block, const uint64_t *frame,
                                     uint64_t *ret)
{
    const JgTerm *t = &g->blocks.items[block].term;
    switch (t->kind) {
    case JG_TERM_GOTO:
        return &t->links[0];
    case JG_TERM_BRANCH:
        return &t->links[(frame[t->value] & 1) ? 0 : 1];
    case JG_TERM_SWITCH:
    case JG_TERM_FLEXSWITCH: /* the cases present in the graph, else the default */
        return switch_target(g, t, frame[t->value]);
    case JG_TERM_RETURN:
        *ret = t->value ? frame[t->value] : 0;
        return NULL;
    case JG_TERM_UNREACHABLE:
        eval_bug(g, block, "reached unreachable");
    case JG_TERM_NONE:
        eval_bug(g, block, "block without a terminator");
    default:
        eval_bug(g, block, "unknown terminator kind %u", t->kind);
    }
}

/* A flexswitch default: the compiler compiles the case for this value
 * (adding blocks, values and the case to the graph); returns its link. */
static const JgLink *flexswitch_miss(const JgGraph *g, uint32_t cur, const uint64_t *frame)
{
    const JgTerm *t = &g->blocks.items[cur].term;
    JgFlexswitch *fs = t->flex;
    uint64_t value = frame[t->value];
    fs->misses++;
    if (!fs->miss || fs->miss(fs->compiler, fs, value) == UINT32_MAX)
        jg_fatal("eval", "compiling a flexswitch case of %s failed",
                 g->name ? g->name : "<anonymous>");
    t = &g->blocks.items[cur].term;
    unsigned vt = jg_value_type(g, t->value);
    for (uint32_t i = 1; i < t->nlinks; i++)
        if (mask(vt, (uint64_t)t->cases[i - 1]) == value)
            return &t->links[i];
    eval_bug(g, cur, "the flexswitch has no case after compiling one");
}

/* Executes one operation of block `cur`, except ALLOCA, whose memory the
 * caller decides (run: its own C frame; jg_eval_block: the host's). */
static inline void exec_op(JgEvaluator *ev, const JgGraph *g, uint32_t cur, uint32_t i,
                           const JgOp *op, uint64_t *frame)
{
    const JgValueInfo *vals = g->values.items;
    const JgVal *a = op->args;
    unsigned t = op->type;
    uint64_t r;
    if (jg_op_is_pure(op->opcode)) {
        uint64_t x[3] = {frame[a[0]], op->nargs > 1 ? frame[a[1]] : 0,
                         op->nargs > 2 ? frame[a[2]] : 0};
        frame[op->result] = mask(t, jg_arith(op->opcode, t, op->pred, vals[a[0]].type, x));
        return;
    }
    switch ((JgOpcode)op->opcode) {
    case JG_OP_LOAD:
        r = load(frame[a[0]], t);
        break;
    case JG_OP_STORE:
        store(frame[a[0]], vals[a[1]].type, frame[a[1]]);
        return;
    case JG_OP_MEMCPY:
        if (frame[a[2]])
            memmove((void *)(uintptr_t)frame[a[0]], (const void *)(uintptr_t)frame[a[1]],
                    (size_t)frame[a[2]]);
        return;
    case JG_OP_MEMSET:
        if (frame[a[2]])
            memset((void *)(uintptr_t)frame[a[0]], (int)(frame[a[1]] & 0xff), (size_t)frame[a[2]]);
        return;
    case JG_OP_CALL:
        r = do_call(ev, g, cur, op, frame);
        break;
    case JG_OP_PROMOTE:
    case JG_OP_CONCRETE:
    case JG_OP_DEEPFREEZE:
    case JG_OP_FORGET:
        r = frame[a[0]];
        break;
    case JG_OP_MERGE_POINT:
        return;
    default:
        eval_bug(g, cur, "op %" PRIu32 ": unknown opcode %u", i, op->opcode);
    }
    frame[op->result] = mask(t, r); /* void results land in the unused slot 0 */
}

/* frame[to[i]] = frame[from[i]] for every i, all read before any is
 * written (parameters may be passed back in another order). */
static void pass_in_parallel(uint32_t n, const JgVal *from, const JgVal *to, uint64_t *frame)
{
    uint64_t scratch[n ? n : 1];
    for (uint32_t i = 0; i < n; i++)
        scratch[i] = frame[from[i]];
    for (uint32_t i = 0; i < n; i++)
        frame[to[i]] = scratch[i];
}

/* Runs the graph's blocks from operation `first` of block `cur` on a
 * prepared frame. ALLOCA memory is alloca'd here, so it lives exactly as
 * long as this activation. */
static uint64_t run(JgEvaluator *ev, const JgGraph *g, uint32_t cur, uint32_t first,
                    uint64_t *frame)
{
    const JgValueInfo *vals = g->values.items;
    const bool residual = (g->flags & JG_FLAG_RESIDUAL) != 0;
    uint32_t nvalues = g->values.count; /* the caller sized the frame just now */
    uint32_t capacity = nvalues;
    for (;;) {
        const JgBlock *b = &g->blocks.items[cur];
        ev->ops_executed += b->ops.count - first;
        for (uint32_t i = first, nops = b->ops.count; i < nops; i++) {
            const JgOp *op = &b->ops.items[i];
            if (op->opcode != JG_OP_ALLOCA) {
                exec_op(ev, g, cur, i, op, frame);
                continue;
            }
            size_t size = op->imm > 0 ? (size_t)op->imm : 0;
            void *p = alloca(size ? size : 1);
            memset(p, 0, size);
            frame[op->result] = (uint64_t)(uintptr_t)p;
        }

        uint64_t ret = 0;
        const JgLink *l = take_terminator(g, cur, frame, &ret);
        if (!l)
            return ret;
        if (l->target == UINT32_MAX && g->blocks.items[cur].term.kind == JG_TERM_FLEXSWITCH)
            l = flexswitch_miss(g, cur, frame); /* the compiler adds the case */
        if (g->values.count > nvalues) {
            /* the graph grew (a flexswitch miss here or in a nested
             * activation): this activation's frame grows on its own stack,
             * geometrically, so that repeated growth stays linear */
            vals = g->values.items;
            uint32_t n = g->values.count;
            if (n > capacity) {
                uint32_t cap = n > 2 * capacity ? n : 2 * capacity;
                uint64_t *bigger = alloca(sizeof(uint64_t) * cap);
                memcpy(bigger, frame, sizeof(uint64_t) * nvalues);
                frame = bigger;
                capacity = cap;
            }
            for (uint32_t v = nvalues; v < n; v++)
                frame[v] = vals[v].kind == JG_VK_CONST ? mask(vals[v].type, vals[v].bits) : 0;
            nvalues = n;
        }
        first = 0;
        if (l->target >= g->blocks.count)
            eval_bug(g, cur, "link to missing block %" PRIu32, l->target);
        const JgBlock *target = &g->blocks.items[l->target];
        uint32_t n = l->nargs;
        if (n != target->nparams)
            eval_bug(g, cur,
                     "link passes %" PRIu32 " values to block %" PRIu32 " of %" PRIu32
                     " parameters",
                     n, l->target, target->nparams);
        const JgVal *from = l->args, *to = target->params;
        if (l->target != cur && !residual) {
            /* block-local SSA: the arguments are values of this block, the
             * target's parameters are not, so a direct copy is safe */
            for (uint32_t i = 0; i < n; i++)
                frame[to[i]] = frame[from[i]];
        } else {
            /* a self-loop (or, in a residual graph, any back link) may pass
             * the target's parameters back in another order */
            pass_in_parallel(n, from, to, frame);
        }
        cur = l->target;
    }
}

/* A declaration is called natively with the graph's own signature. */
static uint64_t eval_external(const JgGraph *g, const uint64_t *args)
{
    if (!g->native)
        eval_bug(g, 0, "no native address to call");
    JgType types[g->nparams + 1];
    for (uint32_t i = 0; i < g->nparams; i++)
        types[i] = (JgType)g->param_types[i];
    return jg_call_native(g->native, (JgType)g->ret_type, g->nparams, types, args, g->nparams);
}

uint64_t jg_eval(JgEvaluator *ev, const JgGraph *g, const uint64_t *args)
{
    if (!has_body(g))
        return eval_external(g, args);
    const JgValueInfo *vals = g->values.items;
    uint32_t n = g->values.count;
    uint64_t *frame = alloca(sizeof(uint64_t) * (n ? n : 1));
    jg_eval_frame_init(g, frame);
    const JgBlock *entry = &g->blocks.items[0];
    if (entry->nparams != g->nparams)
        eval_bug(g, 0, "entry block has %" PRIu32 " parameters, the graph %" PRIu32, entry->nparams,
                 g->nparams);
    for (uint32_t i = 0; i < entry->nparams; i++)
        frame[entry->params[i]] = mask(vals[entry->params[i]].type, args[i]);
    return run(ev, g, 0, 0, frame);
}

uint64_t jg_eval_from(JgEvaluator *ev, const JgGraph *g, uint32_t block, uint32_t op,
                      uint64_t *frame)
{
    if (block >= g->blocks.count || op > g->blocks.items[block].ops.count)
        eval_bug(g, block, "no operation %" PRIu32 " to resume at", op);
    return run(ev, g, block, op, frame);
}

/* ---- stepping, for hosts that run part of a graph themselves ---- */

uint64_t jg_eval_normalize(JgType t, uint64_t bits)
{
    return mask(t, bits);
}

void jg_eval_frame_init(const JgGraph *g, uint64_t *frame)
{
    const JgValueInfo *vals = g->values.items;
    frame[0] = 0;
    for (uint32_t v = 1; v < g->values.count; v++)
        frame[v] = vals[v].kind == JG_VK_CONST ? mask(vals[v].type, vals[v].bits) : 0;
}

void jg_eval_block(JgEvaluator *ev, const JgGraph *g, uint32_t block, uint64_t *frame)
{
    const JgBlock *b = &g->blocks.items[block];
    ev->ops_executed += b->ops.count;
    for (uint32_t i = 0, nops = b->ops.count; i < nops; i++) {
        const JgOp *op = &b->ops.items[i];
        if (op->opcode != JG_OP_ALLOCA) {
            exec_op(ev, g, block, i, op, frame);
            continue;
        }
        if (!ev->alloca_memory)
            eval_bug(g, block, "op %" PRIu32 ": ALLOCA without a host to give its memory", i);
        size_t size = op->imm > 0 ? (size_t)op->imm : 0;
        void *p = ev->alloca_memory(ev->alloca_ctx, block, i, size);
        memset(p, 0, size);
        frame[op->result] = (uint64_t)(uintptr_t)p;
    }
}

const JgLink *jg_eval_successor(const JgGraph *g, uint32_t block, const uint64_t *frame)
{
    const JgTerm *t = &g->blocks.items[block].term;
    switch (t->kind) {
    case JG_TERM_GOTO:
    case JG_TERM_BRANCH:
    case JG_TERM_SWITCH: {
        uint64_t unused;
        return take_terminator(g, block, frame, &unused);
    }
    default:
        return NULL;
    }
}

void jg_eval_pass(const JgGraph *g, const JgLink *l, uint64_t *frame)
{
    const JgBlock *target = &g->blocks.items[l->target];
    if (l->nargs != target->nparams)
        eval_bug(g, l->target, "a link passes %" PRIu32 " values to %" PRIu32 " parameters",
                 l->nargs, target->nparams);
    pass_in_parallel(l->nargs, l->args, target->params, frame);
}
