/* Graphviz output of the residual graphs (`tlc run --dot FILE`). */
#ifndef JITGEN_DOT_H
#define JITGEN_DOT_H

#include <stdbool.h>

#include "pe/pe.h"

/* Writes every residual graph of `pe`; false when the file cannot be
 * written. */
bool jg_write_dot(const char *path, const JgPe *pe);

#endif
