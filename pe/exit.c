/* Exits from residual code to the graph evaluator: what the partial
 * evaluator emits where it cannot go on (a compilation over its budget, a
 * limit, an internal failure) instead of failing the run. The exit
 * materializes every virtual object the state refers to, emits the pending
 * stores, and calls jg_pe_exit_run with the state's residual values; that
 * rebuilds the interpreter's frames as the state describes them and runs
 * them in the graph evaluator from where specialization stopped, innermost
 * first, each result passed to its caller's call. The portal frame's result
 * is the residual graph's. Like PyPy's blackhole interpreter: slow, but the
 * program's behaviour is the interpreter's. */
#include <string.h>

#include "frontend/eval.h"
#include "pe_internal.h"

/* One value of an interpreter frame: a constant, or the index of a residual
 * value passed to the exit. */
typedef struct ExitSlot {
    JgVal value; /* the interpreter graph's value */
    uint8_t is_const;
    uint8_t type;
    uint32_t index;
    uint64_t bits;
} ExitSlot;

typedef struct ExitFrame {
    const JgGraph *g;
    uint32_t block, op; /* where to go on; a caller: its call */
    uint32_t nslots;
    ExitSlot *slots;
} ExitFrame;

struct PeExit {
    JgPe *pe;
    uint32_t depth;
    ExitFrame *frames; /* frames[depth - 1] runs first */
    uint32_t nvalues;
    uint8_t *types; /* of each residual value passed */
};

/* Reads a value of type `t` written by a residual store of that type. */
static uint64_t read_slot(const uint64_t *values, uint32_t i, JgType t)
{
    uint64_t bits = 0;
    size_t size = jg_type_size(t);
    memcpy(&bits, &values[i], size < sizeof bits ? size : sizeof bits);
    return jg_eval_normalize(t, bits);
}

/* Called by residual code at an exit. */
uint64_t jg_pe_exit_run(const PeExit *x, const uint64_t *values)
{
    JgPe *pe = x->pe;
    pe->stats.exits_taken++;
    JgEvaluator local = {.module = pe->module};
    JgEvaluator *ev = pe->exit_evaluator ? pe->exit_evaluator : &local;
    uint64_t result = 0;
    for (uint32_t d = x->depth; d-- > 0;) {
        const ExitFrame *f = &x->frames[d];
        uint32_t n = f->g->values.count;
        uint64_t frame[n ? n : 1];
        jg_eval_frame_init(f->g, frame);
        for (uint32_t i = 0; i < f->nslots; i++) {
            const ExitSlot *s = &f->slots[i];
            frame[s->value] = s->is_const ? jg_eval_normalize((JgType)s->type, s->bits)
                                          : read_slot(values, s->index, (JgType)x->types[s->index]);
        }
        uint32_t op = f->op;
        if (d + 1 < x->depth) { /* a caller: its call returns the callee's result */
            const JgOp *call = &f->g->blocks.items[f->block].ops.items[op];
            if (call->result)
                frame[call->result] = jg_eval_normalize((JgType)call->type, result);
            op++;
        }
        result = jg_eval_from(ev, f->g, f->block, op, frame);
    }
    return result;
}

/* The residual value of slot `a` for an exit (materializing), or 0 for a
 * constant or a value not computed yet. */
static JgVal exit_value(JgPe *pe, State *s, uint32_t block, Av a)
{
    if (a.kind == AV_VAR || a.kind == AV_VIRT)
        return residualize(pe, s, block, a);
    return 0;
}

bool pe_can_exit(const JgPe *pe)
{
    JgType ret = (JgType)pe->rg->ret_type;
    return ret != JG_F32 && ret != JG_F64;
}

void pe_emit_exit(JgPe *pe, State *s, uint32_t block, const char *reason)
{
    JgGraph *rg = pe->rg;
    pe->stats.exits++;
    if (pe->options.on_exit)
        pe->options.on_exit(pe->options.on_exit_ctx, rg->name, reason);
    pending_flush_all(pe, s, block);
    PeExit *x = jg_arena_alloc(rg->arena, sizeof *x);
    x->pe = pe;
    x->depth = s->depth;
    x->frames = jg_arena_alloc(rg->arena, sizeof(ExitFrame) * (s->depth + 1));
    uint32_t total = 0;
    for (uint32_t d = 0; d < s->depth; d++)
        total += s->frames[d].nlocals;
    JgVal *passed = jg_arena_alloc(rg->arena, sizeof(JgVal) * (total + 1));
    x->types = jg_arena_alloc(rg->arena, total + 1);
    for (uint32_t d = 0; d < s->depth; d++) {
        Frame *f = &s->frames[d];
        ExitFrame *xf = &x->frames[d];
        xf->g = f->g;
        xf->block = f->block;
        xf->op = f->op;
        xf->slots = jg_arena_alloc(rg->arena, sizeof(ExitSlot) * (f->nlocals + 1));
        const JgVal *locals = f->info->locals[f->block];
        for (uint32_t l = 0; l < f->nlocals; l++) {
            Av a = f->locals[l];
            if (a.kind == AV_NONE)
                continue;
            ExitSlot *slot = &xf->slots[xf->nslots++];
            slot->value = locals[l];
            slot->type = (uint8_t)jg_value_type(f->g, locals[l]);
            JgVal v = exit_value(pe, s, block, a);
            if (!v) {
                slot->is_const = 1;
                slot->bits = a.bits;
                continue;
            }
            slot->index = x->nvalues;
            x->types[x->nvalues] = (uint8_t)jg_value_type(rg, v);
            passed[x->nvalues++] = v;
        }
    }
    /* the values go through an array on the residual code's frame */
    JgVal array = emit_op(pe, block, JG_OP_ALLOCA, JG_PTR, 0, NULL);
    jg_last_op(rg, block)->imm = (int64_t)(sizeof(uint64_t) * (x->nvalues + 1));
    for (uint32_t i = 0; i < x->nvalues; i++) {
        JgVal args[2] = {emit_pointer_plus(pe, block, array, (int64_t)(sizeof(uint64_t) * i)),
                         passed[i]};
        emit_op(pe, block, JG_OP_STORE, JG_VOID, 2, args);
    }
    JgType ret = (JgType)rg->ret_type;
    JgVal args[3] = {jg_const_symbol(rg, (void *)jg_pe_exit_run, "jg_pe_exit_run"),
                     emit_const(pe, JG_PTR, (uint64_t)(uintptr_t)x), array};
    JgVal r = emit_op(pe, block, JG_OP_CALL, ret, 3, args);
    cache_forget_all(s);
    value_results_return(pe, s, block, av_var(ret, r)); /* a pointer: the shape cleared */
    jg_set_return(rg, block, ret == JG_VOID ? 0 : r);
}
