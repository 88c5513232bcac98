/* Case 7: a virtual object passed to a residual call is materialized before
 * the call with its fields stored; what the callee writes is read back from
 * memory after the call, not from the stale virtual fields. */
#include "pv_support.h"

JIT_PORTAL int64_t pv_residual_call(int64_t x)
{
    PvObj *o = pv_alloc(sizeof *o);
    o->a = x;
    o->b = 2;
    int64_t r = pv_callee(o);
    return r * 1000000 + o->b * 1000 + o->c;
}
