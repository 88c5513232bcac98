/* Unit tests of the TLC assembler (tlc/asm.c) and verifier (tlc/verify.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlc/asm.h"
#include "tlc/opcodes.h"
#include "tlc/program.h"
#include "tlc/verify.h"

/* ---- helpers ----------------------------------------------------------- */

/* Assembles `src` and fails the test with the diagnostic if that fails. */
static TlcProgram *assemble_len(const char *src, size_t len)
{
    TlcDiag d;
    memset(&d, 0, sizeof d);
    TlcProgram *p = tlc_assemble(src, len, "t.tlc", &d);
    if (!p)
        fail_msg("assembly failed: %s", d.message);
    return p;
}

static TlcProgram *assemble(const char *src)
{
    return assemble_len(src, strlen(src));
}

/* Asserts that assembly fails with "t.tlc:LINE: ..." containing `phrase`. */
static void expect_error_len(const char *src, size_t len, unsigned line, const char *phrase)
{
    TlcDiag d;
    memset(&d, 0, sizeof d);
    TlcProgram *p = tlc_assemble(src, len, "t.tlc", &d);
    if (p) {
        tlc_program_free(p);
        fail_msg("assembled, but expected error '%s' on line %u", phrase, line);
    }
    char prefix[64];
    snprintf(prefix, sizeof prefix, "t.tlc:%u: ", line);
    if (strncmp(d.message, prefix, strlen(prefix)) != 0 || !strstr(d.message, phrase))
        fail_msg("got '%s', expected line %u and '%s'", d.message, line, phrase);
}

static void expect_error(const char *src, unsigned line, const char *phrase)
{
    expect_error_len(src, strlen(src), line, phrase);
}

static void assert_code(const TlcProgram *p, const uint8_t *bytes, size_t n)
{
    assert_int_equal(p->code_len, n);
    for (size_t i = 0; i < n; i++)
        if (p->code[i] != bytes[i])
            fail_msg("byte %zu: got 0x%02x, expected 0x%02x", i, p->code[i], bytes[i]);
}

#define ASSERT_CODE(p, ...)                                                                        \
    do {                                                                                           \
        static const uint8_t expected_[] = {__VA_ARGS__};                                          \
        assert_code((p), expected_, sizeof expected_);                                             \
    } while (0)

/* A growable text buffer for generated sources. */
typedef struct Buf {
    char *p;
    size_t n, cap;
} Buf;

static void buf_add(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    assert_true(need >= 0);
    if (b->n + (size_t)need + 1 > b->cap) {
        b->cap = (b->n + (size_t)need + 1) * 2;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)need;
}

/* ---- every opcode ------------------------------------------------------ */

static void test_every_opcode(void **state)
{
    (void)state;
    TlcProgram *p = assemble("start:\n"
                             "NOP\n"           /*  0 */
                             "PUSH 5\n"        /*  1 */
                             "POP\n"           /*  3 */
                             "SWAP\n"          /*  4 */
                             "ROLL -3\n"       /*  5 */
                             "PICK 0\n"        /*  7 */
                             "PUT 127\n"       /*  9 */
                             "ADD\n"           /* 11 */
                             "SUB\n"           /* 12 */
                             "MUL\n"           /* 13 */
                             "DIV\n"           /* 14 */
                             "EQ\n"            /* 15 */
                             "NE\n"            /* 16 */
                             "LT\n"            /* 17 */
                             "LE\n"            /* 18 */
                             "GT\n"            /* 19 */
                             "GE\n"            /* 20 */
                             "BR_COND start\n" /* 21: 0 - 23 = -23 */
                             "BR_COND_STK\n"   /* 23 */
                             "CALL start\n"    /* 24: 0 - 26 = -26 */
                             "RETURN\n"        /* 26 */
                             "PUSHARG\n"       /* 27 */
                             "INVALID\n"       /* 28 */
                             "NIL\n"           /* 29 */
                             "CONS\n"          /* 30 */
                             "CAR\n"           /* 31 */
                             "CDR\n"           /* 32 */
                             "NEW a,m=start\n" /* 33 */
                             "GETATTR a\n"     /* 35 */
                             "SETATTR b\n"     /* 37 */
                             "SEND m/2\n"      /* 39 */
                             "PUSHARGN 1\n"    /* 42 */
                             "PRINT\n"         /* 44 */
                             "DUMP\n"          /* 45 */
                             "BR end\n"        /* 46: 48 - 48 = 0 */
                             "end:\n");
    ASSERT_CODE(p, 0x01, 0x02, 0x05, 0x03, 0x04, 0x05, 0xFD, 0x06, 0x00, 0x07, 0x7F, 0x08, 0x09,
                0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0xE9, 0x13, 0x14, 0xE6, 0x15,
                0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x00, 0x1D, 0x00, 0x1E, 0x01, 0x1F, 0x02,
                0x02, 0x20, 0x01, 0x21, 0x22, 0x23, 0x00);
    assert_int_equal(p->nstrings, 3);
    assert_string_equal(p->strings[0], "a");
    assert_string_equal(p->strings[1], "b");
    assert_string_equal(p->strings[2], "m");
    assert_int_equal(p->nclasses, 1);
    assert_int_equal(p->classes[0].nattrs, 1);
    assert_string_equal(p->classes[0].attrs[0], "a");
    assert_int_equal(p->classes[0].nmethods, 1);
    assert_string_equal(p->classes[0].methods[0].name, "m");
    assert_int_equal(p->classes[0].methods[0].pc, 0);
    tlc_program_free(p);
}

/* Every mnemonic in the opcode table is accepted with a suitable operand and
 * produces its opcode byte followed by the right number of operand bytes. */
