/* Accesses of different widths to the same bytes of virtual objects (a
 * union of a word and its bytes): a byte read inside a word field, a byte
 * written into it, then the whole word read back; and a word read over a
 * byte field. The fields of a virtual object must not answer a read, or
 * absorb a write, that covers them only in part: those objects are
 * materialized and the accesses done on memory. */
#include "pv_support.h"

JIT_PORTAL int64_t pv_overlap(int64_t x)
{
    PvBytes *u = pv_alloc(sizeof *u);
    u->word = x;
    pv_barrier();
    int64_t byte = u->bytes[1];
    u->bytes[0] = 0x7f;
    PvBytes *v = pv_alloc(sizeof *v);
    v->bytes[3] = (uint8_t)x;
    pv_barrier();
    return byte * 1000 + u->word + v->word * 7;
}
