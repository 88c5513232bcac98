/* The engines of `tlc run` beyond the native interpreter: the JIT
 * generator's driver running tlc_eval from the interpreter's embedded
 * bitcode. */
#ifndef TLC_ENGINES_H
#define TLC_ENGINES_H

#include "interp.h"
#include "jitgen/driver.h"
#include "run.h"

/* Creates the process's driver, or, tiered and showing no code, notes its
 * options to create it at first need (tlc_engines_driver). Returns false
 * with a message on failure. */
bool tlc_engines_init(const JgDriverOptions *options, char *err, size_t errsize);
void tlc_engines_shutdown(void);

/* Whether the driver has been created. */
bool tlc_engines_started(void);

/* Runs a frame through the driver (a TlcEngineFn). */
TlcObject *tlc_eval_driver(const TlcCode *code, int64_t pc, TlcObject **args, int64_t nargs,
                           int64_t depth);

/* The driver, created now if it was left for first need (a failure to
 * create it is an internal failure, tlc_fail_internal: the run ends with
 * TLC_EXIT_INTERNAL and the message). */
JgDriver *tlc_engines_driver(void);

/* Tiered execution: the native interpreter runs frames and hands hot loops
 * and calls over to the driver (tlc_tier) once `threshold` backward jumps
 * or calls have been counted. The driver must have been created with the
 * `tiered` option. */
void tlc_engines_tier(int64_t threshold);

#endif
