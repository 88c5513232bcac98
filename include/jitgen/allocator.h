/* An allocator whose fast path compiled code takes itself
 * (docs/architecture.md, "Allocation in compiled code"). */
#ifndef JITGEN_ALLOCATOR_H
#define JITGEN_ALLOCATOR_H

#include <stdbool.h>
#include <stdint.h>

/* The host's allocator `fn(size, ...)` (a JIT_ALLOCATOR or
 * JIT_VALUE_ALLOCATOR function whose first argument is the size in bytes)
 * keeps free objects of each small size on a list linked through their
 * first word. A residual call of fn with a constant size whose list
 * `list(size)` names is compiled as: the list's head, when it is an object
 * (above empty_max), taken off the list, counted and cleared; otherwise
 * the call of fn, which refills the list. The host promises that fn would
 * have returned that object, counted and cleared the same way, and that
 * only fn changes the lists while compiled code runs (no other thread). */
typedef struct JgFreeListAllocator {
    const void *fn;
    /* the head of the list for objects of `size` bytes; NULL: fn is called */
    void **(*list)(uint64_t size);
    uintptr_t empty_max; /* a head at or below this is no object */
    bool clear_all;      /* the object's `size` bytes are zeroed; else its link word */
    uint64_t *counter;   /* 1 added per object, or NULL */
} JgFreeListAllocator;

#endif
