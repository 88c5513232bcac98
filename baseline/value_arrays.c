/* Per-value arrays kept between method compiles (value_arrays.h). */
#include "value_arrays.h"

#include <stdlib.h>
#include <string.h>

/* Grows a->FIELD to cap entries; false (the array as it was) when out of
 * memory. */
#define GROW(FIELD)                                                                                \
    ((more = realloc(a->FIELD, (size_t)cap * sizeof *a->FIELD)) ? (a->FIELD = more, true) : false)

bool bl_values_reserve(BlValueArrays *a, uint32_t n)
{
    if (n <= a->cap)
        return true;
    uint32_t cap = a->cap ? a->cap : 256;
    while (cap < n)
        cap = cap > UINT32_MAX / 2 ? n : cap * 2;
    /* an array that cannot grow leaves the ones before it bigger than cap,
     * which is harmless: cap stays, and a later call grows them again */
    void *more;
    if (!GROW(home) || !GROW(reg) || !GROW(alias) || !GROW(alloca_at) || !GROW(dead) ||
        !GROW(scaled) || !GROW(folded) || !GROW(addressed) || !GROW(read) || !GROW(reads) ||
        !GROW(index))
        return false;
    uint32_t old = a->cap;
    a->cap = cap;
    bl_values_clean(a, old, cap);
    return true;
}
#undef GROW

static void clean_range(BlValueArrays *a, uint32_t lo, uint32_t hi)
{
    if (hi > a->cap)
        hi = a->cap;
    if (lo >= hi)
        return;
    size_t n = hi - lo;
    memset(a->home + lo, 0, n * sizeof *a->home);
    memset(a->reg + lo, BL_VALUES_NO_REG, n * sizeof *a->reg);
    for (uint32_t v = lo; v < hi; v++)
        a->alias[v] = v;
    memset(a->alloca_at + lo, 0, n * sizeof *a->alloca_at);
    memset(a->dead + lo, 0, n * sizeof *a->dead);
    memset(a->scaled + lo, 0, n * sizeof *a->scaled);
    memset(a->folded + lo, 0, n * sizeof *a->folded);
    memset(a->addressed + lo, 0, n * sizeof *a->addressed);
    memset(a->read + lo, 0, n * sizeof *a->read);
    memset(a->reads + lo, 0, n * sizeof *a->reads);
    memset(a->index + lo, 0xff, n * sizeof *a->index);
}

void bl_values_clean(BlValueArrays *a, uint32_t lo, uint32_t hi)
{
    clean_range(a, lo, hi);
    if (lo > 0)
        clean_range(a, 0, 1);
}

bool bl_values_all_clean(const BlValueArrays *a, uint32_t n)
{
    if (n > a->cap)
        n = a->cap;
    for (uint32_t v = 0; v < n; v++)
        if (a->home[v] || a->reg[v] != BL_VALUES_NO_REG || a->alias[v] != v || a->alloca_at[v] ||
            a->dead[v] || a->scaled[v] || a->folded[v] || a->addressed[v] || a->read[v] ||
            a->reads[v] || a->index[v] != UINT32_MAX)
            return false;
    return true;
}

void bl_values_free(BlValueArrays *a)
{
    free(a->home);
    free(a->reg);
    free(a->alias);
    free(a->alloca_at);
    free(a->dead);
    free(a->scaled);
    free(a->folded);
    free(a->addressed);
    free(a->read);
    free(a->reads);
    free(a->index);
    *a = (BlValueArrays){0};
}
