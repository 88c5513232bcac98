/* A tiny hinted interpreter for the binding-time analysis tests: a portal
 * whose code and pc become green through jit_concrete, with a stack of red
 * values and a promoted value. */
#include "jitgen/hints.h"

typedef struct BtaProgram {
    const unsigned char *code;
    long len;
} BtaProgram;

long bta_good_counter; /* mutable memory: loads from it stay red */

JIT_ELIDABLE long bta_good_square(long x)
{
    return x * x;
}

JIT_PORTAL long bta_good_portal(const BtaProgram *prog, long pc, long input)
{
    prog = jit_deepfreeze(prog);
    long acc = input;
    for (;;) {
        jit_merge_point();
        if (pc >= prog->len)
            return acc;
        int op = jit_concrete(prog->code[pc]);
        pc++;
        switch (op) {
        case 1:
            acc = acc + bta_good_square(op);
            break;
        case 2:
            acc = jit_promote(acc) * 3;
            break;
        case 3:
            acc = acc + bta_good_counter;
            break;
        default:
            return -1;
        }
    }
}
