/* Unit tests of the interpreter: every opcode, its corner cases and every
 * error kind, run in-process with the output captured. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gc.h>

#include "tlc/asm.h"
#include "tlc/errors.h"
#include "tlc/opcodes.h"
#include "tlc/run.h"
#include "tlc/values.h"

typedef struct Outcome {
    int status;     /* 0 ok, 1 TLC error */
    char *text;     /* output, then the result line if any */
    TlcError error; /* when status == 1 */
} Outcome;

/* Assembles `src`, runs it with input n on the native interpreter and
 * captures what `tlc run` would print on stdout. */
static Outcome run_src(const char *src, int64_t n)
{
    TlcDiag diag;
    TlcProgram *prog = tlc_assemble(src, strlen(src), "test.tlc", &diag);
    if (!prog)
        fail_msg("assembly failed: %s", diag.message);
    TlcCode *code = tlc_code_new(prog);
    assert_non_null(code);
    Outcome o = {0};
    size_t size;
    FILE *mem = open_memstream(&o.text, &size);
    assert_non_null(mem);
    tlc_out = mem;
    TlcObject *result = NULL;
    o.status = tlc_execute(code, tlc_eval, n, &result);
    if (o.status == 0 && result)
        tlc_print(result);
    if (o.status == 1)
        o.error = tlc_last_error;
    tlc_out = NULL;
    fclose(mem);
    tlc_code_free(code);
    tlc_program_free(prog);
    return o;
}

static void expect_output(const char *src, int64_t n, const char *expected)
{
    Outcome o = run_src(src, n);
    if (o.status != 0)
        fail_msg("unexpected %s at pc %lld: %s\nprogram:\n%s", tlc_error_kind_name(o.error.kind),
                 (long long)o.error.pc, o.error.detail, src);
    assert_string_equal(o.text, expected);
    free(o.text);
}

static void expect_error(const char *src, int64_t n, TlcErrorKind kind, int op, int64_t pc,
                         const char *output_before)
{
    Outcome o = run_src(src, n);
    if (o.status != 1)
        fail_msg("expected %s, got success with output '%s'\nprogram:\n%s",
                 tlc_error_kind_name(kind), o.text, src);
    assert_string_equal(tlc_error_kind_name(o.error.kind), tlc_error_kind_name(kind));
    assert_int_equal(o.error.op, op);
    assert_int_equal(o.error.pc, pc);
    assert_string_equal(o.text, output_before);
    free(o.text);
}

static void test_push_pop_result(void **state)
{
    (void)state;
    expect_output("PUSH 5\n", 0, "5\n");
    expect_output("PUSH -128\nPUSH 127\n", 0, "127\n");
    expect_output("PUSH 1\nPOP\n", 0, "");
    expect_output("", 0, "");
    expect_output("NOP\nPUSH 3\nNOP\n", 0, "3\n");
}

static void test_args(void **state)
{
    (void)state;
    expect_output("PUSHARG\n", 42, "42\n");
    expect_output("PUSHARG\n", INT64_MIN, "-9223372036854775808\n");
    expect_output("PUSHARGN 0\n", -7, "-7\n");
    expect_error("PUSH 1\nPUSHARGN 1\n", 0, TLC_ERR_INDEX, TLC_OP_PUSHARGN, 2, "");
    expect_error("PUSHARGN -1\n", 0, TLC_ERR_INDEX, TLC_OP_PUSHARGN, 0, "");
}