static void test_every_table_entry(void **state)
{
    (void)state;
    for (int op = TLC_OP_FIRST; op <= TLC_OP_LAST; op++) {
        const TlcOpInfo *info = tlc_op_info(op);
        static const char *const operand[] = {
            [TLC_OPND_NONE] = "",     [TLC_OPND_INT] = " -1",    [TLC_OPND_DEPTH] = " 3",
            [TLC_OPND_LABEL] = " l",  [TLC_OPND_CLASS] = " x,y", [TLC_OPND_STRING] = " s",
            [TLC_OPND_SEND] = " s/7",
        };
        char src[64];
        snprintf(src, sizeof src, "l: %s%s\n", info->name, operand[info->operand]);
        TlcProgram *p = assemble(src);
        assert_int_equal(p->code_len, 1 + info->operand_bytes);
        assert_int_equal(p->code[0], op);
        if (info->operand == TLC_OPND_INT)
            assert_int_equal(p->code[1], 0xFF);
        if (info->operand == TLC_OPND_DEPTH)
            assert_int_equal(p->code[1], 3);
        if (info->operand == TLC_OPND_LABEL)
            assert_int_equal(p->code[1], 0xFE); /* back to pc 0 from pc 2 */
        if (info->operand == TLC_OPND_SEND)
            assert_int_equal(p->code[2], 7);
        tlc_program_free(p);
    }
}

/* ---- operand forms ----------------------------------------------------- */

static void test_integers(void **state)
{
    (void)state;
    TlcProgram *p = assemble("PUSH -128\nPUSH 127\nPUSH +7\nPUSH 0x7f\nPUSH -0x80\nPUSH 0X1A\n"
                             "PUSH 007\nPUSH -0\nROLL -1\nPUSHARGN 0\nPICK 127\nPUT 0x10\n");
    ASSERT_CODE(p, 2, 0x80, 2, 0x7F, 2, 7, 2, 0x7F, 2, 0x80, 2, 0x1A, 2, 7, 2, 0, 5, 0xFF, 32, 0, 6,
                127, 7, 16);
    tlc_program_free(p);
}

static void test_labels(void **state)
{
    (void)state;
    TlcProgram *p = assemble("BR fwd\n"            /* 0: target 6, after 2: +4 */
                             "back:\n"             /* 2 */
                             "NOP\n"               /* 2 */
                             "  inner: NOP\n"      /* 3: leading blanks, label + insn */
                             "x:y:PUSH 1\n"        /* 4: two labels, no blanks */
                             "fwd: BR_COND back\n" /* 6: 2 - 8 = -6 */
                             "CALL inner\n"        /* 8: 3 - 10 = -7 */
                             "BR y\n"              /* 10: 4 - 12 = -8 */
                             "BR x\n"              /* 12: 4 - 14 = -10 */
                             "BR end\n"            /* 14: 16 - 16 = 0 */
                             "end:\n");
    ASSERT_CODE(p, 35, 4, 1, 1, 2, 1, 18, 0xFA, 20, 0xF9, 35, 0xF8, 35, 0xF6, 35, 0);
    tlc_program_free(p);
}

static void test_branch_limits(void **state)
{
    (void)state;
    /* Forward +127 and backward -128 are the extreme offsets. */
    Buf b = {0};
    buf_add(&b, "back:\nBR fwd\n");
    for (int i = 0; i < 127; i++)
        buf_add(&b, "NOP\n");
    buf_add(&b, "fwd:\n");
    for (int i = 0; i < 124; i++)
        buf_add(&b, "NOP\n");
    buf_add(&b, "BR back\n"); /* at 2 + 127 + 124 = 253, after 255: 0 - 255 too far */
    expect_error(b.p, 255, "offset -255 to label 'back' out of range -128..127");
    free(b.p);

    b = (Buf){0};
    buf_add(&b, "NOP\nNOP\nback:\n");
    for (int i = 0; i < 126; i++)
        buf_add(&b, "NOP\n");
    buf_add(&b, "BR back\nBR fwd\n"); /* BR at 128: 2 - 130 = -128 */
    for (int i = 0; i < 127; i++)
        buf_add(&b, "NOP\n");
    buf_add(&b, "fwd:\n"); /* BR at 130, after 132, fwd = 259: +127 */
    TlcProgram *p = assemble(b.p);
    assert_int_equal(p->code[128], 35);
    assert_int_equal(p->code[129], 0x80);
    assert_int_equal(p->code[130], 35);
    assert_int_equal(p->code[131], 127);
    tlc_program_free(p);
    free(b.p);

    /* One further in each direction fails. */
    b = (Buf){0};
    buf_add(&b, "BR fwd\n");
    for (int i = 0; i < 128; i++)
        buf_add(&b, "NOP\n");
    buf_add(&b, "fwd:\n");
    expect_error(b.p, 1, "offset 128 to label 'fwd' out of range");
    free(b.p);

    b = (Buf){0};
    buf_add(&b, "back:\n");
    for (int i = 0; i < 127; i++)
        buf_add(&b, "NOP\n");
    buf_add(&b, "BR_COND back\n");
    expect_error(b.p, 129, "offset -129 to label 'back' out of range");
    free(b.p);
}

static void test_comments_and_blanks(void **state)
{
    (void)state;
    TlcProgram *p = assemble("# hash comment\n"
                             "; semicolon comment\n"
                             "// slash comment\n"
                             "\n"
                             "   \t  \n"
                             "NOP # trailing\n"
                             "PUSH 1; trailing\n"
                             "PUSH 2// trailing\n"
                             "POP#tight\n"
                             "\tSWAP\t\n"
                             "l: # label then comment\n"
                             "# comment with UTF-8: caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n"
                             "BR l");
    ASSERT_CODE(p, 1, 2, 1, 2, 2, 3, 4, 35, 0xFE);
    tlc_program_free(p);
}

static void test_line_endings(void **state)
{
    (void)state;
    TlcProgram *p = assemble("\xEF\xBB\xBFPUSH 1\r\n\r\nl: NOP ; c\r\nBR l\r\n");
    ASSERT_CODE(p, 2, 1, 1, 35, 0xFD);
    tlc_program_free(p);
    /* Line numbers count CRLF lines. */
    expect_error("NOP\r\nNOP\r\nBOGUS\r\n", 3, "unknown mnemonic 'BOGUS'");
}

