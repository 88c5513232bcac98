/* The TLC assembler: `.tlc` text (syntax in docs/assembly.md) to a program. */
#ifndef TLC_ASM_H
#define TLC_ASM_H

#include "program.h"

/* Assembles `len` bytes of source text read from `filename` (used only in
 * messages). Returns a verified program, or NULL with `diag` holding one
 * message of the form "FILE:LINE: problem" (or "FILE: problem" when no line
 * applies, e.g. out of memory). */
TlcProgram *tlc_assemble(const char *source, size_t len, const char *filename, TlcDiag *diag);

#endif
