/* The partial evaluator (docs/architecture.md, "Partial evaluator"):
 * specializes the portal's colored graphs for green arguments and emits
 * residual flow graphs in which the interpreter's dispatch, its operand
 * stack and boxed temporaries are gone. Knows nothing of any particular
 * interpreter: it works on the module and the binding-time analysis. */
#ifndef JITGEN_PE_H
#define JITGEN_PE_H

#include "bta/bta.h"
#include "flexswitch/flexswitch.h"
#include "frontend/eval.h"
#include "frontend/module.h"
#include "jitgen/driver.h" /* JgHostFieldsFn */

/* Told of every exit the partial evaluator emits (pe/exit.c): the residual
 * graph and why specialization could not go on there. */
typedef void (*JgPeExitFn)(void *ctx, const char *graph, const char *reason);

/* Asked before every compilation and every PE_ADMIT_EVERY interpreter
 * operations during one: false ends it in an exit to the evaluator (the
 * host's memory budget for the JIT is spent). */
typedef bool (*JgPeAdmitFn)(void *ctx);

typedef struct JgPeOptions {
    bool no_virtuals;             /* ablation: every allocation is residual */
    unsigned max_inline_depth;    /* frames of inlined calls (0: default 24) */
    unsigned max_portal_inline;   /* nested inlined portal calls (0: default 4) */
    unsigned max_specializations; /* residual blocks per merge-point key (0: default 6) */
    bool no_unroll;               /* keep recurrence loops as they are (pe/unroll.c) */
    bool no_value_args;           /* ablation: portal calls pass every argument as it is */
    bool no_host_guesses;         /* ablation: a host's call assumes none of the host
                                     array's integers (pe/guess.c) */
    bool late_guesses;            /* a host's call whose loop closes only through
                                     flexswitch cases guesses its divisors then
                                     (pe/guess.c, guess_late; off by default) */
    bool no_likely_divisors;      /* ablation: a division by a handed-over integer gets
                                     no likely divisor (pe/guess.c, guess_divisors) */
    bool no_branch_facts;         /* ablation: a branch to an error leaves its condition
                                     a variable on its paths (specialize.c) */
    bool no_cold_paths;           /* ablation: branches to errors are specialized at
                                     once, not when first taken (specialize.c) */
    uint64_t budget_ops;          /* interpreter operations one compilation may process
                                     before it ends in an exit (0: default 1,000,000) */
    bool verify;                  /* check the graph after every compilation (pe.c) */
    JgPeExitFn on_exit;           /* may be NULL */
    void *on_exit_ctx;
    JgPeAdmitFn admit; /* NULL: every compilation goes on */
    void *admit_ctx;
    /* a red pointer parameter of the portal that points to as many objects
     * as its green parameter host_array_len says, and that the portal only
     * reads (JgDriverOptions.host_array) */
    bool host_array;
    unsigned host_array_param, host_array_len_param;
    JgHostFieldsFn host_fields; /* JgDriverOptions.host_fields; may be NULL */
} JgPeOptions;

typedef struct JgPeStats {
    uint64_t promotions;       /* flexswitches emitted (not counting host_guesses' guards
                                  nor cold paths) */
    uint64_t cold_paths;       /* branches to errors left for their first run (flexswitches) */
    uint64_t host_guesses;     /* host array integers assumed behind a guard at a host
                                  call's entry (pe/guess.c) */
    uint64_t late_guesses;     /* the same at a loop's header, once a flexswitch's case
                                  closed the loop (guess_late) */
    uint64_t likely_divisors;  /* divisions by a handed-over integer marked with its
                                  value then (guess_divisors) */
    uint64_t flexswitch_cases; /* cases compiled (each a resumption) */
    uint64_t residual_blocks;
    uint64_t residual_ops;
    uint64_t virtuals;        /* virtual objects created */
    uint64_t materialized;    /* virtual objects that escaped */
    uint64_t pending_stores;  /* stores of virtuals into real memory kept pending */
    uint64_t pending_flushed; /* pending stores emitted after all */
    uint64_t interp_ops;      /* interpreter operations processed */
    uint64_t specializations; /* residual graphs created */
    uint64_t unrolled_loops;  /* recurrence loops unrolled (pe/unroll.c; their copies are not
                                 counted in residual_blocks and residual_ops) */
    uint64_t exits;           /* compilations that ended in an exit to the evaluator */
    uint64_t exits_taken;     /* times residual code took one */
    uint64_t refused;         /* compilations JgPeOptions.admit ended (part of exits) */
    double ms;                /* time spent specializing */
} JgPeStats;

