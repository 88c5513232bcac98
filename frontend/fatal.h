/* The end of a process whose JIT failed (a bug, or a limit reached while
 * the program runs): one line `jitgen: WHO: message` on stderr, after the
 * program's output, and exit status 70 (docs/cli.md). Shared by the
 * backends' run times. */
#ifndef JITGEN_FATAL_H
#define JITGEN_FATAL_H

#include <stdarg.h>

_Noreturn void jg_vfatal(const char *who, const char *fmt, va_list ap);

#endif
