/* Loading a program from a file the way every tlc command does. */
#ifndef TLC_LOADER_H
#define TLC_LOADER_H

#include "program.h"

/* Reads `path`: a name ending in ".tlc" is assembly text, anything else a
 * .tlcb bytecode file. Returns the verified program, or NULL with one message
 * in `diag` (naming the file) and *status set to 66 (cannot open/read) or 65
 * (invalid contents or out of memory). */
TlcProgram *tlc_load_file(const char *path, TlcDiag *diag, int *status);

/* Reads a whole file into a malloc'd buffer (NUL-terminated for text use).
 * NULL with errno set on failure. */
char *tlc_read_file(const char *path, size_t *len);

#endif
