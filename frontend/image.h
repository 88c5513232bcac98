/* Graph images (docs/frontend.md, "Graph images"): a module's flow graphs
 * serialized at build time, so that a process loads them without parsing
 * bitcode. Addresses are kept as relocations (a symbol resolved when the
 * image is loaded, a graph of the image, or a constant copied into it) and
 * resolved on loading, so an image built by one process serves another. */
#ifndef JITGEN_IMAGE_H
#define JITGEN_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "module.h"

/* Whether `data` starts like a graph image (as opposed to bitcode). */
bool jg_is_graph_image(const void *data, size_t len);

/* Reads bitcode as jg_module_read_bitcode does (same `root`, same errors),
 * without resolving any symbol, and serializes the module. On success
 * *image is a malloc'ed buffer of *image_len bytes the caller frees. */
bool jg_image_from_bitcode(const void *bitcode, size_t len, const char *root, void **image,
                           size_t *image_len, char *err, size_t errsize);

/* The module of an image, its symbols resolved with `resolve` (NULL:
 * jg_resolve_self). The module owns copies of everything it needs; the
 * image may be freed afterwards. A malformed image or an unresolved symbol
 * returns NULL with a message in `err`. */
JgModule *jg_module_load_image(const void *image, size_t len, JgSymbolResolver resolve, void *ctx,
                               char *err, size_t errsize);

/* The analysis section an image may carry after its graphs: the binding
 * times jitgen-image computed at build time (bta/bta_image.c), which the
 * frontend stores without reading. False when `image` is not a graph image
 * or carries none; its bytes are checked by their reader. */
bool jg_image_analysis(const void *image, size_t len, const void **data, size_t *data_len);

/* Appends `data` as the analysis section of an image that has none yet:
 * *image (malloc'ed) grows. False, changing nothing, when out of memory or
 * when the image is not one without an analysis section. */
bool jg_image_add_analysis(void **image, size_t *image_len, const void *data, size_t data_len);

#endif