static void test_empty_program(void **state)
{
    (void)state;
    TlcProgram *p = assemble("");
    assert_int_equal(p->code_len, 0);
    assert_int_equal(p->nstrings, 0);
    assert_int_equal(p->nclasses, 0);
    tlc_program_free(p);
    p = assemble("# nothing\n\nonly_label:\n");
    assert_int_equal(p->code_len, 0);
    tlc_program_free(p);
    p = assemble_len(NULL, 0);
    assert_int_equal(p->code_len, 0);
    tlc_program_free(p);
}

static void test_string_pool(void **state)
{
    (void)state;
    TlcProgram *p = assemble("NIL\nGETATTR x\nSETATTR y\nGETATTR x\nSEND x/0\nSEND z/1\n"
                             "SETATTR y\nSEND y/255\n");
    ASSERT_CODE(p, 24, 29, 0, 30, 1, 29, 0, 31, 0, 0, 31, 2, 1, 30, 1, 31, 1, 255);
    assert_int_equal(p->nstrings, 3);
    assert_string_equal(p->strings[0], "x");
    assert_string_equal(p->strings[1], "y");
    assert_string_equal(p->strings[2], "z");
    tlc_program_free(p);
}

static void test_class_pool(void **state)
{
    (void)state;
    TlcProgram *p = assemble("NEW a,b\n"             /* 0: class 0 */
                             "NEW b,a\n"             /* 2: different text: class 1 */
                             "NEW a,b\n"             /* 4: class 0 again */
                             "NEW -\n"               /* 6: empty class 2 */
                             "NEW -\n"               /* 8: class 2 */
                             "NEW a,get=g,set=s,b\n" /* 10: class 3 */
                             "NEW a,get=g,set=s,b\n" /* 12: class 3 */
                             "RETURN\n"              /* 14 */
                             "g: GETATTR a\n"        /* 15 */
                             "RETURN\n"              /* 17 */
                             "s: PUSHARGN 1\n"       /* 18 */
                             "s_end:\n");
    ASSERT_CODE(p, 28, 0, 28, 1, 28, 0, 28, 2, 28, 2, 28, 3, 28, 3, 21, 29, 0, 21, 32, 1);
    assert_int_equal(p->nclasses, 4);
    assert_int_equal(p->classes[0].nattrs, 2);
    assert_string_equal(p->classes[0].attrs[0], "a");
    assert_string_equal(p->classes[0].attrs[1], "b");
    assert_int_equal(p->classes[0].nmethods, 0);
    assert_string_equal(p->classes[1].attrs[0], "b");
    assert_string_equal(p->classes[1].attrs[1], "a");
    assert_int_equal(p->classes[2].nattrs, 0);
    assert_int_equal(p->classes[2].nmethods, 0);
    const TlcClassDesc *c = &p->classes[3];
    assert_int_equal(c->nattrs, 2);
    assert_string_equal(c->attrs[0], "a");
    assert_string_equal(c->attrs[1], "b");
    assert_int_equal(c->nmethods, 2);
    assert_string_equal(c->methods[0].name, "get");
    assert_int_equal(c->methods[0].pc, 15);
    assert_string_equal(c->methods[1].name, "set");
    assert_int_equal(c->methods[1].pc, 18);
    /* Descriptor names do not enter the string pool; GETATTR's do. */
    assert_int_equal(p->nstrings, 1);
    assert_string_equal(p->strings[0], "a");
    tlc_program_free(p);
}

static void test_descriptor_details(void **state)
{
    (void)state;
    /* A name may be an attribute and a method; a method may enter at the end
     * of the code; an attribute may be named like a mnemonic or a label. */
    TlcProgram *p = assemble("NEW x,x=e,NOP,e\ne:\n");
    const TlcClassDesc *c = &p->classes[0];
    assert_int_equal(c->nattrs, 3);
    assert_string_equal(c->attrs[0], "x");
    assert_string_equal(c->attrs[1], "NOP");
    assert_string_equal(c->attrs[2], "e");
    assert_int_equal(c->nmethods, 1);
    assert_int_equal(c->methods[0].pc, 2);
    tlc_program_free(p);

    /* 255 attributes and 255 methods fit. */
    Buf b = {0};
    buf_add(&b, "NEW ");
    for (int i = 0; i < 255; i++)
        buf_add(&b, "a%d,m%d=e,", i, i);
    b.p[--b.n] = '\0';
    buf_add(&b, "\ne:\n");
    p = assemble(b.p);
    assert_int_equal(p->classes[0].nattrs, 255);
    assert_int_equal(p->classes[0].nmethods, 255);
    assert_string_equal(p->classes[0].methods[254].name, "m254");
    tlc_program_free(p);
    free(b.p);
}

static void test_pool_limits(void **state)
{
    (void)state;
    /* 256 distinct strings and classes fit; the 257th is an error. */
    Buf b = {0};
    for (int i = 0; i < 256; i++)
        buf_add(&b, "GETATTR s%d\nNEW c%d\n", i, i);
    TlcProgram *p = assemble(b.p);
    assert_int_equal(p->nstrings, 256);
    assert_int_equal(p->nclasses, 256);
    assert_string_equal(p->strings[255], "s255");
    assert_string_equal(p->classes[255].attrs[0], "c255");
    assert_int_equal(p->code[511 * 2 + 1], 255);
    tlc_program_free(p);
    buf_add(&b, "GETATTR s0\nNEW c0\nSEND s256/0\n");
    expect_error(b.p, 515, "too many strings");
    free(b.p);

    b = (Buf){0};
    for (int i = 0; i < 257; i++)
        buf_add(&b, "NEW c%d\n", i);
    expect_error(b.p, 257, "too many classes");
    free(b.p);
}

