/* A deliberately wrong hint: the opcode is read through a pointer that is
 * not frozen (the code lives in mutable memory the portal reads directly),
 * so jit_concrete cannot be satisfied. */
#include "jitgen/hints.h"

unsigned char bta_bad_code[16]; /* mutable: never frozen */

JIT_PORTAL long bta_bad_portal(long pc, long input)
{
    long acc = input;
    for (;;) {
        jit_merge_point();
        if (pc >= 16)
            return acc;
        int op = jit_concrete(bta_bad_code[pc]); /* BAD HINT LINE */
        pc++;
        acc += op;
    }
}
