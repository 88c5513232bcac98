/* Internals of the partial evaluator shared by its files. */
#ifndef JITGEN_PE_INTERNAL_H
#define JITGEN_PE_INTERNAL_H

#include "pe.h"

/* ---- abstract values ---- */

typedef enum AvKind {
    AV_NONE,  /* not computed (a bug if read) */
    AV_CONST, /* a known value: bits */
    AV_VAR,   /* a residual value, plus a byte offset for pointers (lazy ptradd) */
    AV_VIRT,  /* a pointer into a virtual object, at a byte offset */
} AvKind;

typedef struct Virt Virt;

typedef struct Av {
    uint8_t kind; /* AvKind */
    uint8_t type; /* JgType */
    JgVal var;
    int64_t offset;
    uint64_t bits;
    Virt *obj;
} Av;

typedef struct Field {
    int64_t offset;
    uint8_t type;
    Av value;
} Field;

typedef enum VirtKind {
    VIRT_HEAP,  /* from a JIT_ALLOCATOR call: materialized by calling it */
    VIRT_STACK, /* from an ALLOCA: materialized as a residual ALLOCA */
} VirtKind;

struct Virt {
    uint8_t kind; /* VirtKind */
    int64_t size;
    const JgGraph *allocator; /* VIRT_HEAP: what to call */
    JgVal materialized;       /* residual pointer once escaped, else 0 */
    uint32_t nfields, capacity;
    Field *fields;        /* sorted by offset; absent fields read as zero */
    Virt *copy;           /* scratch: the copy made during a state copy */
    uint32_t mark;        /* scratch: walk number */
    uint32_t slot;        /* scratch: index during a walk */
    uint32_t escape_walk; /* scratch: the match walk that lets it escape (merge.c) */
    uint32_t depth_walk;  /* scratch: the walk that set min_depth */
    uint32_t min_depth;   /* scratch: fewest links from the frames (merge.c) */

    /* VIRT_HEAP: the allocator's constant second argument, if it takes one
     * (has_tag), passed again when the object is materialized */
    uint64_t tag;
    bool has_tag;
};

/* ---- frames and states ---- */

/* Per interpreter graph: where each value lives in a block's locals. A
 * block's parameters are its first locals, in order. */
enum { PE_NOT_LOCAL = UINT32_MAX };

typedef struct PeGraphInfo {
    const JgGraph *g;
    uint32_t *local_index; /* per value: index in its block's locals, or
                            * PE_NOT_LOCAL (a constant) */
    uint32_t *nlocals;     /* per block: parameters + op results */
    JgVal **locals;        /* per block: the value of each local index */
    uint32_t max_locals;   /* the most locals of any block */
    /* per block: every path from it ends in `unreachable` (after a call
     * that never returns: the interpreter raising an error), so residual
     * code reaches it rarely if ever (pe/specialize.c, split_branch) */
    bool *doomed;
} PeGraphInfo;

typedef struct Frame {
    const JgGraph *g;
    const JgBtaVariant *bta;
    const PeGraphInfo *info;
    uint32_t block;
    uint32_t op; /* next op to run; in a caller frame: the call op */
    uint32_t nlocals;
    uint32_t locals_capacity; /* entries of `locals`, reused from block to block */
    Av *locals;
    uint8_t portal;              /* a portal frame (for recursion checks) */
    const uint64_t *portal_args; /* portal frames: argument values at entry (greens valid) */
} Frame;

/* Known contents of real memory at base + offset (base 0: an absolute
 * address). A pending entry is a store not emitted yet (pe/pending.c). */
typedef struct CacheEntry {
    JgVal base;
    int64_t offset;
    uint8_t type;
    uint8_t pending;
    /* loaded by a JG_IMM_IMMUTABLE load: calls and stores leave it known */
    uint8_t immutable;
    Av value;
} CacheEntry;

/* Whether entry `e`'s bytes overlap those of an access of `type` at
 * `offset` (of any base). */
static inline bool cache_entry_overlaps(const CacheEntry *e, int64_t offset, JgType type)
{
    return e->offset < offset + (int64_t)jg_type_size(type) &&
           offset < e->offset + (int64_t)jg_type_size((JgType)e->type);
}

/* The merge-point blocks a path went through, newest first (shared between
 * the copies of a state: nodes are never changed once linked). */