static void test_name_length(void **state)
{
    (void)state;
    char name[300];
    memset(name, 'n', sizeof name);
    char src[700];
    snprintf(src, sizeof src, "GETATTR %.255s\n", name);
    TlcProgram *p = assemble(src);
    assert_int_equal(strlen(p->strings[0]), 255);
    tlc_program_free(p);
    snprintf(src, sizeof src, "NOP\nGETATTR %.256s\n", name);
    expect_error(src, 2, "too long (256 characters, max 255)");
    snprintf(src, sizeof src, "NEW %.256s\n", name);
    expect_error(src, 1, "too long");
    /* Labels are not stored, so any length is fine. */
    snprintf(src, sizeof src, "%.299s: BR %.299s\n", name, name);
    p = assemble(src);
    ASSERT_CODE(p, 35, 0xFE);
    tlc_program_free(p);
}

static void test_long_lines(void **state)
{
    (void)state;
    size_t n = 200000;
    char *src = malloc(n + 16);
    assert_non_null(src);
    memcpy(src, "NOP #", 5);
    memset(src + 5, 'c', n);
    memcpy(src + 5 + n, "\nPOP\n", 6);
    TlcProgram *p = assemble(src);
    ASSERT_CODE(p, 1, 3);
    tlc_program_free(p);
    free(src);
}

/* The code may grow to TLC_MAX_CODE_LEN bytes and not past it. */
static void test_code_limit(void **state)
{
    (void)state;
    size_t sends = TLC_MAX_CODE_LEN / 3; /* 5592405 SENDs: 16777215 bytes */
    size_t len = sends * 9 + 8;
    char *src = malloc(len + 1);
    assert_non_null(src);
    for (size_t i = 0; i < sends; i++)
        memcpy(src + i * 9, "SEND a/0\n", 9);
    memcpy(src + sends * 9, "NOP\nNOP\n", 9);
    TlcDiag d;
    TlcProgram *p = tlc_assemble(src, sends * 9 + 4, "t.tlc", &d);
    if (!p)
        fail_msg("%s", d.message);
    assert_int_equal(p->code_len, TLC_MAX_CODE_LEN);
    tlc_program_free(p);
    expect_error_len(src, len, (unsigned)sends + 2, "code too long");
    free(src);
}

/* ---- assembler errors -------------------------------------------------- */

static void test_error_mnemonics(void **state)
{
    (void)state;
    expect_error("NOP\nFOO\n", 2, "unknown mnemonic 'FOO'");
    expect_error("push 1\n", 1, "unknown mnemonic 'push' (mnemonics are upper case)");
    expect_error("PUSHARGNXXXXXXXXXXXXXXXXXX 1\n", 1, "unknown mnemonic");
    expect_error("5\n", 1, "unknown mnemonic '5'");
    expect_error("NOP\nNOP\nPUSH\n", 3, "missing operand for PUSH");
    expect_error("BR # comment\n", 1, "missing operand for BR (expected a label)");
    expect_error("NEW\n", 1, "missing operand for NEW");
    expect_error("GETATTR\n", 1, "missing operand for GETATTR");
    expect_error("SEND\n", 1, "missing operand for SEND");
    expect_error("PICK\n", 1, "missing operand for PICK");
    expect_error("NOP 1\n", 1, "extra operand '1' after NOP");
    expect_error("PUSH 1 2\n", 1, "extra operand '2' after PUSH 1");
    expect_error("SEND a / 1\n", 1, "extra operand");
    expect_error("NEW a, b\n", 1, "extra operand 'b'");
}

static void test_error_integers(void **state)
{
    (void)state;
    expect_error("PUSH x\n", 1, "bad integer 'x'");
    expect_error("PUSH 0x\n", 1, "bad integer '0x'");
    expect_error("PUSH 1a\n", 1, "bad integer '1a'");
    expect_error("PUSH --1\n", 1, "bad integer '--1'");
    expect_error("PUSH -\n", 1, "bad integer '-'");
    expect_error("PUSH 0xg\n", 1, "bad integer");
    expect_error("PUSH 128\n", 1, "integer 128 out of range -128..127");
    expect_error("PUSH -129\n", 1, "integer -129 out of range -128..127");
    expect_error("ROLL 0x80\n", 1, "integer 0x80 out of range");
    expect_error("PUSHARGN 99999999999999999999999999\n", 1, "out of range -128..127");
    expect_error("PUSH -99999999999999999999999999\n", 1, "out of range -128..127");
    expect_error("PICK -1\n", 1, "integer -1 out of range 0..127 for PICK");
    expect_error("PUT 128\n", 1, "integer 128 out of range 0..127 for PUT");
}

static void test_error_labels(void **state)
{
    (void)state;
    expect_error("NOP\nBR nowhere\n", 2, "undefined label 'nowhere'");
    expect_error("a: NOP\nNOP\na: NOP\n", 3, "duplicate label 'a' (first defined on line 1)");
    expect_error("a:\na:\n", 2, "duplicate label 'a'");
    expect_error("1x: NOP\n", 1, "bad label name '1x'");
    expect_error(": NOP\n", 1, "empty label name");
    expect_error("a-b: NOP\n", 1, "bad label name 'a-b'");
    expect_error("BR 5\n", 1, "bad label name '5' for BR");
    expect_error("CALL x.y\n", 1, "bad label name 'x.y' for CALL");
    /* Syntax errors anywhere come before label errors (pass 2). */
    expect_error("BR nowhere\nFOO\n", 2, "unknown mnemonic");
    /* The first error in the text wins within a pass. */
    expect_error("BR a\nBR b\n", 1, "undefined label 'a'");
    expect_error("PUSH 1000\nFOO\n", 1, "out of range");
}

