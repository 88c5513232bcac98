/* A residual call of the portal in compiled code, as the backends hand it
 * to their host: the host may remember there what it found for the call
 * (the residual graph of its green arguments), so that later calls from
 * the same place skip the lookup. */
#ifndef JITGEN_PORTAL_SITE_H
#define JITGEN_PORTAL_SITE_H

#include <stdint.h>

typedef struct JgPortalSite {
    struct JgPortalSite *next; /* the backend's list, freed with its code */
    /* bit i: the call's argument i is a constant there, the same at every
     * call (arguments past 63: unknown) */
    uint64_t constant;
    void *host; /* the host's, NULL at first */
    /* a backend's direct way to the callee (NULL: through the host), which
     * the host sets and takes back through that backend: the callee's
     * compiled graph, run on the call's red arguments */
    void *direct;
    /* how the call passes its arguments, for the host (the partial
     * evaluator's JgArgShapes, from the op's `imm`; NULL: each as it is) */
    const void *arg_shapes;
} JgPortalSite;

/* A residual CALL of the portal carries in its `imm` how it passes its
 * arguments (the partial evaluator's shapes, 8-byte aligned) and, in bit 0,
 * whether its caller reads the shape of the result (a value returned as its
 * word: pe/value_args.c). A call from the interpreter's graphs has 0. */
#define JG_PORTAL_CALL_READS_SHAPE 1

static inline const void *jg_portal_call_shapes(int64_t imm)
{
    return (const void *)(uintptr_t)((uint64_t)imm & ~(uint64_t)JG_PORTAL_CALL_READS_SHAPE);
}

struct JgGraph;
struct JgOp;

/* A new site for portal CALL `op` of graph `g`, pushed on the backend's
 * `list`: its constant arguments and its argument shapes are the op's.
 * NULL when out of memory. */
JgPortalSite *jg_portal_site_new(const struct JgGraph *g, const struct JgOp *op,
                                 JgPortalSite **list);

#endif
