/* Unrolling recurrence loops of residual graphs (pe/unroll.c): a loop whose
 * trip multiplies or adds to the value of the trip before runs two trips
 * per pass, with the second trip's value computed from the first trip's
 * operands (acc0 * (x1 * x2); a + 2b for fibonacci's m = a + b), so that
 * the loop-carried chain takes one instruction per two iterations. */
#ifndef JITGEN_UNROLL_H
#define JITGEN_UNROLL_H

#include "frontend/ir.h"

/* Unrolls every such loop among the blocks from `first_block` on (one
 * compilation's blocks); the copies are new blocks at the end of the graph.
 * Returns the number of loops unrolled. */
uint32_t jg_unroll_recurrences(JgGraph *g, uint32_t first_block);

#endif
