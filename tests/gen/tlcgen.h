/* The random TLC program generator (tests/gen/generator.c), shared by the
 * tlcgen command and the differential fuzz target. */
#ifndef TLCGEN_H
#define TLCGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TLCGEN_GENERAL (-1) /* no shape: the general generator */
#define TLCGEN_SHAPES 7     /* shapes 0..6: ring walk retype lateerr deep long mix */

typedef struct TlcgenOptions {
    unsigned long long seed;
    long size;        /* statements of main, 1..10000 */
    int shape;        /* TLCGEN_GENERAL or 0..TLCGEN_SHAPES-1 */
    bool debug_model; /* a `#@` model comment and a DUMP after each statement */
    /* when not NULL, the first decisions come from these bytes (one to a
     * few bytes each), the seeded PRNG makes the rest */
    const uint8_t *choices;
    size_t nchoices;
} TlcgenOptions;

/* The shape called `name`, or -1. */
int tlcgen_shape(const char *name);

/* Generates one program: a malloc'd NUL-terminated text of *len bytes, or
 * NULL when out of memory. The same options give the same text. Not
 * reentrant (the generator's state is global). */
char *tlcgen_generate(const TlcgenOptions *options, size_t *len);

#endif