static void test_stack_shuffles(void **state)
{
    (void)state;
    expect_output("PUSH 1\nPUSH 2\nSWAP\nDUMP\n", 0, "[2, 1]\n1\n");
    expect_output("PUSH 1\nPUSH 2\nPUSH 3\nPUSH 4\nROLL 3\nDUMP\n", 0, "[1, 3, 4, 2]\n2\n");
    expect_output("PUSH 1\nPUSH 2\nPUSH 3\nPUSH 4\nROLL -3\nDUMP\n", 0, "[1, 4, 2, 3]\n3\n");
    expect_output("PUSH 1\nPUSH 2\nROLL 2\nDUMP\n", 0, "[2, 1]\n1\n");
    expect_output("PUSH 1\nPUSH 2\nROLL -2\nDUMP\n", 0, "[2, 1]\n1\n");
    expect_output("PUSH 1\nPUSH 2\nROLL 1\nROLL 0\nROLL -1\nDUMP\n", 0, "[1, 2]\n2\n");
    expect_output("ROLL 1\nROLL -1\nROLL 0\n", 0, "");
    expect_output("PUSH 1\nPUSH 2\nPICK 0\nPICK 2\nDUMP\n", 0, "[1, 2, 2, 1]\n1\n");
    expect_output("PUSH 1\nPUSH 2\nPUSH 3\nPUT 1\nDUMP\n", 0, "[3, 2]\n2\n");
    expect_output("PUSH 1\nPUSH 2\nPUT 0\nDUMP\n", 0, "[2]\n2\n");
    expect_output("DUMP\n", 0, "[]\n");
}

static void test_stack_errors(void **state)
{
    (void)state;
    expect_error("POP\n", 0, TLC_ERR_STACK_UNDERFLOW, TLC_OP_POP, 0, "");
    expect_error("PUSH 1\nSWAP\n", 0, TLC_ERR_STACK_UNDERFLOW, TLC_OP_SWAP, 2, "");
    expect_error("PUSH 1\nROLL 2\n", 0, TLC_ERR_STACK_UNDERFLOW, TLC_OP_ROLL, 2, "");
    expect_error("PUSH 1\nROLL -2\n", 0, TLC_ERR_STACK_UNDERFLOW, TLC_OP_ROLL, 2, "");
    expect_error("PUSH 1\nPICK 1\n", 0, TLC_ERR_STACK_UNDERFLOW, TLC_OP_PICK, 2, "");
    expect_error("PUSH 1\nPUT 0\n", 0, TLC_ERR_STACK_UNDERFLOW, TLC_OP_PUT, 2, "");
    expect_error("PUSH 1\nADD\n", 0, TLC_ERR_STACK_UNDERFLOW, TLC_OP_ADD, 2, "");
    expect_error("PRINT\n", 0, TLC_ERR_STACK_UNDERFLOW, TLC_OP_PRINT, 0, "");
    expect_error("BR_COND end\nend:\n", 0, TLC_ERR_STACK_UNDERFLOW, TLC_OP_BR_COND, 0, "");
    /* 256 values fit; the 257th overflows */
    char *src = malloc(257 * 8 + 1);
    assert_non_null(src);
    src[0] = '\0';
    for (int i = 0; i < 256; i++)
        strcat(src, "PUSH 7\n");
    expect_output(src, 0, "7\n");
    strcat(src, "PUSH 7\n");
    expect_error(src, 0, TLC_ERR_STACK_OVERFLOW, TLC_OP_PUSH, 512, "");
    free(src);
    expect_error("loop: PUSH 1\nBR loop\n", 0, TLC_ERR_STACK_OVERFLOW, TLC_OP_PUSH, 0, "");
}

static void test_arithmetic(void **state)
{
    (void)state;
    expect_output("PUSH 7\nPUSH 5\nSUB\nPUSH 3\nMUL\nPUSH 4\nADD\n", 0, "10\n");
    /* wrapping: INT64_MAX + 1, INT64_MIN - 1, INT64_MIN * -1 */
    expect_output("PUSHARG\nPUSH 1\nADD\n", INT64_MAX, "-9223372036854775808\n");
    expect_output("PUSHARG\nPUSH 1\nSUB\n", INT64_MIN, "9223372036854775807\n");
    expect_output("PUSHARG\nPUSH -1\nMUL\n", INT64_MIN, "-9223372036854775808\n");
    expect_output("PUSHARG\nPICK 0\nMUL\n", 4294967296, "0\n");
}

