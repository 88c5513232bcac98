/* The baseline backend's run time (docs/baseline.md): the registry of
 * compiled graphs, executable memory, the dispatcher loop that runs an
 * activation from method to method, the flexswitch runtime, and the C
 * helpers generated code calls for what it does not inline. */
#include <alloca.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "frontend/arith.h"
#include "frontend/eval.h"
#include "frontend/fatal.h"
#include "internal.h"

/* Decided by the build (CMakeLists.txt, option JITGEN_BASELINE): the code
 * this backend generates is x86-64 System V, so a build for another
 * processor has the backend's code but never uses it. */
#if JITGEN_HAVE_BASELINE && !(defined(__x86_64__) && !defined(_WIN32))
#error "JITGEN_HAVE_BASELINE: the baseline backend generates x86-64 System V code"
#endif
bool jg_baseline_available(void)
{
    return JITGEN_HAVE_BASELINE;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void bl_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    jg_vfatal("baseline", fmt, ap);
}

static const char *graph_name(const BlGraph *bg)
{
    return bg->graph->name ? bg->graph->name : "<anonymous>";
}

/* ---- the registry ---- */

static uint32_t slot_of(const void *p, uint32_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32) & (cap - 1);
}

static BlGraph *find(const JgBaseline *bl, const JgGraph *g)
{
    if (!bl->graphs_cap)
        return NULL;
    for (uint32_t i = slot_of(g, bl->graphs_cap);; i = (i + 1) & (bl->graphs_cap - 1)) {
        BlGraph *bg = bl->graphs[i];
        if (!bg || bg->graph == g)
            return bg;
    }
}

static bool insert(JgBaseline *bl, BlGraph *bg)
{
    if (2 * (bl->ngraphs + 1) > bl->graphs_cap) {
        uint32_t cap = bl->graphs_cap ? 2 * bl->graphs_cap : 16;
        BlGraph **table = calloc(cap, sizeof *table);
        if (!table)
            return false;
        for (uint32_t i = 0; i < bl->graphs_cap; i++) {
            BlGraph *old = bl->graphs[i];
            if (!old)
                continue;
            uint32_t j = slot_of(old->graph, cap);
            while (table[j])
                j = (j + 1) & (cap - 1);
            table[j] = old;
        }
        free(bl->graphs);
        bl->graphs = table;
        bl->graphs_cap = cap;
    }
    uint32_t j = slot_of(bg->graph, bl->graphs_cap);
    while (bl->graphs[j])
        j = (j + 1) & (bl->graphs_cap - 1);
    bl->graphs[j] = bg;
    bl->ngraphs++;
    return true;
}

static void free_graph(BlGraph *bg)
{
    while (bg->flex_caches) {
        BlFlexCache *next = bg->flex_caches->next;
        free(bg->flex_caches);
        bg->flex_caches = next;
    }
    while (bg->calls) {
        BlCallDesc *next = bg->calls->next;
        free(bg->calls);
        bg->calls = next;
    }
    while (bg->portal_sites) {
        JgPortalSite *next = bg->portal_sites->next;
        free(bg->portal_sites);
        bg->portal_sites = next;
    }
    free(bg->entry_masks);
    free(bg->bound);
    free(bg->methods);
    free(bg->ids);
    free(bg->enterable);
    free(bg->loops);
    free(bg);
}

JgBaseline *jg_baseline_new(const JgBaselineOptions *options, char *err, size_t errsize)
{
    if (!jg_baseline_available()) {
        snprintf(err, errsize, "the baseline backend generates x86-64 code only");
        return NULL;
    }
    JgBaseline *bl = calloc(1, sizeof *bl);
    if (!bl) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    bl->options = *options;
    return bl;
}

void jg_baseline_free(JgBaseline *bl)
{
    if (!bl)
        return;
    bl_looks_free(bl);
    for (uint32_t i = 0; i < bl->graphs_cap; i++)
        if (bl->graphs[i])
            free_graph(bl->graphs[i]);
    free(bl->graphs);
    bl_code_free(bl);
    bl_values_free(&bl->values);
    free(bl);
}

uint32_t jg_baseline_methods(const JgBaseline *bl, const JgGraph *g)
{
    const BlGraph *bg = find(bl, g);
    return bg ? bg->nmethods : 0;
}

uint32_t jg_baseline_method_end(const JgBaseline *bl, const JgGraph *g, uint32_t m)
{
    const BlGraph *bg = find(bl, g);
    return bg && m < bg->nmethods ? bg->methods[m].hi : 0;
}

