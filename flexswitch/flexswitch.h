/* Flexswitches: growable switches on a promoted value. The residual code
 * looks the value up among the cases compiled so far; a miss calls back
 * into the compiler, which compiles the continuation for that value, adds
 * the case, and execution goes on there. A value seen before never reaches
 * the compiler again. */
#ifndef JITGEN_FLEXSWITCH_H
#define JITGEN_FLEXSWITCH_H

#include <stdint.h>

#include "frontend/ir.h"

typedef struct JgFlexswitch JgFlexswitch;

/* Compiles the case for `value`; returns the target block (a residual block
 * whose parameters receive the flexswitch's live values) or UINT32_MAX on a
 * compilation failure. The callback has added the case when it returns. */
typedef uint32_t (*JgFlexMissFn)(void *compiler, JgFlexswitch *fs, uint64_t value);

struct JgFlexswitch {
    JgGraph *graph; /* the residual graph it belongs to */
    uint32_t block; /* the residual block it terminates */
    uint8_t type;   /* JgType of the switched value */
    JgVal value;    /* the switched residual value */
    uint32_t ncases, capacity;
    uint64_t *values;  /* case values */
    uint32_t *targets; /* case target blocks */
    uint32_t nlive;
    JgVal *live; /* residual values every case block receives, in order */
    JgFlexMissFn miss;
    void *compiler;  /* the compiler's frozen state for this flexswitch */
    uint64_t misses; /* run-time statistics */
};

/* Index of the case for `value`, or -1. */
int64_t jg_flexswitch_lookup(const JgFlexswitch *fs, uint64_t value);

/* Adds a case and mirrors it in the terminator's links (links[0] is the
 * default, which has no target; links[i + 1] is case i). */
void jg_flexswitch_add_case(JgFlexswitch *fs, uint64_t value, uint32_t target);

/* Ends `block` of `g` with a flexswitch on `value` passing `live` values to
 * every case. The object lives in the graph's arena. */
JgFlexswitch *jg_flexswitch_new(JgGraph *g, uint32_t block, JgVal value, uint32_t nlive,
                                const JgVal *live);

#endif
