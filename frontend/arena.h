/* A bump allocator: graphs, and everything the partial evaluator builds for
 * one compilation, live in an arena and are freed at once. */
#ifndef JITGEN_ARENA_H
#define JITGEN_ARENA_H

#include <stddef.h>

typedef struct JgArenaChunk JgArenaChunk;

typedef struct JgArena {
    JgArenaChunk *chunks;
    char *cursor;
    char *limit;
    size_t bytes; /* total handed out, for statistics */
} JgArena;

/* Zero-filled memory aligned for any object; out of memory, a fatal failure
 * (frontend/fatal.h: the host's handler), so callers need no failure path. */
void *jg_arena_alloc(JgArena *arena, size_t size);
/* Copies `len` bytes and adds a NUL. */
char *jg_arena_strndup(JgArena *arena, const char *s, size_t len);
void jg_arena_free(JgArena *arena);

/* A growable array inside an arena: growing copies into fresh arena space. */
#define JG_VEC(T)                                                                                  \
    struct {                                                                                       \
        T *items;                                                                                  \
        unsigned count, capacity;                                                                  \
    }

void *jg_vec_grow(JgArena *arena, void *items, unsigned count, unsigned *capacity, size_t elem);

#define JG_VEC_PUSH(arena, vec, value)                                                             \
    do {                                                                                           \
        if ((vec).count == (vec).capacity)                                                         \
            (vec).items = jg_vec_grow((arena), (vec).items, (vec).count, &(vec).capacity,          \
                                      sizeof *(vec).items);                                        \
        (vec).items[(vec).count++] = (value);                                                      \
    } while (0)

#endif
