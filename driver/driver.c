/* The driver: one object per process that owns the module (loaded from a
 * graph image, or read from bitcode), its binding-time analysis, the partial
 * evaluator and the backend, and routes portal calls to the selected
 * engine. */
#include "jitgen/driver.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "baseline/baseline.h"
#include "bta/bta.h"
#include "dot.h"
#include "frontend/eval.h"
#include "frontend/fatal.h"
#include "frontend/image.h"
#include "frontend/module.h"
#include "llvmgen/llvmgen.h"
#include "pe/pe.h"
#include "tier_policy.h"

/* Residual blocks a tiered run evaluates in a secondary before compiling it
 * (JgLlvmOptions.lazy_threshold; docs/backend.md, "Evaluated secondaries"). */
#define JG_LAZY_THRESHOLD 20000

struct JgDriver {
    JgDriverOptions options;
    JgModule *module;
    JgBta *bta;
    JgPe *pe;
    JgEvaluator ev;
    const JgBackend *backend;   /* libjitgen-llvm.so, once opened */
    JgLlvm *llvm;               /* its session: the jit engine's backend */
    JgBackendStart *llvm_start; /* a session being started (jg_driver_prepare) */
    JgBaseline *baseline;       /* the baseline engine's backend, and the jit
                                   engine's first tier */
    int64_t tier_up_ms;         /* the jit engine: baseline time before LLVM, 0: none */
    double tier_t0;             /* the first hand-over to the baseline tier */
    double tier_compile0_ms;    /* compile_ms() then */
    double tier_delay_ms;       /* the delay the cost rule chose (tier_policy.h) */
    double look_ms;             /* the last look of the tier-up, and the method entries */
    uint64_t look_entries;      /* of baseline code then */
    uint64_t tier_declined;     /* looks that kept a loop crossing methods in baseline code */
    bool tier_now;              /* JITGEN_TIER_UP_NOW */
    bool tier_now_loops;        /* JITGEN_TIER_UP_NOW=loops: at back-edges only */
    bool compiling_beside;      /* background_compile runs (and holds grow_lock) */
    JgBackendStart *tier_start; /* LLVM starting and compiling tier_graph beside */
    JgResidual *tier_graph;
    uint32_t tier_block; /* the block of its look: the loop handed over */
    bool tier_ok; /* how that compilation went */
    char tier_err[512];
    pthread_mutex_t grow_lock; /* held by that compilation, and while a graph grows */
    double backend_open_ms;    /* opening the library */
    double frontend_ms;
    uint32_t nred;       /* red parameters of the portal */
    uint32_t *red_index; /* their positions */
    bool verify;         /* check every residual graph (JITGEN_VERIFY=1) */
    uint64_t fallbacks;  /* a backend refused a graph: it runs on in a lower tier */

    uint64_t jit_budget;                  /* bytes (JgDriverOptions.max_jit_memory) */
    uint64_t tier_refused;                /* tier-ups to LLVM the budget refused */
    JG_VEC(const JgGraph *) llvm_refused; /* graphs LLVM could not compile */
    JgArena arena;
};