typedef struct PathNode {
    struct MergeEntry *entry;
    struct PathNode *parent;
    uint64_t hash; /* the entry's key hash, here so that a walk back along the
                      path (merge_point) reads the nodes alone */
} PathNode;

typedef struct State {
    PathNode *history;
    uint32_t depth, capacity;
    Frame *frames; /* frames[depth - 1] is the running frame */
    uint32_t ncache, cache_capacity;
    CacheEntry *cache; /* heap cache: known contents of real memory */
    /* the path forked (a red branch or select) since its last merge point:
     * it joins others at the next one (follow) */
    bool forked;
    /* the residual value of the host array (value_args_host_load), 0: none */
    JgVal host_array;
    /* on a path from a loop header specialized again on the host array's
     * words (pe/guess.c, guess_late): it joins only blocks of such paths,
     * where a word assumed stays a constant (a variable slot of the other
     * blocks would accept it) */
    bool on_words;
} State;

/* A residual block a merge-point key owns, with the state it assumes. */
typedef struct MergeEntry {
    uint64_t hash;
    uint32_t keylen;
    uint8_t *key;
    uint32_t block;       /* residual block */
    uint32_t compilation; /* index of the compilation that made it */
    State *shape;         /* its state: VARs are the block's parameters */
    struct MergeEntry *next;
} MergeEntry;

/* What the partial evaluator keeps per residual graph. */
typedef struct PeResidualData {
    MergeEntry **merge_table; /* grown with merge_count (merge.c, grow_table) */
    uint32_t merge_buckets;
    uint32_t merge_count;
    /* bit (hash % PE_PATH_KEY_BITS): some path node has a key of that hash,
     * so that merge_point walks a path back only for keys paths have had */
    uint64_t *path_keys;
    /* path nodes, allocated one after the other in chunks, so that a walk
     * back along a path reads neighbouring memory */
    PathNode *node_pool;
    uint32_t node_pool_left;
    /* a host's call specialized without assumptions whose loops did not
     * close yet (pe/guess.c, guess_late): NULL once nothing is left to try */
    struct LateGuess *late;
    /* the same, kept for guess_divisors whether or not late guesses are on */
    struct LateGuess *hand_over;
} PeResidualData;

#define PE_PATH_KEY_BITS (1u << 16)

/* What a flexswitch keeps to resume specialization on a miss. */
typedef struct PeFlexData {
    JgPe *pe;
    JgResidual *residual;
    State *state;     /* positioned at the promote op */
    Av promoted;      /* the promoted value as it was (a variable) */
    bool call_result; /* a portal call's result shape (pe/value_args.c), not a promote op */
    /* a host call's guard (pe/guess.c), not a promote op: the
     * state is the portal's entry; case 1 assumes `guess` */
    const struct HostGuess *guess;
    const JgArgShapes *host_shapes;
    /* a cold path (split_branch): the state is at the start of a doomed
     * block, specialized when first taken, whatever the value */
    bool cold;
} PeFlexData;

/* Ends `block` in a flexswitch on `value` whose misses resume from `s` as
 * it is (a copy); the caller says how in the data returned (NULL: failed). */
PeFlexData *pe_flexswitch(JgPe *pe, State *s, uint32_t block, JgVal value, JgFlexswitch **out);

/* Work still to do: specialize from `state` into residual block `block`. */
typedef struct Work {
    uint32_t block;
    State *state;
} Work;

struct JgPe {
    const JgModule *module;
    JgBta *bta;
    JgPeOptions options;
    JgPeStats stats;
    JgArena arena;       /* graph infos; everything else lives in the residual's arena */
    PeGraphInfo **infos; /* per module graph index, lazily */
    JgResidual *residuals;
    JgResidual **by_key; /* the residuals by their green arguments (open addressing) */
    uint32_t by_key_cap, nresiduals;
    JgResidual *last;                /* the one found last (recursion calls the same key again) */
    uint8_t green_index[64];         /* the portal's green parameters */
    struct ValueShape *value_shapes; /* interned (pe/value_args.c) */
    JgArgShapes *arg_shapes;         /* interned (pe/value_args.c) */
    struct HostFields *host_fields;  /* interned (pe/value_args.c) */
    uint32_t ngreen;
    /* the compilation in progress */
    JgResidual *current;
    JgGraph *rg; /* current->graph; its arena holds states and virtuals */
    JG_VEC(Work) work;
    /* a merge point's scratch: the locals the state arrived with (merge.c,
     * in `arena`) */
    Av *kept;
    uint32_t kept_capacity;
    uint32_t walk; /* walk counter for Virt.mark */
    JgEvaluator *exit_evaluator;
    /* a specialization for a host's call: the shapes of the host array's
     * objects, until code with an effect on memory is emitted
     * (value_args_host_load) */
    const JgArgShapes *host_array_shapes;
    /* with them, the integers those objects are assumed to hold (NULL: none) */
    const struct HostGuess *host_guess;
    /* while a host's call is specialized without assumptions first
     * (pe/guess.c): the residual values its loads of the array's words gave */
    bool probing;
    uint32_t nprobes;
    struct GuessProbe {
        uint32_t slot;
        JgVal word;
    } probes[64];
    /* the last loop a path of this compilation closed (merge_point), while
     * guess_late looks for one */
    const MergeEntry *closed;
    uint64_t budget_left; /* interpreter operations this compilation may still process */
    char error[512];
    bool failed;
};