JgBaselineLoop jg_baseline_loop(const JgBaseline *bl, const JgGraph *g, uint32_t block)
{
    const BlGraph *bg = find(bl, g);
    return bg && block < bg->ncompiled ? bg->loops[block] : (JgBaselineLoop){0};
}

bool jg_baseline_loops_take_cases(const JgBaseline *bl, const JgGraph *g)
{
    const BlGraph *bg = find(bl, g);
    for (uint32_t b = 0; bg && b < bg->ncompiled; b++)
        if (bg->loops[b].takes_cases)
            return true;
    return false;
}

const JgBaselineStats *jg_baseline_stats(const JgBaseline *bl)
{
    return &bl->stats;
}

/* ---- compiling ---- */

static bool reserve(BlGraph *bg, uint32_t nblocks, uint32_t method)
{
    if (nblocks > bg->ids_cap) {
        uint32_t cap = bg->ids_cap ? bg->ids_cap : 64;
        while (cap < nblocks)
            cap *= 2;
        uint32_t *ids = realloc(bg->ids, sizeof *ids * cap);
        if (ids)
            bg->ids = ids;
        bool *enterable = realloc(bg->enterable, sizeof *enterable * cap);
        if (enterable)
            bg->enterable = enterable;
        JgBaselineLoop *loops = realloc(bg->loops, sizeof *loops * cap);
        if (loops)
            bg->loops = loops;
        if (!ids || !enterable || !loops)
            return false;
        bg->ids_cap = cap;
    }
    if (method >= bg->methods_cap) {
        uint32_t cap = bg->methods_cap ? 2 * bg->methods_cap : 8;
        BlMethod *methods = realloc(bg->methods, sizeof *methods * cap);
        if (!methods)
            return false;
        bg->methods = methods;
        bg->methods_cap = cap;
    }
    return true;
}

/* Whether the graph may be consolidated (again): compiling all its blocks
 * once more keeps the blocks its consolidations compiled within
 * BL_CONSOLIDATION_WORK times its blocks. A graph that keeps growing may
 * be consolidated as often as it grows enough; one that stopped growing at
 * most BL_CONSOLIDATION_WORK times in all. */
static bool may_consolidate(const BlGraph *bg)
{
    uint64_t n = bg->ncompiled;
    return !bg->consolidation_failed && bg->consolidated_blocks + n <= BL_CONSOLIDATION_WORK * n;
}

/* After method `method` was compiled: the entry direct calls make
 * themselves (BlGraph.direct_fn), which needs no ALLOCA memory in any
 * method (the activation's areas are then all NULL, which bl_call_more
 * relies on), a capacity that fits the caller's frame and parameters that
 * need no cutting (bl_call_frame's conditions). */
static void set_direct_entry(BlGraph *bg, uint32_t method)
{
    if (bg->methods[method].area_bytes)
        bg->any_area = true;
    uint32_t id = bg->ids[0], m = BL_BLOCKID_METHOD(id);
    bool fits = !bg->any_area && bg->capacity <= BL_DIRECT_SLOTS && !bg->entry_narrow;
    bg->direct_fn = fits && m < bg->nmethods ? bg->methods[m].fn : NULL;
    bg->direct_block = BL_BLOCKID_BLOCK(id);
}