static void test_error_descriptors(void **state)
{
    (void)state;
    expect_error("NEW a,,b\n", 1, "malformed descriptor 'a,,b': empty name");
    expect_error("NEW a,\n", 1, "empty name");
    expect_error("NEW ,a\n", 1, "empty name");
    expect_error("NEW =x\n", 1, "empty name");
    expect_error("NEW 1a\n", 1, "bad attribute name '1a'");
    expect_error("NEW a.b\n", 1, "bad attribute name 'a.b'");
    expect_error("NEW m-1=x\n", 1, "bad method name 'm-1'");
    expect_error("NEW a,b,a\n", 1, "malformed descriptor: duplicate attribute 'a'");
    expect_error("NEW m=x,n=x,m=y\nx:\ny:\n", 1, "malformed descriptor: duplicate method 'm'");
    expect_error("NOP\nNEW m=\n", 2, "'=' without a label after method 'm'");
    expect_error("NEW m=1x\n", 1, "bad label '1x' for method 'm'");
    expect_error("NEW m=a=b\n", 1, "bad label 'a=b'");
    expect_error("NOP\nNEW a,m=nolabel\n", 2, "undefined label 'nolabel' for method 'm'");
    expect_error("NEW --\n", 1, "bad attribute name '--'");

    Buf b = {0};
    buf_add(&b, "NEW a0");
    for (int i = 1; i < 256; i++)
        buf_add(&b, ",a%d", i);
    expect_error(b.p, 1, "more than 255 attributes");
    free(b.p);
    b = (Buf){0};
    buf_add(&b, "NEW m0=e");
    for (int i = 1; i < 256; i++)
        buf_add(&b, ",m%d=e", i);
    buf_add(&b, "\ne:\n");
    expect_error(b.p, 1, "more than 255 methods");
    free(b.p);
}

static void test_error_send(void **state)
{
    (void)state;
    expect_error("SEND foo\n", 1, "malformed SEND operand 'foo' (expected name/argc)");
    expect_error("SEND foo/\n", 1, "malformed SEND operand 'foo/'");
    expect_error("SEND /1\n", 1, "malformed SEND operand '/1'");
    expect_error("SEND foo/x\n", 1, "bad argument count 'x'");
    expect_error("SEND foo/1/2\n", 1, "bad argument count '1/2'");
    expect_error("SEND foo/256\n", 1, "SEND argument count 256 out of range 0..255");
    expect_error("SEND foo/-1\n", 1, "out of range 0..255");
    expect_error("SEND 1x/1\n", 1, "bad method name '1x'");
    expect_error("GETATTR 1x\n", 1, "bad attribute name '1x'");
    expect_error("SETATTR a.b\n", 1, "bad attribute name 'a.b'");
}

static void test_error_characters(void **state)
{
    (void)state;
    expect_error_len("NOP\n\0NOP\n", 9, 2, "unexpected character 0x00 at column 1");
    expect_error_len("NOP # a\0b\n", 10, 1, "unexpected character 0x00 at column 8");
    expect_error("PUSH \xff\n", 1, "unexpected character 0xff at column 6");
    expect_error("GETATTR caf\xc3\xa9\n", 1, "unexpected character 0xc3");
    expect_error("NOP # bad \xc3\x28\n", 1, "0xc3 at column 11 (invalid UTF-8)");
    expect_error("NOP # overlong \xc0\xaf\n", 1, "invalid UTF-8");
    expect_error("NOP # surrogate \xed\xa0\x80\n", 1, "invalid UTF-8");
    expect_error("NOP # truncated \xe2\x82", 1, "invalid UTF-8");
    expect_error("NOP # too big \xf4\x90\x80\x80\n", 1, "invalid UTF-8");
    expect_error("NOP\rPOP\n", 1, "unexpected character 0x0d at column 4");
    expect_error("NOP\n\x0bPOP\n", 2, "unexpected character 0x0b");
    expect_error("NOP # \x7f\n", 1, "unexpected character 0x7f");
}

/* Random bytes and mutated programs never crash the assembler (ASan/UBSan
 * builds check the memory side), and every result is verified or has a
 * "t.tlc:" message. */
static void test_garbage_never_crashes(void **state)
{
    (void)state;
    static const char base[] = "start: PUSH 1\nNEW a,m=start\nSEND m/1 ; c\nGETATTR a\n"
                               "BR_COND start\n// x\nPICK 0\n";
    unsigned seed = 12345;
    char buf[sizeof base];
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(buf, base, sizeof base);
        int edits = 1 + iter % 4;
        for (int e = 0; e < edits; e++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % (sizeof base - 1);
            seed = seed * 1103515245u + 12345u;
            buf[at] = (char)(seed >> 16);
        }
        TlcDiag d;
        TlcProgram *p = tlc_assemble(buf, sizeof base - 1, "t.tlc", &d);
        if (p) {
            assert_true(tlc_verify(p, &d));
            tlc_program_free(p);
        } else {
            assert_true(strncmp(d.message, "t.tlc:", 6) == 0);
        }
    }
}

static void test_null_diag_and_filename(void **state)
{
    (void)state;
    assert_null(tlc_assemble("FOO\n", 4, "x", NULL));
    TlcDiag d;
    assert_null(tlc_assemble("FOO\n", 4, NULL, &d));
    assert_string_equal(d.message, "<input>:1: unknown mnemonic 'FOO'");
}

/* ---- verifier ---------------------------------------------------------- */

/* A program over caller-owned arrays (never passed to tlc_program_free). */
static TlcProgram prog_of(uint8_t *code, uint32_t len)
{
    TlcProgram p;
    memset(&p, 0, sizeof p);
    p.code = code;
    p.code_len = len;
    return p;
}

static void expect_reject(const TlcProgram *p, const char *message)
{
    TlcDiag d;
    memset(&d, 0, sizeof d);
    if (tlc_verify(p, &d))
        fail_msg("verified, but expected '%s'", message);
    if (!strstr(d.message, message))
        fail_msg("got '%s', expected '%s'", d.message, message);
}

static void expect_accept(const TlcProgram *p)
{
    TlcDiag d;
    memset(&d, 0, sizeof d);
    if (!tlc_verify(p, &d))
        fail_msg("rejected: %s", d.message);
}

