#include "fold.h"

uint64_t jg_fold(JgOpcode opcode, JgType type, JgPred pred, uint32_t nargs, const JgType *types,
                 const uint64_t *bits)
{
    uint64_t x[3] = {0, 0, 0};
    for (uint32_t i = 0; i < nargs && i < 3; i++)
        x[i] = mask(types[i], bits[i]);
    return mask(type, jg_arith(opcode, type, pred, types[0], x));
}
