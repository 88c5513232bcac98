/* One method: residual blocks [lo, hi) of a graph become the basic blocks
 * of one LLVM function. Block parameters are phis; values of a residual
 * graph may be used wherever their definition dominates, so blocks are
 * lowered in reverse post-order (definitions first) and phi inputs are
 * added as links are lowered. Links to earlier methods leave through the
 * dispatchers (dispatch.c). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "internal.h"

bool lg_fail(LgMethod *m, const char *fmt, ...)
{
    if (!m->failed) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(m->err, m->errsize, "graph %s, method %u: %s",
                 m->g->name ? m->g->name : "<anonymous>", m->method, msg);
    }
    m->failed = true;
    return false;
}

bool lg_need_slots(LgMethod *m, uint32_t n)
{
    if (n <= m->lg->capacity)
        return true;
    return lg_fail(m,
                   "%u values cross methods at once, but InputArgs has %u slots (sized when "
                   "the primary was compiled)",
                   n, m->lg->capacity);
}

/* ---- block order ---- */

typedef struct DfsFrame {
    uint32_t block, next;
} DfsFrame;

/* Depth-first from `root`, appending blocks to `post` when finished. */
static void dfs(LgMethod *m, uint32_t root, bool *seen, DfsFrame *stack, uint32_t *post,
                uint32_t *npost)
{
    uint32_t depth = 0;
    seen[root - m->lo] = true;
    stack[depth++] = (DfsFrame){root, 0};
    while (depth) {
        DfsFrame *f = &stack[depth - 1];
        const JgTerm *t = &m->g->blocks.items[f->block].term;
        uint32_t nlinks = lg_has_successors(t) ? t->nlinks : 0;
        if (f->next < nlinks) {
            uint32_t s = lg_final_target(m, t->links[f->next++].target);
            if (lg_internal(m, s) && !seen[s - m->lo]) {
                seen[s - m->lo] = true;
                stack[depth++] = (DfsFrame){s, 0};
            }
            continue;
        }
        post[(*npost)++] = f->block;
        depth--;
    }
}

/* Reverse post-order from the method's first block and every block its
 * dispatcher can enter (following forwarding chains): every block comes
 * after its dominators. */
static bool compute_order(LgMethod *m)
{
    uint32_t n = m->hi - m->lo, npost = 0;
    bool *seen = calloc(n, sizeof *seen);
    DfsFrame *stack = malloc(sizeof *stack * n);
    uint32_t *post = malloc(sizeof *post * n);
    m->order = malloc(sizeof *m->order * n);
    m->rank = malloc(sizeof *m->rank * n);
    if (!seen || !stack || !post || !m->order || !m->rank) {
        free(seen);
        free(stack);
        free(post);
        return lg_fail(m, "out of memory");
    }
    for (uint32_t b = m->lo; b < m->hi; b++) {
        uint32_t root = lg_final_target(m, b);
        bool entered = m->entries_only ? lg_has_landing(m, b) : b == m->lo || lg_has_landing(m, b);
        if (entered && !seen[root - m->lo])
            dfs(m, root, seen, stack, post, &npost);
    }
    for (uint32_t i = 0; i < npost; i++) {
        m->order[i] = post[npost - 1 - i];
        m->rank[m->order[i] - m->lo] = i;
    }
    m->norder = npost;
    free(seen);
    free(stack);
    free(post);
    return true;
}

/* Residual graphs are full of goto chains: the partial evaluator ends a
 * block at every interpreter block boundary it crosses, and each residual
 * block passes every live value as a parameter. A block whose only
 * predecessor is a goto (and that no dispatcher enters) is lowered at the
 * end of that predecessor, its parameters bound to the goto's arguments:
 * LLVM then sees a few big blocks instead of chains of phis, which cuts
 * its optimization and code generation time several-fold. */
