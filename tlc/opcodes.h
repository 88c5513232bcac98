/* TLC opcodes and their operand encodings: the single table shared by the
 * assembler, the loader/verifier, the disassembler and the interpreter. */
#ifndef TLC_OPCODES_H
#define TLC_OPCODES_H

#include <stdint.h>

typedef enum TlcOpcode {
    TLC_OP_NOP = 1,
    TLC_OP_PUSH = 2,
    TLC_OP_POP = 3,
    TLC_OP_SWAP = 4,
    TLC_OP_ROLL = 5,
    TLC_OP_PICK = 6,
    TLC_OP_PUT = 7,
    TLC_OP_ADD = 8,
    TLC_OP_SUB = 9,
    TLC_OP_MUL = 10,
    TLC_OP_DIV = 11,
    TLC_OP_EQ = 12,
    TLC_OP_NE = 13,
    TLC_OP_LT = 14,
    TLC_OP_LE = 15,
    TLC_OP_GT = 16,
    TLC_OP_GE = 17,
    TLC_OP_BR_COND = 18,
    TLC_OP_BR_COND_STK = 19,
    TLC_OP_CALL = 20,
    TLC_OP_RETURN = 21,
    TLC_OP_PUSHARG = 22,
    TLC_OP_INVALID = 23,
    TLC_OP_NIL = 24,
    TLC_OP_CONS = 25,
    TLC_OP_CAR = 26,
    TLC_OP_CDR = 27,
    TLC_OP_NEW = 28,
    TLC_OP_GETATTR = 29,
    TLC_OP_SETATTR = 30,
    TLC_OP_SEND = 31,
    TLC_OP_PUSHARGN = 32,
    TLC_OP_PRINT = 33,
    TLC_OP_DUMP = 34,
    TLC_OP_BR = 35,
} TlcOpcode;

#define TLC_OP_FIRST 1
#define TLC_OP_LAST 35

/* How the operand bytes that follow an opcode are encoded. */
typedef enum TlcOperandKind {
    TLC_OPND_NONE,   /* no operand */
    TLC_OPND_INT,    /* i8: an integer value (PUSH, ROLL, PUSHARGN) */
    TLC_OPND_DEPTH,  /* i8 restricted to 0..127: a stack depth (PICK, PUT) */
    TLC_OPND_LABEL,  /* i8: branch offset relative to the pc after the operand */
    TLC_OPND_CLASS,  /* u8: index into the class-descriptor pool (NEW) */
    TLC_OPND_STRING, /* u8: index into the string pool (GETATTR, SETATTR) */
    TLC_OPND_SEND,   /* u8 string index, then u8 argument count (SEND) */
} TlcOperandKind;

typedef struct TlcOpInfo {
    const char *name;       /* mnemonic as written in assembly */
    TlcOperandKind operand; /* operand encoding */
    uint8_t operand_bytes;  /* bytes after the opcode byte */
} TlcOpInfo;

/* Returns the description of `op`, or NULL when `op` is no TLC opcode. */
const TlcOpInfo *tlc_op_info(int op);

/* Returns the opcode named `name` (case-sensitive mnemonic), or 0. */
int tlc_op_by_name(const char *name);

#endif
