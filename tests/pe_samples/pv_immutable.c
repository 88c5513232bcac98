/* Case 13: a word the interpreter loads as immutable (jit_load_immutable;
 * TLC's type words) stays known across a residual call that may write any
 * memory and across a store into another object at the same offset;
 * real->x, loaded plainly, is loaded again after the call. */
#include <stddef.h>

#include "pv_support.h"

JIT_PORTAL int64_t pv_immutable(PvReal *real, PvReal *other)
{
    void *before = jit_load_immutable(&real->any);
    int64_t x = real->x;
    pv_bump(real);
    other->any = NULL;
    void *after = jit_load_immutable(&real->any);
    return ((char *)after - (char *)before) * 1000 + real->x - x;
}
