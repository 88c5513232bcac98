/* The end of a JIT that cannot go on (a bug, or a limit reached while the
 * program runs): the message `jitgen: WHO: message` goes to the host's
 * handler (jitgen/fatal.h), which ends the process (the tlc command: after
 * the program's output, with exit status 70, docs/cli.md) or unwinds out of
 * the JIT. Shared by the driver and the backends' run times. */
#ifndef JITGEN_FRONTEND_FATAL_H
#define JITGEN_FRONTEND_FATAL_H

#include <stdarg.h>

#include "jitgen/fatal.h"

_Noreturn void jg_vfatal(const char *who, const char *fmt, va_list ap);
_Noreturn void jg_fatal(const char *who, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