static void test_floor_division(void **state)
{
    (void)state;
    expect_output("PUSH 7\nPUSH 2\nDIV\n", 0, "3\n");
    expect_output("PUSH -7\nPUSH 2\nDIV\n", 0, "-4\n");
    expect_output("PUSH 7\nPUSH -2\nDIV\n", 0, "-4\n");
    expect_output("PUSH -7\nPUSH -2\nDIV\n", 0, "3\n");
    expect_output("PUSH -6\nPUSH 2\nDIV\n", 0, "-3\n");
    expect_output("PUSH 0\nPUSH -5\nDIV\n", 0, "0\n");
    expect_output("PUSHARG\nPUSH -1\nDIV\n", INT64_MIN, "-9223372036854775808\n");
    expect_output("PUSHARG\nPUSH 1\nDIV\n", INT64_MIN, "-9223372036854775808\n");
    expect_error("PUSH 1\nPRINT\nPUSH 1\nPUSH 0\nDIV\n", 0, TLC_ERR_ZERO_DIVISION, TLC_OP_DIV, 7,
                 "1\n");
}

static void test_comparisons(void **state)
{
    (void)state;
    expect_output("PUSH 1\nPUSH 2\nLT\nPUSH 2\nPUSH 2\nLT\nPUSH 3\nPUSH 2\nLT\nDUMP\n", 0,
                  "[1, 0, 0]\n0\n");
    expect_output("PUSH 1\nPUSH 2\nLE\nPUSH 2\nPUSH 2\nLE\nPUSH 3\nPUSH 2\nLE\nDUMP\n", 0,
                  "[1, 1, 0]\n0\n");
    expect_output("PUSH 1\nPUSH 2\nGT\nPUSH 2\nPUSH 2\nGT\nPUSH 3\nPUSH 2\nGT\nDUMP\n", 0,
                  "[0, 0, 1]\n1\n");
    expect_output("PUSH 1\nPUSH 2\nGE\nPUSH 2\nPUSH 2\nGE\nPUSH 3\nPUSH 2\nGE\nDUMP\n", 0,
                  "[0, 1, 1]\n1\n");
    expect_output("PUSHARG\nPUSH 0\nLT\n", INT64_MIN, "1\n");
    expect_error("NIL\nPUSH 1\nLT\n", 0, TLC_ERR_TYPE, TLC_OP_LT, 3, "");
    expect_error("PUSH 1\nNIL\nGE\n", 0, TLC_ERR_TYPE, TLC_OP_GE, 3, "");
}

static void test_equality(void **state)
{
    (void)state;
    expect_output("PUSH 3\nPUSH 3\nEQ\nPUSH 3\nPUSH 4\nEQ\nPUSH 3\nPUSH 3\nNE\nDUMP\n", 0,
                  "[1, 0, 0]\n0\n");
    expect_output("PUSH 0\nNIL\nEQ\nNIL\nPUSH 0\nEQ\nNIL\nNIL\nEQ\nDUMP\n", 0, "[0, 0, 1]\n1\n");
    /* structural list equality, nested and improper */
    expect_output("NIL\nPUSH 2\nCONS\nPUSH 1\nCONS\nNIL\nPUSH 2\nCONS\nPUSH 1\nCONS\nEQ\n", 0,
                  "1\n");
    expect_output("NIL\nPUSH 2\nCONS\nPUSH 1\nCONS\nNIL\nPUSH 3\nCONS\nPUSH 1\nCONS\nEQ\n", 0,
                  "0\n");
    expect_output("PUSH 2\nPUSH 1\nCONS\nPUSH 2\nPUSH 1\nCONS\nEQ\n", 0, "1\n");
    expect_output("NIL\nPUSH 1\nCONS\nNIL\nCONS\nNIL\nPUSH 1\nCONS\nNIL\nCONS\nEQ\n", 0, "1\n");
    expect_output("NIL\nPUSH 1\nCONS\nNIL\nEQ\n", 0, "0\n");
    expect_output("NIL\nPUSH 1\nCONS\nPUSH 1\nNE\n", 0, "1\n");
    /* objects by identity */
    expect_output("NEW x\nNEW x\nEQ\nNEW x\nPICK 0\nEQ\nDUMP\n", 0, "[0, 1]\n1\n");
}

/* Appends to `src` the code of a list nested `depth` deep through its cars,
 * (((k ...) ...) ...), each level also holding a tail of `width` integers 7
 * (the outermost one `outer` of them). */
