/* Preparing a program for the engines and running it the way `tlc run`
 * does: output, result line, one error line, exit status. */
#ifndef TLC_RUN_H
#define TLC_RUN_H

#include <stdio.h>

#include "interp.h"
#include "program.h"

/* Exit statuses of the tlc command (docs/cli.md). */
enum {
    TLC_EXIT_OK = 0,
    TLC_EXIT_RUNTIME_ERROR = 1,
    TLC_EXIT_USAGE = 2,
    TLC_EXIT_BAD_INPUT = 65,
    TLC_EXIT_NO_INPUT = 66,
    TLC_EXIT_INTERNAL = 70,
    TLC_EXIT_CANT_CREATE = 73,
};

/* Builds the run-time form of a verified program (classes interned,
 * instruction starts computed). NULL when out of memory. The program must
 * outlive the code. */
TlcCode *tlc_code_new(const TlcProgram *prog);
void tlc_code_free(TlcCode *code);

/* An engine runs one frame exactly like tlc_eval does. */
typedef TlcObject *(*TlcEngineFn)(const TlcCode *code, int64_t pc, TlcObject **args, int64_t nargs,
                                  int64_t depth);

/* Runs the program from pc 0 with the input `n` on `engine`, on a thread
 * with a stack large enough for TLC_MAX_NESTED_CALLS + 1 frames of any
 * engine, and prints nothing itself. Returns 0 with *result the top-level
 * frame's result (NULL: empty stack), 1 after a TLC error (described by
 * tlc_last_error), 2 after an internal failure (tlc_internal_message; the
 * JIT, if it failed, must not be used any more), -1 when the thread cannot
 * start. */
int tlc_execute(const TlcCode *code, TlcEngineFn engine, int64_t n, TlcObject **result);

/* Runs the program from pc 0 with the input `n` on `engine`, on a thread
 * with a stack large enough for TLC_MAX_NESTED_CALLS + 1 frames of any
 * engine. Prints the program's output and then its result line on stdout;
 * on a TLC error prints one line `FILE: pc P: KIND in OP: detail` on
 * stderr; on an internal failure its message. Returns the exit status (0,
 * 1, or TLC_EXIT_INTERNAL). Output goes to tlc_out (standard output). */
int tlc_run_program(const TlcCode *code, TlcEngineFn engine, int64_t n, const char *file);

/* The JIT's fatal handler (jitgen/fatal.h) in the tlc command: on the
 * thread running the program, an internal failure (tlc_fail_internal) that
 * unwinds to the runner; on any other thread, the message printed after
 * the program's output, and the process ends with TLC_EXIT_INTERNAL. */
void tlc_jit_fatal(void *ctx, const char *message);

/* Prints the last TLC run-time error (tlc_last_error) of a run of `file`
 * as one line on stderr; returns TLC_EXIT_RUNTIME_ERROR. */
int tlc_report_run_error(const char *file);

#endif
