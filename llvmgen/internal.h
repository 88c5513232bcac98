/* Private declarations of the LLVM backend (docs/backend.md). The files:
 *   session.c  - targets, the ORC LLJIT, the per-module pipeline (verify,
 *                optimize, dump, emit an object, add it to the JIT)
 *   graphs.c   - per-graph bookkeeping: methods, block ids, the registry
 *   compile.c  - jg_llvm_compile: splitting a graph into methods
 *   methods.c  - one method: blocks, phis, links, terminators
 *   forward.c  - blocks that only pass their parameters on, bypassed
 *   cold.c     - landings in the middle of loops, sent to a copy of the method
 *   dispatch.c - dispatchers, InputArgs, landing blocks, the call wrapper
 *   lower.c    - operations -> LLVM instructions
 *   calls.c    - native, indirect and portal calls
 *   escape.c   - which ALLOCAs of a secondary must outlive it
 *   areas.c    - activation memory for ALLOCAs that outlive a secondary
 *   runtime.c  - the flexswitch runtime called by generated code
 *   lazy.c     - secondaries evaluated until they get hot */
#ifndef JITGEN_LLVMGEN_INTERNAL_H
#define JITGEN_LLVMGEN_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "llvmgen.h"

/* Byte offsets inside JgInputArgs, as generated code addresses them. */
#define LG_IA_RESULT 0
#define LG_IA_CAPACITY 8
#define LG_IA_OWNER 16
#define LG_IA_SLOTS 24

/* The adaptive level (JgLlvmOptions.adaptive) optimizes a method with loops
 * only up to this many residual operations: the time LLVM's pipeline and
 * code generator take grows faster than a method's size, and a method that
 * large comes from a specialization that ran long (docs/backend.md,
 * "Optimization pipeline"). Past it the method gets what a method without
 * loops gets, as HotSpot leaves huge methods to its interpreter. */
#define LG_OPTIMIZE_MAX_OPS 8000

#define LG_MIN_CAPACITY 256 /* InputArgs slots of every activation, at least */
/* The activation's tail, after the slots (offsets from its start): the
 * table of per-method areas for ALLOCAs of secondaries that outlive them,
 * and a secondary's request for its area. */
#define LG_TAIL_AREAS 0      /* void **: area of each area index, NULL: none yet */
#define LG_TAIL_NAREAS 8     /* uint32_t: entries of that table */
#define LG_TAIL_REQ_INDEX 12 /* uint32_t: the area index requested */
#define LG_TAIL_REQ_BYTES 16 /* uint32_t: its size */
#define LG_TAIL_REQ_ID 20    /* uint32_t: the block id to enter once it exists */
#define LG_TAIL_BYTES 24
#define LG_MAX_METHODS 65535u      /* method ids 0..65534 */
#define LG_MAX_METHOD_BLOCKS 65535 /* block numbers 0..65534: 0xffff never names a block */
#define LG_METHOD_TABLE 65536      /* entries of a graph's method table */

/* Where a residual block went. */
typedef struct LgBlock {
    uint32_t id;    /* JG_BLOCKID(method, local) */
    bool enterable; /* the method's dispatcher can enter it */
} LgBlock;

typedef uint32_t (*LgSecondaryFn)(uint32_t blockid, JgInputArgs *ia);
typedef uint64_t (*LgCallFn)(const uint64_t *args);

/* What the backend keeps per residual graph. */
typedef struct LgLazy LgLazy;

typedef struct LgGraph {
    JgLlvm *llvm;
    const JgGraph *graph;
    unsigned serial;        /* distinguishes symbol names of graphs with one name */
    uint32_t ncompiled;     /* residual blocks given to methods so far (compiled or
                               evaluated) */
    uint32_t nmethods;      /* primary included */
    bool growable;          /* the primary has a dispatcher (a flexswitch exists) */
    uint32_t capacity;      /* InputArgs slots of every activation of the primary */
    uint32_t nareas;        /* area indices handed out to secondaries */
    void *primary;          /* machine code */
    LgCallFn call;          /* wrapper: args as 64-bit slots, result widened */
    LgSecondaryFn *methods; /* LG_METHOD_TABLE entries (growable graphs); [0] unused */
    LgBlock *blocks;        /* per residual block compiled */
    LgLazy **lazy;          /* per method id: its evaluation record, NULL for
                               methods compiled at once */
    uint32_t lazy_cap;
    /* jg_llvm_call_at: the primary, entered while start_pending, goes to
     * block id start_id with start_n slots copied from start_slots */
    uint32_t start_pending;
    uint32_t start_id, start_n;
    const uint64_t *start_slots;
} LgGraph;