typedef struct JgPe JgPe;

/* How a residual portal call passes its red arguments (pe/value_args.c):
 * interned, so equal shapes are one pointer. A residual CALL of the portal
 * carries its shapes in JgOp.imm (0: every argument as it is); a host
 * passes them back to jg_pe_specialize with the call's arguments. */
typedef struct JgArgShapes JgArgShapes;

/* The shape of the value the last residual graph returned as its word
 * (NULL: it returned a pointer). Residual code that calls the portal reads
 * it right after the call (JG_PORTAL_CALL_READS_SHAPE); one thread runs
 * residual code. */
extern const void *jg_value_result_shape;
/* A residual graph's result `r` as the portal returns it: boxed, when it
 * came as a word (a new object of its shape), and the shape cleared. For a
 * host that called the portal, and for the interpreter's graphs. */
uint64_t jg_value_result_box(uint64_t r);
/* The same for a call whose arguments `objects` went as `words` under
 * `shapes` (jg_pe_host_shapes): a result equal to one of them is that
 * object, not a new box (a function that returns its argument allocates
 * nothing). */
uint64_t jg_value_result_box_reusing(uint64_t r, const JgArgShapes *shapes, const uint64_t *words,
                                     const uint64_t *objects);

/* A residual graph for one green key of the portal. Its parameters are the
 * portal's red parameters, in order. It grows when flexswitches miss. */
typedef struct JgResidual {
    JgGraph *graph;
    uint64_t *green_args;      /* the key: one value per portal parameter (red ones 0) */
    const JgArgShapes *arg_shapes; /* and how its callers pass the red ones */
    uint32_t nblocks_compiled; /* blocks handed to a backend so far */
    /* compilations: the first block of each (blocks of compilation i are
     * [starts[i], starts[i + 1]) or up to the end); a backend makes one
     * method of each */
    JG_VEC(uint32_t) compilation_starts;
    struct JgResidual *next;
    void *backend;    /* a backend's data for this graph */
    void *pe_private; /* the partial evaluator's data for this graph */
} JgResidual;

JgPe *jg_pe_new(const JgModule *m, JgBta *bta, const JgPeOptions *options);
void jg_pe_free(JgPe *pe);

/* The residual graph for the portal with these arguments (values of the
 * green parameters are used, red ones ignored) passed as `shapes` says
 * (NULL: all as they are): found in the cache, or specialized now. NULL
 * with a message in `err` on failure. */
JgResidual *jg_pe_specialize(JgPe *pe, const uint64_t *portal_args, const JgArgShapes *shapes,
                             char *err, size_t errsize);

/* A portal call from outside residual code (a host, the interpreter's
 * graphs), whose arguments are real objects: the shapes under which they
 * travel as residual calls pass them, each such argument in `portal_args`
 * replaced by its word; NULL (and `portal_args` unchanged) when none does.
 * The callee is then the residual graph compiled code calls, not one more
 * specialized for pointers (docs/architecture.md, "Value arguments"). */
const JgArgShapes *jg_pe_host_shapes(JgPe *pe, uint64_t *portal_args);

/* The flexswitch miss callback (JgFlexMissFn) every flexswitch the partial
 * evaluator emits uses. */
uint32_t jg_pe_resume(void *pe, JgFlexswitch *fs, uint64_t value);

/* The evaluator exits run interpreter frames with (its hook routes the
 * portal calls they make); without one, a plain evaluator of the module. */
void jg_pe_set_exit_evaluator(JgPe *pe, JgEvaluator *ev);

/* Called by residual code at an exit (pe/exit.c): runs the rest of the
 * activation in the evaluator and returns its result. */
typedef struct PeExit PeExit;
uint64_t jg_pe_exit_run(const PeExit *x, const uint64_t *values);

const JgPeStats *jg_pe_stats(const JgPe *pe);
/* Bytes the partial evaluator holds: residual graphs with the states,
 * virtual objects and exits of their compilations, and its own tables. */
uint64_t jg_pe_memory_bytes(const JgPe *pe);
const JgModule *jg_pe_module(const JgPe *pe);
/* Every residual graph specialized so far (newest first). */
JgResidual *jg_pe_residuals(const JgPe *pe);
/* The last error (after a failed resumption). */
const char *jg_pe_error(const JgPe *pe);

#endif
