/* The graph evaluator: runs flow graphs with concrete values. Memory is real
 * (pointers are addresses), calls to functions with a graph are evaluated,
 * everything else (declarations, native-only functions) is called natively
 * through libffi. Used by `tlc run --engine=graphs` (the interpreter's own
 * graphs), by the partial evaluator's engine (residual graphs) and by tests. */
#ifndef JITGEN_EVAL_H
#define JITGEN_EVAL_H

#include "module.h"

typedef struct JgEvaluator JgEvaluator;

/* Lets a host take over some calls (e.g. portal calls under a JIT engine).
 * Returns true when it handled the call and wrote the result bits. */
typedef bool (*JgCallHook)(void *ctx, JgEvaluator *ev, const JgOp *op, const JgGraph *callee,
                           void *native, uint32_t nargs, const uint64_t *args, uint64_t *result);

/* Memory for ALLOCA op `op` of `block` (`size` bytes, zeroed by the
 * evaluator), when a host runs blocks one at a time (jg_eval_block). */
typedef void *(*JgAllocaFn)(void *ctx, uint32_t block, uint32_t op, size_t size);

struct JgEvaluator {
    const JgModule *module; /* to find graphs of indirect callees; may be NULL */
    JgCallHook hook;        /* may be NULL */
    void *hook_ctx;
    JgAllocaFn alloca_memory; /* jg_eval_block only; jg_eval uses its C frame */
    void *alloca_ctx;
    uint64_t ops_executed; /* statistics */
};

/* Runs `g` with one argument per parameter (integers zero-extended in the
 * low bits, pointers as addresses, doubles bit-cast) and returns the result
 * the same way (0 for void). Frames live on the C stack, so a garbage
 * collector that scans the stack conservatively sees every value. A graph
 * with JG_FLAG_EXTERNAL is called natively. */
uint64_t jg_eval(JgEvaluator *ev, const JgGraph *g, const uint64_t *args);

/* Runs `g` from operation `op` of `block` on `frame` (one slot per value
 * of the graph, every value the rest of the block and its successors read
 * set; jg_eval_frame_init for the constants): the partial evaluator's
 * exits resume interpreter frames in the middle of a block this way. */
uint64_t jg_eval_from(JgEvaluator *ev, const JgGraph *g, uint32_t block, uint32_t op,
                      uint64_t *frame);

/* Stepping through part of a graph: a host (the LLVM backend's evaluated
 * methods) keeps a frame of one slot per value of the graph, as jg_eval
 * does, and runs blocks one at a time. */

/* `bits` as a frame slot of type `t` holds it (zero-extended from its width). */
uint64_t jg_eval_normalize(JgType t, uint64_t bits);
/* Fills frame[0 .. g->values.count) with the constants, 0 elsewhere. */
void jg_eval_frame_init(const JgGraph *g, uint64_t *frame);
/* Runs the operations of `block` (ALLOCA memory from ev->alloca_memory). */
void jg_eval_block(JgEvaluator *ev, const JgGraph *g, uint32_t block, uint64_t *frame);
/* The link a GOTO, BRANCH or SWITCH terminator of `block` takes; NULL for
 * other terminators. */
const JgLink *jg_eval_successor(const JgGraph *g, uint32_t block, const uint64_t *frame);
/* Passes the link's arguments to its target's parameters (all read before
 * any is written). */
void jg_eval_pass(const JgGraph *g, const JgLink *l, uint64_t *frame);

/* Calls a native function through libffi with the argument and result types
 * given; `nfixed` < nargs for variadic functions. */
uint64_t jg_call_native(void *fn, JgType ret, uint32_t nargs, const JgType *types,
                        const uint64_t *args, uint32_t nfixed);

#endif
