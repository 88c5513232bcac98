/* `.tlcb` bytecode files (format in docs/bytecode-format.md). */
#ifndef TLC_BYTECODE_H
#define TLC_BYTECODE_H

#include "program.h"

/* Serializes a verified program. Returns a malloc'd buffer of *out_len bytes,
 * or NULL with `diag` set (out of memory, or a program exceeding the format's
 * limits). */
uint8_t *tlc_bytecode_write(const TlcProgram *prog, size_t *out_len, TlcDiag *diag);

/* Parses and fully verifies a bytecode image. Never crashes or hangs whatever
 * the bytes are. Returns the program, or NULL with `diag` holding one message
 * (without a file name; the caller prefixes it). */
TlcProgram *tlc_bytecode_read(const uint8_t *data, size_t len, TlcDiag *diag);

#endif
