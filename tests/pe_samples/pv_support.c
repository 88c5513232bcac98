/* Support functions of the virtual-object samples: the allocator and the
 * functions residual code calls (see pv_support.h). */
#include "pv_support.h"

#include <stdio.h>
#include <stdlib.h>

#define PV_MAX_ALLOCATIONS 1024

uint64_t pv_allocations;
uint64_t pv_barrier_calls;
const char pv_marker[] = "pv_marker";

/* Everything allocated since the last pv_free_all. */
static void *pv_log[PV_MAX_ALLOCATIONS];
static unsigned pv_log_count;

void *pv_alloc(uint64_t size)
{
    if (pv_log_count == PV_MAX_ALLOCATIONS) {
        fputs("pv_alloc: too many allocations\n", stderr);
        abort();
    }
    void *p = calloc(1, size);
    if (!p) {
        fputs("pv_alloc: out of memory\n", stderr);
        abort();
    }
    pv_log[pv_log_count++] = p;
    pv_allocations++;
    return p;
}

void pv_free_all(void)
{
    for (unsigned i = 0; i < pv_log_count; i++)
        free(pv_log[i]);
    pv_log_count = 0;
}

void pv_barrier(void)
{
    pv_barrier_calls++;
}

void pv_bump(PvReal *real)
{
    real->x += 1;
}

int64_t pv_callee(PvObj *o)
{
    int64_t r = o->a * 10 + o->b;
    o->b = o->a + 100;
    o->c = 5;
    return r;
}

int64_t pv_read_second(const PvReal *real)
{
    return real->second->a;
}
