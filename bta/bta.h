/* Binding-time analysis (docs/architecture.md, "Binding-time analysis"):
 * colors every value of a graph green (known at compile time) or red (known
 * only at run time), for given colors of the graph's parameters. Graphs are
 * analysed polyvariantly: one variant per (graph, green parameters). */
#ifndef JITGEN_BTA_H
#define JITGEN_BTA_H

#include "frontend/module.h"

typedef enum JgColor {
    JG_GREEN = 0,
    JG_RED = 1,
} JgColor;

/* The colors of one graph for one choice of green parameters. */
typedef struct JgBtaVariant {
    const JgGraph *graph;
    uint64_t green_params; /* bit i: parameter i is green */
    uint8_t *color;        /* per value: JgColor */
    const uint8_t *frozen; /* per value: a pointer into memory that never changes (shared by a
                              graph's variants) */
    uint8_t *loop_header;  /* per block: target of a back edge */
    uint8_t *merge_point;  /* per block: starts with MERGE_POINT */
    JgColor ret_color;     /* join of the colors of returned values */
    bool in_progress;      /* recursion guard */
    struct JgBtaVariant *next;
} JgBtaVariant;

typedef struct JgBta {
    const JgModule *module;
    JgArena arena;
    JgBtaVariant *variants;
    JgBtaVariant **by_key; /* the variants hashed by (graph, green_params): the
                              partial evaluator asks at every inlined call */
    uint32_t nvariants, by_key_capacity;
    const JgBtaVariant *portal;   /* the portal, with its green parameters */
    uint64_t portal_green_params; /* found from the jit_concrete requirements */
    double ms;                    /* time spent */
    struct JgBtaInfoCache *infos; /* per-graph loop and copy information */
} JgBta;

/* Analyses the module's portal: its parameters start red; every parameter a
 * jit_concrete requirement depends on becomes green. Returns NULL with a
 * message in `err` when a requirement cannot be met (naming the hint's source
 * line and the red value that blocks it) or the module has no portal. */
JgBta *jg_bta_new(const JgModule *m, char *err, size_t errsize);
void jg_bta_free(JgBta *bta);

/* Serializes every variant (bta/bta_image.c): *out is a malloc'ed buffer of
 * *out_len bytes, for the analysis section of a graph image. False when out
 * of memory or while a variant is being analysed. */
bool jg_bta_write(const JgBta *bta, void **out, size_t *out_len);

/* The analysis jg_bta_write stored, for the module of the same image: the
 * variants are copied, the portal's green parameters are taken as stored.
 * Returns NULL with a message in `err` when the bytes are damaged or do not
 * fit the module's graphs. */
JgBta *jg_bta_load(const JgModule *m, const void *data, size_t len, char *err, size_t errsize);

/* The variant of `g` whose green parameters are `green_params` (computed on
 * first use). Graphs with more than 64 parameters treat the rest as red. */
const JgBtaVariant *jg_bta_variant(JgBta *bta, const JgGraph *g, uint64_t green_params);

/* Prints a graph with its colors ([G]/[R] after each value, `frozen` marked
 * with *) for `--dump=bta`. */
void jg_bta_print(FILE *out, const JgBtaVariant *v);

#endif
