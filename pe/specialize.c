/* The partial evaluator's main loop: runs the interpreter's graphs on
 * abstract values, folding what is known and emitting residual operations
 * for the rest. Each path of specialization owns its state; a red branch
 * copies the state for every successor. */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fold.h"
#include "frontend/eval.h"
#include "frontend/portal_site.h"
#include "pe_internal.h"
#include "rewrite.h"

void pe_fail(JgPe *pe, const char *fmt, ...)
{
    if (pe->failed)
        return;
    pe->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pe->error, sizeof pe->error, fmt, ap);
    va_end(ap);
}

bool pe_admits(JgPe *pe)
{
    if (!pe->options.admit || pe->options.admit(pe->options.admit_ctx))
        return true;
    pe->stats.refused++;
    pe_fail(pe, "the JIT's memory budget is spent");
    return false;
}

static uint32_t new_block(JgPe *pe)
{
    pe->stats.residual_blocks++;
    return jg_block_new(pe->rg, 0, NULL);
}

static void push_work(JgPe *pe, uint32_t block, State *s)
{
    Work w = {block, s};
    JG_VEC_PUSH(&pe->arena, pe->work, w);
}

static Frame *top(State *s)
{
    return &s->frames[s->depth - 1];
}

/* A materialized virtual behaves as the residual pointer it became. */
static Av norm(Av a)
{
    if (a.kind == AV_VIRT && a.obj->materialized) {
        Av v = av_var(JG_PTR, a.obj->materialized);
        v.offset = a.offset;
        return v;
    }
    return a;
}

static Av get(const Frame *f, JgVal v)
{
    return norm(av_get(f, v));
}

static bool is_merge_block(const Frame *f, uint32_t block)
{
    const JgBtaVariant *b = f->bta;
    if (b->merge_point[block])
        return true;
    if (!b->loop_header[block])
        return false;
    /* a loop the binding-time analysis made red must close here */
    const JgBlock *blk = &f->g->blocks.items[block];
    for (uint32_t p = 0; p < blk->nparams; p++)
        if (b->color[blk->params[p]] == JG_RED)
            return true;
    return false;
}

/* Follows a link of the running frame: binds the target's parameters,
 * which are the target's first locals (pe_graph_info). The hottest loop of
 * specialization: an interpreter's link carries its whole frame. */
static void bind_link(JgPe *pe, State *s, const JgLink *link)
{
    Frame *f = top(s);
    uint32_t n = link->nargs;
    Av args[n + 1];
    for (uint32_t i = 0; i < n; i++)
        args[i] = av_get(f, link->args[i]);
    frame_enter_block(pe, f, link->target);
    assert(n <= f->nlocals && n == f->g->blocks.items[link->target].nparams);
    memcpy(f->locals, args, sizeof(Av) * n);
}

/* ---- operations ---- */

typedef enum Step {
    STEP_NEXT,  /* go on with the next op of the running frame */
    STEP_FRAME, /* the running frame changed (call or return) */
    STEP_END,   /* this path of specialization ended */
} Step;

static Step fold_pure(JgPe *pe, State *s, uint32_t block, Frame *f, const JgOp *op)
{
    uint64_t bits[4];
    JgType types[4];
    bool all_const = op->nargs <= 4;
    for (uint32_t i = 0; i < op->nargs && all_const; i++) {
        Av a = get(f, op->args[i]);
        if (a.kind != AV_CONST)
            all_const = false;
        bits[i] = a.bits;
        types[i] = jg_value_type(f->g, op->args[i]);
    }
    if (all_const) {
        av_set(f, op->result,
               av_const((JgType)op->type, jg_fold((JgOpcode)op->opcode, (JgType)op->type,
                                                  (JgPred)op->pred, op->nargs, types, bits)));
        return STEP_NEXT;
    }
    JgVal args[op->nargs + 1];
    for (uint32_t i = 0; i < op->nargs; i++)
        args[i] = residualize(pe, s, block, get(f, op->args[i]));
    bool emitted;
    JgVal r = jg_rewrite_pure(pe->rg, block, op, args, &emitted);
    pe->stats.residual_ops += emitted;
    JgType type = (JgType)op->type;
    av_set(f, op->result,
           jg_is_const(pe->rg, r) ? av_const(type, jg_value(pe->rg, r)->bits) : av_var(type, r));
    return STEP_NEXT;
}

