/* The per-value arrays of a method compile (method.c, homes.c), indexed by a
 * graph's value numbers and kept from one compile to the next. */
#ifndef JITGEN_BASELINE_VALUE_ARRAYS_H
#define JITGEN_BASELINE_VALUE_ARRAYS_H

#include <stdbool.h>
#include <stdint.h>

/* A method's values are numbered among all of its graph's, which grows by
 * every method compiled: arrays allocated and cleared per compile made each
 * one cost the whole graph. These stay allocated, every entry clean (the
 * values below) between compiles; a compile writes only the entries of the
 * values its blocks name and cleans the range that holds them afterwards. */
typedef struct BlValueArrays {
    uint32_t cap;
    int32_t *home;                            /* 0 */
    uint8_t *reg;                             /* BL_VALUES_NO_REG */
    uint32_t *alias;                          /* the value itself */
    uint32_t *alloca_at;                      /* 0 */
    bool *dead, *scaled, *folded, *addressed; /* false */
    bool *read;                               /* false (homes.c, find_dead_params) */
    uint32_t *reads;                          /* 0 (homes.c, count_reads) */
    uint32_t *index;                          /* UINT32_MAX (homes.c, a value's class number) */
} BlValueArrays;

#define BL_VALUES_NO_REG 0xff

/* At least n entries, the new ones clean; false when out of memory (the
 * arrays as they were). */
bool bl_values_reserve(BlValueArrays *a, uint32_t n);
/* Cleans entries [lo, hi) and entry 0 (value 0, "none", which code may
 * index without a check). */
void bl_values_clean(BlValueArrays *a, uint32_t lo, uint32_t hi);
/* Whether all of the first n entries are clean: a check, in builds with
 * assertions, that a compile wrote nothing outside its range. */
bool bl_values_all_clean(const BlValueArrays *a, uint32_t n);
void bl_values_free(BlValueArrays *a);

#endif
