/* Case 11: a virtual object stored into real memory stays virtual. Every
 * iteration allocates an object from the one real->first points to and
 * stores it there; the store is kept pending (the loads that follow read
 * the virtual object back), so the loop allocates nothing and stores
 * nothing, and only the last object is allocated, when the portal returns.
 * This is a frame handed over by an interpreter with its object in real
 * memory. The object real->first points to on entry is real. */
#include "pv_support.h"

JIT_PORTAL int64_t pv_pending(PvReal *real, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        PvObj *o = pv_alloc(sizeof *o);
        o->a = real->first->a + i;
        o->b = (real->first->b * 3 + 1) % 1000003;
        real->first = o;
    }
    return real->first->a * 1000 + real->first->b;
}