/* Pointer comparisons involving virtual objects are known: a virtual object
 * is a fresh allocation no other pointer can equal. */
static bool fold_virtual_icmp(Frame *f, const JgOp *op)
{
    Av a = get(f, op->args[0]), b = get(f, op->args[1]);
    if (a.kind != AV_VIRT && b.kind != AV_VIRT)
        return false;
    if (op->pred != JG_EQ && op->pred != JG_NE) {
        if (a.kind != AV_VIRT || b.kind != AV_VIRT || a.obj != b.obj)
            return false;
        uint64_t bits[2] = {(uint64_t)a.offset, (uint64_t)b.offset};
        JgType types[2] = {JG_I64, JG_I64};
        av_set(f, op->result,
               av_const(JG_I1, jg_fold(JG_OP_ICMP, JG_I1, (JgPred)op->pred, 2, types, bits)));
        return true;
    }
    bool equal = a.kind == AV_VIRT && b.kind == AV_VIRT && a.obj == b.obj && a.offset == b.offset;
    av_set(f, op->result, av_const(JG_I1, (op->pred == JG_EQ) == equal));
    return true;
}

static Step run_ptradd(JgPe *pe, State *s, uint32_t block, Frame *f, const JgOp *op)
{
    Av p = get(f, op->args[0]), off = get(f, op->args[1]);
    if (off.kind == AV_CONST && (p.kind == AV_VIRT || p.kind == AV_VAR)) {
        p.offset = (int64_t)((uint64_t)p.offset + off.bits); /* wraps, as ptradd does */
        av_set(f, op->result, p);
        return STEP_NEXT;
    }
    return fold_pure(pe, s, block, f, op);
}

static Step run_load(JgPe *pe, State *s, uint32_t block, Frame *f, const JgOp *op)
{
    Av addr = get(f, op->args[0]);
    JgType type = (JgType)op->type;
    if (addr.kind == AV_VIRT) {
        Field *field = virt_field(addr.obj, addr.offset);
        if (!field && !virt_overlaps_partly(addr.obj, addr.offset, type)) {
            av_set(f, op->result, av_const(type, 0));
            return STEP_NEXT;
        }
        if (field && field->type == type) {
            av_set(f, op->result, norm(field->value));
            return STEP_NEXT;
        }
        materialize(pe, s, block, addr.obj);
        addr = norm(addr);
    }
    if (addr.kind == AV_CONST && f->bta->frozen[op->args[0]] && addr.bits) {
        uint64_t bits = 0;
        memcpy(&bits, (const void *)(uintptr_t)addr.bits, jg_type_size(type));
        av_set(f, op->result, av_const(type, bits));
        return STEP_NEXT;
    }
    JgVal base = addr.kind == AV_VAR ? addr.var : 0;
    int64_t offset = addr.kind == AV_VAR ? addr.offset : (int64_t)addr.bits;
    pending_flush_aliases(pe, s, block, base, offset, type);
    const Av *known = cache_get(s, base, offset, type);
    if (known) {
        av_set(f, op->result, norm(*known));
        return STEP_NEXT;
    }
    Av shaped;
    if (value_args_host_load(pe, s, block, base, offset, type, &shaped)) {
        av_set(f, op->result, shaped);
        return STEP_NEXT;
    }
    JgVal a = residualize(pe, s, block, addr);
    JgVal r = emit_op(pe, block, JG_OP_LOAD, type, 1, &a);
    jg_last_op(pe->rg, block)->line = op->line;
    Av result = av_var(type, r);
    CacheEntry *e = cache_put(pe, s, base, offset, type, result);
    e->immutable = (op->imm & JG_IMM_IMMUTABLE) != 0;
    av_set(f, op->result, result);
    return STEP_NEXT;
}