static void append_nested_list(char *src, size_t size, const int *shape)
{
    int depth = shape[0], width = shape[1], outer = shape[2], k = shape[3];
    size_t len = strlen(src);
    len += (size_t)snprintf(src + len, size - len, "NIL\nPUSH %d\nCONS\n", k);
    for (int d = 0; d < depth; d++) {
        len += (size_t)snprintf(src + len, size - len, "NIL\n");
        for (int w = 0; w < (d + 1 == depth ? outer : width); w++)
            len += (size_t)snprintf(src + len, size - len, "PUSH 7\nCONS\n");
        len += (size_t)snprintf(src + len, size - len, "SWAP\nCONS\n"); /* (inner 7 ...) */
    }
}

/* Lists nested deeper than the comparison's first work stack (on the C
 * stack) holds, and longer than it: equal, and unequal at the innermost
 * element, in every tail, or only in the outermost tail (compared last,
 * from the first entries of the stack). */
static void test_equality_deep_lists(void **state)
{
    (void)state;
    const size_t size = 1 << 20;
    char *src = malloc(size);
    assert_non_null(src);
    const int shapes[][8] = {
        /* depth, width, outer width and k of the first list, then of the second */
        {100, 0, 0, 1, 100, 0, 0, 1},   {100, 0, 0, 1, 100, 0, 0, 2},
        {40, 40, 40, 1, 40, 40, 40, 1}, {40, 40, 40, 1, 40, 39, 39, 1},
        {40, 2, 3, 1, 40, 2, 2, 1},     {1, 500, 500, 3, 1, 500, 500, 3},
        {60, 1, 1, 5, 59, 1, 1, 5},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int *s = shapes[i];
        src[0] = 0;
        append_nested_list(src, size, s);
        append_nested_list(src, size, s + 4);
        strcat(src, "EQ\n");
        expect_output(src, 0, memcmp(s, s + 4, 4 * sizeof *s) == 0 ? "1\n" : "0\n");
    }
    free(src);
}

static void test_branches(void **state)
{
    (void)state;
    /* truthiness: int non-zero, nil false, cons and objects true */
    const char *truth = "BR_COND yes\nPUSH 0\nBR end\nyes: PUSH 1\nend:\n";
    char src[256];
    const char *values[] = {"PUSH 0", "PUSH -3", "NIL", "NIL\nNIL\nCONS", "NEW a"};
    const char *expected[] = {"0\n", "1\n", "0\n", "1\n", "1\n"};
    for (int i = 0; i < 5; i++) {
        snprintf(src, sizeof src, "%s\n%s", values[i], truth);
        expect_output(src, 0, expected[i]);
    }
    /* branch to exactly the end ends the frame; backward loop */
    expect_output("PUSH 1\nBR end\nPUSH 2\nend:\n", 0, "1\n");
    expect_output("PUSHARG\nloop: PICK 0\nPRINT\nPUSH 1\nSUB\nPICK 0\nBR_COND loop\n", 3,
                  "3\n2\n1\n0\n");
    /* BR_COND_STK: offset relative to the pc after the opcode */
    expect_output("PUSH 1\nPUSH 2\nBR_COND_STK\nPUSH 7\nPUSH 8\n", 0, "8\n");
    expect_output("PUSH 0\nPUSH 2\nBR_COND_STK\nPUSH 7\nPUSH 8\n", 0, "8\n");
    expect_output("PUSH 1\nPUSH 4\nBR_COND_STK\nPUSH 7\nPUSH 8\n", 0, "");
    expect_error("PUSH 1\nPUSH 5\nBR_COND_STK\nPUSH 7\nPUSH 8\n", 0, TLC_ERR_BRANCH,
                 TLC_OP_BR_COND_STK, 4, "");
    expect_error("PUSH 1\nPUSH -6\nBR_COND_STK\n", 0, TLC_ERR_BRANCH, TLC_OP_BR_COND_STK, 4, "");
    expect_error("PUSH 1\nPUSH 1\nBR_COND_STK\nPUSH 7\n", 0, TLC_ERR_BRANCH, TLC_OP_BR_COND_STK, 4,
                 "");
    expect_error("PUSH 1\nNIL\nBR_COND_STK\n", 0, TLC_ERR_TYPE, TLC_OP_BR_COND_STK, 3, "");
}