struct JgLlvm {
    JgLlvmOptions options;
    JgLlvmStats stats;
    LLVMContextRef ctx;
    LLVMTargetMachineRef tm;      /* the host: what runs */
    LLVMTargetMachineRef tm_fast; /* adaptive: straight-line methods (fast isel), else tm */
    LLVMTargetMachineRef asm_tm;  /* --dump=asm for a foreign triple, else NULL */
    LLVMTargetDataRef asm_layout;
    char *asm_triple;
    char *triple; /* the host's */
    char *layout; /* the host's data layout string */
    LLVMOrcLLJITRef jit;
    LLVMOrcJITDylibRef dylib;
    LLVMPassBuilderOptionsRef pass_options;
    const char *passes; /* NULL at O0 */
    uint32_t max_methods;
    /* the registry: open addressing on the graph's address */
    LgGraph **graphs;
    uint32_t ngraphs, graphs_cap;
    unsigned next_serial;
    JgPortalSite *portal_sites; /* of the portal calls compiled */
    /* types of this context */
    LLVMTypeRef t_void, t_i1, t_i8, t_i16, t_i32, t_i64, t_ptr, t_f32, t_f64;
};

/* ---- session.c ---- */

/* The largest module (instructions after optimization) that loop strength
 * reduction runs on (session.c, reduce_strength). */
#define LG_LSR_MAX_INSTRUCTIONS 160

double lg_now_ms(void);
/* An empty module for the host's triple and data layout. */
LLVMModuleRef lg_new_module(JgLlvm *llvm, const char *name);
/* Runs the pipeline on a finished module (consumed) and looks up `nnames`
 * functions, writing their addresses to `out`. `loops`: the method has
 * loops (with the adaptive level, only those are optimized). */
bool lg_finish_module(JgLlvm *llvm, LLVMModuleRef mod, bool loops, const char *const *names,
                      uint32_t nnames, void **out, char *err, size_t errsize);
LLVMTypeRef lg_type(const JgLlvm *llvm, JgType t);
/* The two halves of lg_finish_module, without its dumps and checks. */
bool lg_optimize(JgLlvm *llvm, LLVMModuleRef mod, bool loops, char *err, size_t errsize);
bool lg_emit_and_link(JgLlvm *llvm, LLVMModuleRef mod, bool loops, const char *const *names,
                      uint32_t nnames, void **out, char *err, size_t errsize);
/* The target machine for a method with or without loops. */
LLVMTargetMachineRef lg_target_machine(const JgLlvm *llvm, bool loops);

/* ---- compile.c ---- */

/* Compiles the blocks [lo, hi) of `lg`, whose ids are assigned, as
 * secondary `method`, and puts it in the method table. */
bool lg_compile_secondary_method(JgLlvm *llvm, LgGraph *lg, uint32_t lo, uint32_t hi,
                                 uint32_t method, char *err, size_t errsize);
/* The most values any block, link or flexswitch of [lo, hi) passes. */
uint32_t lg_max_values_passed(const JgGraph *g, uint32_t lo, uint32_t hi);

/* ---- lazy.c ---- */

/* Blocks an entry into an evaluated method counts as (its frame's set-up). */
#define LG_ENTRY_WORK 16
/* Graphs with more values are compiled at once: an evaluated method's
 * frame (one slot per value of the graph) lives on the C stack. */
#define LG_LAZY_MAX_VALUES 16384u

/* Whether the blocks [lo, hi) of `lg` can be evaluated as a method. */
bool lg_lazy_eligible(const JgLlvm *llvm, const LgGraph *lg, uint32_t lo, uint32_t hi);
/* Makes [lo, hi) (ids assigned) method `method`, evaluated until hot. */
bool lg_lazy_add(JgLlvm *llvm, LgGraph *lg, uint32_t lo, uint32_t hi, uint32_t method);
void lg_lazy_free(LgGraph *lg);