static Step run_store(JgPe *pe, State *s, uint32_t block, Frame *f, const JgOp *op)
{
    Av addr = get(f, op->args[0]);
    Av value = get(f, op->args[1]);
    JgType type = jg_value_type(f->g, op->args[1]);
    if (addr.kind == AV_VIRT) {
        if (!virt_overlaps_partly(addr.obj, addr.offset, type)) {
            virt_store(pe, addr.obj, addr.offset, type, value);
            return STEP_NEXT;
        }
        /* a store into part of a field (or over several) goes to memory */
        materialize(pe, s, block, addr.obj);
        addr = norm(addr);
    }
    JgVal base = addr.kind == AV_VAR ? addr.var : 0;
    int64_t offset = addr.kind == AV_VAR ? addr.offset : (int64_t)addr.bits;
    if (addr.kind == AV_VAR || addr.kind == AV_CONST) {
        pending_flush_aliases(pe, s, block, base, offset, type);
        if (pending_keepable(value)) {
            pending_put(pe, s, base, offset, type, value);
            return STEP_NEXT;
        }
    }
    JgVal args[2] = {residualize(pe, s, block, addr), residualize(pe, s, block, value)};
    emit_op(pe, block, JG_OP_STORE, JG_VOID, 2, args);
    jg_last_op(pe->rg, block)->line = op->line;
    cache_invalidate_store(s, base, offset, type);
    cache_put(pe, s, base, offset, type, norm(value));
    return STEP_NEXT;
}

/* Moves the fields in [src, src + len) of one virtual to [dst, ...) of
 * another (or the same: memmove semantics). False when a field straddles
 * the range, which needs real memory. */
static bool virt_copy_range(JgPe *pe, Virt *d, int64_t doff, Virt *so, int64_t soff, int64_t len)
{
    for (uint32_t i = 0; i < so->nfields; i++) {
        const Field *fl = &so->fields[i];
        int64_t end = fl->offset + (int64_t)jg_type_size((JgType)fl->type);
        bool inside = fl->offset >= soff && end <= soff + len;
        bool outside = end <= soff || fl->offset >= soff + len;
        if (!inside && !outside)
            return false;
    }
    for (uint32_t i = 0; i < d->nfields; i++) {
        const Field *fl = &d->fields[i];
        int64_t end = fl->offset + (int64_t)jg_type_size((JgType)fl->type);
        if (!(end <= doff || fl->offset >= doff + len) &&
            !(fl->offset >= doff && end <= doff + len))
            return false;
    }
    Field moved[so->nfields + 1];
    uint32_t n = 0;
    for (uint32_t i = 0; i < so->nfields; i++)
        if (so->fields[i].offset >= soff && so->fields[i].offset < soff + len)
            moved[n++] = so->fields[i];
    for (uint32_t i = d->nfields; i-- > 0;)
        if (d->fields[i].offset >= doff && d->fields[i].offset < doff + len)
            virt_store(pe, d, d->fields[i].offset, (JgType)d->fields[i].type, av_const(JG_I64, 0));
    for (uint32_t i = 0; i < n; i++)
        virt_store(pe, d, moved[i].offset - soff + doff, (JgType)moved[i].type, moved[i].value);
    return true;
}

static Step run_memory_op(JgPe *pe, State *s, uint32_t block, Frame *f, const JgOp *op)
{
    Av dst = get(f, op->args[0]), src = get(f, op->args[1]), len = get(f, op->args[2]);
    if (dst.kind == AV_VIRT && len.kind == AV_CONST) {
        if (op->opcode == JG_OP_MEMCPY && src.kind == AV_VIRT &&
            virt_copy_range(pe, dst.obj, dst.offset, src.obj, src.offset, (int64_t)len.bits))
            return STEP_NEXT;
        if (op->opcode == JG_OP_MEMSET && src.kind == AV_CONST && (src.bits & 0xff) == 0) {
            Virt zero = {0};
            if (virt_copy_range(pe, dst.obj, dst.offset, &zero, 0, (int64_t)len.bits))
                return STEP_NEXT;
        }
    }
    pending_flush_all(pe, s, block);
    JgVal args[3];
    for (int i = 0; i < 3; i++)
        args[i] = residualize(pe, s, block, get(f, op->args[i]));
    emit_op(pe, block, (JgOpcode)op->opcode, JG_VOID, 3, args);
    cache_forget_all(s);
    return STEP_NEXT;
}

/* ---- calls ---- */

static uint64_t bta_mask(const Frame *f, const JgOp *op)
{
    uint64_t mask = 0;
    for (uint32_t i = 1; i < op->nargs && i <= 64; i++)
        if (f->bta->color[op->args[i]] == JG_GREEN)
            mask |= (uint64_t)1 << (i - 1);
    return mask;
}