/* ---- pe/state.c ---- */
State *state_new(JgPe *pe);
/* A copy of `s` (virtual objects copied, aliasing kept) that is kept as it
 * is: a merge point's shape, a compilation's start. */
State *state_copy(JgPe *pe, const State *s);
/* The same for a copy that goes on specializing (the other path of a
 * branch, a flexswitch's case): its frames have room for the locals of
 * their graph's largest block, as a running frame has (frame_enter_block). */
State *state_fork(JgPe *pe, const State *s);
/* A state that takes over the frames of `s`, which ends here (the path goes
 * on as the new state), without its heap cache: for a merge point, which
 * replaces every local that may point to a virtual object and sets the
 * cache itself. */
State *state_take_frames(JgPe *pe, const State *s);
Frame *state_push_frame(JgPe *pe, State *s, const JgGraph *g, const JgBtaVariant *bta,
                        uint32_t block);
void frame_enter_block(JgPe *pe, Frame *f, uint32_t block);
Virt *virt_new(JgPe *pe, VirtKind kind, int64_t size, const JgGraph *allocator);
Field *virt_field(Virt *o, int64_t offset);
bool virt_overlaps_partly(const Virt *o, int64_t offset, JgType type);
void virt_store(JgPe *pe, Virt *o, int64_t offset, JgType type, Av value);
PeGraphInfo *pe_graph_info(JgPe *pe, const JgGraph *g);

static inline Av av_const(JgType type, uint64_t bits)
{
    Av a = {.kind = AV_CONST, .type = type, .bits = jg_truncate_bits(type, bits)};
    return a;
}
static inline Av av_var(JgType type, JgVal var)
{
    Av a = {.kind = AV_VAR, .type = type, .var = var};
    return a;
}
/* The abstract value of `v` in the running block of `f`: inline, as the
 * partial evaluator reads one per argument of every operation and link.
 * A graph's constants are truncated to their type already (jg_const). */
static inline Av av_get(const Frame *f, JgVal v)
{
    uint32_t local = f->info->local_index[v];
    if (local != PE_NOT_LOCAL)
        return f->locals[local];
    const JgValueInfo *vi = jg_value(f->g, v);
    Av a = {.kind = AV_CONST, .type = vi->type, .bits = vi->bits};
    return a;
}
static inline void av_set(Frame *f, JgVal v, Av a)
{
    f->locals[f->info->local_index[v]] = a;
}

/* ---- residual emission (pe/emit.c) ---- */
JgVal emit_const(JgPe *pe, JgType type, uint64_t bits);
JgVal emit_op(JgPe *pe, uint32_t block, JgOpcode opcode, JgType type, uint32_t nargs,
              const JgVal *args);
JgVal emit_pointer_plus(JgPe *pe, uint32_t block, JgVal base, int64_t offset);
/* The residual value of an abstract value (materializing virtuals). */
JgVal residualize(JgPe *pe, State *s, uint32_t block, Av a);
JgVal materialize(JgPe *pe, State *s, uint32_t block, Virt *o);
void cache_forget_all(State *s);
CacheEntry *cache_put(JgPe *pe, State *s, JgVal base, int64_t offset, JgType type, Av value);
const CacheEntry *cache_find(const State *s, JgVal base, int64_t offset, JgType type);
const Av *cache_get(const State *s, JgVal base, int64_t offset, JgType type);
void cache_invalidate_store(State *s, JgVal base, int64_t offset, JgType type);

