/* The in-memory form of a TLC program: code plus constant pool. Produced by
 * the assembler and by the bytecode-file reader, consumed by the verifier,
 * the writer, the disassembler and the interpreter. */
#ifndef TLC_PROGRAM_H
#define TLC_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits of the format (also enforced by the verifier). */
#define TLC_MAX_CODE_LEN (1u << 24) /* bytes of code */
#define TLC_MAX_STRINGS 256         /* u8 operand indexes them */
#define TLC_MAX_CLASSES 256         /* u8 operand indexes them */
#define TLC_MAX_NAME_LEN 255        /* identifier length */
#define TLC_MAX_CLASS_MEMBERS 255   /* attributes, and methods, per class */

typedef struct TlcMethodDesc {
    char *name;
    uint32_t pc; /* entry point: an instruction start in the code */
} TlcMethodDesc;

/* A class descriptor from the pool: attribute names and methods. */
typedef struct TlcClassDesc {
    uint32_t nattrs;
    char **attrs;
    uint32_t nmethods;
    TlcMethodDesc *methods;
} TlcClassDesc;

typedef struct TlcProgram {
    uint8_t *code;
    uint32_t code_len;
    uint32_t nstrings;
    char **strings;
    uint32_t nclasses;
    TlcClassDesc *classes;
} TlcProgram;

/* Diagnostics from the toolchain (assembler, loader, verifier): one message. */
typedef struct TlcDiag {
    char message[512];
} TlcDiag;

/* Frees everything a program owns, including the program itself (NULL ok). */
void tlc_program_free(TlcProgram *prog);

/* Allocates an empty program; NULL when out of memory. */
TlcProgram *tlc_program_new(void);

#endif
