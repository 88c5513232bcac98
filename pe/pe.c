/* The partial evaluator's entry points: specializing the portal for a green
 * key, and resuming at a flexswitch miss. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pe_internal.h"
#include "unroll.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

JgPe *jg_pe_new(const JgModule *m, JgBta *bta, const JgPeOptions *options)
{
    JgPe *pe = calloc(1, sizeof *pe);
    if (!pe)
        return NULL;
    pe->module = m;
    pe->bta = bta;
    if (options)
        pe->options = *options;
    pe->infos = jg_arena_alloc(&pe->arena, sizeof(PeGraphInfo *) * (m->graphs.count + 1));
    for (uint32_t i = 0; m->portal && i < m->portal->nparams && i < 64; i++)
        if (bta->portal_green_params >> i & 1)
            pe->green_index[pe->ngreen++] = (uint8_t)i;
    value_args_seed(pe);
    return pe;
}

void jg_pe_free(JgPe *pe)
{
    if (!pe)
        return;
    JgResidual *r = pe->residuals;
    while (r) {
        JgResidual *next = r->next;
        JgArena *arena = r->graph->arena;
        jg_arena_free(arena);
        free(arena);
        free(r);
        r = next;
    }
    free(pe->by_key);
    jg_arena_free(&pe->arena);
    free(pe);
}

const JgPeStats *jg_pe_stats(const JgPe *pe)
{
    return &pe->stats;
}

uint64_t jg_pe_memory_bytes(const JgPe *pe)
{
    uint64_t bytes = pe->arena.bytes;
    for (const JgResidual *r = pe->residuals; r; r = r->next)
        bytes += r->graph->arena->bytes;
    return bytes;
}

const JgModule *jg_pe_module(const JgPe *pe)
{
    return pe->module;
}

JgResidual *jg_pe_residuals(const JgPe *pe)
{
    return pe->residuals;
}

const char *jg_pe_error(const JgPe *pe)
{
    return pe->error;
}

/* Every call of compiled code goes through here: residuals are found by a
 * hash of their green arguments and the shapes of their value arguments. */
static uint64_t key_hash(const JgPe *pe, const uint64_t *args, const JgArgShapes *shapes)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ (uint64_t)(uintptr_t)shapes;
    for (uint32_t i = 0; i < pe->ngreen; i++)
        h = (h ^ args[pe->green_index[i]]) * 0x100000001b3u;
    return h ^ (h >> 29);
}

static bool same_key(const JgPe *pe, const JgResidual *r, const uint64_t *args,
                     const JgArgShapes *shapes)
{
    if (r->arg_shapes != shapes)
        return false;
    for (uint32_t i = 0; i < pe->ngreen; i++)
        if (r->green_args[pe->green_index[i]] != args[pe->green_index[i]])
            return false;
    return true;
}

static JgResidual *find_residual(JgPe *pe, const uint64_t *args, const JgArgShapes *shapes)
{
    if (pe->last && same_key(pe, pe->last, args, shapes))
        return pe->last;
    if (!pe->by_key_cap)
        return NULL;
    uint32_t m = pe->by_key_cap - 1;
    for (uint32_t i = (uint32_t)key_hash(pe, args, shapes) & m;; i = (i + 1) & m) {
        JgResidual *r = pe->by_key[i];
        if (!r || same_key(pe, r, args, shapes))
            return r ? (pe->last = r) : NULL;
    }
}

/* Puts `r` in the first free slot of its probe sequence in `table`. */
static void place_residual(const JgPe *pe, JgResidual **table, uint32_t cap, JgResidual *r)
{
    uint32_t j = (uint32_t)key_hash(pe, r->green_args, r->arg_shapes) & (cap - 1);
    while (table[j])
        j = (j + 1) & (cap - 1);
    table[j] = r;
}

