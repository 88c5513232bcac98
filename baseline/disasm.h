/* A disassembler for the x86-64 the baseline emits (x64.h), for
 * `--dump=asm`: the baseline must not need LLVM, and its encoder uses a few
 * dozen instruction forms, which this decodes back into Intel syntax. A
 * byte it does not know prints as `.byte`. */
#ifndef JITGEN_DISASM_H
#define JITGEN_DISASM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Decodes the instruction at code[0..len) (at address `addr`, for jump
 * targets) into `text`; returns its length in bytes (at least 1). */
size_t x64_disasm_one(const uint8_t *code, size_t len, uint64_t addr, char *text, size_t size);

/* Prints every instruction of code[0..len), one per line: address, bytes,
 * instruction. */
void x64_disasm(FILE *out, const uint8_t *code, size_t len, uint64_t addr);

#endif
