/* Opening the LLVM backend library (libjitgen-llvm.so) and starting its
 * session, on the calling thread or on a thread of its own
 * (docs/architecture.md, "The backend library"). */
#ifndef JITGEN_DRIVER_BACKEND_H
#define JITGEN_DRIVER_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "llvmgen/llvmgen.h"

/* Opens the library and checks that it was built from this tree; NULL with
 * a message. Where it is looked for: `path` when not NULL, else the
 * environment's JITGEN_BACKEND, else libjitgen-llvm.so beside the running
 * executable. A later call finds it loaded and returns the same table. Adds
 * the milliseconds it took to `*open_ms`. */
const JgBackend *jg_backend_open(const char *path, double *open_ms, char *err, size_t errsize);

/* A session being started: the library opened and the session created
 * (warmed up on request) on another thread, or on the joining thread when
 * no thread can be had. The options are copied. */
typedef struct JgBackendStart JgBackendStart;
JgBackendStart *jg_backend_start(const char *path, const JgLlvmOptions *options, bool warm_up);

/* The same, then `job` on that thread with the new session (a first
 * compilation in the background). */
typedef void (*JgBackendJob)(void *ctx, const JgBackend *backend, JgLlvm *llvm);
JgBackendStart *jg_backend_start_job(const char *path, const JgLlvmOptions *options, bool warm_up,
                                     JgBackendJob job, void *job_ctx);

/* Whether a start (and its job) has finished: joining it will not wait. */
bool jg_backend_ready(JgBackendStart *start);

/* The result of a start, its memory freed: the session (NULL with a
 * message) and the table it belongs to; the milliseconds spent opening the
 * library are added to `*open_ms`. A NULL `start` reports "out of memory". */
JgLlvm *jg_backend_join(JgBackendStart *start, const JgBackend **backend, double *open_ms,
                        char *err, size_t errsize);

#endif