static bool find_fused(LgMethod *m)
{
    uint32_t n = m->hi - m->lo;
    uint32_t *preds = calloc(n, sizeof *preds);
    m->fused = calloc(n, sizeof *m->fused);
    if (!preds || !m->fused) {
        free(preds);
        return lg_fail(m, "out of memory");
    }
    for (uint32_t i = 0; i < m->norder; i++) {
        const JgTerm *t = &m->g->blocks.items[m->order[i]].term;
        for (uint32_t l = 0; lg_has_successors(t) && l < t->nlinks; l++) {
            uint32_t s = lg_final_target(m, t->links[l].target);
            if (lg_internal(m, s))
                preds[s - m->lo]++;
        }
    }
    /* a dispatcher's landing in a forwarding block enters its chain's end */
    for (uint32_t b = m->lo; b < m->hi; b++)
        if (lg_has_landing(m, b) && lg_final_target(m, b) != b)
            preds[lg_final_target(m, b) - m->lo] += 2;
    for (uint32_t i = 0; i < m->norder; i++) {
        const JgTerm *t = &m->g->blocks.items[m->order[i]].term;
        if (t->kind != JG_TERM_GOTO || t->nlinks != 1)
            continue;
        uint32_t s = lg_final_target(m, t->links[0].target);
        if (lg_internal(m, s) && s != m->lo && !m->lg->blocks[s].enterable && preds[s - m->lo] == 1)
            m->fused[s - m->lo] = true;
    }
    free(preds);
    return true;
}

/* Basic blocks and parameter phis of every reachable block. */
static void create_blocks(LgMethod *m)
{
    for (uint32_t i = 0; i < m->norder; i++) {
        uint32_t b = m->order[i];
        if (m->fused[b - m->lo])
            continue;
        char name[24];
        snprintf(name, sizeof name, "b%u", b);
        LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(m->llvm->ctx, m->fn, name);
        m->bbs[b - m->lo] = bb;
        LLVMPositionBuilderAtEnd(m->b, bb);
        const JgBlock *blk = &m->g->blocks.items[b];
        for (uint32_t p = 0; p < blk->nparams; p++) {
            JgVal v = blk->params[p];
            m->vals[v] = LLVMBuildPhi(m->b, lg_type(m->llvm, jg_value_type(m->g, v)), "");
        }
    }
}

/* ---- links ---- */

/* Whether an internal link closes a loop (goes back in reverse
 * post-order). */
static bool retreating(const LgMethod *m, uint32_t target)
{
    return lg_internal(m, target) && m->rank[target - m->lo] <= m->rank[m->current - m->lo];
}

/* Every latch carries !llvm.loop !{self, hints...}:
 *   - !{"llvm.loop.align", i32 64}: a loop header on a 64-byte line. On
 *     this project's x86-64 machines (AMD Zen 4) a small loop that crosses
 *     a line boundary runs at half speed: fibonacci's unrolled loop takes
 *     27 ms for 10^8 iterations across a boundary, 14 ms within a line
 *     (bench/ANALYSIS.md). LLVM's default is 16 bytes.
 *   - below O3, !{"llvm.loop.vectorize.enable", i1 false}: the loop
 *     vectorizer takes longer to compile the loops of residual code than it
 *     saves when they run, and the pass builder's option to turn it off has
 *     no effect in LLVM 19. */
static void mark_latch(LgMethod *m, LLVMValueRef term)
{
    JgLlvm *llvm = m->llvm;
    m->loops = true;
    if (!m->loop_id) {
        static const char align[] = "llvm.loop.align", vectorize[] = "llvm.loop.vectorize.enable";
        LLVMMetadataRef align_hint[2] = {
            LLVMMDStringInContext2(llvm->ctx, align, sizeof align - 1),
            LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(llvm->ctx), 64, 0))};
        LLVMMetadataRef vectorize_hint[2] = {
            LLVMMDStringInContext2(llvm->ctx, vectorize, sizeof vectorize - 1),
            LLVMValueAsMetadata(LLVMConstInt(llvm->t_i1, 0, 0))};
        LLVMMetadataRef self = LLVMTemporaryMDNode(llvm->ctx, NULL, 0);
        LLVMMetadataRef ops[3] = {self, LLVMMDNodeInContext2(llvm->ctx, align_hint, 2),
                                  LLVMMDNodeInContext2(llvm->ctx, vectorize_hint, 2)};
        m->loop_id = LLVMMDNodeInContext2(llvm->ctx, ops, llvm->options.opt_level >= 3 ? 2 : 3);
        LLVMMetadataReplaceAllUsesWith(self, m->loop_id);
    }
    unsigned kind = LLVMGetMDKindIDInContext(llvm->ctx, "llvm.loop", 9);
    LLVMSetMetadata(term, kind, LLVMMetadataAsValue(llvm->ctx, m->loop_id));
}

/* Marks a terminator that closes a loop through one of its live links
 * going straight to its target. */
