#include "fatal.h"

#include <stdio.h>
#include <stdlib.h>

void jg_vfatal(const char *who, const char *fmt, va_list ap)
{
    fflush(stdout);
    fprintf(stderr, "jitgen: %s: ", who);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    exit(70);
}
