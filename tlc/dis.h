/* The disassembler: a readable listing of a verified program. */
#ifndef TLC_DIS_H
#define TLC_DIS_H

#include <stdio.h>

#include "program.h"

/* Writes the constant pool (classes with attributes and methods with their
 * entry labels, strings) and the code: one instruction per line with its pc,
 * raw bytes, mnemonic, operands, resolved branch targets, resolved pool
 * entries, and labels at branch targets and method entries. Returns false on
 * write error. */
bool tlc_disassemble(const TlcProgram *prog, FILE *out);

#endif
