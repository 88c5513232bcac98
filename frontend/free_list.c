#include "frontend/free_list.h"

void **jg_free_list_of(const JgGraph *g, const JgOp *op, const JgFreeListAllocator *allocators,
                       uint32_t n, const JgFreeListAllocator **which, uint64_t *size)
{
    if (!n || op->nargs < 2 || op->type != JG_PTR)
        return NULL;
    JgVal f = op->args[0], s = op->args[1];
    if (!f || f >= g->values.count || !jg_is_const(g, f) || !s || s >= g->values.count ||
        !jg_is_const(g, s))
        return NULL;
    uint64_t addr = jg_value(g, f)->bits;
    if (!addr && op->callee && op->callee->native)
        addr = (uint64_t)(uintptr_t)op->callee->native;
    for (uint32_t i = 0; i < n; i++) {
        const JgFreeListAllocator *a = &allocators[i];
        if ((uint64_t)(uintptr_t)a->fn != addr || !a->list)
            continue;
        void **list = a->list(jg_value(g, s)->bits);
        if (!list)
            return NULL;
        *which = a;
        *size = jg_value(g, s)->bits;
        return list;
    }
    return NULL;
}