static void mark_if_latch(LgMethod *m, LLVMValueRef term, const JgTerm *t, const bool *live,
                          LLVMBasicBlockRef const *dests)
{
    for (uint32_t i = 0; i < t->nlinks; i++) {
        uint32_t target = lg_final_target(m, t->links[i].target);
        if (live[i] && retreating(m, target) && dests[i] == m->bbs[target - m->lo]) {
            mark_latch(m, term);
            return;
        }
    }
}

/* A link passes one value of the right type per parameter. */
static bool check_link(LgMethod *m, const JgLink *l)
{
    const JgBlock *t = &m->g->blocks.items[l->target];
    if (l->nargs != t->nparams)
        return lg_fail(m, "link to block %u passes %u values for %u parameters", l->target,
                       l->nargs, t->nparams);
    for (uint32_t i = 0; i < l->nargs; i++) {
        if (!lg_value(m, l->args[i]))
            return false;
        if (jg_value_type(m->g, l->args[i]) != jg_value_type(m->g, t->params[i]))
            return lg_fail(m, "link to block %u: argument %u is a %s, the parameter a %s",
                           l->target, i, jg_type_name(jg_value_type(m->g, l->args[i])),
                           jg_type_name(jg_value_type(m->g, t->params[i])));
    }
    return true;
}

/* Adds the link's arguments to the phis of its (internal) target. */
static bool add_incoming(LgMethod *m, const JgLink *l, LLVMBasicBlockRef from)
{
    if (!check_link(m, l))
        return false;
    const JgBlock *t = &m->g->blocks.items[l->target];
    for (uint32_t i = 0; i < l->nargs; i++) {
        LLVMValueRef v = lg_value(m, l->args[i]);
        LLVMAddIncoming(m->vals[t->params[i]], &v, &from, 1);
    }
    return true;
}

/* A link to a block of an earlier method, or, from the clone, to the
 * landing where its loop goes on optimized (LgMethod.leave_at): arguments
 * into InputArgs slots, then out through the dispatchers. */
static bool build_external(LgMethod *m, const JgLink *l)
{
    bool leaves =
        m->leave_at && l->target >= m->lo && l->target < m->hi && m->leave_at[l->target - m->lo];
    if ((l->target >= m->lo && !leaves) || !m->lg->blocks[l->target].enterable)
        return lg_fail(m, "link to block %u, which no dispatcher can enter (not JG_BLOCK_ENTRY)",
                       l->target);
    if (!check_link(m, l) || !lg_need_slots(m, l->nargs))
        return false;
    lg_store_slots(m, l->nargs, l->args);
    lg_emit_exit(m, LLVMConstInt(m->llvm->t_i32, m->lg->blocks[l->target].id, 0));
    return true;
}

/* Where a terminator's link goes: the target itself, or a new edge block
 * (when the target is reached by several links of this terminator, a phi
 * needs one predecessor per link; when it is external). */
static LLVMBasicBlockRef link_dest(LgMethod *m, const JgLink *link, bool shared,
                                   LLVMBasicBlockRef from)
{
    if (link->target >= m->hi)
        return lg_fail(m, "link to block %u, which does not exist yet", link->target), NULL;
    JgLink buf;
    const JgLink *l = lg_effective_link(m, link, &buf);
    if (!l)
        return NULL;
    bool inside = lg_internal(m, l->target);
    if (inside && !shared)
        return add_incoming(m, l, from) ? m->bbs[l->target - m->lo] : NULL;
    LLVMBasicBlockRef edge = LLVMAppendBasicBlockInContext(m->llvm->ctx, m->fn, "edge");
    LLVMPositionBuilderAtEnd(m->b, edge);
    if (inside) {
        if (!add_incoming(m, l, edge))
            return NULL;
        LLVMValueRef br = LLVMBuildBr(m->b, m->bbs[l->target - m->lo]);
        if (retreating(m, l->target))
            mark_latch(m, br);
    } else if (!build_external(m, l)) {
        return NULL;
    }
    return edge;
}

/* Whether link i shares its internal target (with parameters) with
 * another live link of the same terminator. */
static bool shares_target(const LgMethod *m, const JgTerm *t, const bool *live, uint32_t i)
{
    uint32_t target = lg_final_target(m, t->links[i].target);
    if (!lg_internal(m, target) || m->g->blocks.items[target].nparams == 0)
        return false;
    for (uint32_t j = 0; j < t->nlinks; j++)
        if (j != i && live[j] && lg_final_target(m, t->links[j].target) == target)
            return true;
    return false;
}

