/* Private declarations of the baseline backend (docs/baseline.md). Files:
 *   x64.c      - the x86-64 encoder
 *   method.c   - one method: homes, entries, operations, links, terminators
 *   homes.c    - where a method's values live: aliases, classes, registers
 *   value_arrays.c - per-value arrays kept between method compiles
 *   runtime.c  - graphs, executable memory, the dispatcher loop, the
 *                flexswitch runtime and the helpers generated code calls
 *   patch.c    - tier-up looks: a timer, and back-edges patched to leave */
#ifndef JITGEN_BASELINE_INTERNAL_H
#define JITGEN_BASELINE_INTERNAL_H

#include <signal.h>
#include <time.h>

#include "baseline.h"
#include "flexswitch/flexswitch.h"
#include "value_arrays.h"
#include "x64.h"

#define BL_BLOCKID(method, block) (((uint32_t)(method) << 16) | (uint32_t)(block))
#define BL_BLOCKID_METHOD(id) ((uint32_t)(id) >> 16)
#define BL_BLOCKID_BLOCK(id) ((uint32_t)(id)&0xffffu)
#define BL_BLOCKID_RETURN 0xffffffffu
#define BL_MAX_METHODS 65535u
#define BL_MAX_METHOD_BLOCKS 65535u
/* Methods with more values are not coalesced, nor are their comparisons
 * fused or folded (homes.c: the interference matrix grows with the
 * square). */
#define BL_MAX_COALESCED 8192u
/* Consolidation (runtime.c): method entries without growth first, and the
 * blocks all consolidations of a graph may compile, as a multiple of the
 * graph's blocks. */
#define BL_STABLE_ENTRIES 256u
#define BL_CONSOLIDATION_WORK 6u

/* One activation of a residual graph: what methods pass each other. Lives
 * on the dispatcher's C stack, where the conservative collector sees it. */
typedef struct BlFrame {
    uint64_t result;  /* the graph's result, when a method returns RETURN */
    uint64_t slots[]; /* the parameters of the block entered next */
} BlFrame;

#define BL_FRAME_SLOTS 8 /* offset of slots[0] */

/* A direct portal call (method.c, lower_call) builds its callee's frame in
 * its own scratch space, the red arguments in its first slots: room for
 * this many slots, which a callee of no larger capacity runs in place
 * (bl_call_frame). */
#define BL_DIRECT_SLOTS 32u

typedef uint32_t (*BlMethodFn)(uint32_t block, BlFrame *frame, uint8_t *area);

typedef struct BlMethod {
    BlMethodFn fn;
    uint32_t lo, hi;     /* its residual blocks */
    uint32_t area_bytes; /* memory of its ALLOCAs, per activation */
} BlMethod;

/* A call through libffi (float arguments or results, many arguments,
 * variadic callees): its types, fixed for the op. */
typedef struct BlCallDesc {
    struct BlCallDesc *next; /* the graph's list, freed with it */
    void *fn;                /* NULL: the callee is computed (args[-1]... see method.c) */
    uint8_t ret;             /* JgType */
    uint32_t nargs, nfixed;
    JgType types[];
} BlCallDesc;

/* The case a flexswitch of baseline code took last: its code compares the
 * value with `value` and, while `id` is not 0 (no case target has block id
 * 0: that is the graph's entry), leaves with `id` without calling the
 * runtime (bl_flex_dispatch fills it). */
typedef struct BlFlexCache {
    struct BlFlexCache *next; /* the graph's list, freed with it */
    uint64_t value;
    uint32_t id;
} BlFlexCache;

typedef struct BlGraph {
    JgBaseline *bl;
    const JgGraph *graph;
    uint32_t ncompiled; /* residual blocks given to methods so far */
    BlMethod *methods;
    uint32_t nmethods, methods_cap;
    uint32_t *ids;        /* per compiled block: BL_BLOCKID */
    bool *enterable;      /* per compiled block: a method entry can start there */
    JgBaselineLoop *loops; /* per compiled block: the loops back to it (look
                              sites); bytes 0: none */
    uint32_t ids_cap;
    uint32_t capacity; /* slots an activation needs */
    BlCallDesc *calls;
    BlFlexCache *flex_caches;
    JgPortalSite *portal_sites;
    uint64_t *entry_masks; /* per parameter of the entry block: its type's bits */
    bool entry_narrow;     /* some entry parameter is narrower than 64 bits */
    bool any_area;         /* some method has ALLOCA memory */
    /* the method and block a direct call enters, in the frame its caller
     * built, without bl_call_frame (method.c, lower_call); NULL while that
     * frame would not do (set_direct_entry) */
    BlMethodFn direct_fn;
    uint32_t direct_block;
    JgPortalSite **bound; /* sites calling this graph directly */
    uint32_t nbound, bound_cap;
    /* consolidation (runtime.c): method entries so far past the first of
     * each activation, and the count at which the graph, stable since it
     * last grew, becomes one method */
    uint64_t entries, consolidate_at;
    uint64_t consolidated_blocks; /* blocks compiled by its consolidations */
    uint32_t whole_end; /* blocks [0, whole_end) were consolidated whole last */
    bool consolidation_failed;    /* too big: never again */
    bool consolidating;           /* the method being compiled is one */
} BlGraph;

