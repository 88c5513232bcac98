/* Failures the JIT cannot survive, handed to the host. The JIT generator's
 * parts return errors where they can; a failure deep inside running code
 * (an arena out of memory, a backend failing to compile a flexswitch case
 * while its code runs, LLVM missing when a run must compile) has no caller
 * to return to, so it goes to the host's handler, which decides how the
 * process ends. */
#ifndef JITGEN_FATAL_H
#define JITGEN_FATAL_H

/* Gets the whole message (`jitgen: WHO: what`, no newline). Must not
 * return: it ends the process, or longjmps out of every call into the JIT
 * (after which the JIT's objects must be neither used nor freed: locks may
 * be held, structures half built). It may be called on any thread that
 * runs JIT code, including a background compilation's. */
typedef void (*JgFatalFn)(void *ctx, const char *message);

/* Installs the handler for the whole process (NULL: none), before any
 * driver is created. Without one, or when it returns, the message is
 * printed on stderr and the process aborts. */
void jg_set_fatal_handler(JgFatalFn fn, void *ctx);

/* The handler installed (both NULL: none). */
void jg_fatal_handler(JgFatalFn *fn, void **ctx);

#endif