/* Destinations of the live links of a terminator; the builder is left at
 * the end of `from`. */
static bool link_dests(LgMethod *m, const JgTerm *t, const bool *live, LLVMBasicBlockRef from,
                       LLVMBasicBlockRef *dests)
{
    for (uint32_t i = 0; i < t->nlinks; i++) {
        if (!live[i])
            continue;
        dests[i] = link_dest(m, &t->links[i], shares_target(m, t, live, i), from);
        if (!dests[i])
            return false;
    }
    LLVMPositionBuilderAtEnd(m->b, from);
    return true;
}

/* ---- terminators ---- */

static LLVMValueRef switch_operand(LgMethod *m, JgVal v)
{
    LLVMValueRef x = lg_value(m, v);
    JgType t = jg_value_type(m->g, v);
    if (!x)
        return NULL;
    if (t == JG_PTR)
        return LLVMBuildPtrToInt(m->b, x, m->llvm->t_i64, "");
    if (!jg_type_is_int(t))
        return lg_fail(m, "switch on a value of type %s", jg_type_name(t)), NULL;
    return x;
}

typedef struct CaseKey {
    uint64_t value;
    uint32_t link;
} CaseKey;

static int compare_cases(const void *a, const void *b)
{
    const CaseKey *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return x->link < y->link ? -1 : x->link > y->link;
}

/* Cases with a value seen before are dead (the first one wins, as in the
 * evaluator); sorting keeps huge switches cheap. */
static bool mark_live_cases(const JgTerm *t, JgType type, bool *live)
{
    uint32_t n = t->nlinks - 1;
    CaseKey *keys = malloc(sizeof *keys * (n ? n : 1));
    if (!keys)
        return false;
    for (uint32_t i = 0; i < n; i++)
        keys[i] = (CaseKey){jg_truncate_bits(type, (uint64_t)t->cases[i]), i + 1};
    qsort(keys, n, sizeof *keys, compare_cases);
    live[0] = true;
    for (uint32_t i = 0; i < n; i++)
        live[keys[i].link] = i == 0 || keys[i].value != keys[i - 1].value;
    free(keys);
    return true;
}

static bool build_switch(LgMethod *m, const JgTerm *t, LLVMBasicBlockRef from)
{
    LLVMValueRef x = switch_operand(m, t->value);
    if (!x || t->nlinks == 0)
        return x ? lg_fail(m, "switch without a default") : false;
    JgType type = jg_value_type(m->g, t->value);
    bool *live = malloc(sizeof *live * t->nlinks);
    LLVMBasicBlockRef *dests = malloc(sizeof *dests * t->nlinks);
    bool ok = live && dests && mark_live_cases(t, type, live);
    if (ok)
        ok = link_dests(m, t, live, from, dests);
    if (ok) {
        LLVMTypeRef ty = LLVMTypeOf(x);
        LLVMValueRef sw = LLVMBuildSwitch(m->b, x, dests[0], t->nlinks - 1);
        for (uint32_t i = 1; i < t->nlinks; i++) {
            uint64_t v = jg_truncate_bits(type, (uint64_t)t->cases[i - 1]);
            if (live[i])
                LLVMAddCase(sw, LLVMConstInt(ty, v, 0), dests[i]);
        }
        mark_if_latch(m, sw, t, live, dests);
    } else if (!m->failed) {
        lg_fail(m, "out of memory");
    }
    free(live);
    free(dests);
    return ok;
}

static bool build_branch(LgMethod *m, const JgTerm *t, LLVMBasicBlockRef from)
{
    LLVMValueRef c = lg_value(m, t->value);
    if (!c || t->nlinks != 2)
        return c ? lg_fail(m, "branch with %u links", t->nlinks) : false;
    JgType type = jg_value_type(m->g, t->value);
    bool live[2] = {true, true};
    LLVMBasicBlockRef dests[2];
    if (!link_dests(m, t, live, from, dests))
        return false;
    if (type != JG_I1) {
        if (!jg_type_is_int(type))
            return lg_fail(m, "branch on a value of type %s", jg_type_name(type));
        c = LLVMBuildTrunc(m->b, c, m->llvm->t_i1, "");
    }
    mark_if_latch(m, LLVMBuildCondBr(m->b, c, dests[0], dests[1]), t, live, dests);
    return true;
}

