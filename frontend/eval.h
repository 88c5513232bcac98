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
typedef bool (*JgCallHook)(void *ctx, JgEvaluator *ev, const JgGraph *callee, void *native,
                           uint32_t nargs, const uint64_t *args, uint64_t *result);

struct JgEvaluator {
    const JgModule *module; /* to find graphs of indirect callees; may be NULL */
    JgCallHook hook;        /* may be NULL */
    void *hook_ctx;
    uint64_t ops_executed;  /* statistics */
};

/* Runs `g` with one argument per parameter (integers zero-extended in the
 * low bits, pointers as addresses, doubles bit-cast) and returns the result
 * the same way (0 for void). Frames live on the C stack, so a garbage
 * collector that scans the stack conservatively sees every value. A graph
 * with JG_FLAG_EXTERNAL is called natively. */
uint64_t jg_eval(JgEvaluator *ev, const JgGraph *g, const uint64_t *args);

/* Calls a native function through libffi with the argument and result types
 * given; `nfixed` < nargs for variadic functions. */
uint64_t jg_call_native(void *fn, JgType ret, uint32_t nargs, const JgType *types,
                        const uint64_t *args, uint32_t nfixed);

#endif
