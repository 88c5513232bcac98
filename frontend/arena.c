#include "arena.h"

#include "fatal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct JgArenaChunk {
    JgArenaChunk *next;
    size_t bytes; /* the whole mapping, this header included */
    max_align_t data[];
};

#define CHUNK_BYTES ((size_t)256 * 1024)

static _Noreturn void out_of_memory(void)
{
    jg_fatal("arena", "out of memory");
}

#if defined(__SANITIZE_ADDRESS__)
/* Sanitizer builds take chunks from the heap: LeakSanitizer does not scan
 * mappings of its own, and objects known only from an arena (a
 * flexswitch, referenced by a residual graph's terminator) would be reported
 * as leaked at an exit that does not free everything. */
static JgArenaChunk *chunk_new(size_t bytes)
{
    JgArenaChunk *chunk = calloc(1, bytes);
    if (!chunk)
        out_of_memory();
    return chunk;
}

static void chunk_free(JgArenaChunk *chunk)
{
    free(chunk);
}
#else
static JgArenaChunk *chunk_new(size_t bytes)
{
    JgArenaChunk *chunk =
        mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (chunk == MAP_FAILED)
        out_of_memory();
    return chunk;
}

static void chunk_free(JgArenaChunk *chunk)
{
    munmap(chunk, chunk->bytes);
}
#endif

void *jg_arena_alloc(JgArena *arena, size_t size)
{
    size_t align = _Alignof(max_align_t);
    size = (size + align - 1) & ~(align - 1);
    if (size == 0)
        size = align;
    if (!arena->cursor || (size_t)(arena->limit - arena->cursor) < size) {
        size_t payload = size > CHUNK_BYTES ? size : CHUNK_BYTES;
        /* fresh pages from the kernel: zero already, so a bump allocation
         * needs no clearing, and a page is only paid for (faulted in) once
         * used. malloc'ed chunks had to be cleared by the arena (calloc on
         * a thread's malloc arena clears the whole chunk): 3.7 % of a
         * loop's hand-over. */
        size_t bytes = sizeof(JgArenaChunk) + payload;
        JgArenaChunk *chunk = chunk_new(bytes);
        chunk->bytes = bytes;
        chunk->next = arena->chunks;
        arena->chunks = chunk;
        arena->cursor = (char *)chunk->data;
        arena->limit = arena->cursor + payload;
    }
    void *p = arena->cursor;
    arena->cursor += size;
    arena->bytes += size;
    return p;
}

char *jg_arena_strndup(JgArena *arena, const char *s, size_t len)
{
    char *copy = jg_arena_alloc(arena, len + 1);
    memcpy(copy, s, len);
    return copy;
}

void jg_arena_free(JgArena *arena)
{
    JgArenaChunk *c = arena->chunks;
    while (c) {
        JgArenaChunk *next = c->next;
        chunk_free(c);
        c = next;
    }
    memset(arena, 0, sizeof *arena);
}

void *jg_vec_grow(JgArena *arena, void *items, unsigned count, unsigned *capacity, size_t elem)
{
    unsigned cap = *capacity ? *capacity * 2 : 4;
    if (cap < *capacity)
        out_of_memory();
    void *grown = jg_arena_alloc(arena, (size_t)cap * elem);
    if (count)
        memcpy(grown, items, (size_t)count * elem);
    *capacity = cap;
    return grown;
}