static void test_verify_valid(void **state)
{
    (void)state;
    TlcProgram p = prog_of(NULL, 0);
    expect_accept(&p);
    char *strings[] = {"value", "next_1", "_"};
    char *attrs[] = {"value", "next"};
    TlcMethodDesc methods[] = {{"value", 0}, {"run", 7}, {"end", 9}};
    TlcClassDesc cls = {2, attrs, 3, methods};
    uint8_t code[] = {28, 0, 29, 2, 31, 1, 255, 35, 0xF7};
    p = prog_of(code, sizeof code);
    p.nstrings = 3;
    p.strings = strings;
    p.nclasses = 1;
    p.classes = &cls;
    expect_accept(&p);
    assert_true(tlc_verify(&p, NULL));
    /* Branches to 0 and to code_len are fine. */
    uint8_t code2[] = {35, 0xFE, 18, 0, 20, 0xFA};
    p = prog_of(code2, sizeof code2);
    expect_accept(&p);
}

static void test_verify_decode(void **state)
{
    (void)state;
    uint8_t c1[] = {200};
    TlcProgram p = prog_of(c1, 1);
    expect_reject(&p, "pc 0: unknown opcode 200");
    uint8_t c2[] = {1, 2, 3, 0};
    p = prog_of(c2, 4);
    expect_reject(&p, "pc 3: unknown opcode 0");
    uint8_t c3[] = {1, 36};
    p = prog_of(c3, 2);
    expect_reject(&p, "pc 1: unknown opcode 36");
    uint8_t c4[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2};
    p = prog_of(c4, sizeof c4);
    expect_reject(&p, "pc 10: operand of PUSH cut off by the end of the code");
    char *s[] = {"m"};
    uint8_t c5[] = {31, 0};
    p = prog_of(c5, 2);
    p.nstrings = 1;
    p.strings = s;
    expect_reject(&p, "pc 0: operand of SEND cut off");
    uint8_t c6[] = {35};
    p = prog_of(c6, 1);
    expect_reject(&p, "pc 0: operand of BR cut off");
    /* The operand byte of PUSH is not decoded as an opcode. */
    uint8_t c7[] = {2, 200};
    p = prog_of(c7, 2);
    expect_accept(&p);
}

static void test_verify_pool_indices(void **state)
{
    (void)state;
    char *s[] = {"a", "b", "c", "d"};
    uint8_t c1[] = {1, 1, 1, 29, 5};
    TlcProgram p = prog_of(c1, sizeof c1);
    p.nstrings = 4;
    p.strings = s;
    expect_reject(&p, "pc 3: string index 5 out of range (4 strings)");
    uint8_t c2[] = {30, 4};
    p = prog_of(c2, 2);
    p.nstrings = 4;
    p.strings = s;
    expect_reject(&p, "pc 0: string index 4 out of range (4 strings)");
    uint8_t c3[] = {31, 4, 0};
    p = prog_of(c3, 3);
    p.nstrings = 4;
    p.strings = s;
    expect_reject(&p, "pc 0: string index 4 out of range");
    uint8_t c3b[] = {31, 3, 0};
    p = prog_of(c3b, 3);
    p.nstrings = 4;
    p.strings = s;
    expect_accept(&p);
    uint8_t c4[] = {29, 0};
    p = prog_of(c4, 2);
    expect_reject(&p, "pc 0: string index 0 out of range (0 strings)");
    TlcClassDesc cls = {0, NULL, 0, NULL};
    uint8_t c5[] = {28, 0, 28, 1};
    p = prog_of(c5, 4);
    p.nclasses = 1;
    p.classes = &cls;
    expect_reject(&p, "pc 2: class index 1 out of range (1 classes)");
}

static void test_verify_depths(void **state)
{
    (void)state;
    uint8_t c1[] = {1, 1, 1, 1, 6, 0xFF};
    TlcProgram p = prog_of(c1, sizeof c1);
    expect_reject(&p, "pc 4: PICK depth -1 outside 0..127");
    uint8_t c2[] = {7, 0x80};
    p = prog_of(c2, 2);
    expect_reject(&p, "pc 0: PUT depth -128 outside 0..127");
    uint8_t c3[] = {6, 127, 7, 0, 5, 0x80, 2, 0x80, 32, 0xFF};
    p = prog_of(c3, sizeof c3);
    expect_accept(&p); /* ROLL, PUSH and PUSHARGN take any byte */
}

static void test_verify_branches(void **state)
{
    (void)state;
    uint8_t c1[40] = {0};
    memset(c1, 1, sizeof c1);
    c1[12] = 35;
    c1[13] = 127 + 60; /* unsigned 187: -69 */
    TlcProgram p = prog_of(c1, 40);
    expect_reject(&p, "pc 12: branch target -55 outside the code (length 40)");
    c1[13] = 27; /* 14 + 27 = 41 */
    expect_reject(&p, "pc 12: branch target 41 outside the code (length 40)");
    c1[13] = 26; /* 40: the end */
    expect_accept(&p);
    c1[12] = 18;
    c1[13] = 0x80; /* -114 */
    expect_reject(&p, "pc 12: branch target -114 outside");
    c1[12] = 20;
    c1[13] = 0xF1; /* -15: -1 */
    expect_reject(&p, "pc 12: branch target -1 outside");

    uint8_t c2[] = {1, 1, 1, 1, 1, 2, 7, 35, 0xFC};
    p = prog_of(c2, sizeof c2); /* BR at 7: 9 - 3 = 6, PUSH's operand */
    c2[8] = 0xFD;
    expect_reject(&p, "pc 7: branch target 6 is inside an instruction");
    c2[7] = 20;
    expect_reject(&p, "pc 7: branch target 6 is inside an instruction");
    c2[7] = 18;
    c2[8] = 0xFC; /* 5: the PUSH itself */
    expect_accept(&p);
    c2[8] = 0xFF; /* 8: BR_COND's own operand */
    expect_reject(&p, "pc 7: branch target 8 is inside an instruction");
}