/* Ends `block` in a flexswitch on residual value `x`; a miss resumes from
 * `s` as it is (jg_pe_resume): at a promote op, or, `call_result`, at a
 * portal call whose result's shape `x` is. */
static Step emit_flexswitch(JgPe *pe, State *s, uint32_t block, Av x, bool call_result);

static Step residual_call(JgPe *pe, State *s, uint32_t *block, Frame *f, const JgOp *op,
                          const JgGraph *callee, Av target)
{
    /* the callee may read any memory */
    pending_flush_all(pe, s, *block);
    JgVal args[op->nargs + 1];
    if (callee) {
        if (!callee->native) {
            pe_fail(pe,
                    "%s: cannot call %s at run time: it has no native address (make it "
                    "non-static)",
                    f->g->name, callee->name);
            return STEP_END;
        }
        args[0] = jg_const_symbol(pe->rg, callee->native, callee->name);
    } else {
        args[0] = residualize(pe, s, *block, target);
    }
    const JgArgShapes *shapes = NULL;
    if (callee && (callee->flags & JG_FLAG_PORTAL))
        shapes = value_args_pass(pe, s, *block, f, op, args);
    for (uint32_t i = 1; i < op->nargs; i++)
        if (!value_args_passed(shapes, i - 1))
            args[i] = residualize(pe, s, *block, get(f, op->args[i]));
    JgVal r = emit_op(pe, *block, JG_OP_CALL, (JgType)op->type, op->nargs, args);
    JgOp *e = jg_last_op(pe->rg, *block);
    /* the callee may return a value as its word: the shape it leaves
     * decides, one case per shape (value_results_shape) */
    bool reads_shape =
        callee && (callee->flags & JG_FLAG_PORTAL) && op->result && value_results_on(pe);
    e->imm = (int64_t)((uintptr_t)shapes | (reads_shape ? JG_PORTAL_CALL_READS_SHAPE : 0));
    e->callee = (JgGraph *)callee;
    e->line = op->line;
    if (!callee || !(callee->flags & JG_FLAG_ELIDABLE))
        cache_forget_all(s);
    if (callee && (callee->flags & JG_FLAG_NORETURN)) {
        jg_set_unreachable(pe->rg, *block);
        return STEP_END;
    }
    if (op->result)
        av_set(f, op->result, av_var((JgType)op->type, r));
    if (reads_shape)
        return emit_flexswitch(pe, s, *block, value_results_shape(pe, *block), true);
    return STEP_NEXT;
}

/* An elidable function whose arguments are all known runs now. */
static bool call_at_compile_time(Frame *f, const JgOp *op, const JgGraph *callee)
{
    uint64_t bits[op->nargs + 1];
    JgType types[op->nargs + 1];
    for (uint32_t i = 1; i < op->nargs; i++) {
        Av a = get(f, op->args[i]);
        if (a.kind != AV_CONST)
            return false;
        bits[i - 1] = a.bits;
        types[i - 1] = jg_value_type(f->g, op->args[i]);
    }
    uint32_t n = op->nargs - 1;
    uint64_t r = jg_call_native(callee->native, (JgType)op->type, n, types, bits,
                                callee->variadic ? callee->nparams : n);
    if (op->result)
        av_set(f, op->result, av_const((JgType)op->type, r));
    return true;
}

/* A portal call is inlined unless the same green key is already being
 * specialized on the inline stack (recursion), or too many portal frames are
 * nested. Returns the green argument values when it may be inlined. */
static const uint64_t *portal_inline_key(JgPe *pe, const State *s, const Frame *f, const JgOp *op)
{
    uint64_t greens = pe->bta->portal_green_params;
    uint32_t n = op->nargs - 1;
    uint64_t *key = jg_arena_alloc(pe->rg->arena, sizeof(uint64_t) * (n + 1));
    for (uint32_t i = 0; i < n; i++) {
        Av a = get(f, op->args[i + 1]);
        bool green = i < 64 && (greens >> i & 1);
        if (green && a.kind != AV_CONST)
            return NULL;
        key[i] = green ? a.bits : 0;
    }
    unsigned portals = 0;
    unsigned limit = pe->options.max_portal_inline ? pe->options.max_portal_inline : 4;
    for (uint32_t d = 0; d < s->depth; d++) {
        const Frame *p = &s->frames[d];
        if (!p->portal)
            continue;
        if (++portals >= limit)
            return NULL;
        if (p->portal_args && memcmp(p->portal_args, key, sizeof(uint64_t) * n) == 0)
            return NULL;
    }
    return key;
}