bool jg_baseline_compile(JgBaseline *bl, JgGraph *g, char *err, size_t errsize)
{
    double t0 = now_ms();
    const char *name = g->name ? g->name : "<anonymous>";
    BlGraph *bg = find(bl, g);
    if (!bg) {
        bg = calloc(1, sizeof *bg);
        const JgBlock *entry = g->blocks.count ? &g->blocks.items[0] : NULL;
        uint32_t nparams = entry ? entry->nparams : 0;
        uint64_t *masks = malloc(sizeof *masks * (nparams ? nparams : 1));
        if (bg && masks) {
            bg->bl = bl;
            bg->graph = g;
            bg->consolidate_at = UINT64_MAX;
            for (uint32_t i = 0; i < nparams; i++) {
                masks[i] = mask(jg_value_type(g, entry->params[i]), UINT64_MAX);
                bg->entry_narrow |= masks[i] != UINT64_MAX;
            }
            bg->entry_masks = masks;
        }
        if (!bg || !masks || !insert(bl, bg)) {
            free(masks);
            free(bg);
            snprintf(err, errsize, "out of memory");
            return false;
        }
    }
    uint32_t lo = bg->ncompiled, hi = g->blocks.count, method = bg->nmethods;
    if (lo == hi)
        return true;
    if (method >= BL_MAX_METHODS || hi - lo > BL_MAX_METHOD_BLOCKS) {
        snprintf(err, errsize, "baseline: graph %s: more methods or blocks than block ids encode",
                 name);
        return false;
    }
    if (!reserve(bg, hi, method)) {
        snprintf(err, errsize, "out of memory");
        return false;
    }
    for (uint32_t b = lo; b < hi; b++) {
        bg->ids[b] = BL_BLOCKID(method, b - lo);
        bg->enterable[b] = b == lo || (g->blocks.items[b].flags & JG_BLOCK_ENTRY);
        bg->loops[b] = (JgBaselineLoop){0};
    }
    bg->ncompiled = hi;
    bg->nmethods = method + 1;
    bg->methods[method] = (BlMethod){0};
    if (!bl_compile_method(bg, lo, hi, method, err, errsize)) {
        /* the blocks stay unrunnable: a call of the graph reports it */
        bg->methods[method].fn = NULL;
        return false;
    }
    bl->stats.methods++;
    bl->stats.compile_ms += now_ms() - t0;
    set_direct_entry(bg, method);
    if (method > 0 && may_consolidate(bg))
        bg->consolidate_at = bg->entries + BL_STABLE_ENTRIES;
    return true;
}

/* Consolidation: a graph that grew by flexswitch cases is as many methods,
 * and every case taken is a trip through the dispatcher (a method's
 * epilogue, the loop in run, the next method's prologue and entry
 * switch). Once the graph has stopped growing for BL_STABLE_ENTRIES method
 * entries past its activations' first (the crossings a consolidation
 * saves: a recursive graph's activations do not count), all its blocks are compiled again as one
 * method, in which the cases known are compared and jumped to (method.c, inline_cases); the old
 * methods stay valid for the activations running them. While the blocks
 * all consolidations of the graph compiled stay within
 * BL_CONSOLIDATION_WORK times its blocks (may_consolidate: compile work a
 * small multiple of the graph's, which grows with the program), and only
 * while the method's values fit
 * in BL_MAX_COALESCED (homes.c fails the compilation otherwise: a method
 * without coalescing, fused and folded comparisons loses more than the
 * dispatcher costs). A failure leaves the graph as it was. */
static void consolidate(BlGraph *bg)
{
    JgBaseline *bl = bg->bl;
    uint32_t n = bg->ncompiled, method = bg->nmethods;
    bg->consolidate_at = UINT64_MAX;
    /* a graph consolidated before: first only the blocks added since, if
     * they are more than one method (one method since, a case or a partial
     * consolidation, leaves the whole graph to do) */
    uint32_t lo = bg->whole_end;
    if (lo && bg->methods[method - 1].lo <= lo)
        lo = 0;
    if (!n || bg->methods[method - 1].lo == 0 || n > BL_MAX_METHOD_BLOCKS ||
        method >= BL_MAX_METHODS || !may_consolidate(bg))
        return;
    double t0 = now_ms();
    uint32_t *old = malloc(sizeof *old * n);
    if (!old)
        return;
    if (bl->options.growing) /* LLVM may be reading the methods on another thread */
        bl->options.growing(bl->options.tier_up_ctx, true);
    if (reserve(bg, n, method)) {
        memcpy(old, bg->ids, sizeof *old * n);
        for (uint32_t b = lo; b < n; b++)
            bg->ids[b] = BL_BLOCKID(method, b - lo);
        bg->nmethods = method + 1;
        bg->methods[method] = (BlMethod){0};
        char err[256];
        bg->consolidating = true;
        if (bl_compile_method(bg, lo, n, method, err, sizeof err)) {
            bg->consolidated_blocks += n - lo;
            bl->stats.methods++;
            bl->stats.consolidations++;
            set_direct_entry(bg, method);
            if (lo) /* the whole graph next, if activations still cross methods */
                bg->consolidate_at = bg->entries + BL_STABLE_ENTRIES;
            else
                bg->whole_end = n;
        } else { /* too big (it only grows): never again */
            memcpy(bg->ids, old, sizeof *old * n);
            bg->nmethods = method;
            bg->consolidation_failed = true;
            bl->stats.consolidations_given_up++;
        }
        bg->consolidating = false;
    }
    if (bl->options.growing)
        bl->options.growing(bl->options.tier_up_ctx, false);
    free(old);
    bl->stats.compile_ms += now_ms() - t0;
}