static void test_verify_methods(void **state)
{
    (void)state;
    uint8_t code[] = {2, 1, 21, 1, 1, 1, 1, 1, 1, 1}; /* length 10 */
    TlcMethodDesc m[] = {{"get", 0}, {"add", 99}};
    TlcClassDesc cls[3] = {{0, NULL, 0, NULL}, {0, NULL, 0, NULL}, {0, NULL, 2, m}};
    TlcProgram p = prog_of(code, sizeof code);
    p.nclasses = 3;
    p.classes = cls;
    expect_reject(&p, "class 2: method 'add' entry 99 outside the code (length 10)");
    m[1].pc = 11;
    expect_reject(&p, "class 2: method 'add' entry 11 outside the code");
    m[1].pc = 1;
    expect_reject(&p, "class 2: method 'add' entry 1 is inside an instruction");
    m[1].pc = 10;
    expect_accept(&p);
    m[1].pc = 2;
    expect_accept(&p);
}

static void test_verify_names(void **state)
{
    (void)state;
    char long_ok[256], long_bad[257];
    memset(long_ok, 'a', 255);
    long_ok[255] = '\0';
    memset(long_bad, 'b', 256);
    long_bad[256] = '\0';
    static const struct {
        const char *name;
        bool ok;
    } cases[] = {
        {"x", true},    {"_", true},    {"A_9z", true},         {"", false},     {"1a", false},
        {"a b", false}, {"a-b", false}, {"caf\xc3\xa9", false}, {"\xff", false}, {"a\n", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *s[] = {"ok", (char *)cases[i].name};
        TlcProgram p = prog_of(NULL, 0);
        p.nstrings = 2;
        p.strings = s;
        if (cases[i].ok)
            expect_accept(&p);
        else
            expect_reject(&p, "string 1: name '");
    }
    char *s1[] = {long_ok};
    TlcProgram p = prog_of(NULL, 0);
    p.nstrings = 1;
    p.strings = s1;
    expect_accept(&p);
    char *s2[] = {long_bad};
    p.strings = s2;
    expect_reject(&p, "string 0: name 'bbbbbbbb");
    char *s3[] = {"a b\x01"};
    p.strings = s3;
    expect_reject(&p, "string 0: name 'a b\\x01' is not an identifier");

    char *bad_attrs[] = {"ok", "no way"};
    TlcClassDesc c1 = {2, bad_attrs, 0, NULL};
    p = prog_of(NULL, 0);
    p.nclasses = 1;
    p.classes = &c1;
    expect_reject(&p, "class 0: attribute 1 name 'no way' is not an identifier");
    TlcMethodDesc bad_m[] = {{"", 0}};
    TlcClassDesc c2[2] = {{0, NULL, 0, NULL}, {0, NULL, 1, bad_m}};
    p.nclasses = 2;
    p.classes = c2;
    expect_reject(&p, "class 1: method 0 name '' is not an identifier");
}

static void test_verify_duplicates(void **state)
{
    (void)state;
    char *attrs[] = {"a", "b", "a"};
    TlcClassDesc c = {3, attrs, 0, NULL};
    TlcProgram p = prog_of(NULL, 0);
    p.nclasses = 1;
    p.classes = &c;
    expect_reject(&p, "class 0: duplicate attribute 'a'");
    TlcMethodDesc m[] = {{"a", 0}, {"b", 0}, {"b", 0}};
    c.nattrs = 2; /* a, b */
    c.nmethods = 3;
    c.methods = m;
    expect_reject(&p, "class 0: duplicate method 'b'");
    c.nmethods = 2; /* a name may be an attribute and a method */
    expect_accept(&p);
}

static void test_verify_limits(void **state)
{
    (void)state;
    static TlcClassDesc classes[257];
    TlcProgram p = prog_of(NULL, 0);
    p.nclasses = 256;
    p.classes = classes;
    expect_accept(&p);
    p.nclasses = 257;
    expect_reject(&p, "too many classes (257, max 256)");

    static char *strings[257];
    for (int i = 0; i < 257; i++)
        strings[i] = "s";
    p = prog_of(NULL, 0);
    p.nstrings = 256;
    p.strings = strings;
    expect_accept(&p); /* duplicate strings are harmless */
    p.nstrings = 257;
    expect_reject(&p, "too many strings (257, max 256)");

    static char names[256][8];
    static char *attrs[256];
    for (int i = 0; i < 256; i++) {
        snprintf(names[i], sizeof names[i], "a%d", i);
        attrs[i] = names[i];
    }
    TlcClassDesc c = {255, attrs, 0, NULL};
    p = prog_of(NULL, 0);
    p.nclasses = 1;
    p.classes = &c;
    expect_accept(&p);
    c.nattrs = 256;
    expect_reject(&p, "class 0: too many attributes (256, max 255)");

    uint8_t code[1] = {1};
    p = prog_of(code, TLC_MAX_CODE_LEN + 1); /* rejected before the code is read */
    expect_reject(&p, "code length 16777217 exceeds the maximum");
    assert_false(tlc_verify(NULL, NULL));
}

static void test_insn_starts(void **state)
{
    (void)state;
    char *s[] = {"m"};
    uint8_t code[] = {2, 1, 1, 31, 0, 2, 35, 0xF8, 3};
    TlcProgram p = prog_of(code, sizeof code);
    p.nstrings = 1;
    p.strings = s;
    expect_accept(&p);
    uint8_t *starts = tlc_insn_starts(&p);
    assert_non_null(starts);
    static const uint8_t expected[] = {1, 0, 1, 1, 0, 0, 1, 0, 1, 1};
    for (size_t i = 0; i < sizeof expected; i++)
        assert_int_equal(starts[i] != 0, expected[i]);
    /* join points: the static branch's target only (BR at 6 goes back to 0) */
    uint8_t *join = tlc_join_points(&p, starts);
    assert_non_null(join);
    for (size_t i = 0; i <= sizeof code; i++)
        assert_int_equal(join[i], i == 0);
    free(join);
    free(starts);

    p = prog_of(NULL, 0);
    starts = tlc_insn_starts(&p);
    assert_non_null(starts);
    assert_int_equal(starts[0], 1);
    free(starts);
}

/* Join points of a program with a computed branch (BR_COND_STK): every
 * instruction (test_insn_starts: a static branch's target only). */
static void test_join_points(void **state)
{
    (void)state;
    uint8_t computed[] = {2, 1, 2, 4, 19, 3, 3};
    TlcProgram p = prog_of(computed, sizeof computed);
    expect_accept(&p);
    uint8_t *starts = tlc_insn_starts(&p);
    assert_non_null(starts);
    uint8_t *join = tlc_join_points(&p, starts);
    assert_non_null(join);
    for (size_t i = 0; i <= sizeof computed; i++)
        assert_int_equal(join[i] != 0, starts[i] != 0);
    free(join);
    free(starts);
}

/* Random code never crashes the verifier; whenever it accepts, an
 * independent decode agrees with tlc_insn_starts and every static branch
 * lands on an instruction start. */
static void test_verify_random_code(void **state)
{
    (void)state;
    char *s[] = {"a", "b"};
    TlcMethodDesc m[] = {{"m", 0}};
    TlcClassDesc cls = {1, s, 1, m};
    unsigned seed = 99;
    int accepted = 0;
    for (int iter = 0; iter < 50000; iter++) {
        uint8_t code[24];
        seed = seed * 1103515245u + 12345u;
        uint32_t len = (seed >> 16) % (sizeof code + 1);
        for (uint32_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = seed >> 16;
            /* Mostly opcodes and small operands, sometimes anything. */
            code[i] = (uint8_t)(r % 8 == 0 ? r >> 3 : r % 37);
        }
        seed = seed * 1103515245u + 12345u;
        m[0].pc = (seed >> 16) % (len + 2);
        TlcProgram p = prog_of(len ? code : NULL, len);
        p.nstrings = 2;
        p.strings = s;
        p.nclasses = 1;
        p.classes = &cls;
        TlcDiag d;
        if (!tlc_verify(&p, &d))
            continue;
        accepted++;
        uint8_t *starts = tlc_insn_starts(&p);
        assert_non_null(starts);
        uint32_t pc = 0;
        while (pc < len) {
            const TlcOpInfo *info = tlc_op_info(code[pc]);
            assert_non_null(info);
            assert_true(starts[pc]);
            for (uint32_t k = 1; k <= info->operand_bytes; k++)
                assert_false(starts[pc + k]);
            if (info->operand == TLC_OPND_LABEL) {
                long target = (long)pc + 2 + (int8_t)code[pc + 1];
                assert_true(target >= 0 && target <= (long)len);
                assert_true(starts[target]);
            }
            pc += 1u + info->operand_bytes;
        }
        assert_int_equal(pc, len);
        assert_true(starts[len]);
        assert_true(starts[m[0].pc]);
        free(starts);
    }
    assert_true(accepted > 1000);
}

/* ---- out of memory (only with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
 * and -DTLC_TEST_WRAP_ALLOC) ------------------------------------------------ */

#ifdef TLC_TEST_WRAP_ALLOC
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
static long alloc_budget = -1; /* -1: unlimited */

static bool alloc_allowed(void)
{
    if (alloc_budget < 0)
        return true;
    if (alloc_budget == 0)
        return false;
    alloc_budget--;
    return true;
}

void *__wrap_malloc(size_t n)
{
    return alloc_allowed() ? __real_malloc(n) : NULL;
}

void *__wrap_calloc(size_t n, size_t m)
{
    return alloc_allowed() ? __real_calloc(n, m) : NULL;
}

void *__wrap_realloc(void *p, size_t n)
{
    return alloc_allowed() ? __real_realloc(p, n) : NULL;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    Buf b = {0};
    buf_add(&b, "start: NEW a,b,m=start,n=end\nGETATTR x\nSEND m/1\n");
    for (int i = 0; i < 300; i++)
        buf_add(&b, "l%d: BR l%d\nNEW c%d,k=l%d\n", i, i, i % 7, i % 7);
    buf_add(&b, "end:\n");
    bool succeeded = false;
    for (long budget = 0; budget < 10000 && !succeeded; budget++) {
        TlcDiag d;
        alloc_budget = budget;
        TlcProgram *p = tlc_assemble(b.p, b.n, "t.tlc", &d);
        alloc_budget = -1;
        if (p) {
            succeeded = true;
            tlc_program_free(p);
        } else {
            assert_string_equal(d.message, "t.tlc: out of memory");
        }
    }
    assert_true(succeeded);
    free(b.p);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_opcode),
        cmocka_unit_test(test_every_table_entry),
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_branch_limits),
        cmocka_unit_test(test_comments_and_blanks),
        cmocka_unit_test(test_line_endings),
        cmocka_unit_test(test_empty_program),
        cmocka_unit_test(test_string_pool),
        cmocka_unit_test(test_class_pool),
        cmocka_unit_test(test_descriptor_details),
        cmocka_unit_test(test_pool_limits),
        cmocka_unit_test(test_name_length),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_code_limit),
        cmocka_unit_test(test_error_mnemonics),
        cmocka_unit_test(test_error_integers),
        cmocka_unit_test(test_error_labels),
        cmocka_unit_test(test_error_descriptors),
        cmocka_unit_test(test_error_send),
        cmocka_unit_test(test_error_characters),
        cmocka_unit_test(test_garbage_never_crashes),
        cmocka_unit_test(test_null_diag_and_filename),
        cmocka_unit_test(test_verify_valid),
        cmocka_unit_test(test_verify_decode),
        cmocka_unit_test(test_verify_pool_indices),
        cmocka_unit_test(test_verify_depths),
        cmocka_unit_test(test_verify_branches),
        cmocka_unit_test(test_verify_methods),
        cmocka_unit_test(test_verify_names),
        cmocka_unit_test(test_verify_duplicates),
        cmocka_unit_test(test_verify_limits),
        cmocka_unit_test(test_insn_starts),
        cmocka_unit_test(test_join_points),
        cmocka_unit_test(test_verify_random_code),
#ifdef TLC_TEST_WRAP_ALLOC
        cmocka_unit_test(test_out_of_memory),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