static Step inline_call(JgPe *pe, State *s, Frame *f, const JgOp *op, const JgGraph *callee,
                        const JgBtaVariant *variant)
{
    Av args[op->nargs + 1];
    for (uint32_t i = 1; i < op->nargs; i++)
        args[i - 1] = av_get(f, op->args[i]);
    Frame *c = state_push_frame(pe, s, callee, variant, 0);
    const JgBlock *entry = &callee->blocks.items[0];
    for (uint32_t i = 0; i + 1 < op->nargs && i < entry->nparams; i++)
        av_set(c, entry->params[i], args[i]);
    return STEP_FRAME;
}

static Step run_call(JgPe *pe, State *s, uint32_t *block, Frame *f, const JgOp *op)
{
    Av target = get(f, op->args[0]);
    const JgGraph *callee = op->callee;
    if (!callee && target.kind == AV_CONST)
        callee = jg_module_graph_by_native(pe->module, (const void *)(uintptr_t)target.bits);
    if (!callee)
        return residual_call(pe, s, block, f, op, NULL, target);
    uint32_t flags = callee->flags;
    /* an allocator takes the size and, optionally, a tag (e.g. the
     * allocation's site, for its error messages): both constant, the
     * object can be virtual, and materializing it passes the same tag */
    if ((flags & JG_FLAG_ALLOCATOR) && !pe->options.no_virtuals &&
        (op->nargs == 2 || op->nargs == 3)) {
        Av size = get(f, op->args[1]);
        Av tag = op->nargs == 3 ? get(f, op->args[2]) : av_const(JG_I64, 0);
        if (size.kind == AV_CONST && tag.kind == AV_CONST) {
            Virt *o = virt_new(pe, VIRT_HEAP, (int64_t)size.bits, callee);
            o->has_tag = op->nargs == 3;
            o->tag = tag.bits;
            Av p = {.kind = AV_VIRT, .type = JG_PTR, .obj = o};
            av_set(f, op->result, p);
            return STEP_NEXT;
        }
    }
    if ((flags & JG_FLAG_ELIDABLE) && callee->native && call_at_compile_time(f, op, callee))
        return STEP_NEXT;
    if (flags & JG_FLAG_PORTAL) {
        const uint64_t *key = portal_inline_key(pe, s, f, op);
        if (!key)
            return residual_call(pe, s, block, f, op, callee, target);
        Step step = inline_call(pe, s, f, op, callee, pe->bta->portal);
        top(s)->portal_args = key;
        return step;
    }
    unsigned max_depth = pe->options.max_inline_depth ? pe->options.max_inline_depth : 24;
    if ((flags & JG_FLAG_EXTERNAL) || s->depth >= max_depth || callee->blocks.count == 0)
        return residual_call(pe, s, block, f, op, callee, target);
    return inline_call(pe, s, f, op, callee, jg_bta_variant(pe->bta, callee, bta_mask(f, op)));
}

/* ---- promotion ---- */

/* pe_flexswitch keeping `saved` itself, which its caller no longer uses. */
static PeFlexData *flexswitch_taking(JgPe *pe, State *saved, uint32_t block, JgVal value,
                                     JgFlexswitch **out)
{
    /* the continuation needs every residual value the state refers to */
    JgVal live[4096];
    uint32_t nlive = state_live_vars(pe, saved, live, 4096);
    if (nlive >= 4096) {
        pe_fail(pe, "%s: too many live values at a promotion", top(saved)->g->name);
        return NULL;
    }
    JgFlexswitch *fs = jg_flexswitch_new(pe->rg, block, value, nlive, live);
    PeFlexData *data = jg_arena_alloc(pe->rg->arena, sizeof *data);
    *data = (PeFlexData){.pe = pe, .residual = pe->current, .state = saved};
    fs->miss = jg_pe_resume;
    fs->compiler = data;
    *out = fs;
    return data;
}

