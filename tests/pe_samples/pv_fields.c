/* Case 3: a virtual object with several fields, read back without escaping:
 * no allocation, no memory access; what depends only on the green `k` is
 * folded. The residual call in between makes clang keep the loads (it cannot
 * know the callee leaves the object alone); the partial evaluator knows no
 * residual code can see a virtual object. */
#include "pv_support.h"

JIT_PORTAL int64_t pv_fields(int64_t k, int64_t x)
{
    k = jit_concrete(k);
    PvObj *o = pv_alloc(sizeof *o);
    o->a = k;
    o->b = x;
    o->c = k * 3 + 1;
    pv_barrier();
    /* o->next was never stored: it reads as NULL */
    return o->a * 1000 + o->c * 10 + o->b * 7 + (o->next ? 1 : 5);
}