/* A graph the evaluator runs because no backend could compile it. */
static char evaluated_marker;
#define EVALUATED ((void *)&evaluated_marker)

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The clock of the tier-up's rules: the process's CPU time, so that what
 * decides is the work baseline code did, not how long the machine let it
 * run (a thread waiting for a core, on a loaded machine, would otherwise
 * count as a hot loop). Not the thread's: the runs of one process (`tlc
 * bench`) each have a thread of their own. */
static double run_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static FILE *dump_out(const JgDriver *d)
{
    return d->options.dump_out ? d->options.dump_out : stderr;
}

static _Noreturn void fatal(const char *what, const char *message)
{
    jg_fatal(what, "%s", message);
}

/* A failure inside the JIT that the run survives, told under
 * --dump=fallbacks. */
static void tell_fallback(const JgDriver *d, const char *graph, const char *what,
                          const char *reason)
{
    if (d->options.dumps & JG_DUMP_FALLBACKS) {
        fflush(stdout);
        fprintf(dump_out(d), "jitgen: fallback: %s: %s: %s\n", graph ? graph : "<anonymous>", what,
                reason);
    }
}

/* A backend refused a graph (the partial evaluator counts its own exits). */
static void fallback(JgDriver *d, const char *graph, const char *what, const char *reason)
{
    d->fallbacks++;
    tell_fallback(d, graph, what, reason);
}

/* The partial evaluator ended a compilation in an exit (pe/exit.c). */
static void pe_exit_told(void *ctx, const char *graph, const char *reason)
{
    tell_fallback(ctx, graph, "exit to the evaluator", reason);
}

static bool llvm_refused(const JgDriver *d, const JgGraph *g)
{
    for (uint32_t i = 0; i < d->llvm_refused.count; i++)
        if (d->llvm_refused.items[i] == g)
            return true;
    return false;
}

static uint64_t call_boxed(JgDriver *d, const uint64_t *args);
static uint64_t call_shaped(JgDriver *d, const uint64_t *args, const JgArgShapes *shapes);

/* Under the partial evaluator's engine, residual code calls the portal for
 * keys it did not inline: those calls go back through the driver. */
static bool portal_hook(void *ctx, JgEvaluator *ev, const JgOp *op, const JgGraph *callee,
                        void *native, uint32_t nargs, const uint64_t *args, uint64_t *result)
{
    (void)ev;
    JgDriver *d = ctx;
    const JgGraph *portal = d->module->portal;
    if (callee != portal && (!native || native != portal->native))
        return false;
    if (nargs != portal->nparams)
        return false;
    /* a call of the interpreter's graphs passes and takes objects */
    if (!(op->imm & JG_PORTAL_CALL_READS_SHAPE))
        *result = call_boxed(d, args);
    else
        *result = call_shaped(d, args, jg_portal_call_shapes(op->imm));
    return true;
}

static uint64_t call_from_site(JgDriver *d, const uint64_t *args, JgPortalSite *site);

/* Residual code compiled by LLVM calls the portal for keys it did not
 * inline through this function. A site that keeps a residual graph LLVM
 * compiled is then bound to the graph's primary method: its later calls
 * go there directly (llvmgen/calls.c). LLVM's code is never replaced, so
 * the binding stays. */
static uint64_t llvm_portal_call(void *ctx, const uint64_t *args, JgPortalSite *site)
{
    JgDriver *d = ctx;
    uint64_t result = call_from_site(d, args, site);
    JgResidual *r = site ? site->host : NULL;
    if (r && r->backend == d->llvm && d->llvm && !site->direct)
        site->direct = d->backend->entry(d->llvm, r->graph);
    return result;
}

/* Residual code compiled by the baseline backend calls the portal through
 * this function, as LLVM's does. */
static uint64_t baseline_portal_call(void *ctx, const uint64_t *args, JgPortalSite *site)
{
    JgDriver *d = ctx;
    JgResidual *r = site->host;
    /* a site of one residual graph, which baseline code runs: later calls
     * go there directly, until the graph moves to LLVM (tier_up) */
    if (r && r->backend == d->baseline)
        jg_baseline_bind_site(d->baseline, site, r->graph);
    return call_from_site(d, args, site);
}

static bool start_llvm_now(JgDriver *d, char *err, size_t errsize);
static JgLlvmOptions backend_options(JgDriver *d);

/* The residual graph record of `g`. */
static JgResidual *residual_of(const JgDriver *d, const JgGraph *g)
{
    for (JgResidual *r = jg_pe_residuals(d->pe); r; r = r->next)
        if (r->graph == g)
            return r;
    return NULL;
}

/* While LLVM compiles on another thread: how often baseline code looks
 * whether it is done. */
#define TIER_POLL_MS 1.0

/* The session's JgLlvmOptions.lazy_threshold. Tiered: secondaries are
 * compiled only once they get hot, as the frames the interpreter hands
 * over are. */
static uint32_t lazy_threshold(const JgDriver *d)
{
    return d->options.tiered ? JG_LAZY_THRESHOLD : 0;
}

/* Compiles residual graph `r` with LLVM as the baseline tier grew it (its
 * methods' steps, so that each loop lands in an LLVM method of its own),
 * then what grew since. The method of `block`, the loop handed over, is
 * compiled at once even where the others are left to the lazy evaluator
 * until hot: that one is hot, and would otherwise be compiled on the
 * program's thread. */
static bool compile_like_baseline(JgDriver *d, const JgBackend *backend, JgLlvm *llvm,
                                  JgResidual *r, uint32_t block, char *err, size_t errsize)
{
    uint32_t n = jg_baseline_methods(d->baseline, r->graph), done = 0;
    bool ok = true;
    for (uint32_t m = 0; m < n && ok; m++) {
        uint32_t hi = jg_baseline_method_end(d->baseline, r->graph, m);
        if (hi <= done)
            continue;
        bool hot = block >= done && block < hi;
        backend->set_lazy_threshold(llvm, hot ? 0 : lazy_threshold(d));
        ok = backend->compile_to(llvm, r->graph, hi, err, errsize);
        done = hi;
    }
    backend->set_lazy_threshold(llvm, lazy_threshold(d));
    return ok && backend->compile(llvm, r->graph, err, errsize);
}

/* The background job of a tier-up: LLVM compiles the graph while baseline
 * code goes on running it; a flexswitch miss (which grows the graph) waits
 * for the compilation to end (growing). */
static void background_compile(void *ctx, const JgBackend *backend, JgLlvm *llvm)
{
    JgDriver *d = ctx;
    pthread_mutex_lock(&d->grow_lock);
    d->compiling_beside = true;
    d->tier_ok =
        compile_like_baseline(d, backend, llvm, d->tier_graph, d->tier_block, d->tier_err,
                              sizeof d->tier_err);
    d->compiling_beside = false;
    pthread_mutex_unlock(&d->grow_lock);
}

/* LLVM optimizes and emits a module without reading the graphs
 * (JgLlvmOptions.graphs_idle): the background compilation lets a
 * flexswitch miss of baseline code grow the graph meanwhile, so that the
 * miss waits for one module's IR at most, not for the whole compilation.
 * Compilations on the program's thread hold no lock. */
static void graphs_idle(void *ctx, bool idle)
{
    JgDriver *d = ctx;
    if (!d->compiling_beside)
        return;
    if (idle)
        pthread_mutex_unlock(&d->grow_lock);
    else
        pthread_mutex_lock(&d->grow_lock);
}

static void growing(void *ctx, bool begin)
{
    JgDriver *d = ctx;
    if (begin)
        pthread_mutex_lock(&d->grow_lock);
    else
        pthread_mutex_unlock(&d->grow_lock);
}

/* Time spent partially evaluating and compiling baseline code so far. */
static double compile_ms(const JgDriver *d)
{
    return jg_pe_stats(d->pe)->ms + jg_baseline_stats(d->baseline)->compile_ms;
}

/* The memory the JIT holds (JgDriverOptions.max_jit_memory): residual
 * graphs and the partial evaluator's states, and machine code. LLVM's own
 * code size is read only once its session has joined this thread. */
static uint64_t jit_memory(const JgDriver *d)
{
    uint64_t bytes = d->pe ? jg_pe_memory_bytes(d->pe) : 0;
    if (d->baseline)
        bytes += jg_baseline_stats(d->baseline)->code_bytes;
    if (d->llvm)
        bytes += d->backend->stats(d->llvm)->code_bytes;
    return bytes;
}

/* The partial evaluator asks before (and during) each compilation. */
static bool admit_compilation(void *ctx)
{
    const JgDriver *d = ctx;
    return jit_memory(d) < d->jit_budget;
}

/* Operations of a residual graph (the cost of compiling it). */
static uint64_t graph_ops(const JgGraph *g)
{
    uint64_t n = 0;
    for (uint32_t b = 0; b < g->blocks.count; b++)
        n += g->blocks.items[b].ops.count;
    return n;
}

/* The jit engine's tier-up (baseline.h, JgTierUpFn), asked at the
 * baseline tier's looks. Once baseline code has run `tier_up_ms` (run_ms)
 * since the first hand-over, LLVM starts on another thread and compiles the graph
 * there; when it is done (looked at every TIER_POLL_MS), the activation
 * goes on in LLVM's code from the loop header where the baseline code
 * stopped (from the entry, for a call), and so do later calls of the
 * graph. A graph still in baseline code once LLVM runs is compiled at its
 * next look. JITGEN_TIER_UP_NOW=1 (tests): at the first look, waiting
 * for LLVM; JITGEN_TIER_UP_NOW=loops: at the first back-edge, a running
 * loop going on in LLVM's code (calls stay in baseline code). */
static bool tier_up(void *ctx, const JgGraph *g, uint32_t block, const uint64_t *slots,
                    uint64_t *result, double *next_look_ms)
{
    JgDriver *d = ctx;
    char err[512];
    double now = run_ms();
    *next_look_ms = d->tier_now ? -1 : (double)d->tier_up_ms;
    JgResidual *r = residual_of(d, g);
    if (!r || (d->tier_now_loops && block == 0))
        return false;
    /* a loop that crosses methods would cross LLVM's methods too, each time
     * through InputArgs and the dispatchers, which costs more than the
     * baseline tier's method entries (tier_policy.h): one that takes a
     * flexswitch's case (known from its code; any loop of the graph, not
     * only the one looking: LLVM takes the graph whole, and the loop that
     * runs next may be another), or that left its methods often since the
     * last look */
    JgBaselineLoop loop = jg_baseline_loop(d->baseline, g, block);
    uint64_t entries = jg_baseline_stats(d->baseline)->method_entries;
    bool first = d->look_ms == 0;
    bool crossing =
        !d->tier_now &&
        (jg_baseline_loops_take_cases(d->baseline, g) ||
         (!first &&
          !jg_tier_up_keeps_to_methods(entries - d->look_entries, now - d->look_ms)));
    d->look_entries = entries;
    d->look_ms = now;
    if (r->backend != d->llvm && crossing) {
        d->tier_declined++;
        return false;
    }
    if (r->backend != d->llvm && !d->tier_now && first) {
        *next_look_ms = TIER_POLL_MS; /* nothing measured yet */
        return false;
    }
    if (r->backend != d->llvm && !d->tier_start && !admit_compilation(d)) {
        d->tier_refused++; /* the budget is spent: baseline code goes on */
        *next_look_ms = 0;
        return false;
    }
    if (!d->llvm && !d->tier_start) {
        /* baseline code's time: what partial evaluation and the baseline
         * backend spent since (flexswitch cases) is no run of it */
        double waited = now - d->tier_t0 - (compile_ms(d) - d->tier_compile0_ms);
        if (!d->tier_now) { /* a small loop waits longer (tier_policy.h) */
            double delay = jg_tier_up_compile_wait(
                jg_tier_up_delay((double)d->tier_up_ms, loop.bytes),
                graph_ops(g), false);
            if (waited < delay) {
                *next_look_ms = delay - waited;
                return false;
            }
            d->tier_delay_ms = delay;
        }
        JgLlvmOptions lo = backend_options(d);
        d->tier_graph = r;
        d->tier_block = block;
        d->tier_start =
            jg_backend_start_job(d->options.backend_path, &lo, false, background_compile, d);
        if (!d->tier_start)
            fatal("LLVM could not start", "out of memory");
    }
    if (d->tier_start) {
        if (!d->tier_now && !jg_backend_ready(d->tier_start)) {
            *next_look_ms = TIER_POLL_MS;
            return false;
        }
        d->llvm = jg_backend_join(d->tier_start, &d->backend, &d->backend_open_ms, err, sizeof err);
        d->tier_start = NULL;
        if (!d->llvm)
            fatal("LLVM could not start", err);
        if (!d->tier_ok) {
            JG_VEC_PUSH(&d->arena, d->llvm_refused, d->tier_graph->graph);
            fallback(d, d->tier_graph->graph->name,
                     "LLVM compilation failed, baseline code goes on", d->tier_err);
        } else {
            d->tier_graph->backend = d->llvm;
            jg_baseline_unbind(d->baseline, d->tier_graph->graph);
        }
    }
    if (llvm_refused(d, g)) {
        *next_look_ms = 0; /* never again */
        return false;
    }
    if (r->backend != d->llvm) {
        if (!compile_like_baseline(d, d->backend, d->llvm, r, block, err, sizeof err)) {
            JG_VEC_PUSH(&d->arena, d->llvm_refused, g);
            fallback(d, g->name, "LLVM compilation failed, baseline code goes on", err);
            *next_look_ms = 0;
            return false;
        }
        r->backend = d->llvm;
        jg_baseline_unbind(d->baseline, g);
    } else if (!d->backend->compile(d->llvm, r->graph, err, sizeof err)) {
        fatal("LLVM compilation failed", err); /* what grew meanwhile */
    }
    if (block == 0) {
        *result = d->backend->call(d->llvm, g, slots);
        return true;
    }
    if (!d->backend->can_start_at(d->llvm, g, block))
        return false; /* later calls run LLVM's code; this one goes on */
    *result = d->backend->call_at(d->llvm, g, block, slots);
    return true;
}

/* The backend's options, from the driver's. */
static JgLlvmOptions backend_options(JgDriver *d)
{
    const JgDriverOptions *options = &d->options;
    return (JgLlvmOptions){
        .opt_level = options->llvm_opt_set ? options->llvm_opt : 2,
        .adaptive = !options->llvm_opt_set,
        .dumps = options->dumps,
        .dump_out = options->dump_out,
        .target_triple = options->target,
        .portal_call = llvm_portal_call,
        .portal_ctx = d,
        .portal_red_index = d->red_index,
        .portal_nred = d->nred,
        .allocators = options->allocators,
        .nallocators = options->nallocators,
        .lazy_threshold = lazy_threshold(d),
        /* baseline code's running loops go on in LLVM's code (tier_up) */
        .startable = d->baseline && d->tier_up_ms > 0,
        .graphs_idle = graphs_idle,
        .graphs_idle_ctx = d,
    };
}

/* Opens the backend library on this thread (when the driver has not yet). */
static bool open_backend(JgDriver *d, char *err, size_t errsize)
{
    if (!d->backend)
        d->backend = jg_backend_open(d->options.backend_path, &d->backend_open_ms, err, errsize);
    return d->backend != NULL;
}

/* The jit engine's session, on this thread, or from the start that
 * jg_driver_prepare began. */
static bool start_llvm_now(JgDriver *d, char *err, size_t errsize)
{
    if (d->llvm_start) {
        d->llvm = jg_backend_join(d->llvm_start, &d->backend, &d->backend_open_ms, err, errsize);
        d->llvm_start = NULL;
        return d->llvm != NULL;
    }
    JgLlvmOptions lo = backend_options(d);
    return open_backend(d, err, errsize) &&
           (d->llvm = d->backend->create(&lo, false, err, errsize)) != NULL;
}

void jg_driver_prepare(JgDriver *d)
{
    if (d->options.engine != JG_ENGINE_JIT || d->llvm || d->llvm_start)
        return;
    JgLlvmOptions lo = backend_options(d);
    /* no warm-up: the caller is about to compile, and a warm-up still
     * running then would only delay it */
    d->llvm_start = jg_backend_start(d->options.backend_path, &lo, false);
}

JgDriver *jg_driver_new(const void *graphs, size_t len, const JgDriverOptions *options, char *err,
                        size_t errsize)
{
    JgDriver *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    d->options = *options;
    d->jit_budget = options->max_jit_memory ? options->max_jit_memory : JG_JIT_MEMORY_DEFAULT;
    pthread_mutex_init(&d->grow_lock, NULL);
    /* every residual graph checked as the partial evaluator makes it: in
     * debug builds (the sanitizer build's tests), or with JITGEN_VERIFY=1 */
    const char *verify = getenv("JITGEN_VERIFY");
#ifdef NDEBUG
    d->verify = verify && *verify && *verify != '0';
#else
    d->verify = !verify || *verify != '0';
#endif
    /* the backend library is opened and LLVM starts (and warms up) on
     * another thread while the frontend loads the interpreter's graphs: on
     * two cores, part of its start-up is hidden. A tiered host's program
     * may never need LLVM: it starts at the first call (jg_driver_call) */
    bool image = jg_is_graph_image(graphs, len);
    if (!image && !open_backend(d, err, errsize)) {
        free(d);
        return NULL;
    }
    if (!image)
        d->backend->frontend_init(); /* the bitcode reader's LLVM options, before LLVM's thread */
    bool eager = options->engine == JG_ENGINE_JIT && !options->tiered;
    JgBackendStart *llvm_start = NULL;
    if (eager) {
        JgLlvmOptions lo = backend_options(d);
        llvm_start = jg_backend_start(options->backend_path, &lo, true);
    }
    double t0 = now_ms();
    d->module =
        image ? jg_module_load_image(graphs, len, jg_resolve_self, NULL, err, errsize)
              : d->backend->read_bitcode(graphs, len, NULL, jg_resolve_self, NULL, err, errsize);
    /* an image carries its binding times (computed by jitgen-image): the
     * analysis depends on the interpreter alone */
    const void *analysis = NULL;
    size_t analysis_len = 0;
    if (d->module && image && jg_image_analysis(graphs, len, &analysis, &analysis_len))
        d->bta = jg_bta_load(d->module, analysis, analysis_len, err, errsize);
    else if (d->module)
        d->bta = jg_bta_new(d->module, err, errsize);
    d->frontend_ms = now_ms() - t0;
    if (eager) {
        /* joined even when the frontend failed: the thread uses `d`'s
         * options; a start that could not be allocated joins as "out of
         * memory" */
        char llvm_err[512];
        d->llvm = jg_backend_join(llvm_start, &d->backend, &d->backend_open_ms, llvm_err,
                                  sizeof llvm_err);
        if (!d->llvm && d->bta)
            snprintf(err, errsize, "%s", llvm_err);
    }
    if (!d->bta || (eager && !d->llvm)) {
        jg_driver_free(d);
        return NULL;
    }
    const JgGraph *portal = d->module->portal;
    d->red_index = calloc(portal->nparams + 1, sizeof(uint32_t));
    if (!d->red_index) {
        jg_driver_free(d);
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    for (uint32_t i = 0; i < portal->nparams; i++)
        if (!(i < 64 && (d->bta->portal_green_params >> i & 1)))
            d->red_index[d->nred++] = i;
    if (options->engine == JG_ENGINE_JIT && options->tiered && jg_baseline_available())
        d->tier_up_ms = options->tier_up_ms < 0 ? JG_TIER_UP_DEFAULT_MS : options->tier_up_ms;
    if (options->engine == JG_ENGINE_BASELINE || d->tier_up_ms > 0) {
        JgBaselineOptions bo = {.portal_call = baseline_portal_call,
                                .portal_ctx = d,
                                .portal_red_index = d->red_index,
                                .portal_nred = d->nred,
                                .allocators = options->allocators,
                                .nallocators = options->nallocators};
        if (options->dumps & JG_DUMP_ASM)
            bo.dump_asm = dump_out(d);
        if (d->tier_up_ms > 0) {
            const char *now = getenv("JITGEN_TIER_UP_NOW");
            d->tier_now = now && *now && *now != '0';
            d->tier_now_loops = d->tier_now && strcmp(now, "loops") == 0;
            bo.look_ms = d->tier_now ? -1 : (double)d->tier_up_ms;
            bo.tier_up = tier_up;
            bo.tier_up_ctx = d;
            bo.growing = growing;
        }
        d->baseline = jg_baseline_new(&bo, err, errsize);
        if (!d->baseline) {
            jg_driver_free(d);
            return NULL;
        }
    }
    if (d->llvm) /* started with the frontend, before the analysis */
        d->backend->set_portal_red(d->llvm, d->red_index, d->nred);
    if (options->dumps & JG_DUMP_GRAPHS)
        for (uint32_t i = 0; i < d->module->graphs.count; i++) {
            const JgGraph *g = d->module->graphs.items[i];
            if (!(g->flags & JG_FLAG_EXTERNAL))
                jg_print_graph(dump_out(d), g, NULL, NULL);
        }
    if (options->dumps & JG_DUMP_BTA)
        jg_bta_print(dump_out(d), d->bta->portal);
    if (options->engine != JG_ENGINE_GRAPHS) {
        JgPeOptions pe_options = {.no_virtuals = options->no_virtuals,
                                  .no_value_args = options->no_value_args,
                                  .host_array = options->host_array,
                                  .host_array_param = options->host_array_param,
                                  .host_array_len_param = options->host_array_len_param,
                                  .host_fields = options->host_fields,
                                  .verify = d->verify,
                                  .on_exit = pe_exit_told,
                                  .on_exit_ctx = d,
                                  .admit = admit_compilation,
                                  .admit_ctx = d};
        /* ablation (bench/ANALYSIS.md): recurrence loops left as they are */
        const char *no_unroll = getenv("JITGEN_NO_UNROLL");
        pe_options.no_unroll = no_unroll && *no_unroll && *no_unroll != '0';
        /* ablation (bench/ANALYSIS.md): a hand-over assumes none of its integers */
        const char *no_guesses = getenv("JITGEN_NO_GUESSES");
        pe_options.no_host_guesses = no_guesses && *no_guesses && *no_guesses != '0';
        /* off by default (bench/ANALYSIS.md, "Guessing once the loop closes"):
         * guesses once a handed-over loop closes through flexswitch cases */
        const char *late = getenv("JITGEN_LATE_GUESSES");
        pe_options.late_guesses = late && *late && *late != '0';
        /* ablation (bench/ANALYSIS.md): divisions by handed-over integers unmarked */
        const char *no_likely = getenv("JITGEN_NO_LIKELY_DIVISORS");
        pe_options.no_likely_divisors = no_likely && *no_likely && *no_likely != '0';
        /* ablation (bench/ANALYSIS.md): branches to errors specialized at once */
        const char *no_cold = getenv("JITGEN_NO_COLD_PATHS");
        pe_options.no_cold_paths = no_cold && *no_cold && *no_cold != '0';
        /* ablation (bench/ANALYSIS.md): a branch's condition not learned on its paths */
        const char *no_facts = getenv("JITGEN_NO_BRANCH_FACTS");
        pe_options.no_branch_facts = no_facts && *no_facts && *no_facts != '0';
        /* tests: a small budget makes compilations end in exits */
        const char *budget = getenv("JITGEN_PE_BUDGET");
        if (budget && *budget)
            pe_options.budget_ops = strtoull(budget, NULL, 10);
        d->pe = jg_pe_new(d->module, d->bta, &pe_options);
        if (!d->pe) {
            jg_driver_free(d);
            snprintf(err, errsize, "out of memory");
            return NULL;
        }
        jg_pe_set_exit_evaluator(d->pe, &d->ev);
        d->ev.hook = portal_hook;
        d->ev.hook_ctx = d;
    }
    d->ev.module = d->module;
    return d;
}

void jg_driver_free(JgDriver *d)
{
    if (!d)
        return;
    if (d->llvm_start) {
        char ignored[16];
        d->llvm = jg_backend_join(d->llvm_start, &d->backend, &d->backend_open_ms, ignored,
                                  sizeof ignored);
    }
    if (d->tier_start) {
        char ignored[16];
        d->llvm = jg_backend_join(d->tier_start, &d->backend, &d->backend_open_ms, ignored,
                                  sizeof ignored);
    }
    if (d->llvm)
        d->backend->destroy(d->llvm);
    jg_baseline_free(d->baseline);
    jg_pe_free(d->pe);
    jg_bta_free(d->bta);
    jg_module_free(d->module);
    free(d->red_index);
    jg_arena_free(&d->arena);
    pthread_mutex_destroy(&d->grow_lock);
    free(d);
}

bool jg_driver_idle(const JgDriver *d)
{
    return jg_backend_ready(d->llvm_start) && jg_backend_ready(d->tier_start);
}

/* The residual graph of the portal call `args` (its green arguments),
 * specialized now if it is new. */
static JgResidual *specialize(JgDriver *d, const uint64_t *args, const JgArgShapes *shapes)
{
    char err[512];
    /* tiered: the first compilation is next; LLVM starts on another thread
     * during the partial evaluation (no-op once it has started) - unless
     * the baseline tier runs first */
    if (!d->baseline)
        jg_driver_prepare(d);
    JgResidual *r = jg_pe_specialize(d->pe, args, shapes, err, sizeof err);
    if (!r)
        fatal("partial evaluation failed", err);
    if (d->options.engine == JG_ENGINE_JIT && !d->baseline && !d->llvm &&
        !start_llvm_now(d, err, sizeof err))
        fatal("LLVM could not start", err);
    return r;
}

/* Runs residual graph `r` on the portal call's red arguments (taken from
 * `args`, the portal's), in the tier that has it, compiling it first. */
static uint64_t run_residual(JgDriver *d, JgResidual *r, const uint64_t *args)
{
    char err[512];
    uint64_t red[d->nred + 1];
    for (uint32_t i = 0; i < d->nred; i++)
        red[i] = args[d->red_index[i]];
    if (r->backend == EVALUATED)
        return jg_eval(&d->ev, r->graph, red);
    if (d->baseline && (!r->backend || r->backend == d->baseline)) {
        if (!d->tier_t0) {
            d->tier_t0 = run_ms();
            d->tier_compile0_ms = compile_ms(d);
        }
        if (!r->backend) {
            /* LLVM may be reading the baseline records on another thread */
            pthread_mutex_lock(&d->grow_lock);
            bool ok = jg_baseline_compile(d->baseline, r->graph, err, sizeof err);
            pthread_mutex_unlock(&d->grow_lock);
            if (!ok) {
                fallback(d, r->graph->name, "baseline compilation failed, the graph is evaluated",
                         err);
                r->backend = EVALUATED;
                return jg_eval(&d->ev, r->graph, red);
            }
            r->backend = d->baseline;
        }
        return jg_baseline_call(d->baseline, r->graph, red);
    }
    if (d->llvm) {
        if (!r->backend) {
            if (!d->backend->compile(d->llvm, r->graph, err, sizeof err)) {
                fallback(d, r->graph->name, "LLVM compilation failed, the graph is evaluated", err);
                r->backend = EVALUATED;
                return jg_eval(&d->ev, r->graph, red);
            }
            r->backend = d->llvm;
        }
        return d->backend->call(d->llvm, r->graph, red);
    }
    return jg_eval(&d->ev, r->graph, red);
}

/* A portal call whose red arguments travel as `shapes` says (the call op's
 * imm; NULL from the host and from the interpreter's graphs). */
static uint64_t call_shaped(JgDriver *d, const uint64_t *args, const JgArgShapes *shapes)
{
    if (d->options.engine == JG_ENGINE_GRAPHS)
        return jg_eval(&d->ev, d->module->portal, args);
    return run_residual(d, specialize(d, args, shapes), args);
}

/* A portal call whose arguments and result are real objects (from the
 * host or the interpreter's graphs): the arguments travel by value where
 * their objects have a known shape (jg_pe_host_shapes), so that the
 * callee is the residual graph compiled code calls, not a second one
 * specialized for pointers; a result that came as a value is boxed, or is
 * the argument it equals. */
static uint64_t call_boxed(JgDriver *d, const uint64_t *args)
{
    if (d->options.engine == JG_ENGINE_GRAPHS || !d->pe)
        return jg_value_result_box(call_shaped(d, args, NULL));
    uint32_t n = d->module->portal->nparams;
    uint64_t own[n + 1];
    memcpy(own, args, sizeof *own * n);
    const JgArgShapes *shapes = jg_pe_host_shapes(d->pe, own);
    uint64_t r = call_shaped(d, own, shapes);
    return jg_value_result_box_reusing(r, shapes, own, args);
}

uint64_t jg_driver_call(JgDriver *d, const uint64_t *args)
{
    return call_boxed(d, args);
}

/* A portal call from compiled code: a site whose green arguments are
 * constants always names the same residual graph, which it keeps. */
static uint64_t call_from_site(JgDriver *d, const uint64_t *args, JgPortalSite *site)
{
    JgResidual *r = site ? site->host : NULL;
    if (!r) {
        r = specialize(d, args, site ? site->arg_shapes : NULL);
        uint64_t greens = d->bta->portal_green_params;
        if (site && d->module->portal->nparams <= 64 && (greens & ~site->constant) == 0)
            site->host = r;
    }
    return run_residual(d, r, args);
}

void jg_driver_print_stats(const JgDriver *d, FILE *out)
{
    fprintf(out, "jit.frontend_ms: %.3f\n", d->frontend_ms);
    fprintf(out, "jit.graphs: %u\n", d->module->graphs.count);
    if (d->options.engine == JG_ENGINE_GRAPHS) {
        fprintf(out, "run.graph_ops: %llu\n", (unsigned long long)d->ev.ops_executed);
        return;
    }
    const JgPeStats *s = jg_pe_stats(d->pe);
    fprintf(out, "pe.specializations: %llu\n", (unsigned long long)s->specializations);
    fprintf(out, "pe.promotions: %llu\n", (unsigned long long)s->promotions);
    fprintf(out, "pe.cold_paths: %llu\n", (unsigned long long)s->cold_paths);
    fprintf(out, "pe.flexswitch_cases: %llu\n", (unsigned long long)s->flexswitch_cases);
    fprintf(out, "pe.host_guesses: %llu\n", (unsigned long long)s->host_guesses);
    fprintf(out, "pe.late_guesses: %llu\n", (unsigned long long)s->late_guesses);
    fprintf(out, "pe.likely_divisors: %llu\n", (unsigned long long)s->likely_divisors);
    fprintf(out, "pe.residual_blocks: %llu\n", (unsigned long long)s->residual_blocks);
    fprintf(out, "pe.residual_ops: %llu\n", (unsigned long long)s->residual_ops);
    fprintf(out, "pe.virtuals: %llu\n", (unsigned long long)s->virtuals);
    fprintf(out, "pe.materialized: %llu\n", (unsigned long long)s->materialized);
    fprintf(out, "pe.pending_stores: %llu\n", (unsigned long long)s->pending_stores);
    fprintf(out, "pe.pending_flushed: %llu\n", (unsigned long long)s->pending_flushed);
    fprintf(out, "pe.interp_ops: %llu\n", (unsigned long long)s->interp_ops);
    fprintf(out, "pe.unrolled_loops: %llu\n", (unsigned long long)s->unrolled_loops);
    fprintf(out, "pe.exits: %llu\n", (unsigned long long)s->exits);
    fprintf(out, "jit.fallbacks: %llu\n", (unsigned long long)(s->exits + d->fallbacks));
    fprintf(out, "run.exits_taken: %llu\n", (unsigned long long)s->exits_taken);
    fprintf(out, "pe.ms: %.3f\n", s->ms);
    fprintf(out, "jit.memory_bytes: %llu\n", (unsigned long long)jit_memory(d));
    fprintf(out, "jit.memory_budget: %llu\n", (unsigned long long)d->jit_budget);
    fprintf(out, "jit.memory_refused: %llu\n", (unsigned long long)(s->refused + d->tier_refused));
    double baseline_ms = 0;
    if (d->baseline) {
        const JgBaselineStats *b = jg_baseline_stats(d->baseline);
        baseline_ms = b->compile_ms;
        fprintf(out, "baseline.methods: %llu\n", (unsigned long long)b->methods);
        fprintf(out, "baseline.flexswitch_cases: %llu\n", (unsigned long long)b->flexswitch_cases);
        fprintf(out, "baseline.consolidations: %llu\n", (unsigned long long)b->consolidations);
        fprintf(out, "baseline.consolidations_given_up: %llu\n",
                (unsigned long long)b->consolidations_given_up);
        fprintf(out, "baseline.code_bytes: %llu\n", (unsigned long long)b->code_bytes);
        fprintf(out, "baseline.ms: %.3f\n", b->compile_ms);
        fprintf(out, "baseline.method_entries: %llu\n", (unsigned long long)b->method_entries);
        fprintf(out, "baseline.flexswitch_misses: %llu\n",
                (unsigned long long)b->flexswitch_misses);
        fprintf(out, "baseline.tier_ups: %llu\n", (unsigned long long)b->tier_ups);
        fprintf(out, "baseline.looks: %llu\n", (unsigned long long)b->looks);
        fprintf(out, "baseline.tier_up_declined: %llu\n", (unsigned long long)d->tier_declined);
        if (d->tier_delay_ms > 0) /* the cost rule's choice */
            fprintf(out, "baseline.tier_up_delay_ms: %.0f\n", d->tier_delay_ms);
    }
    if (!d->llvm && d->baseline) {
        fprintf(out, "jit.compile_ms: %.3f\n", d->frontend_ms + s->ms + baseline_ms);
        return;
    }
    if (!d->llvm) {
        fprintf(out, "run.residual_ops: %llu\n", (unsigned long long)d->ev.ops_executed);
        return;
    }
    const JgLlvmStats *l = d->backend->stats(d->llvm);
    fprintf(out, "jit.backend_open_ms: %.3f\n", d->backend_open_ms);
    fprintf(out, "jit.methods.primary: %llu\n", (unsigned long long)l->methods_primary);
    fprintf(out, "jit.methods.secondary: %llu\n", (unsigned long long)l->methods_secondary);
    fprintf(out, "jit.methods.evaluated: %llu\n", (unsigned long long)l->methods_evaluated);
    fprintf(out, "jit.flexswitch.cases: %llu\n", (unsigned long long)l->flexswitch_cases);
    fprintf(out, "jit.llvm_instructions: %llu\n", (unsigned long long)l->llvm_instructions);
    fprintf(out, "jit.llvm_lsr_skipped: %llu\n", (unsigned long long)l->lsr_skipped);
    fprintf(out, "jit.llvm_huge_unoptimized: %llu\n", (unsigned long long)l->huge_unoptimized);
    fprintf(out, "jit.code_bytes: %llu\n", (unsigned long long)l->code_bytes);
    fprintf(out, "jit.llvm_ms: %.3f\n", l->ir_ms + l->opt_ms + l->codegen_ms);
    fprintf(out, "jit.llvm_ir_ms: %.3f\n", l->ir_ms);
    fprintf(out, "jit.llvm_opt_ms: %.3f\n", l->opt_ms);
    fprintf(out, "jit.llvm_codegen_ms: %.3f\n", l->codegen_ms);
    fprintf(out, "jit.compile_ms: %.3f\n",
            d->frontend_ms + s->ms + baseline_ms + l->ir_ms + l->opt_ms + l->codegen_ms);
    fprintf(out, "run.external_jumps: %llu\n", (unsigned long long)l->external_jumps);
    fprintf(out, "run.flexswitch_misses: %llu\n", (unsigned long long)l->flexswitch_misses);
    fprintf(out, "run.evaluated_blocks: %llu\n", (unsigned long long)l->evaluated_blocks);
}

struct JgPe *jg_driver_pe(const JgDriver *d)
{
    return d->pe;
}

void jg_driver_finish(JgDriver *d)
{
    if (d->options.dot_file && d->pe && !jg_write_dot(d->options.dot_file, d->pe)) {
        fflush(stdout);
        fprintf(stderr, "jitgen: cannot write %s\n", d->options.dot_file);
    }
    if ((d->options.dumps & JG_DUMP_RESIDUAL) && d->pe)
        for (JgResidual *r = jg_pe_residuals(d->pe); r; r = r->next)
            jg_print_graph(dump_out(d), r->graph, NULL, NULL);
}
