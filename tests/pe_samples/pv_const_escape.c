/* Case 2: constants of every width stored into virtual objects, which then
 * escape: the materialized objects hold exactly those constants. A field
 * overwritten with zero is no store at all (the allocator's memory is
 * zero-filled). */
#include "pv_support.h"

JIT_PORTAL int64_t pv_const_escape(PvReal *real, int64_t x)
{
    PvRecord *r = pv_alloc(sizeof *r);
    r->i64 = -5000000000;
    r->i32 = -7;
    r->i16 = 1234;
    r->i8 = -3;
    r->f64 = 2.5;
    r->ptr = pv_marker;
    PvObj *o = pv_alloc(sizeof *o);
    o->a = 7;
    o->b = 99;
    /* clang must keep both stores of o->b: the callee might read it */
    pv_barrier();
    o->b = 0;
    o->c = -1;
    real->any = r;
    real->first = o;
    return x;
}