/* ---- running ---- */

/* A look at the tier-up hook; true: it ran the rest. While the hook runs
 * (maybe another tier, for the rest of the activation), the timer goes on
 * with the last interval, so that graphs the activation calls keep being
 * looked at; a look that came meanwhile is this one. */
static bool ask_tier_up(BlGraph *bg, uint32_t block, const uint64_t *slots, uint64_t *result)
{
    JgBaseline *bl = bg->bl;
    bl_look_taken(bl);
    if (!bl->options.tier_up)
        return false;
    bl->stats.looks++;
    if (bl->look_ms > 0)
        bl_look_in(bl, bl->look_ms);
    double next = 0;
    bool done =
        bl->options.tier_up(bl->options.tier_up_ctx, bg->graph, block, slots, result, &next);
    if (done)
        bl->stats.tier_ups++;
    bl_look_taken(bl);
    bl_look_in(bl, next);
    return done;
}

/* An activation from block id `id` on, in frame f of `cap` slots: calls
 * the method that owns each block id until one returns. `returned`: a
 * method just left with `id` (the frame may have to grow, the tier-up may
 * look), method m0's area being area0. Slots and ALLOCA areas live in the
 * C frames of run and run_on, and grow (by alloca, a few times at most)
 * when a flexswitch miss compiled a method that needs more. The areas of
 * the first 64 methods are known by a bit mask, so that an activation
 * (every call) starts without clearing a table. */
static uint64_t run_on(BlGraph *bg, BlFrame *f, uint32_t cap, uint32_t id, bool returned,
                       uint32_t m0, uint8_t *area0)
{
    JgBaseline *bl = bg->bl;
    uint8_t *first_areas[64];
    uint64_t have_area = 0; /* bit m: first_areas[m] is set */
    uint8_t **areas = NULL; /* methods 64 and up, NULL until needed */
    uint32_t nareas = 0;
    if (returned) {
        first_areas[m0] = area0;
        have_area = (uint64_t)1 << m0;
    }
    for (;; returned = true) {
        if (returned && bg->capacity > cap) {
            BlFrame *bigger = alloca(sizeof *bigger + 8 * (size_t)bg->capacity);
            memcpy(bigger, f, sizeof *f + 8 * (size_t)cap);
            /* the old frame stays in this C frame (or the caller's scratch
             * space) until the activation returns, where the conservative
             * collector would keep alive what its stale slots point to (a
             * list a loop has long dropped) */
            memset(f, 0, sizeof *f + 8 * (size_t)cap);
            f = bigger;
            cap = bg->capacity;
        }
        /* a look: the code left at a loop header for the hook */
        if (returned && bl->look_due && id != BL_BLOCKID_RETURN) {
            uint64_t result;
            uint32_t mm = BL_BLOCKID_METHOD(id);
            uint32_t block = mm < bg->nmethods ? bg->methods[mm].lo + BL_BLOCKID_BLOCK(id) : 0;
            if (ask_tier_up(bg, block, f->slots, &result))
                return result;
        }
        if (id == BL_BLOCKID_RETURN)
            return f->result;
        uint32_t m = BL_BLOCKID_METHOD(id);
        if (m >= bg->nmethods || !bg->methods[m].fn)
            bl_fatal("graph %s: block id %#x names no compiled method", graph_name(bg), id);
        if (++bg->entries >= bg->consolidate_at) {
            consolidate(bg); /* the block goes on in the new method */
            id = bg->ids[bg->methods[m].lo + BL_BLOCKID_BLOCK(id)];
            m = BL_BLOCKID_METHOD(id);
        }
        const BlMethod *me = &bg->methods[m];
        uint8_t *area;
        if (m < 64) {
            if (!(have_area >> m & 1)) {
                first_areas[m] = me->area_bytes ? alloca(me->area_bytes) : NULL;
                have_area |= (uint64_t)1 << m;
            }
            area = first_areas[m];
        } else {
            if (m - 64 >= nareas) {
                uint32_t n = bg->nmethods - 64;
                uint8_t **more = alloca(sizeof *more * n);
                if (nareas)
                    memcpy(more, areas, sizeof *areas * nareas);
                memset(more + nareas, 0, sizeof *more * (n - nareas));
                areas = more;
                nareas = n;
            }
            if (me->area_bytes && !areas[m - 64])
                areas[m - 64] = alloca(me->area_bytes);
            area = areas[m - 64];
        }
        bl->stats.method_entries++;
        id = me->fn(BL_BLOCKID_BLOCK(id), f, area);
    }
}

