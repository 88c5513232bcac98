/* Case 4: a chain of virtual objects a -> b -> c, c's field read through a.
 * With the green `escape` 0 nothing is allocated; with 1 the head escapes
 * and the three objects are materialized once each, linked. */
#include "pv_support.h"

JIT_PORTAL int64_t pv_chain(PvReal *real, int64_t x, int64_t escape)
{
    escape = jit_concrete(escape);
    PvObj *c = pv_alloc(sizeof *c);
    c->a = x;
    PvObj *b = pv_alloc(sizeof *b);
    b->a = x + 1;
    b->next = c;
    PvObj *a = pv_alloc(sizeof *a);
    a->a = x + 2;
    a->next = b;
    pv_barrier();
    int64_t r = a->next->next->a * 100 + a->next->a * 10 + a->a;
    if (escape)
        real->first = a;
    return r;
}
