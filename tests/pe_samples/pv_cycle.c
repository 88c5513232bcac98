/* Case 5: virtual objects pointing to themselves (o->next = o) and to each
 * other (p <-> q), read through the cycles, then escaping: one allocation
 * each, and the stored links are the objects themselves. */
#include "pv_support.h"

JIT_PORTAL int64_t pv_cycle(PvReal *real, int64_t x)
{
    PvObj *o = pv_alloc(sizeof *o);
    o->next = o;
    o->a = x;
    PvObj *p = pv_alloc(sizeof *p);
    PvObj *q = pv_alloc(sizeof *q);
    p->next = q;
    q->next = p;
    p->a = x * 2;
    q->a = x * 3;
    pv_barrier();
    int64_t r = o->next->next->a + p->next->next->next->a * 10;
    real->first = o;
    real->second = p;
    return r;
}
