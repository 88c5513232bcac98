/* Case 6: loads from real memory stay residual. The loop (unrolled: `k` is
 * green) reads real->x k times around stores into a virtual object; through
 * a plain int64_t pointer, clang must assume the two may alias and keeps
 * every load. The partial evaluator's heap cache knows a virtual object
 * aliases nothing, so one load serves them all. A residual call that writes
 * memory (pv_bump changes real->x) forgets what the cache knew. */
#include "pv_support.h"

JIT_PORTAL int64_t pv_real_loads(PvReal *real, int64_t k)
{
    k = jit_concrete(k);
    const int64_t *x = &real->x;
    PvObj *o = pv_alloc(sizeof *o);
    for (int64_t i = 0; i < k; i++)
        o->a = o->a * 2 + *x; /* no closed form for clang to replace the loop with */
    pv_bump(real);
    o->b = *x;
    return o->a * 1000 + o->b;
}