/* One chunk of machine code, methods one after the other (kept until the
 * backend is freed; code_memory.c). */
typedef struct BlCode {
    struct BlCode *next;
    void *mem;
    size_t size, used;
} BlCode;

/* A back-edge's patchable NOP (`at`) and the exit stub a look makes it
 * jump to. */
typedef struct BlSite {
    uint8_t *at, *stub;
    /* a jump site (the back-edge's jump itself): `at` is its rel32, `rel`
     * the displacement it has between looks */
    bool jump;
    int32_t rel;
} BlSite;

/* The sites, in chunks that are never moved: the signal handler walks
 * them while the code that adds them may be stopped anywhere. */
#define BL_SITE_CHUNK 64
typedef struct BlSiteChunk {
    struct BlSiteChunk *next;
    uint32_t n;
    BlSite items[BL_SITE_CHUNK];
} BlSiteChunk;

struct JgBaseline {
    JgBaselineOptions options;
    JgBaselineStats stats;
    BlGraph **graphs; /* open addressing on the graph's address */
    uint32_t ngraphs, graphs_cap;
    BlCode *code;
    /* tier-up looks (patch.c) */
    volatile sig_atomic_t look_due; /* the sites jump to their stubs */
    BlSiteChunk *sites;
    bool looks_started; /* the first look was armed */
    bool timer_made;
    timer_t timer;
    double look_ms;       /* the hook's last `next look` */
    BlValueArrays values; /* of the method being compiled (method.c) */
};

/* ---- method.c ---- */

/* Compiles blocks [lo, hi) of bg's graph (ids assigned) as method `method`. */
bool bl_compile_method(BlGraph *bg, uint32_t lo, uint32_t hi, uint32_t method, char *err,
                       size_t errsize);

/* ---- runtime.c ---- */

/* A portal call from a site bound to a graph (jg_baseline_bind_site):
 * frame f holds the red arguments in its slots and has room for
 * BL_DIRECT_SLOTS. */
uint64_t bl_call_frame(JgPortalSite *site, BlFrame *f);
/* The rest of a direct call's activation of bg, after its entry method
 * (bg->direct_fn) left for block id `id`. */
uint64_t bl_call_more(BlGraph *bg, BlFrame *f, uint32_t id);
_Noreturn void bl_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- code_memory.c ---- */

/* Copies finished code into executable memory; NULL on failure. */
void *bl_install(JgBaseline *bl, const uint8_t *code, size_t len);
/* Writes `len` bytes at `at` in executable memory (its pages writable for
 * the moment); false when they could not be made writable. */
bool bl_code_write(uint8_t *at, const uint8_t *bytes, size_t len);
/* Makes every chunk writable (and executable), or read+execute again; false
 * (every chunk read+execute) when one could not be. Async-signal-safe. */
bool bl_code_writable(JgBaseline *bl, bool writable);
void bl_code_free(JgBaseline *bl);

/* ---- patch.c ---- */

/* The look signal blocked on this thread, and the mask as it was: for
 * writing code or the structures the signal's handler walks. */
void bl_looks_block(sigset_t *old);
void bl_looks_restore(const sigset_t *old);

/* Whether code gets look sites: a tier-up hook asks for looks. */
bool bl_looks_enabled(const JgBaseline *bl);
/* Adds `n` sites of code just made executable (each jumping to its stub
 * at once when a look is due); false when out of memory. */
bool bl_sites_add(JgBaseline *bl, const BlSite *sites, uint32_t n);
/* Starts the looks, at the first run of baseline code: the first one in
 * options.look_ms. */
void bl_looks_start(JgBaseline *bl);
/* A look is being taken: every site back to its NOP, none due. */
void bl_look_taken(JgBaseline *bl);
/* The next look: in `ms` > 0, at once (< 0), never (0). */
void bl_look_in(JgBaseline *bl, double ms);
/* Stops the timer; what bl_sites_add allocated is freed. */
void bl_looks_free(JgBaseline *bl);

/* Called by generated code. */
uint32_t bl_flex_dispatch(BlGraph *bg, JgFlexswitch *fs, uint64_t value, BlFlexCache *cache);
uint64_t bl_arith(uint64_t desc, uint64_t x0, uint64_t x1, uint64_t x2);
uint64_t bl_call_ffi(const BlCallDesc *d, void *fn, const uint64_t *args);
void bl_memmove(void *dst, const void *src, uint64_t len);
void bl_memset(void *dst, uint64_t byte, uint64_t len);
_Noreturn void bl_unreachable(BlGraph *bg, uint32_t block);
_Noreturn void bl_bad_entry(BlGraph *bg, uint32_t method, uint32_t block);
_Noreturn void bl_noreturn_returned(BlGraph *bg, uint32_t block);

/* The descriptor bl_arith takes for an op. */
static inline uint64_t bl_arith_desc(const JgOp *op, JgType t0)
{
    return (uint64_t)op->opcode | (uint64_t)op->type << 16 | (uint64_t)op->pred << 24 |
           (uint64_t)t0 << 32;
}

#endif