/* An activation of the graph whose entry block's arguments are in f's
 * slots (room for `cap`). The entry's method, the way most activations go
 * (a consolidated graph's one method, which returns), is entered without
 * the checks run_on makes for every method; nor is this entry counted
 * towards a consolidation, which could not save it (bg->entries). Inlined
 * into its callers (the host's calls, and the direct calls that cannot
 * enter BlGraph.direct_fn from their site), so that its alloca (the area)
 * lives until they return, right after. */
static inline __attribute__((always_inline)) uint64_t run_in(BlGraph *bg, BlFrame *f, uint32_t cap)
{
    uint32_t id = bg->ids[0], m = BL_BLOCKID_METHOD(id);
    if (m >= 64 || m >= bg->nmethods || !bg->methods[m].fn)
        return run_on(bg, f, cap, id, false, 0, NULL);
    const BlMethod *me = &bg->methods[m];
    uint8_t *area = me->area_bytes ? alloca(me->area_bytes) : NULL;
    bg->bl->stats.method_entries++;
    id = me->fn(BL_BLOCKID_BLOCK(id), f, area);
    if (id == BL_BLOCKID_RETURN)
        return f->result;
    return run_on(bg, f, cap, id, true, m, area);
}

/* An activation on the entry block's arguments args[0..n), each cut to
 * its parameter's type, in a frame of its own. */
static uint64_t run(BlGraph *bg, const uint64_t *args)
{
    const JgGraph *g = bg->graph;
    uint32_t cap = bg->capacity > g->nparams ? bg->capacity : g->nparams;
    BlFrame *f = alloca(sizeof *f + 8 * (size_t)cap);
    uint32_t n = g->blocks.items[0].nparams;
    const uint64_t *mask = bg->entry_masks;
    for (uint32_t i = 0; i < n; i++)
        f->slots[i] = args[i] & mask[i];
    return run_in(bg, f, cap);
}

uint64_t jg_baseline_call(JgBaseline *bl, const JgGraph *g, const uint64_t *args)
{
    BlGraph *bg = find(bl, g);
    if (!bg || !bg->nmethods || !bg->methods[0].fn)
        bl_fatal("graph %s was not compiled", g->name ? g->name : "<anonymous>");
    bl_looks_start(bl);
    uint64_t result;
    if (bl->look_due && ask_tier_up(bg, 0, args, &result))
        return result;
    return run(bg, args);
}

/* ---- direct calls ---- */

bool jg_baseline_bind_site(JgBaseline *bl, JgPortalSite *site, const JgGraph *g)
{
    BlGraph *bg = find(bl, g);
    if (!bg || !bg->nmethods || site->direct || !bl->options.portal_red_index)
        return false;
    if (bg->nbound == bg->bound_cap) {
        uint32_t cap = bg->bound_cap ? 2 * bg->bound_cap : 8;
        JgPortalSite **bound = realloc(bg->bound, sizeof *bound * cap);
        if (!bound)
            return false;
        bg->bound = bound;
        bg->bound_cap = cap;
    }
    bg->bound[bg->nbound++] = site;
    site->direct = bg;
    return true;
}

void jg_baseline_unbind(JgBaseline *bl, const JgGraph *g)
{
    BlGraph *bg = find(bl, g);
    for (uint32_t i = 0; bg && i < bg->nbound; i++)
        bg->bound[i]->direct = NULL;
    if (bg)
        bg->nbound = 0;
}

/* The way of jg_baseline_call from a bound site, whose code has put the
 * callee's red arguments in f's slots: the activation runs in that frame
 * when it fits, in a frame of its own otherwise (a larger capacity, or
 * parameters whose bits must be cut). */
uint64_t bl_call_frame(JgPortalSite *site, BlFrame *f)
{
    BlGraph *bg = site->direct;
    if (bg->bl->look_due) {
        uint64_t result;
        if (ask_tier_up(bg, 0, f->slots, &result))
            return result;
    }
    if (bg->capacity > BL_DIRECT_SLOTS || bg->entry_narrow) /* capacity >= the entry's params */
        return run(bg, f->slots);
    return run_in(bg, f, BL_DIRECT_SLOTS);
}

