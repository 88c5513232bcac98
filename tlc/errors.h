/* TLC run-time errors. Raising one records it and unwinds (longjmp) to the
 * handler the runner installed; the runner prints one line and exits with
 * status 1. The JIT's residual code calls these same functions, so every
 * engine reports exactly the same errors. */
#ifndef TLC_ERRORS_H
#define TLC_ERRORS_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "object.h"

typedef enum TlcErrorKind {
    TLC_ERR_TYPE,
    TLC_ERR_INDEX,
    TLC_ERR_ZERO_DIVISION,
    TLC_ERR_ATTRIBUTE,
    TLC_ERR_STACK_UNDERFLOW,
    TLC_ERR_STACK_OVERFLOW,
    TLC_ERR_BRANCH,
    TLC_ERR_INVALID_OPCODE,
    TLC_ERR_RECURSION,
    TLC_ERR_MEMORY,
} TlcErrorKind;

typedef struct TlcError {
    TlcErrorKind kind;
    int op;
    int64_t pc;
    char detail[200];
} TlcError;

/* Name of an error kind as printed ("TypeError", ...). */
const char *tlc_error_kind_name(TlcErrorKind kind);

/* Where tlc_raise* unwind to; NULL (a host that installed none) means print
 * the error and abort: a raise cannot return. */
extern jmp_buf *tlc_error_handler;
/* The last error raised. */
extern TlcError tlc_last_error;
/* The heap's limit in bytes, as MemoryError reports it (set by
 * tlc_heap_set_limit, heap.h). */
extern uint64_t tlc_memory_limit;

/* A failure that is no TLC error (memory outside the heap exhausted, the
 * JIT unable to go on): set with its message by tlc_fail_internal, which
 * unwinds to the runner like an error; the run then ends with status 70. */
extern bool tlc_internal_failure;
extern char tlc_internal_message[1024];

/* Records `message` (printed as is) as an internal failure and unwinds to
 * the runner; without one, prints it and aborts. */
_Noreturn void tlc_fail_internal(const char *message);

/* Formats an error as `FILE: pc P: KIND in OP: detail` into buf. */
void tlc_format_error(const TlcError *err, const char *file, char *buf, size_t size);

JIT_DONT_LOOK_INSIDE _Noreturn void tlc_raise(TlcErrorKind kind, int op, int64_t pc,
                                              const char *detail);
/* TypeError naming the types of both operands. */
JIT_DONT_LOOK_INSIDE _Noreturn void tlc_raise_operands(int op, int64_t pc, TlcObject *b,
                                                       TlcObject *a);
/* TypeError: `what` expected, the type of `got` found. */
JIT_DONT_LOOK_INSIDE _Noreturn void tlc_raise_expected(int op, int64_t pc, const char *what,
                                                       TlcObject *got);
/* MemoryError: an allocation found the heap full (its limit reached). */
JIT_DONT_LOOK_INSIDE _Noreturn void tlc_raise_memory(int op, int64_t pc);
/* AttributeError: no attribute (or method) `name`. */
JIT_DONT_LOOK_INSIDE _Noreturn void tlc_raise_attribute(int op, int64_t pc, const char *name,
                                                        int64_t is_method);
/* IndexError for an index into a list or the argument vector. */
JIT_DONT_LOOK_INSIDE _Noreturn void tlc_raise_index(int op, int64_t pc, int64_t index,
                                                    const char *what);

#endif