static void test_calls(void **state)
{
    (void)state;
    /* CALL passes [0]; the callee's top is pushed; an empty callee pushes nothing */
    expect_output("CALL f\nCALL g\nDUMP\nRETURN\nf: PUSHARG\nPUSH 5\nADD\nRETURN\ng: RETURN\n", 0,
                  "[5]\n5\n");
    expect_output("PUSH 9\nRETURN\nPUSH 8\n", 0, "9\n");
    /* recursion bound: 1000 nested frames fit, the 1001st does not */
    expect_error("f: CALL f\n", 0, TLC_ERR_RECURSION, TLC_OP_CALL, 0, "");
}

static void test_lists(void **state)
{
    (void)state;
    expect_output("NIL\nPUSH 3\nCONS\nPUSH 2\nCONS\nPUSH 1\nCONS\n", 0, "(1 2 3)\n");
    expect_output("PUSH 2\nPUSH 1\nCONS\n", 0, "(1 . 2)\n");
    expect_output("NIL\nPUSH 3\nCONS\nNIL\nPUSH 2\nCONS\nPUSH 1\nCONS\nCONS\n", 0, "((1 2) 3)\n");
    expect_output("NIL\nPUSH 2\nCONS\nPUSH 1\nCONS\nPICK 0\nCAR\nSWAP\nCDR\nDUMP\n", 0,
                  "[1, (2)]\n(2)\n");
    /* concatenation copies b, shares a */
    expect_output("NIL\nPUSH 2\nCONS\nPUSH 1\nCONS\nNIL\nPUSH 4\nCONS\nPUSH 3\nCONS\nADD\n", 0,
                  "(1 2 3 4)\n");
    expect_output("NIL\nNIL\nADD\nNIL\nPUSH 1\nCONS\nNIL\nADD\nNIL\nNIL\nPUSH 1\nCONS\nADD\nDUMP\n",
                  0, "[nil, (1), (1)]\n(1)\n");
    /* nth */
    expect_output("NIL\nPUSH 3\nCONS\nPUSH 2\nCONS\nPUSH 1\nCONS\nPUSH 2\nDIV\n", 0, "3\n");
    expect_error("NIL\nPUSH 3\nCONS\nPUSH 1\nDIV\n", 0, TLC_ERR_INDEX, TLC_OP_DIV, 6, "");
    expect_error("NIL\nPUSH 3\nCONS\nPUSH -1\nDIV\n", 0, TLC_ERR_INDEX, TLC_OP_DIV, 6, "");
    expect_error("NIL\nPUSH 0\nDIV\n", 0, TLC_ERR_INDEX, TLC_OP_DIV, 3, "");
    expect_error("NIL\nNIL\nDIV\n", 0, TLC_ERR_TYPE, TLC_OP_DIV, 2, "");
    expect_error("NIL\nCAR\n", 0, TLC_ERR_TYPE, TLC_OP_CAR, 1, "");
    expect_error("PUSH 1\nCDR\n", 0, TLC_ERR_TYPE, TLC_OP_CDR, 2, "");
    expect_error("PUSH 1\nNIL\nADD\n", 0, TLC_ERR_TYPE, TLC_OP_ADD, 3, "");
    expect_error("NIL\nPUSH 1\nADD\n", 0, TLC_ERR_TYPE, TLC_OP_ADD, 3, "");
    expect_error("NIL\nPUSH 1\nSUB\n", 0, TLC_ERR_TYPE, TLC_OP_SUB, 3, "");
}