static bool build_goto(LgMethod *m, const JgTerm *t, LLVMBasicBlockRef from)
{
    bool live[1] = {true};
    LLVMBasicBlockRef dest[1];
    if (t->nlinks != 1)
        return lg_fail(m, "goto with %u links", t->nlinks);
    if (!link_dests(m, t, live, from, dest))
        return false;
    mark_if_latch(m, LLVMBuildBr(m->b, dest[0]), t, live, dest);
    return true;
}

static bool build_return(LgMethod *m, const JgTerm *t)
{
    JgType rt = (JgType)m->g->ret_type;
    if (rt != JG_VOID && (!t->value || jg_value_type(m->g, t->value) != rt))
        return lg_fail(m, "return of a value that is not a %s", jg_type_name(rt));
    LLVMValueRef v = rt == JG_VOID ? NULL : lg_value(m, t->value);
    if (rt != JG_VOID && !v)
        return false;
    if (m->primary) {
        if (v)
            LLVMBuildRet(m->b, v);
        else
            LLVMBuildRetVoid(m->b);
        return true;
    }
    if (v)
        LLVMBuildStore(m->b, lg_to_slot(m, v, rt), lg_ia_addr(m, LG_IA_RESULT));
    LLVMBuildRet(m->b, LLVMConstInt(m->llvm->t_i32, JG_BLOCKID_RETURN, 0));
    return true;
}

/* The live values go to slots 0..nlive-1 (the case blocks' parameters),
 * the runtime finds or compiles the case and names its block. */
static bool build_flexswitch(LgMethod *m, const JgTerm *t)
{
    JgFlexswitch *fs = t->flex;
    if (!fs)
        return lg_fail(m, "flexswitch without its run-time object");
    if (!lg_need_slots(m, fs->nlive))
        return false;
    LLVMValueRef x = lg_value(m, fs->value);
    if (!x)
        return false;
    lg_store_slots(m, fs->nlive, fs->live);
    if (m->failed)
        return false;
    JgLlvm *llvm = m->llvm;
    LLVMValueRef bits = lg_to_slot(m, x, jg_value_type(m->g, fs->value));
    LLVMTypeRef params[3] = {llvm->t_ptr, llvm->t_ptr, llvm->t_i64};
    LLVMTypeRef fty = LLVMFunctionType(llvm->t_i32, params, 3, 0);
    LLVMValueRef args[3] = {lg_const_ptr(llvm, llvm), lg_const_ptr(llvm, fs), bits};
    LLVMValueRef fn = lg_const_ptr(llvm, (const void *)(uintptr_t)&jg_llvm_flex_dispatch);
    lg_emit_exit(m, LLVMBuildCall2(m->b, fty, fn, args, 3, "case"));
    return true;
}

static bool build_terminator(LgMethod *m, uint32_t block)
{
    const JgTerm *t = &m->g->blocks.items[block].term;
    LLVMBasicBlockRef from = LLVMGetInsertBlock(m->b);
    switch ((JgTermKind)t->kind) {
    case JG_TERM_GOTO:
        return build_goto(m, t, from);
    case JG_TERM_BRANCH:
        return build_branch(m, t, from);
    case JG_TERM_SWITCH:
        return build_switch(m, t, from);
    case JG_TERM_RETURN:
        return build_return(m, t);
    case JG_TERM_UNREACHABLE:
        LLVMBuildUnreachable(m->b);
        return true;
    case JG_TERM_FLEXSWITCH:
        return build_flexswitch(m, t);
    default:
        return lg_fail(m, "block %u has no terminator", block);
    }
}

/* Lowers a block, then every fused block its goto chain leads to. */
static bool build_block(LgMethod *m, uint32_t block)
{
    LLVMPositionBuilderAtEnd(m->b, m->bbs[block - m->lo]);
    for (;;) {
        m->current = block;
        const JgBlock *blk = &m->g->blocks.items[block];
        for (uint32_t i = 0; i < blk->ops.count; i++)
            if (!lg_lower_op(m, &blk->ops.items[i]))
                return false;
        const JgTerm *t = &blk->term;
        uint32_t next = t->nlinks == 1 ? lg_final_target(m, t->links[0].target) : 0;
        if (t->kind != JG_TERM_GOTO || t->nlinks != 1 || !lg_internal(m, next) ||
            !m->fused[next - m->lo])
            return build_terminator(m, block);
        JgLink buf;
        const JgLink *l = lg_effective_link(m, &t->links[0], &buf);
        if (!l || !check_link(m, l))
            return false;
        const JgBlock *dest = &m->g->blocks.items[l->target];
        for (uint32_t p = 0; p < l->nargs; p++)
            m->vals[dest->params[p]] = lg_value(m, l->args[p]);
        block = l->target;
    }
}