static bool index_residual(JgPe *pe, JgResidual *r)
{
    if (2 * (pe->nresiduals + 1) > pe->by_key_cap) {
        uint32_t cap = pe->by_key_cap ? 2 * pe->by_key_cap : 64;
        JgResidual **table = calloc(cap, sizeof *table);
        if (!table)
            return false;
        for (uint32_t i = 0; i < pe->by_key_cap; i++)
            if (pe->by_key[i])
                place_residual(pe, table, cap, pe->by_key[i]);
        free(pe->by_key);
        pe->by_key = table;
        pe->by_key_cap = cap;
    }
    place_residual(pe, pe->by_key, pe->by_key_cap, r);
    pe->nresiduals++;
    return true;
}

/* A new residual graph: its parameters are the portal's red parameters. */
static JgResidual *new_residual(JgPe *pe, const uint64_t *args, const JgArgShapes *shapes)
{
    const JgGraph *portal = pe->module->portal;
    uint64_t greens = pe->bta->portal_green_params;
    JgResidual *r = calloc(1, sizeof *r);
    JgArena *arena = calloc(1, sizeof *arena);
    if (!r || !arena) {
        free(r);
        free(arena);
        return NULL;
    }
    JgType types[portal->nparams + 1];
    uint32_t nred = 0;
    for (uint32_t i = 0; i < portal->nparams; i++)
        if (!(i < 64 && (greens >> i & 1)))
            types[nred++] = (JgType)portal->param_types[i];
    char name[96];
    snprintf(name, sizeof name, "%s.residual%llu", portal->name,
             (unsigned long long)pe->stats.specializations);
    r->graph = jg_graph_new(arena, jg_arena_strndup(arena, name, strlen(name)),
                            (JgType)portal->ret_type, nred, types);
    r->graph->flags = JG_FLAG_RESIDUAL;
    r->graph->blocks.items[0].flags |= JG_BLOCK_ENTRY;
    uint32_t first = 0;
    JG_VEC_PUSH(arena, r->compilation_starts, first);
    r->green_args = jg_arena_alloc(arena, sizeof(uint64_t) * (portal->nparams + 1));
    for (uint32_t i = 0; i < portal->nparams; i++)
        r->green_args[i] = (i < 64 && (greens >> i & 1)) ? args[i] : 0;
    r->arg_shapes = shapes;
    if (!index_residual(pe, r)) {
        jg_arena_free(arena);
        free(arena);
        free(r);
        return NULL;
    }
    r->next = pe->residuals;
    pe->residuals = r;
    pe->stats.specializations++;
    pe->stats.residual_blocks++;
    return r;
}

void jg_pe_set_exit_evaluator(JgPe *pe, JgEvaluator *ev)
{
    pe->exit_evaluator = ev;
}

/* Specializes from `s` into block `first`, the start of a compilation.
 * When that fails (a limit, the budget, an internal error), the blocks the
 * compilation made are dropped and `first` exits to the evaluator from
 * `s` as it was (pe/exit.c): the run goes on, more slowly. Returns false
 * only when not even that is possible. */
