/* The TLC interpreter: the portal the JIT generator specializes. */
#ifndef TLC_INTERP_H
#define TLC_INTERP_H

#include "object.h"

#define TLC_STACK_CAPACITY 256 /* values per frame's operand stack */
/* Nested CALL/SEND frames allowed below the top-level frame (depth 1): a
 * frame at depth TLC_MAX_NESTED_CALLS + 1 may run, its own call raises a
 * RecursionError (docs/language-decisions.md). */
#define TLC_MAX_NESTED_CALLS 1000
#define TLC_MAX_CALL_ARGS 256 /* receiver + up to 255 SEND arguments */
#define TLC_FEW_CALL_ARGS 8   /* calls with fewer arguments use a small array */
#define TLC_DIRECT_ARGS 4     /* frames with at most this many take them one by one */

/* A program prepared for running: everything the interpreter reads, never
 * changed while it runs (the portal deep-freezes it). */
typedef struct TlcCode {
    const uint8_t *bytes;
    int64_t len;
    const uint8_t *insn_start;     /* len + 1 flags: pc starts an instruction */
    const uint8_t *join;           /* len + 1 flags: tlc_join_points */
    const TlcType *const *classes; /* class of each descriptor in the pool */
    const char *const *strings;    /* the string pool */
} TlcCode;

/* The integer 0 passed as the argument of CALL: a constant, so calls
 * allocate nothing. */
extern const TlcInt tlc_int_zero;

/* Runs one frame: the code from `pc` with the argument vector `args`
 * (`nargs` >= 1 values) at call depth `depth` (1 for the top-level frame).
 * Returns the top of the frame's stack when it ends, or NULL if the stack is
 * empty. Raises TLC errors through tlc_raise. */
TlcObject *tlc_eval(const TlcCode *code, int64_t pc, TlcObject **args, int64_t nargs,
                    int64_t depth);

/* The portal: runs a frame whose operand stack starts with the `nsaved`
 * values at `saved` (tlc_eval passes none). A frame that the native
 * interpreter started hands itself over to the JIT this way in the middle
 * of a loop (tiered execution, below): `pc` is where it stands, `saved` its
 * stack. `nsaved` is part of the specialization key, so the JIT copies the
 * saved values into its virtual stack one by one.
 *
 * A frame of at most TLC_DIRECT_ARGS arguments takes them in `arg0`..,
 * the others NULL, and `args` is NULL; a frame of more takes them all in
 * `args`. Arguments passed one by one are the portal's own parameters: a
 * call in compiled code can pass an integer the partial evaluator knows as
 * its value rather than as a box (docs/architecture.md, "Value
 * arguments"), where an array would have to hold the box. */
JIT_PORTAL TlcObject *tlc_resume(const TlcCode *code, int64_t pc, TlcObject *arg0, TlcObject *arg1,
                                 TlcObject *arg2, TlcObject *arg3, TlcObject **args, int64_t nargs,
                                 int64_t depth, TlcObject *const *saved, int64_t nsaved);

/* A portal's signature: tlc_resume's, or a host's that runs it. */
typedef TlcObject *TlcFrameFn(const TlcCode *code, int64_t pc, TlcObject *arg0, TlcObject *arg1,
                              TlcObject *arg2, TlcObject *arg3, TlcObject **args, int64_t nargs,
                              int64_t depth, TlcObject *const *saved, int64_t nsaved);

/* Runs `frame` with an empty stack on the `nargs` arguments at `args`,
 * passed as the portal takes them (one by one up to TLC_DIRECT_ARGS). */
TlcObject *tlc_frame_from_array(TlcFrameFn *frame, const TlcCode *code, int64_t pc,
                                TlcObject **args, int64_t nargs, int64_t depth);

/* Tiered execution, for the native interpreter only (the JIT never sees
 * it): a frame counts its backward jumps, the process its calls; when a
 * count reaches `threshold`, the rest of the frame (from the head of its
 * loop, with its operand stack) or the called frame runs through `enter`
 * instead. `threshold` 0 turns it off. */
typedef struct TlcTier {
    int64_t threshold;
    TlcFrameFn *enter;
    int64_t calls; /* frames called so far, up to `threshold` */
} TlcTier;

extern TlcTier tlc_tier;

#endif
