#include "errors.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "opcodes.h"

jmp_buf *tlc_error_handler;
TlcError tlc_last_error;
uint64_t tlc_memory_limit;

static const char *const kind_names[] = {
    [TLC_ERR_TYPE] = "TypeError",
    [TLC_ERR_INDEX] = "IndexError",
    [TLC_ERR_ZERO_DIVISION] = "ZeroDivisionError",
    [TLC_ERR_ATTRIBUTE] = "AttributeError",
    [TLC_ERR_STACK_UNDERFLOW] = "StackUnderflow",
    [TLC_ERR_STACK_OVERFLOW] = "StackOverflow",
    [TLC_ERR_BRANCH] = "BranchError",
    [TLC_ERR_INVALID_OPCODE] = "InvalidOpcode",
    [TLC_ERR_RECURSION] = "RecursionError",
    [TLC_ERR_MEMORY] = "MemoryError",
};

const char *tlc_error_kind_name(TlcErrorKind kind)
{
    if ((unsigned)kind >= sizeof kind_names / sizeof kind_names[0])
        return "Error";
    return kind_names[kind];
}

void tlc_format_error(const TlcError *err, const char *file, char *buf, size_t size)
{
    const TlcOpInfo *info = tlc_op_info(err->op);
    snprintf(buf, size, "%s: pc %" PRId64 ": %s in %s: %s", file, err->pc,
             tlc_error_kind_name(err->kind), info ? info->name : "?", err->detail);
}

/* Unwinds to the runner; without one (a library user that installed none)
 * the error is printed and the process aborts: a raise cannot return. */
static _Noreturn void unwind(void)
{
    if (tlc_error_handler)
        longjmp(*tlc_error_handler, 1);
    char line[400];
    tlc_format_error(&tlc_last_error, "tlc", line, sizeof line);
    fflush(stdout);
    fprintf(stderr, "%s\n", line);
    abort();
}

bool tlc_internal_failure;
char tlc_internal_message[1024];

void tlc_fail_internal(const char *message)
{
    tlc_internal_failure = true;
    snprintf(tlc_internal_message, sizeof tlc_internal_message, "%s", message);
    if (tlc_error_handler)
        longjmp(*tlc_error_handler, 1);
    fflush(stdout);
    fprintf(stderr, "%s\n", message);
    abort();
}

static void record(TlcErrorKind kind, int op, int64_t pc)
{
    tlc_last_error.kind = kind;
    tlc_last_error.op = op;
    tlc_last_error.pc = pc;
}

_Noreturn void tlc_raise(TlcErrorKind kind, int op, int64_t pc, const char *detail)
{
    record(kind, op, pc);
    snprintf(tlc_last_error.detail, sizeof tlc_last_error.detail, "%s", detail);
    unwind();
}

_Noreturn void tlc_raise_operands(int op, int64_t pc, TlcObject *b, TlcObject *a)
{
    record(TLC_ERR_TYPE, op, pc);
    snprintf(tlc_last_error.detail, sizeof tlc_last_error.detail,
             "unsupported operand types %s and %s", b->type->name, a->type->name);
    unwind();
}

_Noreturn void tlc_raise_expected(int op, int64_t pc, const char *what, TlcObject *got)
{
    record(TLC_ERR_TYPE, op, pc);
    snprintf(tlc_last_error.detail, sizeof tlc_last_error.detail, "expected %s, got %s", what,
             got->type->name);
    unwind();
}

_Noreturn void tlc_raise_attribute(int op, int64_t pc, const char *name, int64_t is_method)
{
    record(TLC_ERR_ATTRIBUTE, op, pc);
    snprintf(tlc_last_error.detail, sizeof tlc_last_error.detail, "object has no %s '%s'",
             is_method ? "method" : "attribute", name);
    unwind();
}

_Noreturn void tlc_raise_index(int op, int64_t pc, int64_t index, const char *what)
{
    record(TLC_ERR_INDEX, op, pc);
    snprintf(tlc_last_error.detail, sizeof tlc_last_error.detail,
             "%s index %" PRId64 " out of range", what, index);
    unwind();
}

_Noreturn void tlc_raise_memory(int op, int64_t pc)
{
    record(TLC_ERR_MEMORY, op, pc);
    snprintf(tlc_last_error.detail, sizeof tlc_last_error.detail,
             "the heap is full (limit %" PRIu64 " bytes)", tlc_memory_limit);
    unwind();
}