PeFlexData *pe_flexswitch(JgPe *pe, State *s, uint32_t block, JgVal value, JgFlexswitch **out)
{
    return flexswitch_taking(pe, state_copy(pe, s), block, value, out);
}

/* Ends `block` in a flexswitch on residual value `x`; a miss resumes from
 * `s` as it is (jg_pe_resume): at a promote op, or, `call_result`, at a
 * portal call whose result's shape `x` is. */
static Step emit_flexswitch(JgPe *pe, State *s, uint32_t block, Av x, bool call_result)
{
    JgFlexswitch *fs;
    PeFlexData *data = pe_flexswitch(pe, s, block, residualize(pe, s, block, x), &fs);
    if (data) {
        data->promoted = x;
        data->call_result = call_result;
        pe->stats.promotions++;
    }
    return STEP_END;
}

static Step run_promote(JgPe *pe, State *s, uint32_t block, Frame *f, const JgOp *op)
{
    Av x = get(f, op->args[0]);
    if (x.kind != AV_VAR) {
        av_set(f, op->result, x);
        return STEP_NEXT;
    }
    return emit_flexswitch(pe, s, block, x, false);
}

/* Red select whose result must be green: split the path on the condition. */
static Step run_select(JgPe *pe, State **sp, uint32_t *block, Frame *f, const JgOp *op)
{
    Av c = get(f, op->args[0]);
    if (c.kind == AV_CONST) {
        av_set(f, op->result, get(f, op->args[(c.bits & 1) ? 1 : 2]));
        return STEP_NEXT;
    }
    Av a = get(f, op->args[1]), b = get(f, op->args[2]);
    if (f->bta->color[op->result] == JG_GREEN && a.kind == AV_CONST && b.kind == AV_CONST) {
        (*sp)->forked = true;
        State *other = state_fork(pe, *sp);
        uint32_t yes = new_block(pe), no = new_block(pe);
        JgVal cond = residualize(pe, *sp, *block, c);
        jg_set_branch(pe->rg, *block, cond, jg_link(pe->rg, yes, 0, NULL),
                      jg_link(pe->rg, no, 0, NULL));
        Frame *of = top(other);
        av_set(of, op->result, b);
        of->op++;
        push_work(pe, no, other);
        av_set(f, op->result, a);
        *block = yes;
        return STEP_NEXT;
    }
    return fold_pure(pe, *sp, *block, f, op);
}

static Step run_op(JgPe *pe, State **sp, uint32_t *block, Frame *f, const JgOp *op)
{
    State *s = *sp;
    pe->stats.interp_ops++;
    if (pe->budget_left-- == 0) {
        pe_fail(pe, "a compilation past its budget of interpreter operations");
        return STEP_END;
    }
    if (pe->budget_left % PE_ADMIT_EVERY == 0 && !pe_admits(pe))
        return STEP_END;
    switch (op->opcode) {
    case JG_OP_PTRADD:
        return run_ptradd(pe, s, *block, f, op);
    case JG_OP_ICMP:
        if (fold_virtual_icmp(f, op))
            return STEP_NEXT;
        return fold_pure(pe, s, *block, f, op);
    case JG_OP_SELECT:
        return run_select(pe, sp, block, f, op);
    case JG_OP_LOAD:
        return run_load(pe, s, *block, f, op);
    case JG_OP_STORE:
        return run_store(pe, s, *block, f, op);
    case JG_OP_ALLOCA: {
        if (pe->options.no_virtuals) {
            JgVal r = emit_op(pe, *block, JG_OP_ALLOCA, JG_PTR, 0, NULL);
            jg_last_op(pe->rg, *block)->imm = op->imm;
            av_set(f, op->result, av_var(JG_PTR, r));
            return STEP_NEXT;
        }
        Av p = {.kind = AV_VIRT, .type = JG_PTR, .obj = virt_new(pe, VIRT_STACK, op->imm, NULL)};
        av_set(f, op->result, p);
        return STEP_NEXT;
    }
    case JG_OP_MEMCPY:
    case JG_OP_MEMSET:
        return run_memory_op(pe, s, *block, f, op);
    case JG_OP_CALL:
        return run_call(pe, s, block, f, op);
    case JG_OP_PROMOTE:
        return run_promote(pe, s, *block, f, op);
    case JG_OP_CONCRETE: {
        Av x = get(f, op->args[0]);
        if (x.kind != AV_CONST) {
            pe_fail(pe, "%s:%u: jit_concrete on a value unknown at compile time", f->g->name,
                    op->line);
            return STEP_END;
        }
        av_set(f, op->result, x);
        return STEP_NEXT;
    }
    case JG_OP_DEEPFREEZE:
        av_set(f, op->result, av_get(f, op->args[0]));
        return STEP_NEXT;
    case JG_OP_FORGET: {
        Av x = get(f, op->args[0]);
        av_set(f, op->result, av_var((JgType)op->type, residualize(pe, s, *block, x)));
        return STEP_NEXT;
    }
    case JG_OP_MERGE_POINT:
        return STEP_NEXT;
    default:
        if (jg_op_is_pure((JgOpcode)op->opcode))
            return fold_pure(pe, s, *block, f, op);
        pe_fail(pe, "%s: operation %s not supported by the partial evaluator", f->g->name,
                jg_opcode_name((JgOpcode)op->opcode));
        return STEP_END;
    }
}

