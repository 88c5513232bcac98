/* Private to bta.c and bta_image.c. */
#ifndef JITGEN_BTA_INTERNAL_H
#define JITGEN_BTA_INTERNAL_H

#include "bta.h"

/* Links a finished (or, from jg_bta_variant, started) variant into the
 * list and the hash table by (graph, green parameters). */
void bta_add_variant(JgBta *bta, JgBtaVariant *v);

/* The variant of (g, green_params) if there is one yet, else NULL. */
const JgBtaVariant *bta_find_variant(const JgBta *bta, const JgGraph *g, uint64_t green_params);

#endif