/* ---- warmup.c ---- */

/* Compiles a small method shaped like residual code through the whole
 * pipeline, so that the first real compilation does not pay for LLVM's
 * first touch of its optimizer and code generator. */
bool lg_warm_up(JgLlvm *llvm, char *err, size_t errsize);

/* ---- graphs.c ---- */

LgGraph *lg_graph_find(const JgLlvm *llvm, const JgGraph *g);
LgGraph *lg_graph_add(JgLlvm *llvm, const JgGraph *g, bool growable);
void lg_graph_forget(JgLlvm *llvm, LgGraph *lg);
void lg_graphs_free(JgLlvm *llvm);
/* Makes room to record blocks [0, n). */
bool lg_graph_reserve_blocks(LgGraph *lg, uint32_t n);
/* A symbol name for method `method` of `lg` ("call" for the wrapper). */
void lg_symbol(const LgGraph *lg, const char *what, uint32_t method, char *buf, size_t size);
_Noreturn void lg_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- the state of one method under construction (methods.c) ---- */

typedef struct LgMethod {
    JgLlvm *llvm;
    LgGraph *lg;
    const JgGraph *g;
    uint32_t lo, hi; /* its residual blocks */
    uint32_t method; /* method id */
    bool primary;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMValueRef fn;
    LLVMBasicBlockRef entry; /* allocas; ends with the branch to the body */
    LLVMValueRef entry_term; /* allocas go before it */
    LLVMBasicBlockRef *bbs;  /* per local block (NULL: unreachable) */
    LLVMValueRef *vals;      /* per residual value of the graph */
    uint32_t *order;         /* reachable local blocks, reverse post-order */
    uint32_t norder;
    uint32_t *rank;       /* per local block: its index in `order` */
    bool *fused;          /* per local block: lowered inline at the end of its only
                             predecessor, a goto (no basic block, no phis) */
    uint32_t *fwd_target; /* per local block: the end of its forwarding chain, or
                             UINT32_MAX (forward.c) */
    JgVal **fwd_args;     /* per forwarding block: the chain end's arguments, in
                             its own parameters and constants */
    JgVal *scratch;       /* arguments of the last effective link */
    uint32_t scratch_cap;
    bool clone;               /* the copy of a method that cold landings call (cold.c) */
    const bool *entries_only; /* the clone: per local block, whether it has a landing
                                 (NULL: every enterable block has one) */
    const char *fn_name;      /* the function's name (NULL: the module's) */
    bool *cold;               /* per local block: its landing calls cold_fn */
    uint32_t ncold;
    /* per local block: the landing where the method's loop that a cold
     * landing enters begins (cold.c); the clone leaves there, through the
     * dispatcher, so the loop goes on in the optimized method */
    bool *cold_exit;
    const bool *leave_at;       /* the clone: cold_exit of the method it copies */
    LLVMValueRef cold_fn;       /* the clone, when ncold > 0 */
    uint32_t current;           /* the residual block being lowered */
    LLVMMetadataRef loop_id;    /* !llvm.loop of latches (O1, O2), made on demand */
    bool loops;                 /* some link closes a loop of residual blocks */
    bool *escapes;              /* per residual value: an ALLOCA that must outlive us */
    uint32_t area_bytes;        /* secondaries: memory of ALLOCAs that outlive the method */
    uint32_t area_next;         /* next free byte of it */
    uint32_t area_index;        /* its index in the activation's table of areas */
    LLVMValueRef area;          /* its address in this activation */
    LLVMValueRef ia;            /* the InputArgs pointer (growable graphs) */
    LLVMBasicBlockRef dispatch; /* growable primary: the dispatcher loop head */
    LLVMBasicBlockRef start;    /* growable primary: the way in of jg_llvm_call_at */
    LLVMValueRef dispatch_id;   /* its phi */
    char *err;
    size_t errsize;
    bool failed;
} LgMethod;

