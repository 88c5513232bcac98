#include "fatal.h"

#include <stdio.h>
#include <stdlib.h>

static JgFatalFn handler;
static void *handler_ctx;

void jg_set_fatal_handler(JgFatalFn fn, void *ctx)
{
    handler = fn;
    handler_ctx = ctx;
}

void jg_fatal_handler(JgFatalFn *fn, void **ctx)
{
    *fn = handler;
    *ctx = handler_ctx;
}

/* Without a handler nothing can be returned to: the process stops, as for
 * a failed assertion, rather than go on with a JIT in an unknown state. */
void jg_vfatal(const char *who, const char *fmt, va_list ap)
{
    char message[1024];
    int n = snprintf(message, sizeof message, "jitgen: %s: ", who);
    if (n < 0 || (size_t)n >= sizeof message)
        n = 0;
    vsnprintf(message + n, sizeof message - (size_t)n, fmt, ap);
    if (handler)
        handler(handler_ctx, message);
    fflush(stdout);
    fprintf(stderr, "%s\n", message);
    abort();
}

void jg_fatal(const char *who, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    jg_vfatal(who, fmt, ap);
}
