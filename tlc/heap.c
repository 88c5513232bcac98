#include "heap.h"

#include <gc.h>
#include <unistd.h>

#include "errors.h"

uint64_t tlc_heap_default_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long page_size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0)
        return (uint64_t)4 << 30;
    uint64_t half = (uint64_t)pages * (uint64_t)page_size / 2;
    return half < TLC_HEAP_MIN_LIMIT ? TLC_HEAP_MIN_LIMIT : half;
}

/* The collector's answer to an allocation it cannot satisfy: NULL, which
 * the allocator turns into a MemoryError (the default one also returns
 * NULL, after a warning). */
static void *GC_CALLBACK no_memory(size_t bytes)
{
    (void)bytes;
    return NULL;
}

/* The collector's warnings ("Out of Memory! Heap size: ...", "Failed to
 * expand heap") would precede every MemoryError: the error line says it. */
static void GC_CALLBACK no_warning(char *msg, GC_word arg)
{
    (void)msg;
    (void)arg;
}

void tlc_heap_set_limit(uint64_t bytes)
{
    tlc_memory_limit = bytes;
    GC_set_oom_fn(no_memory);
    GC_set_warn_proc(no_warning);
    GC_set_max_heap_size((GC_word)bytes);
}

uint64_t tlc_heap_limit(void)
{
    return tlc_memory_limit;
}

uint64_t tlc_heap_size(void)
{
    return GC_get_heap_size();
}