/* ---- terminators ---- */

/* Whether a path at merge block f->block joins others there. Always, but
 * at a jit_merge_point_join whose flag is 0 (the interpreter says no path
 * of the interpreted program but the one running straight on arrives)
 * when the path has not forked since its last merge point: the paths that
 * meet there all came straight on from a merge point or a fork before,
 * where they met already. Such a path goes on in its residual block:
 * straight-line code is specialized without a block, a generalization and
 * a state copy per interpreted instruction. */
static bool joins_here(const State *s, const Frame *f)
{
    const JgOp *mp = &f->g->blocks.items[f->block].ops.items[0];
    if (s->forked || !f->bta->merge_point[f->block] || mp->nargs != 1)
        return true;
    Av flag = get(f, mp->args[0]);
    return flag.kind != AV_CONST || flag.bits != 0;
}

/* Follows a link; true when the path goes on in the target. */
static bool follow(JgPe *pe, State **sp, uint32_t *block, const JgLink *link)
{
    bind_link(pe, *sp, link);
    Frame *f = top(*sp);
    if (is_merge_block(f, f->block) && joins_here(*sp, f))
        return !merge_point(pe, sp, block);
    return true;
}

/* A red branch's link to a doomed block (an error the interpreter raises,
 * PeGraphInfo.doomed): the residual block `target` is a flexswitch without
 * cases whose first miss specializes the path, from the state as it is
 * after the link (`s`, the path's own: the flexswitch keeps it). Compile
 * work then grows with the paths a run takes, not with every check the
 * program's operations make (each with the stores it must flush first,
 * for a loop that keeps objects' fields in registers). */
static void cold_path(JgPe *pe, State *s, uint32_t target, const JgLink *link, JgVal cond)
{
    bind_link(pe, s, link);
    JgFlexswitch *fs;
    PeFlexData *data = flexswitch_taking(pe, s, target, cond, &fs);
    if (data) {
        data->cold = true;
        pe->stats.cold_paths++;
    }
}

/* Whether the paths of red branch `t` on `cond` learn the condition
 * (learn_taken): a branch on an i1 variable with a link to an error the
 * interpreter raises (a doomed link). An interpreter that computes a flag
 * once (a recursion check, say) and tests it at every inlined call
 * otherwise makes a cold path per test. */
static bool learns(const JgPe *pe, const JgTerm *t, Av cond, const bool *doomed)
{
    if (t->kind != JG_TERM_BRANCH || cond.kind != AV_VAR || cond.offset != 0 ||
        cond.type != JG_I1 || pe->options.no_branch_facts || pe->options.no_cold_paths)
        return false;
    return doomed[t->links[0].target] || doomed[t->links[1].target];
}

/* On the path of link `i` of such a branch the condition is known: the
 * variable becomes that constant in the state. */
static void learn_taken(JgPe *pe, State *s, uint32_t i, Av cond)
{
    Av known = av_const(JG_I1, i == 0);
    state_rename(pe, s, 1, &cond.var, &known);
}