/* ---- the method ---- */

static LLVMTypeRef method_type(LgMethod *m)
{
    JgLlvm *llvm = m->llvm;
    if (!m->primary) {
        LLVMTypeRef params[2] = {llvm->t_i32, llvm->t_ptr};
        return LLVMFunctionType(llvm->t_i32, params, 2, 0);
    }
    uint32_t n = m->g->nparams;
    LLVMTypeRef *params = malloc(sizeof *params * (n ? n : 1));
    if (!params)
        return NULL;
    for (uint32_t i = 0; i < n; i++)
        params[i] = lg_type(llvm, (JgType)m->g->param_types[i]);
    LLVMTypeRef fty = LLVMFunctionType(lg_type(llvm, (JgType)m->g->ret_type), params, n, 0);
    free(params);
    return fty;
}

static bool allocate(LgMethod *m)
{
    uint32_t n = m->hi - m->lo, nvals = m->g->values.count;
    m->bbs = calloc(n, sizeof *m->bbs);
    m->vals = calloc(nvals ? nvals : 1, sizeof *m->vals);
    if (!m->primary)
        m->escapes = calloc(nvals ? nvals : 1, sizeof *m->escapes);
    if (!m->bbs || !m->vals || (!m->primary && !m->escapes))
        return lg_fail(m, "out of memory");
    return true;
}

static void release(LgMethod *m)
{
    free(m->bbs);
    free(m->vals);
    free(m->escapes);
    free(m->order);
    free(m->rank);
    free(m->fused);
    free(m->scratch);
    free(m->cold);
    free(m->cold_exit);
    lg_free_forwarding(m);
    if (m->b)
        LLVMDisposeBuilder(m->b);
}

static void add_fn_attribute(LgMethod *m, LLVMValueRef fn, const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(m->llvm->ctx, kind, 0));
}

/* The copy of the method that its cold landings call: only those landings
 * and what they reach, and no optimization (it only runs when a later
 * method jumps into the middle of one of this method's loops). */
static bool build_clone(LgMethod *m)
{
    size_t len;
    char name[160];
    snprintf(name, sizeof name, "%s.entries", LLVMGetModuleIdentifier(m->mod, &len));
    LgMethod c = {.llvm = m->llvm,
                  .lg = m->lg,
                  .g = m->g,
                  .lo = m->lo,
                  .hi = m->hi,
                  .method = m->method,
                  .area_index = m->area_index,
                  .mod = m->mod,
                  .clone = true,
                  .entries_only = m->cold,
                  .leave_at = m->cold_exit,
                  .fn_name = name,
                  .err = m->err,
                  .errsize = m->errsize};
    if (!lg_build_method(&c))
        return m->failed = true, false;
    LLVMSetLinkage(c.fn, LLVMInternalLinkage);
    add_fn_attribute(m, c.fn, "optnone");
    add_fn_attribute(m, c.fn, "noinline");
    add_fn_attribute(m, c.fn, "cold");
    m->cold_fn = c.fn;
    return true;
}

static bool build_body(LgMethod *m)
{
    if (!allocate(m) || !lg_find_forwarding(m) || !compute_order(m) || !find_fused(m) ||
        !lg_find_cold_entries(m) || (m->ncold && !build_clone(m)))
        return false;
    LLVMTypeRef fty = method_type(m);
    if (!fty)
        return lg_fail(m, "out of memory");
    size_t len;
    m->fn = LLVMAddFunction(m->mod, m->fn_name ? m->fn_name : LLVMGetModuleIdentifier(m->mod, &len),
                            fty);
    m->b = LLVMCreateBuilderInContext(m->llvm->ctx);
    m->entry = LLVMAppendBasicBlockInContext(m->llvm->ctx, m->fn, "entry");
    create_blocks(m);
    if (!m->primary && !lg_find_escaping_allocas(m))
        return false;
    if (!lg_build_entry(m))
        return false;
    for (uint32_t i = 0; i < m->norder; i++)
        if (!m->fused[m->order[i] - m->lo] && !build_block(m, m->order[i]))
            return false;
    return true;
}

bool lg_build_method(LgMethod *m)
{
    bool ok = build_body(m);
    release(m);
    return ok;
}
