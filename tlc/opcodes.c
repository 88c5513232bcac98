#include "opcodes.h"

#include <stddef.h>
#include <string.h>

static const TlcOpInfo op_table[TLC_OP_LAST + 1] = {
    [TLC_OP_NOP] = {"NOP", TLC_OPND_NONE, 0},
    [TLC_OP_PUSH] = {"PUSH", TLC_OPND_INT, 1},
    [TLC_OP_POP] = {"POP", TLC_OPND_NONE, 0},
    [TLC_OP_SWAP] = {"SWAP", TLC_OPND_NONE, 0},
    [TLC_OP_ROLL] = {"ROLL", TLC_OPND_INT, 1},
    [TLC_OP_PICK] = {"PICK", TLC_OPND_DEPTH, 1},
    [TLC_OP_PUT] = {"PUT", TLC_OPND_DEPTH, 1},
    [TLC_OP_ADD] = {"ADD", TLC_OPND_NONE, 0},
    [TLC_OP_SUB] = {"SUB", TLC_OPND_NONE, 0},
    [TLC_OP_MUL] = {"MUL", TLC_OPND_NONE, 0},
    [TLC_OP_DIV] = {"DIV", TLC_OPND_NONE, 0},
    [TLC_OP_EQ] = {"EQ", TLC_OPND_NONE, 0},
    [TLC_OP_NE] = {"NE", TLC_OPND_NONE, 0},
    [TLC_OP_LT] = {"LT", TLC_OPND_NONE, 0},
    [TLC_OP_LE] = {"LE", TLC_OPND_NONE, 0},
    [TLC_OP_GT] = {"GT", TLC_OPND_NONE, 0},
    [TLC_OP_GE] = {"GE", TLC_OPND_NONE, 0},
    [TLC_OP_BR_COND] = {"BR_COND", TLC_OPND_LABEL, 1},
    [TLC_OP_BR_COND_STK] = {"BR_COND_STK", TLC_OPND_NONE, 0},
    [TLC_OP_CALL] = {"CALL", TLC_OPND_LABEL, 1},
    [TLC_OP_RETURN] = {"RETURN", TLC_OPND_NONE, 0},
    [TLC_OP_PUSHARG] = {"PUSHARG", TLC_OPND_NONE, 0},
    [TLC_OP_INVALID] = {"INVALID", TLC_OPND_NONE, 0},
    [TLC_OP_NIL] = {"NIL", TLC_OPND_NONE, 0},
    [TLC_OP_CONS] = {"CONS", TLC_OPND_NONE, 0},
    [TLC_OP_CAR] = {"CAR", TLC_OPND_NONE, 0},
    [TLC_OP_CDR] = {"CDR", TLC_OPND_NONE, 0},
    [TLC_OP_NEW] = {"NEW", TLC_OPND_CLASS, 1},
    [TLC_OP_GETATTR] = {"GETATTR", TLC_OPND_STRING, 1},
    [TLC_OP_SETATTR] = {"SETATTR", TLC_OPND_STRING, 1},
    [TLC_OP_SEND] = {"SEND", TLC_OPND_SEND, 2},
    [TLC_OP_PUSHARGN] = {"PUSHARGN", TLC_OPND_INT, 1},
    [TLC_OP_PRINT] = {"PRINT", TLC_OPND_NONE, 0},
    [TLC_OP_DUMP] = {"DUMP", TLC_OPND_NONE, 0},
    [TLC_OP_BR] = {"BR", TLC_OPND_LABEL, 1},
};

const TlcOpInfo *tlc_op_info(int op)
{
    if (op < TLC_OP_FIRST || op > TLC_OP_LAST)
        return NULL;
    return &op_table[op];
}

int tlc_op_by_name(const char *name)
{
    for (int op = TLC_OP_FIRST; op <= TLC_OP_LAST; op++)
        if (strcmp(op_table[op].name, name) == 0)
            return op;
    return 0;
}