bool lg_fail(LgMethod *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Builds the function of a method; false with a message on failure. */
bool lg_build_method(LgMethod *m);
/* Ensures the InputArgs area can hold `n` slots (compile-time check). */
bool lg_need_slots(LgMethod *m, uint32_t n);

/* Whether `block` belongs to the method. */
static inline bool lg_internal(const LgMethod *m, uint32_t block)
{
    return block >= m->lo && block < m->hi && !(m->leave_at && m->leave_at[block - m->lo]);
}

/* Whether a terminator's links are control-flow successors. */
static inline bool lg_has_successors(const JgTerm *t)
{
    return t->kind == JG_TERM_GOTO || t->kind == JG_TERM_BRANCH || t->kind == JG_TERM_SWITCH;
}

/* Whether the method's dispatcher switch has a landing for `block`. */
static inline bool lg_has_landing(const LgMethod *m, uint32_t block)
{
    return m->entries_only ? m->entries_only[block - m->lo] : m->lg->blocks[block].enterable;
}

/* ---- forward.c ---- */

/* Finds the blocks that only pass their parameters on, and where their
 * chains end. */
bool lg_find_forwarding(LgMethod *m);
void lg_free_forwarding(LgMethod *m);
/* The block a link to `target` really goes to. */
uint32_t lg_final_target(const LgMethod *m, uint32_t target);
/* `l` itself, or (when it goes to a forwarding block) the link to its
 * chain's end in `buf`, valid until the next call; NULL on failure. */
const JgLink *lg_effective_link(LgMethod *m, const JgLink *l, JgLink *buf);

/* ---- cold.c ---- */

/* Marks the landings of a secondary that would enter a loop elsewhere than
 * at its header (m->cold, m->ncold). */
bool lg_find_cold_entries(LgMethod *m);

/* ---- dispatch.c ---- */

LLVMValueRef lg_const_ptr(const JgLlvm *llvm, const void *p);
LLVMValueRef lg_to_slot(LgMethod *m, LLVMValueRef v, JgType t);
LLVMValueRef lg_from_slot(LgMethod *m, LLVMValueRef bits, JgType t);
LLVMValueRef lg_ia_addr(LgMethod *m, uint64_t offset);
/* Offset of the activation's tail (after the slots). */
uint64_t lg_tail(const LgMethod *m);
void lg_store_slots(LgMethod *m, uint32_t n, const JgVal *vals);
/* Sets up the entry of the method: allocas, InputArgs, dispatcher, and
 * the way into every enterable block. */
bool lg_build_entry(LgMethod *m);
/* An edge to another method's block / the result of a flexswitch: go
 * through the dispatchers with this block id. */
void lg_emit_exit(LgMethod *m, LLVMValueRef id);
bool lg_build_call_wrapper(JgLlvm *llvm, LgGraph *lg, LLVMModuleRef mod, LLVMValueRef primary);

/* Called by a growable primary entered with a start pending: fills the
 * activation's slots and returns the block id to dispatch. */
uint32_t lg_take_start(LgGraph *lg, JgInputArgs *ia);

/* ---- areas.c ---- */

/* Primary: an empty table of areas. */
void lg_init_tail(LgMethod *m);
/* Primary: the block that serves JG_BLOCKID_NEED_AREA. */
LLVMBasicBlockRef lg_build_grant(LgMethod *m);
/* Secondary with area_bytes: the check at its entry (returns the entry's
 * terminator; the builder is left where the method may start). */
LLVMValueRef lg_area_entry(LgMethod *m, LLVMValueRef id);

/* ---- lower.c ---- */

LLVMValueRef lg_value(LgMethod *m, JgVal v);
LLVMValueRef lg_entry_alloca(LgMethod *m, LLVMTypeRef type, unsigned align, const char *name);
bool lg_lower_op(LgMethod *m, const JgOp *op);

/* ---- calls.c ---- */

bool lg_lower_call(LgMethod *m, const JgOp *op);

/* ---- escape.c ---- */

/* Marks (in m->escapes) the ALLOCA results of a secondary whose memory may
 * be used after the secondary returns, and sums their sizes (area_bytes). */
bool lg_find_escaping_allocas(LgMethod *m);

/* landing.c: whether a dispatcher may enter block `block` of the method
 * [lo, hi) although it was not built to (nothing live into it but its
 * parameters). */
bool lg_safe_landing(const JgGraph *g, uint32_t lo, uint32_t hi, uint32_t block);

#endif