static bool split_branch(JgPe *pe, State **sp, uint32_t *block, const JgTerm *t, Av cond)
{
    uint32_t n = t->nlinks;
    uint32_t targets[n + 1];
    JgLink links[n + 1];
    for (uint32_t i = 0; i < n; i++) {
        targets[i] = new_block(pe);
        links[i] = jg_link(pe->rg, targets[i], 0, NULL);
    }
    JgVal c = residualize(pe, *sp, *block, cond);
    (*sp)->forked = true;
    if (t->kind == JG_TERM_BRANCH)
        jg_set_branch(pe->rg, *block, c, links[0], links[1]);
    else
        jg_set_switch(pe->rg, *block, c, n - 1, t->cases, links);
    const bool *doomed = top(*sp)->info->doomed;
    bool lazy = !pe->options.no_cold_paths;
    bool learn = learns(pe, t, cond, doomed);
    for (uint32_t i = n; i-- > 1;) {
        State *copy = state_fork(pe, *sp);
        uint32_t b = targets[i];
        if (learn)
            learn_taken(pe, copy, i, cond);
        if (lazy && doomed[t->links[i].target])
            cold_path(pe, copy, b, &t->links[i], c);
        else if (follow(pe, &copy, &b, &t->links[i]))
            push_work(pe, b, copy);
    }
    *block = targets[0];
    if (learn)
        learn_taken(pe, *sp, 0, cond);
    if (lazy && doomed[t->links[0].target]) {
        cold_path(pe, *sp, targets[0], &t->links[0], c);
        return false;
    }
    return follow(pe, sp, block, &t->links[0]);
}

static bool run_return(JgPe *pe, State **sp, uint32_t *block, const JgTerm *t)
{
    State *s = *sp;
    Frame *f = top(s);
    Av value = t->value ? av_get(f, t->value) : av_const(JG_VOID, 0);
    if (s->depth == 1) {
        pending_flush_all(pe, s, *block);
        JgVal v = t->value ? value_results_return(pe, s, *block, norm(value)) : 0;
        jg_set_return(pe->rg, *block, v);
        return false;
    }
    s->depth--;
    Frame *caller = top(s);
    const JgOp *call = &caller->g->blocks.items[caller->block].ops.items[caller->op];
    if (call->result)
        av_set(caller, call->result, value);
    caller->op++;
    return true;
}

static bool run_term(JgPe *pe, State **sp, uint32_t *block)
{
    Frame *f = top(*sp);
    const JgTerm *t = &f->g->blocks.items[f->block].term;
    switch (t->kind) {
    case JG_TERM_GOTO:
        return follow(pe, sp, block, &t->links[0]);
    case JG_TERM_BRANCH: {
        Av c = get(f, t->value);
        if (c.kind == AV_CONST)
            return follow(pe, sp, block, &t->links[(c.bits & 1) ? 0 : 1]);
        return split_branch(pe, sp, block, t, c);
    }
    case JG_TERM_SWITCH: {
        Av c = get(f, t->value);
        if (c.kind == AV_CONST) {
            uint32_t pick = 0;
            JgType type = jg_value_type(f->g, t->value);
            for (uint32_t i = 0; i + 1 < t->nlinks; i++)
                if (jg_truncate_bits(type, (uint64_t)t->cases[i]) == c.bits)
                    pick = i + 1;
            return follow(pe, sp, block, &t->links[pick]);
        }
        return split_branch(pe, sp, block, t, c);
    }
    case JG_TERM_RETURN:
        return run_return(pe, sp, block, t);
    case JG_TERM_UNREACHABLE:
        jg_set_unreachable(pe->rg, *block);
        return false;
    default:
        pe_fail(pe, "%s: block %u has no terminator", f->g->name, f->block);
        return false;
    }
}

/* Specializes one path until it ends. */
static void run_path(JgPe *pe, uint32_t block, State *s)
{
    while (!pe->failed) {
        Frame *f = top(s);
        const JgBlock *blk = &f->g->blocks.items[f->block];
        if (f->op >= blk->ops.count) {
            if (!run_term(pe, &s, &block))
                return;
            continue;
        }
        Step step = run_op(pe, &s, &block, f, &blk->ops.items[f->op]);
        if (step == STEP_END)
            return;
        if (step == STEP_NEXT)
            top(s)->op++;
    }
}

void pe_run_work(JgPe *pe)
{
    while (pe->work.count && !pe->failed) {
        Work w = pe->work.items[--pe->work.count];
        run_path(pe, w.block, w.state);
    }
    pe->work.count = 0;
}