/* ---- lazy stores into real memory (pe/pending.c) ---- */
/* Whether a store of `value` into real memory may stay pending. */
bool pending_keepable(Av value);
void pending_put(JgPe *pe, State *s, JgVal base, int64_t offset, JgType type, Av value);
void pending_flush_all(JgPe *pe, State *s, uint32_t block);
/* Emits the store of cache entry `i` of `s` in `block`; it stays in the
 * cache as a known value. */
void pending_flush_entry(JgPe *pe, State *s, uint32_t block, uint32_t i);
void pending_flush_aliases(JgPe *pe, State *s, uint32_t block, JgVal base, int64_t offset,
                           JgType type);
uint32_t pending_count(const State *s);
/* At a merge point with no block that fits: the pending stores of `s` of
 * virtual objects linking to real memory (nodes pushed onto a structure)
 * at offsets where `shape`, the block the path last went through at this
 * key, keeps none are emitted in `block`. Returns how many. */
uint32_t pending_narrow(JgPe *pe, State *s, uint32_t block, const State *shape);
/* An object of a value allocator (JG_FLAG_VALUE: an immutable box whose
 * identity the program cannot tell, a number), which past the bound of
 * blocks per key stays virtual wherever it is (merge.c, measure_depths). */
bool pending_value_object(const Virt *o);
typedef enum SettleMode {
    SETTLE_MERGE, /* a merge point */
    SETTLE_BOUND, /* past the bound of blocks per key */
    SETTLE_ALL,   /* every pending store emitted */
} SettleMode;
void pending_settle(JgPe *pe, State *s, uint32_t block, SettleMode mode);

/* ---- merge points (pe/merge.c) ---- */
/* Arriving at a merge point: returns true when the path ends (jumped to an
 * existing residual block); otherwise *state has been replaced by the
 * generalized state of a new residual block, into which *block now points. */
bool merge_point(JgPe *pe, State **state, uint32_t *block);
/* The residual values a state refers to, in canonical order (no
 * duplicates); writes up to `max`, returns the count. */
uint32_t state_live_vars(JgPe *pe, const State *s, JgVal *out, uint32_t max);
/* Replaces residual values in a state: from[i] -> to[i]. */
void state_rename(JgPe *pe, State *s, uint32_t n, const JgVal *from, const Av *to);
/* Drops the merge-point entries of blocks from `first` on (a compilation
 * that is thrown away). */
void merge_forget_from(JgPe *pe, uint32_t first);
/* Gives residual block `block` an entry of `like`'s key with state
 * `shape` (its VARs `block`'s parameters), found before `like` by later
 * arrivals; `shape`'s path now goes through it. */
void merge_add_variant(JgPe *pe, const MergeEntry *like, uint32_t block, State *shape);

/* ---- exits to the evaluator (pe/exit.c) ---- */
/* Ends `block` with an exit that runs the state's frames in the graph
 * evaluator and returns their result. */
void pe_emit_exit(JgPe *pe, State *s, uint32_t block, const char *reason);
/* Whether the residual graph can exit (its result fits an integer). */
bool pe_can_exit(const JgPe *pe);

/* ---- value arguments of portal calls (pe/value_args.c) ---- */
/* For a residual call `op` of the portal: sets args[i + 1] of every red
 * argument that travels by value to its word, and returns the call's
 * shapes (NULL: every argument as it is; the caller residualizes those). */
const JgArgShapes *value_args_pass(JgPe *pe, State *s, uint32_t block, const Frame *f,
                                   const JgOp *op, JgVal *args);
/* Whether portal argument `i` travels by value under `shapes`. */
bool value_args_passed(const JgArgShapes *shapes, uint32_t i);
/* Interns the shapes of the objects the interpreter's own code builds with
 * a value allocator, before any specialization (for jg_pe_host_shapes). */
void value_args_seed(JgPe *pe);
/* The virtual object a callee rebuilds from parameter `param` (its
 * conversion, if any, emitted into block 0). */
Av value_args_receive(JgPe *pe, const JgArgShapes *shapes, uint32_t i, JgVal param);

/* The most objects of a host array read by shape. */
#define PE_HOST_ARRAY_MAX 256
/* The most fields of one host array object read at the entry
 * (JgPeOptions.host_fields). */
#define PE_HOST_FIELDS_MAX 16
/* A specialization for a host's call under `shapes` (NULL: none) begins,
 * the host array in residual parameter `param`. */