static void test_objects(void **state)
{
    (void)state;
    expect_output("NEW a,b\nPICK 0\nPUSH 5\nSETATTR b\nPICK 0\nGETATTR b\nSWAP\nGETATTR a\nDUMP\n",
                  0, "[5, nil]\nnil\n");
    expect_output("NEW a\n", 0, "<object>\n");
    /* SEND: the receiver deepest, arguments in push order */
    expect_output("NEW v,m=meth\nPUSH 10\nPUSH 3\nSEND m/2\nRETURN\n"
                  "meth: PUSHARGN 1\nPUSHARGN 2\nSUB\nRETURN\n",
                  0, "7\n");
    expect_output("NEW v,m=meth\nPICK 0\nPUSH 4\nSEND m/1\nGETATTR v\nRETURN\n"
                  "meth: PUSHARG\nPUSHARGN 1\nSETATTR v\nRETURN\n",
                  0, "4\n");
    expect_error("NEW a\nGETATTR b\n", 0, TLC_ERR_ATTRIBUTE, TLC_OP_GETATTR, 2, "");
    expect_error("NEW a\nPUSH 1\nSETATTR b\n", 0, TLC_ERR_ATTRIBUTE, TLC_OP_SETATTR, 4, "");
    expect_error("NEW a\nSEND m/0\n", 0, TLC_ERR_ATTRIBUTE, TLC_OP_SEND, 2, "");
    expect_error("PUSH 1\nGETATTR a\n", 0, TLC_ERR_TYPE, TLC_OP_GETATTR, 2, "");
    expect_error("NIL\nSEND a/0\n", 0, TLC_ERR_TYPE, TLC_OP_SEND, 1, "");
    expect_error("NEW a\nSEND a/1\n", 0, TLC_ERR_STACK_UNDERFLOW, TLC_OP_SEND, 2, "");
    expect_error("NEW a\nNEW a\nADD\n", 0, TLC_ERR_TYPE, TLC_OP_ADD, 4, "");
}

static void test_invalid(void **state)
{
    (void)state;
    expect_error("PUSH 1\nPRINT\nINVALID\n", 0, TLC_ERR_INVALID_OPCODE, TLC_OP_INVALID, 3, "1\n");
}

static void test_error_format(void **state)
{
    (void)state;
    TlcError e = {.kind = TLC_ERR_TYPE, .op = TLC_OP_ADD, .pc = 12};
    strcpy(e.detail, "unsupported operand types int and object");
    char line[256];
    tlc_format_error(&e, "p.tlc", line, sizeof line);
    assert_string_equal(line,
                        "p.tlc: pc 12: TypeError in ADD: unsupported operand types int and object");
}

static void test_classes_hash_consed(void **state)
{
    (void)state;
    char *a[] = {"x", "y"};
    TlcMethodDesc m[] = {{"f", 3}};
    TlcClassDesc d1 = {2, a, 1, m}, d2 = {2, a, 1, m}, d3 = {1, a, 1, m};
    TlcMethodDesc m2[] = {{"f", 4}};
    TlcClassDesc d4 = {2, a, 1, m2};
    const TlcType *t1 = tlc_class_get(&d1);
    assert_non_null(t1);
    assert_ptr_equal(t1, tlc_class_get(&d2));
    assert_ptr_not_equal(t1, tlc_class_get(&d3));
    assert_ptr_not_equal(t1, tlc_class_get(&d4));
    assert_int_equal(tlc_class_attr_index(t1, "y"), 1);
    assert_int_equal(tlc_class_attr_index(t1, "z"), -1);
    assert_int_equal(tlc_class_method_pc(t1, "f"), 3);
    assert_int_equal(tlc_class_method_pc(t1, "x"), -1);
}

static void test_allocation_counter(void **state)
{
    (void)state;
    uint64_t before = tlc_allocations;
    expect_output("PUSH 1\nPUSH 2\nADD\n", 0, "3\n");
    /* the input box, two PUSHes, one ADD */
    assert_int_equal(tlc_allocations - before, 4);
}

int main(void)
{
    GC_INIT();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_push_pop_result),
        cmocka_unit_test(test_args),
        cmocka_unit_test(test_stack_shuffles),
        cmocka_unit_test(test_stack_errors),
        cmocka_unit_test(test_arithmetic),
        cmocka_unit_test(test_floor_division),
        cmocka_unit_test(test_comparisons),
        cmocka_unit_test(test_equality),
        cmocka_unit_test(test_equality_deep_lists),
        cmocka_unit_test(test_branches),
        cmocka_unit_test(test_calls),
        cmocka_unit_test(test_lists),
        cmocka_unit_test(test_objects),
        cmocka_unit_test(test_invalid),
        cmocka_unit_test(test_error_format),
        cmocka_unit_test(test_classes_hash_consed),
        cmocka_unit_test(test_allocation_counter),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    tlc_classes_free();
    return failed;
}
