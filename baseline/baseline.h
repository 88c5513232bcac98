/* The baseline backend (docs/baseline.md): residual flow graphs straight to
 * x86-64 machine code, without LLVM. It compiles in microseconds what LLVM
 * compiles in milliseconds (and LLVM must first be opened, ~20 ms), at the
 * price of simpler code: every value lives in a stack slot of its method,
 * operations go through scratch registers, rare operations call the
 * evaluator's arithmetic.
 *
 * As in the LLVM backend, a residual graph grows (every flexswitch miss
 * adds blocks) and compiled code is never patched: the blocks of each
 * compilation form one METHOD, `uint32_t m(uint32_t block, BlFrame *f,
 * uint8_t *area)`, that can be entered at any of its blocks (parameters in
 * f->slots) and returns the block id to go on at (JG_BLOCKID), or
 * JG_BLOCKID_RETURN with the result in f->result. A C dispatcher loop
 * (jg_baseline_call) calls the method that owns each block id. */
#ifndef JITGEN_BASELINE_H
#define JITGEN_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frontend/ir.h"

typedef struct JgBaselineOptions {
    /* residual calls of the portal (CALL ops whose callee has
     * JG_FLAG_PORTAL) call this with the portal's arguments in an array */
    uint64_t (*portal_call)(void *ctx, const uint64_t *args);
    void *portal_ctx;
} JgBaselineOptions;

typedef struct JgBaselineStats {
    uint64_t methods;          /* compiled */
    uint64_t flexswitch_cases; /* compiled after a miss */
    uint64_t code_bytes;       /* machine code emitted */
    double compile_ms;         /* code generation */
    /* run-time counters */
    uint64_t method_entries;   /* calls of methods by the dispatcher */
    uint64_t flexswitch_misses;
} JgBaselineStats;

typedef struct JgBaseline JgBaseline;

/* Whether this host can run baseline code (x86-64 System V). */
bool jg_baseline_available(void);

JgBaseline *jg_baseline_new(const JgBaselineOptions *options, char *err, size_t errsize);
void jg_baseline_free(JgBaseline *bl);

/* Compiles the blocks of `g` added since the last call (all of them the
 * first time) as one method. */
bool jg_baseline_compile(JgBaseline *bl, JgGraph *g, char *err, size_t errsize);

/* Runs compiled `g` from its entry with its parameters as 64-bit slots;
 * returns its result (bits). */
uint64_t jg_baseline_call(JgBaseline *bl, const JgGraph *g, const uint64_t *args);

const JgBaselineStats *jg_baseline_stats(const JgBaseline *bl);

#endif
