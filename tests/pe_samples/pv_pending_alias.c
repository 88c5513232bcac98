/* Case 12: a pending store into real memory is done before anything that
 * may observe it: a load through another pointer that may be the same
 * memory (`other` may be `real`), and a residual call (pv_read_second reads
 * real->second). */
#include "pv_support.h"

JIT_PORTAL int64_t pv_pending_alias(PvReal *real, PvReal *other, int64_t n)
{
    int64_t seen = 0;
    for (int64_t i = 0; i < n; i++) {
        PvObj *o = pv_alloc(sizeof *o);
        o->a = i + 1;
        real->first = o;
        seen = seen * 7 + other->first->a;
    }
    PvObj *last = pv_alloc(sizeof *last);
    last->a = seen % 1000;
    real->second = last;
    return seen * 1000 + pv_read_second(real);
}