bool pe_compile_from(JgPe *pe, uint32_t first, State *s)
{
    State *start = state_copy(pe, s);
    /* ops already in `first` (value arguments' conversions) stay */
    uint32_t kept_ops = pe->rg->blocks.items[first].ops.count;
    pe->failed = false;
    pe->budget_left = pe->options.budget_ops ? pe->options.budget_ops : 1000000;
    /* a flexswitch's new case, say, goes on straight to the next join: a
     * merge right after the promotion would generalize what it learned */
    s->forked = false;
    if (pe_admits(pe)) {
        Work w = {first, s};
        JG_VEC_PUSH(&pe->arena, pe->work, w);
        pe_run_work(pe);
    }
    if (!pe->failed && !pe->options.no_unroll)
        pe->stats.unrolled_loops += jg_unroll_recurrences(pe->rg, first);
    if (!pe->failed && pe->options.verify) {
        /* a malformed graph is a bug: said on stderr (the tests look for
         * it), and the compilation becomes an exit rather than reach a
         * backend */
        char err[256];
        if (!jg_verify_graph(pe->rg, err, sizeof err)) {
            fflush(stdout);
            fprintf(stderr, "jitgen: invalid residual graph %s: %s\n", pe->rg->name, err);
            pe_fail(pe, "invalid residual graph: %s", err);
        }
    }
    if (!pe->failed)
        return true;
    if (!pe_can_exit(pe))
        return false;
    JgGraph *rg = pe->rg;
    char reason[sizeof pe->error];
    memcpy(reason, pe->error, sizeof reason);
    rg->blocks.count = first + 1;
    JgBlock *b = &rg->blocks.items[first];
    b->ops.count = kept_ops;
    b->term = (JgTerm){.kind = JG_TERM_NONE};
    merge_forget_from(pe, first + 1);
    pe->failed = false;
    pe_emit_exit(pe, start, first, reason);
    char err[256];
    if (!pe->failed && pe->options.verify && !jg_verify_graph(rg, err, sizeof err)) {
        fflush(stdout);
        fprintf(stderr, "jitgen: invalid residual graph %s after an exit: %s\n", rg->name, err);
        return false;
    }
    return !pe->failed;
}

static uint32_t resume_case(PeFlexData *data, JgFlexswitch *fs, uint64_t value);

/* A host's call that brings integers in its host array (pe/guess.c):
 * specialized without assumptions first; if that graph never changes some
 * of those integers, it is dropped, and block 0 tests them instead, the
 * case in which they hold specialized now, on them, the other one if a
 * later call needs it. */
static bool compile_guessing(JgPe *pe, State *s, const uint64_t *args)
{
    State *start = state_copy(pe, s);
    const JgArgShapes *shapes = pe->host_array_shapes;
    JgPeStats stats = pe->stats;
    uint32_t kept_ops = pe->rg->blocks.items[0].ops.count;
    bool ok = pe_compile_from(pe, 0, s);
    pe->host_array_shapes = shapes; /* for guess_make: the specialization forgot them */
    const HostGuess *guess = ok ? guess_make(pe, args) : NULL;
    pe->probing = false;
    if (!guess) {
        if (ok) {
            guess_arm(pe, args);
            guess_divisors(pe, 0);
        }
        return ok;
    }
    JgGraph *rg = pe->rg;
    rg->blocks.count = 1;
    rg->blocks.items[0].ops.count = kept_ops;
    rg->blocks.items[0].term = (JgTerm){.kind = JG_TERM_NONE};
    merge_forget_from(pe, 1);
    pe->stats = stats;
    JgVal holds = guess_holds(pe, 0, start->host_array, guess);
    JgFlexswitch *fs;
    PeFlexData *data = pe_flexswitch(pe, start, 0, holds, &fs);
    if (!data) /* too many live values: without assumptions after all */
        return pe_compile_from(pe, 0, start);
    data->guess = guess;
    data->host_shapes = shapes;
    pe->stats.host_guesses += guess->n;
    return resume_case(data, fs, 1) != UINT32_MAX;
}

