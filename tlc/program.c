#include "program.h"

#include <stdlib.h>

TlcProgram *tlc_program_new(void)
{
    return calloc(1, sizeof(TlcProgram));
}

void tlc_program_free(TlcProgram *prog)
{
    if (!prog)
        return;
    for (uint32_t i = 0; i < prog->nstrings; i++)
        free(prog->strings[i]);
    free(prog->strings);
    for (uint32_t c = 0; c < prog->nclasses; c++) {
        TlcClassDesc *d = &prog->classes[c];
        for (uint32_t i = 0; i < d->nattrs; i++)
            free(d->attrs[i]);
        free(d->attrs);
        for (uint32_t i = 0; i < d->nmethods; i++)
            free(d->methods[i].name);
        free(d->methods);
    }
    free(prog->classes);
    free(prog->code);
    free(prog);
}
