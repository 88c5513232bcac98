/* Case 8: a virtual object updated around a loop and escaping only after
 * it. The loop is controlled by the red `n`, so it closes in the residual
 * code; the object stays virtual around it (its fields become loop
 * variables) and is allocated once, after the loop, with the final values. */
#include "pv_support.h"

JIT_PORTAL int64_t pv_sink(PvReal *real, int64_t n)
{
    /* read through a plain int64_t pointer, which clang must assume may alias
     * the object's fields: it keeps them in memory inside the loop rather
     * than in registers, so the partial evaluator sees every store */
    const int64_t *x = &real->x;
    PvObj *o = pv_alloc(sizeof *o);
    for (int64_t i = 0; i < n; i++) {
        o->a += *x + i;
        o->b = (o->b * 3 + 1) % 1000003;
    }
    real->first = o;
    return o->a;
}
