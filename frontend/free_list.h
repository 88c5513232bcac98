/* Which host allocator a residual call names (jitgen/allocator.h), for the
 * backends that compile its fast path in place. */
#ifndef JITGEN_FREE_LIST_H
#define JITGEN_FREE_LIST_H

#include "frontend/ir.h"
#include "jitgen/allocator.h"

/* The free list that call `op` of `g` takes its object from: the call's
 * function (a constant, or its native callee) is one of the `n` allocators
 * and its size a constant that allocator's list serves. Sets *which and
 * *size; NULL when the call is no such allocation. */
void **jg_free_list_of(const JgGraph *g, const JgOp *op, const JgFreeListAllocator *allocators,
                       uint32_t n, const JgFreeListAllocator **which, uint64_t *size);

#endif
