/* The GC heap's limit (`tlc run --max-heap`, docs/cli.md). Boehm GC enforces
 * it: past it an allocation returns NULL (no warnings printed), and the
 * allocator raises a MemoryError at the allocating instruction. */
#ifndef TLC_HEAP_H
#define TLC_HEAP_H

#include <stdint.h>

/* The smallest limit accepted: the collector's own start-up heap. */
#define TLC_HEAP_MIN_LIMIT ((uint64_t)1 << 20)

/* The default limit: half of the machine's physical memory (4 GiB when it
 * cannot be known), so that a program allocating without bound ends with a
 * MemoryError before the machine swaps or the kernel kills the process. */
uint64_t tlc_heap_default_limit(void);

/* Caps the heap at `bytes` and makes a full heap an allocation failure
 * rather than a warning; call once the collector has started. */
void tlc_heap_set_limit(uint64_t bytes);

/* The limit set (0: none set yet). */
uint64_t tlc_heap_limit(void);

/* The heap's current size in bytes (what the collector has mapped). */
uint64_t tlc_heap_size(void);

#endif