void value_args_host_array(JgPe *pe, State *s, const JgArgShapes *shapes, JgVal param);
/* A load from the host array (JgPeOptions.host_array) at element `offset`
 * / 8 that the host's call found an object of a value shape at: a copy of
 * it, rebuilt from its word, which is loaded (into `block`) unless the
 * specialization assumes it (host_guess; else the load is noted for
 * guess_probe); false for any other load. */
bool value_args_host_load(JgPe *pe, State *s, uint32_t block, JgVal base, int64_t offset,
                          JgType type, Av *out);

/* Whether element j of the host array is, under `shapes`, an object whose
 * unknown word is an integer at `offset`. */
bool value_args_host_word(const JgArgShapes *shapes, uint32_t j, int64_t *offset);

/* ---- pe/guess.c ---- */

/* The most integers of the host array one specialization assumes. */
#define PE_HOST_GUESS_MAX 32
/* Integer words of the host array's objects a specialization for a host's
 * call assumes (guess_make): element slot[k]'s word is word[k]. */
typedef struct HostGuess {
    uint32_t n;
    uint32_t slot[PE_HOST_GUESS_MAX];
    uint64_t word[PE_HOST_GUESS_MAX];
    int64_t word_offset[PE_HOST_GUESS_MAX];
} HostGuess;
/* Whether the host's call being specialized brings integers in its host
 * array that the specialization could assume; if so, the probe starts: the
 * loads of the array's words are noted (guess_probe) while the graph is
 * specialized without assumptions. */
bool guess_probe_start(JgPe *pe);
/* The load of element `slot`'s word gave residual value `word`. */
void guess_probe(JgPe *pe, uint32_t slot, JgVal word);
/* The probe ends: the integers of the host's call `args` that the graph
 * specialized without assumptions (pe->rg) never changes, with their
 * values now, or NULL: none. */
const HostGuess *guess_make(JgPe *pe, const uint64_t *args);
/* Whether the host array `host` still holds `g`'s integers: an i1 emitted
 * into `block`. */
JgVal guess_holds(JgPe *pe, uint32_t block, JgVal host, const HostGuess *g);
/* The probe found nothing to assume (the graph's loops go on through
 * flexswitches whose cases are not compiled yet): its loads and the words
 * of `args`' host array are kept for guess_late and guess_divisors. */
void guess_arm(JgPe *pe, const uint64_t *args);
/* After a compilation from block `first` whose path closed a loop
 * (pe->closed): if the loop's header keeps some of the host array's
 * integers unchanged and the graph divides by one of them, the header is
 * specialized once more on their values, entered through a guard from the
 * links of this compilation that entered it (once per graph). */
void guess_late(JgPe *pe, uint32_t first);
/* After a compilation from block `first` of a graph guess_arm kept words
 * for: its divisions by one of those integers get the word the host's call
 * brought as their likely divisor (JgOp.likely). */
void guess_divisors(JgPe *pe, uint32_t first);

/* Specializes from `s` into block `first` (pe/pe.c): a compilation's
 * start, or a block a compilation adds after its own path ended. */
bool pe_compile_from(JgPe *pe, uint32_t first, State *s);

/* Results: a residual graph returns a value object of a value allocator as
 * its word, and leaves its shape in jg_value_result_shape (NULL: a pointer).
 * Whether the portal's results travel that way (it returns a pointer). */
bool value_results_on(const JgPe *pe);
/* The residual value to return for `value`, the shape stored first (when
 * value_results_on). */
JgVal value_results_return(JgPe *pe, State *s, uint32_t block, Av value);
/* After a residual portal call: the shape its callee left (a load). */
Av value_results_shape(JgPe *pe, uint32_t block);
/* The call's result in the case of shape `shape` (0: the pointer `r`
 * itself), its conversion emitted into `block`. */
Av value_results_receive(JgPe *pe, uint64_t shape, JgVal r, uint32_t block);

/* ---- the main loop (pe/specialize.c) ---- */
/* Interpreter operations between two questions to JgPeOptions.admit. */
#define PE_ADMIT_EVERY 1024

/* Whether the host lets the compilation go on (JgPeOptions.admit); when
 * not, fails it (an exit follows) and counts the refusal. */
bool pe_admits(JgPe *pe);
void pe_fail(JgPe *pe, const char *fmt, ...);
void pe_run_work(JgPe *pe);

#endif
