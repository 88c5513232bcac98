/* Case 1: one virtual object stored into two fields of real memory. The
 * first store materializes it; the second stores the same pointer, not a
 * second allocation. */
#include "pv_support.h"

JIT_PORTAL int64_t pv_store_twice(PvReal *real, int64_t x)
{
    PvObj *o = pv_alloc(sizeof *o);
    o->a = x;
    o->c = 42;
    real->first = o;
    real->second = o;
    return x + 1;
}
