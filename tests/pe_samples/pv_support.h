/* Shared declarations of the virtual-object samples (tests/pe_samples/pv_*.c,
 * run by tests/unit/test_pe_virtuals.c): the objects the portals build, the
 * real memory the caller provides, the allocator and residual functions.
 *
 * The support functions live in pv_support.c, a translation unit of its own:
 * clang compiling a sample sees only their declarations, so it can neither
 * inline them nor infer that they leave memory alone, and the loads the
 * samples make after calling them reach the partial evaluator. */
#ifndef PV_SUPPORT_H
#define PV_SUPPORT_H

#include <stdint.h>

#include "jitgen/hints.h"

typedef struct PvObj {
    int64_t a;          /* offset 0 */
    int64_t b;          /* offset 8 */
    struct PvObj *next; /* offset 16 */
    int64_t c;          /* offset 24 */
} PvObj;

/* Fields of every width the flow graphs know, for constants stored into a
 * virtual object. */
typedef struct PvRecord {
    int64_t i64;     /* offset 0 */
    int32_t i32;     /* offset 8 */
    int16_t i16;     /* offset 12 */
    int8_t i8;       /* offset 14 */
    double f64;      /* offset 16 */
    const void *ptr; /* offset 24 */
} PvRecord;

/* A word and its bytes: accesses of different widths to the same memory. */
typedef union PvBytes {
    int64_t word;
    uint8_t bytes[8];
} PvBytes;

/* Memory the caller owns: stores into it are real, loads from it residual. */
typedef struct PvReal {
    PvObj *first;  /* offset 0 */
    PvObj *second; /* offset 8 */
    int64_t x;     /* offset 16 */
    int64_t y;     /* offset 24 */
    void *any;     /* offset 32 */
} PvReal;

/* Fresh zero-filled memory, counted (pv_allocations) and logged so that the
 * test can free it. Also JIT_DONT_LOOK_INSIDE: with virtual objects turned
 * off, every allocation stays one residual call of this function. */
JIT_ALLOCATOR JIT_DONT_LOOK_INSIDE void *pv_alloc(uint64_t size);
extern uint64_t pv_allocations;
/* Frees everything pv_alloc returned (test only, never called by a portal). */
void pv_free_all(void);

/* Does nothing, but neither clang nor the JIT may assume that: a call that may
 * read and write any memory the caller could have shared. */
JIT_DONT_LOOK_INSIDE void pv_barrier(void);
extern uint64_t pv_barrier_calls;
/* real->x += 1: a residual call that changes real memory. */
JIT_DONT_LOOK_INSIDE void pv_bump(PvReal *real);
/* Returns o->a * 10 + o->b, then sets o->b = o->a + 100 and o->c = 5. */
JIT_DONT_LOOK_INSIDE int64_t pv_callee(PvObj *o);

/* real->second->a: a residual call that reads real memory. */
JIT_DONT_LOOK_INSIDE int64_t pv_read_second(const PvReal *real);

/* A global whose address a sample stores as a constant. */
extern const char pv_marker[];

/* The portals, one per sample (each sample is its own bitcode module). */
JIT_PORTAL int64_t pv_store_twice(PvReal *real, int64_t x);
JIT_PORTAL int64_t pv_const_escape(PvReal *real, int64_t x);
JIT_PORTAL int64_t pv_fields(int64_t k, int64_t x);
JIT_PORTAL int64_t pv_chain(PvReal *real, int64_t x, int64_t escape);
JIT_PORTAL int64_t pv_cycle(PvReal *real, int64_t x);
JIT_PORTAL int64_t pv_real_loads(PvReal *real, int64_t k);
JIT_PORTAL int64_t pv_residual_call(int64_t x);
JIT_PORTAL int64_t pv_sink(PvReal *real, int64_t n);
JIT_PORTAL int64_t pv_overlap(int64_t x);
JIT_PORTAL int64_t pv_list(PvReal *real, int64_t n);
JIT_PORTAL int64_t pv_pending(PvReal *real, int64_t n);
JIT_PORTAL int64_t pv_pending_alias(PvReal *real, PvReal *other, int64_t n);
JIT_PORTAL int64_t pv_immutable(PvReal *real, PvReal *other);

#endif
