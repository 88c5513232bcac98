/* Private to the frontend: building a module (module.c), shared by the
 * bitcode reader and the graph image loader, which fill modules, and a
 * pointer-keyed map they both use. No LLVM here: the image loader is part
 * of every host, the bitcode reader only of the backend library. */
#ifndef JITGEN_MODULE_INTERNAL_H
#define JITGEN_MODULE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "module.h"

/* ---- module.c ---- */

/* A module with an empty arena; the module lives in its own arena. */
JgModule *jg_module_new(void);
/* Builds the lookup tables once every graph and global is recorded. */
void jg_module_build_index(JgModule *m);

/* ---- a pointer-keyed hash map (open addressing, in an arena) ---- */

typedef struct PtrMap {
    const void **keys;
    uint64_t *vals;
    uint32_t cap; /* a power of two, or 0 */
    uint32_t count;
    JgArena *arena;
} PtrMap;

void pm_init(PtrMap *m, JgArena *arena, uint32_t expected);
bool pm_get(const PtrMap *m, const void *key, uint64_t *val);
void pm_put(PtrMap *m, const void *key, uint64_t val);

#endif