uint64_t bl_call_more(BlGraph *bg, BlFrame *f, uint32_t id)
{
    /* method 0's area is NULL as every method's was when the call began */
    return run_on(bg, f, BL_DIRECT_SLOTS, id, true, 0, NULL);
}

/* ---- called by generated code ---- */

static uint32_t flex_target_id(BlGraph *bg, JgFlexswitch *fs, uint64_t value);

uint32_t bl_flex_dispatch(BlGraph *bg, JgFlexswitch *fs, uint64_t value, BlFlexCache *cache)
{
    uint32_t id = flex_target_id(bg, fs, value);
    cache->value = value;
    cache->id = id;
    return id;
}

/* The block id of the case for `value`, compiling it on a miss. */
static uint32_t flex_target_id(BlGraph *bg, JgFlexswitch *fs, uint64_t value)
{
    int64_t i = jg_flexswitch_lookup(fs, value);
    uint32_t target;
    if (i >= 0) {
        target = fs->targets[i];
    } else {
        JgBaseline *bl = bg->bl;
        bl->stats.flexswitch_misses++;
        fs->misses++;
        if (!fs->miss)
            bl_fatal("graph %s: flexswitch in block %u has no miss callback", graph_name(bg),
                     fs->block);
        if (bl->options.growing)
            bl->options.growing(bl->options.tier_up_ctx, true);
        target = fs->miss(fs->compiler, fs, value);
        if (target == UINT32_MAX)
            bl_fatal("graph %s: compiling the case %llu of the flexswitch in block %u failed",
                     graph_name(bg), (unsigned long long)value, fs->block);
        char err[512];
        if (!jg_baseline_compile(bl, fs->graph, err, sizeof err))
            bl_fatal("%s", err);
        if (bl->options.growing)
            bl->options.growing(bl->options.tier_up_ctx, false);
        bl->stats.flexswitch_cases++;
    }
    if (target >= bg->ncompiled && target < fs->graph->blocks.count) {
        /* a case another tier (LLVM) added */
        JgBaseline *bl = bg->bl;
        char err[512];
        if (bl->options.growing)
            bl->options.growing(bl->options.tier_up_ctx, true);
        bool ok = jg_baseline_compile(bl, fs->graph, err, sizeof err);
        if (bl->options.growing)
            bl->options.growing(bl->options.tier_up_ctx, false);
        if (!ok)
            bl_fatal("%s", err);
    }
    if (target >= bg->ncompiled || !bg->enterable[target])
        bl_fatal("graph %s: flexswitch case targets block %u, which no method can be entered at",
                 graph_name(bg), target);
    return bg->ids[target];
}

uint64_t bl_arith(uint64_t desc, uint64_t x0, uint64_t x1, uint64_t x2)
{
    unsigned opcode = desc & 0xffff, t = (desc >> 16) & 0xff, pred = (desc >> 24) & 0xff,
             t0 = (desc >> 32) & 0xff;
    const uint64_t x[3] = {x0, x1, x2};
    return jg_eval_normalize((JgType)t, jg_arith(opcode, t, pred, t0, x));
}

uint64_t bl_call_ffi(const BlCallDesc *d, void *fn, const uint64_t *args)
{
    void *callee = d->fn ? d->fn : fn;
    if (!callee)
        bl_fatal("call of a null function pointer");
    return jg_call_native(callee, (JgType)d->ret, d->nargs, d->types, args, d->nfixed);
}

void bl_memmove(void *dst, const void *src, uint64_t len)
{
    if (len)
        memmove(dst, src, (size_t)len);
}

void bl_memset(void *dst, uint64_t byte, uint64_t len)
{
    if (len)
        memset(dst, (int)(byte & 0xff), (size_t)len);
}

void bl_unreachable(BlGraph *bg, uint32_t block)
{
    bl_fatal("graph %s: block %u ends with unreachable, and was reached", graph_name(bg), block);
}

void bl_bad_entry(BlGraph *bg, uint32_t method, uint32_t block)
{
    bl_fatal("graph %s: method %u entered at block %u, where it cannot be entered", graph_name(bg),
             method, block);
}

void bl_noreturn_returned(BlGraph *bg, uint32_t block)
{
    bl_fatal("graph %s: block %u: a noreturn callee returned", graph_name(bg), block);
}
