/* Unrolling product loops of residual graphs (pe/unroll.c): a one-block
 * loop that multiplies a loop-carried value runs two iterations per trip,
 * with one multiply on the loop-carried chain instead of two. */
#ifndef JITGEN_UNROLL_H
#define JITGEN_UNROLL_H

#include "frontend/ir.h"

/* Unrolls every such loop among the blocks from `first_block` on (one
 * compilation's blocks); the copies are new blocks at the end of the graph.
 * Returns the number of loops unrolled. */
uint32_t jg_unroll_products(JgGraph *g, uint32_t first_block);

#endif
