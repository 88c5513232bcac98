/* Samples for the bitcode reader tests: a tiny interpreter loop with the
 * hints. The store before jit_merge_point() stays in the same LLVM block as
 * the merge point (a call may read it), so the reader must split that
 * block. */
#include "jitgen/hints.h"

#include "reader_samples.h"

int64_t s_mini_interp(const uint8_t *code, int64_t len, int64_t acc, int64_t *steps)
{
    code = jit_deepfreeze(code);
    int64_t pc = 0;
    for (;;) {
        int64_t twice = acc * 2;
        *steps += 1;
        jit_merge_point();
        if (pc >= len)
            return acc;
        int64_t op = jit_concrete((int64_t)code[pc]);
        pc++;
        switch (op) {
        case 0:
            acc = twice;
            break;
        case 1:
            acc = acc + 1;
            break;
        case 2:
            acc = jit_promote(acc) - 3;
            break;
        default:
            acc = jit_forget(acc) * (int64_t)op;
            break;
        }
    }
}

int64_t s_hint_ptr(const int64_t *p)
{
    const int64_t *q = jit_promote(p);
    const int64_t *r = jit_forget(q);
    return *r + *(const int64_t *)jit_concrete(p);
}
