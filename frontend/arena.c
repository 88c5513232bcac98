#include "arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct JgArenaChunk {
    JgArenaChunk *next;
    max_align_t data[];
};

#define CHUNK_BYTES ((size_t)64 * 1024)

static _Noreturn void out_of_memory(void)
{
    fflush(stdout);
    fputs("jitgen: out of memory\n", stderr);
    exit(70);
}

void *jg_arena_alloc(JgArena *arena, size_t size)
{
    size_t align = _Alignof(max_align_t);
    size = (size + align - 1) & ~(align - 1);
    if (size == 0)
        size = align;
    if (!arena->cursor || (size_t)(arena->limit - arena->cursor) < size) {
        size_t payload = size > CHUNK_BYTES ? size : CHUNK_BYTES;
        /* calloc: a chunk is zero once, so a bump allocation needs no
         * clearing (fresh pages from the kernel are not even written). */
        JgArenaChunk *chunk = calloc(1, sizeof(JgArenaChunk) + payload);
        if (!chunk)
            out_of_memory();
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
        free(c);
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