JgResidual *jg_pe_specialize(JgPe *pe, const uint64_t *args, const JgArgShapes *shapes, char *err,
                             size_t errsize)
{
    JgResidual *r = find_residual(pe, args, shapes);
    if (r)
        return r;
    double t0 = now_ms();
    r = new_residual(pe, args, shapes);
    if (!r) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    pe->current = r;
    pe->rg = r->graph;
    pe->failed = false;
    const JgGraph *portal = pe->module->portal;
    uint64_t greens = pe->bta->portal_green_params;
    State *s = state_new(pe);
    Frame *f = state_push_frame(pe, s, portal, pe->bta->portal, 0);
    f->portal_args = r->green_args;
    const JgBlock *entry = &portal->blocks.items[0];
    uint32_t red = 0;
    for (uint32_t i = 0; i < portal->nparams; i++) {
        JgType t = (JgType)portal->param_types[i];
        if (i < 64 && (greens >> i & 1)) {
            av_set(f, entry->params[i], av_const(t, args[i]));
            continue;
        }
        JgVal param = r->graph->blocks.items[0].params[red++];
        av_set(f, entry->params[i],
               value_args_passed(shapes, i) ? value_args_receive(pe, shapes, i, param)
                                            : av_var(t, param));
        if (pe->options.host_array && i == pe->options.host_array_param)
            value_args_host_array(pe, s, shapes, param);
    }
    bool ok = guess_probe_start(pe) ? compile_guessing(pe, s, args) : pe_compile_from(pe, 0, s);
    pe->host_array_shapes = NULL;
    pe->host_guess = NULL;
    pe->stats.ms += now_ms() - t0;
    if (!ok) {
        snprintf(err, errsize, "%s", pe->error);
        return NULL;
    }
    return r;
}

/* A flexswitch's case for `value`, specialized now: a promote op's
 * result, a portal call's result shape, or a host call's guard. */
static uint32_t resume_case(PeFlexData *data, JgFlexswitch *fs, uint64_t value)
{
    JgPe *pe = data->pe;
    pe->current = data->residual;
    pe->rg = data->residual->graph;
    pe->failed = false;
    JgGraph *rg = pe->rg;
    uint32_t nb = jg_block_new(rg, 0, NULL);
    rg->blocks.items[nb].flags |= JG_BLOCK_ENTRY;
    JG_VEC_PUSH(rg->arena, data->residual->compilation_starts, nb);
    pe->stats.residual_blocks++;
    State *s = state_fork(pe, data->state);
    pe->closed = NULL;
    Av to[fs->nlive + 2];
    JgVal from[fs->nlive + 2];
    uint32_t n = 0;
    for (uint32_t i = 0; i < fs->nlive; i++) {
        JgVal live = fs->live[i];
        JgVal param = jg_block_add_param(rg, nb, jg_value_type(rg, live));
        from[n] = live;
        /* the promoted variable itself is now known */
        if (!data->guess && !data->cold && data->promoted.offset == 0 && live == data->promoted.var)
            to[n++] = av_const(jg_value_type(rg, live), value);
        else
            to[n++] = av_var(jg_value_type(rg, live), param);
    }
    state_rename(pe, s, n, from, to);
    Frame *f = &s->frames[s->depth - 1];
    if (data->guess) {
        /* the portal's entry again, the host array now a parameter of nb */
        for (uint32_t i = 0; i < n; i++)
            if (from[i] == s->host_array)
                s->host_array = to[i].var;
        pe->host_array_shapes = data->host_shapes;
        pe->host_guess = value ? data->guess : NULL;
    } else if (!data->cold) {
        const JgOp *op = &f->g->blocks.items[f->block].ops.items[f->op];
        if (data->call_result)
            av_set(f, op->result, value_results_receive(pe, value, av_get(f, op->result).var, nb));
        else
            av_set(f, op->result, av_const((JgType)op->type, value));
        f->op++;
    }
    bool ok = pe_compile_from(pe, nb, s);
    pe->host_array_shapes = NULL;
    pe->host_guess = NULL;
    if (!ok)
        return UINT32_MAX;
    jg_flexswitch_add_case(fs, value, nb);
    pe->stats.flexswitch_cases++;
    guess_late(pe, nb);
    guess_divisors(pe, nb);
    return nb;
}

uint32_t jg_pe_resume(void *compiler, JgFlexswitch *fs, uint64_t value)
{
    double t0 = now_ms();
    PeFlexData *data = compiler;
    uint32_t nb = resume_case(data, fs, value);
    data->pe->stats.ms += now_ms() - t0;
    return nb;
}
