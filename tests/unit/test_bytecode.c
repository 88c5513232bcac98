/* Unit tests for the `.tlcb` reader/writer (tlc/bytecode.c) and the
 * disassembler (tlc/dis.c). Programs are built by hand so these tests do not
 * depend on the assembler; the file layout they check byte by byte is the one
 * in docs/bytecode-format.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlc/asm.h"
#include "tlc/bytecode.h"
#include "tlc/dis.h"
#include "tlc/opcodes.h"
#include "tlc/program.h"
#include "tlc/verify.h"

#define HEADER_LEN 20

/* ------------------------------------------------------------ utilities */

/* xorshift64*: a fixed-seed generator so every run tests the same inputs. */
typedef struct Rng {
    uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1DULL;
}

static uint32_t rng_below(Rng *r, uint32_t n)
{
    return (uint32_t)(rng_next(r) % n);
}

/* Reference CRC-32 (bit by bit), independent of the table-driven one in
 * bytecode.c, so the two implementations check each other. */
static uint32_t ref_crc32(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Wraps a payload in a correct header (magic, version 1, flags 0, length,
 * CRC): lets tests reach the payload parser with hand-made payloads. */
static uint8_t *wrap_payload(const uint8_t *payload, size_t plen, size_t *flen)
{
    static const uint8_t magic[8] = {'T', 'L', 'C', 'B', '\r', '\n', 0x1a, '\n'};
    uint8_t *f = malloc(HEADER_LEN + plen + 1);
    assert_non_null(f);
    memcpy(f, magic, 8);
    f[8] = 1;
    f[9] = 0;
    f[10] = 0;
    f[11] = 0;
    put_u32(f + 12, (uint32_t)plen);
    put_u32(f + 16, ref_crc32(payload, plen));
    if (plen)
        memcpy(f + HEADER_LEN, payload, plen);
    *flen = HEADER_LEN + plen;
    return f;
}

/* Recomputes the header's length and CRC after a test edited the payload. */
static void fix_header(uint8_t *f, size_t flen)
{
    put_u32(f + 12, (uint32_t)(flen - HEADER_LEN));
    put_u32(f + 16, ref_crc32(f + HEADER_LEN, flen - HEADER_LEN));
}

static char *xstrdup(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    assert_non_null(d);
    strcpy(d, s);
    return d;
}

/* ---------------------------------------------------- building programs */

static TlcProgram *new_prog(const uint8_t *code, uint32_t len)
{
    TlcProgram *p = tlc_program_new();
    assert_non_null(p);
    p->code = malloc(len ? len : 1);
    assert_non_null(p->code);
    if (len)
        memcpy(p->code, code, len);
    p->code_len = len;
    return p;
}

static void add_string(TlcProgram *p, const char *s)
{
    char **a = realloc(p->strings, (p->nstrings + 1) * sizeof *a);
    assert_non_null(a);
    p->strings = a;
    p->strings[p->nstrings++] = xstrdup(s);
}

static uint32_t add_class(TlcProgram *p)
{
    TlcClassDesc *a = realloc(p->classes, (p->nclasses + 1) * sizeof *a);
    assert_non_null(a);
    p->classes = a;
    memset(&a[p->nclasses], 0, sizeof *a);
    return p->nclasses++;
}

static void add_attr(TlcProgram *p, uint32_t c, const char *name)
{
    TlcClassDesc *d = &p->classes[c];
    char **a = realloc(d->attrs, (d->nattrs + 1) * sizeof *a);
    assert_non_null(a);
    d->attrs = a;
    d->attrs[d->nattrs++] = xstrdup(name);
}

static void add_method(TlcProgram *p, uint32_t c, const char *name, uint32_t pc)
{
    TlcClassDesc *d = &p->classes[c];
    TlcMethodDesc *a = realloc(d->methods, (d->nmethods + 1) * sizeof *a);
    assert_non_null(a);
    d->methods = a;
    d->methods[d->nmethods].name = xstrdup(name);
    d->methods[d->nmethods++].pc = pc;
}

static void assert_programs_equal(const TlcProgram *a, const TlcProgram *b)
{
    assert_int_equal(a->code_len, b->code_len);
    if (a->code_len)
        assert_memory_equal(a->code, b->code, a->code_len);
    assert_int_equal(a->nstrings, b->nstrings);
    for (uint32_t i = 0; i < a->nstrings; i++)
        assert_string_equal(a->strings[i], b->strings[i]);
    assert_int_equal(a->nclasses, b->nclasses);
    for (uint32_t c = 0; c < a->nclasses; c++) {
        const TlcClassDesc *x = &a->classes[c], *y = &b->classes[c];
        assert_int_equal(x->nattrs, y->nattrs);
        for (uint32_t i = 0; i < x->nattrs; i++)
            assert_string_equal(x->attrs[i], y->attrs[i]);
        assert_int_equal(x->nmethods, y->nmethods);
        for (uint32_t i = 0; i < x->nmethods; i++) {
            assert_string_equal(x->methods[i].name, y->methods[i].name);
            assert_int_equal(x->methods[i].pc, y->methods[i].pc);
        }
    }
}

/* The small program whose file is pinned byte by byte below (and shown in
 * docs/bytecode-format.md): NEW 0; GETATTR value; PRINT; RETURN, with one
 * class {attr value, method run at pc 5}. */
static TlcProgram *small_prog(void)
{
    static const uint8_t code[] = {TLC_OP_NEW, 0, TLC_OP_GETATTR, 0, TLC_OP_PRINT, TLC_OP_RETURN};
    TlcProgram *p = new_prog(code, sizeof code);
    add_string(p, "value");
    uint32_t c = add_class(p);
    add_attr(p, c, "value");
    add_method(p, c, "run", 5);
    return p;
}

static const uint8_t small_file[] = {
    /* header: magic, version 1, flags 0, payload length 40, CRC-32 */
    0x54, 0x4c, 0x43, 0x42, 0x0d, 0x0a, 0x1a, 0x0a, 0x01, 0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00,
    0x5d, 0x3d, 0xd5, 0x3a,
    /* strings: 1, "value" */
    0x01, 0x00, 0x00, 0x00, 0x05, 'v', 'a', 'l', 'u', 'e',
    /* classes: 1; 1 attr "value"; 1 method "run" at pc 5 */
    0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 'v', 'a', 'l', 'u', 'e', 0x01, 0x03, 'r', 'u', 'n', 0x05,
    0x00, 0x00, 0x00,
    /* code: 6 bytes */
    0x06, 0x00, 0x00, 0x00, 0x1c, 0x00, 0x1d, 0x00, 0x21, 0x15};

/* The program of the disassembler test: every operand kind, labels at a
 * branch/CALL target that is also a method entry, and a branch to the end. */
static TlcProgram *dis_prog(void)
{
    static const uint8_t code[] = {
        TLC_OP_NIL,              /* 0000 */
        TLC_OP_NEW,     0,       /* 0001 */
        TLC_OP_PUSH,    5,       /* 0003 */
        TLC_OP_ROLL,    0xfd,    /* 0005: ROLL -3 */
        TLC_OP_SEND,    1,    1, /* 0007 */
        TLC_OP_BR_COND, 3,       /* 000a: -> 000f */
        TLC_OP_CALL,    1,       /* 000c: -> 000f */
        TLC_OP_PRINT,            /* 000e */
        TLC_OP_PUSHARG,          /* 000f */
        TLC_OP_GETATTR, 0,       /* 0010 */
        TLC_OP_PICK,    0,       /* 0012 */
        TLC_OP_BR,      0,       /* 0014: -> end (0016) */
    };
    TlcProgram *p = new_prog(code, sizeof code);
    add_string(p, "value");
    add_string(p, "accumulate");
    uint32_t c = add_class(p);
    add_attr(p, c, "value");
    add_attr(p, c, "next");
    add_method(p, c, "accumulate", 0x0f);
    add_class(p);
    return p;
}

/* Writes, reads back, checks equality, and checks the encoding is canonical
 * (writing the result again gives the same bytes). */
static void check_roundtrip(const TlcProgram *p)
{
    TlcDiag diag = {{0}};
    size_t len = 0, len2 = 0;
    uint8_t *f = tlc_bytecode_write(p, &len, &diag);
    assert_non_null(f);
    TlcProgram *q = tlc_bytecode_read(f, len, &diag);
    if (!q)
        fail_msg("read back failed: %s", diag.message);
    assert_programs_equal(p, q);
    uint8_t *f2 = tlc_bytecode_write(q, &len2, &diag);
    assert_non_null(f2);
    assert_int_equal(len, len2);
    assert_memory_equal(f, f2, len);
    free(f);
    free(f2);
    tlc_program_free(q);
}

/* Asserts the reader rejects the bytes with exactly `msg`. */
static void expect_reject(const uint8_t *data, size_t len, const char *msg)
{
    TlcDiag diag = {{0}};
    TlcProgram *p = tlc_bytecode_read(data, len, &diag);
    if (p)
        fail_msg("accepted a file that should fail with: %s", msg);
    assert_string_equal(diag.message, msg);
}

/* Asserts the reader rejects a payload (wrapped in a good header) with `msg`. */
static void expect_payload_reject(const uint8_t *payload, size_t plen, const char *msg)
{
    size_t flen;
    uint8_t *f = wrap_payload(payload, plen, &flen);
    expect_reject(f, flen, msg);
    free(f);
}

/* Asserts the reader rejects with a non-empty message. */
static void expect_any_reject(const uint8_t *data, size_t len)
{
    TlcDiag diag = {{0}};
    TlcProgram *p = tlc_bytecode_read(data, len, &diag);
    assert_null(p);
    assert_true(diag.message[0] != '\0');
}

/* ------------------------------------------------------------ the format */

static void test_crc_reference(void **state)
{
    (void)state;
    assert_int_equal(ref_crc32((const uint8_t *)"123456789", 9), 0xCBF43926u);
    TlcProgram *p = dis_prog();
    TlcDiag diag;
    size_t len;
    uint8_t *f = tlc_bytecode_write(p, &len, &diag);
    assert_non_null(f);
    assert_int_equal(get_u32(f + 12), len - HEADER_LEN);
    assert_int_equal(get_u32(f + 16), ref_crc32(f + HEADER_LEN, len - HEADER_LEN));
    free(f);
    tlc_program_free(p);
}

static void test_exact_bytes(void **state)
{
    (void)state;
    TlcProgram *p = small_prog();
    TlcDiag diag;
    size_t len;
    uint8_t *f = tlc_bytecode_write(p, &len, &diag);
    assert_non_null(f);
    assert_int_equal(len, sizeof small_file);
    assert_memory_equal(f, small_file, sizeof small_file);
    TlcProgram *q = tlc_bytecode_read(small_file, sizeof small_file, &diag);
    assert_non_null(q);
    assert_programs_equal(p, q);
    free(f);
    tlc_program_free(p);
    tlc_program_free(q);
}

static void test_roundtrip_empty(void **state)
{
    (void)state;
    TlcProgram *p = new_prog(NULL, 0);
    TlcDiag diag;
    size_t len;
    uint8_t *f = tlc_bytecode_write(p, &len, &diag);
    assert_non_null(f);
    assert_int_equal(len, HEADER_LEN + 12); /* three zero counts */
    static const uint8_t zeros[12] = {0};
    assert_memory_equal(f + HEADER_LEN, zeros, 12);
    free(f);
    check_roundtrip(p);
    /* The reader gives a non-NULL code buffer even for empty code. */
    f = tlc_bytecode_write(p, &len, &diag);
    TlcProgram *q = tlc_bytecode_read(f, len, &diag);
    assert_non_null(q);
    assert_non_null(q->code);
    free(f);
    tlc_program_free(q);
    tlc_program_free(p);
}

static void test_roundtrip_methods(void **state)
{
    (void)state;
    TlcProgram *p = small_prog();
    check_roundtrip(p);
    tlc_program_free(p);
    p = dis_prog();
    check_roundtrip(p);
    tlc_program_free(p);
    /* Methods only, entry at the end of the code; a class with no members. */
    static const uint8_t code[] = {TLC_OP_NEW, 1, TLC_OP_SEND, 0, 0, TLC_OP_NEW, 0};
    p = new_prog(code, sizeof code);
    add_string(p, "go");
    uint32_t c = add_class(p);
    add_method(p, c, "go", 7);
    add_method(p, c, "stop", 0);
    add_class(p);
    check_roundtrip(p);
    tlc_program_free(p);
}

/* A name of exactly `len` characters, made unique by `tag` and `i`. */
static void long_name(char *buf, size_t len, char tag, uint32_t i)
{
    memset(buf, 'x', len);
    buf[len] = '\0';
    snprintf(buf, 8, "%c%05u", tag, (unsigned)i);
    buf[6] = len > 6 ? 'x' : '\0';
}

static void test_roundtrip_full_pools(void **state)
{
    (void)state;
    static const uint8_t code[] = {TLC_OP_NEW, 255, TLC_OP_GETATTR, 255, TLC_OP_SEND, 255, 255};
    TlcProgram *p = new_prog(code, sizeof code);
    char name[TLC_MAX_NAME_LEN + 1];
    for (uint32_t i = 0; i < TLC_MAX_STRINGS; i++) {
        long_name(name, TLC_MAX_NAME_LEN, 's', i);
        add_string(p, name);
    }
    for (uint32_t c = 0; c < TLC_MAX_CLASSES; c++) {
        add_class(p);
        uint32_t members = c == 0 ? TLC_MAX_CLASS_MEMBERS : c % 4;
        for (uint32_t i = 0; i < members; i++) {
            long_name(name, c == 0 ? TLC_MAX_NAME_LEN : 1 + i, 'a', i);
            add_attr(p, c, name);
            long_name(name, c == 0 ? TLC_MAX_NAME_LEN : 1 + i, 'm', i);
            add_method(p, c, name, (i % 2) ? 7 : 2);
        }
    }
    check_roundtrip(p);
    tlc_program_free(p);
}

static void test_roundtrip_max_code(void **state)
{
    (void)state;
    uint8_t *code = malloc(TLC_MAX_CODE_LEN);
    assert_non_null(code);
    memset(code, TLC_OP_NOP, TLC_MAX_CODE_LEN);
    TlcProgram *p = new_prog(code, TLC_MAX_CODE_LEN);
    free(code);
    check_roundtrip(p);
    tlc_program_free(p);
}

/* ---------------------------------------------------------- the writer */

static void expect_write_fails(const TlcProgram *p, const char *msg)
{
    TlcDiag diag = {{0}};
    size_t len = 12345;
    assert_null(tlc_bytecode_write(p, &len, &diag));
    assert_string_equal(diag.message, msg);
}

static void test_writer_refuses(void **state)
{
    (void)state;
    TlcProgram *p = new_prog(NULL, 0);
    for (int i = 0; i <= TLC_MAX_STRINGS; i++)
        add_string(p, "s");
    expect_write_fails(p, "cannot write: too many strings (257, max 256)");
    tlc_program_free(p);

    p = new_prog(NULL, 0);
    for (int i = 0; i <= TLC_MAX_CLASSES; i++)
        add_class(p);
    expect_write_fails(p, "cannot write: too many classes (257, max 256)");
    tlc_program_free(p);

    p = new_prog(NULL, 0);
    char name[TLC_MAX_NAME_LEN + 2];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    add_string(p, "ok");
    add_string(p, name);
    expect_write_fails(p, "cannot write: string 1 is too long (256 bytes, max 255)");
    tlc_program_free(p);

    p = new_prog(NULL, 0);
    add_class(p);
    add_class(p);
    add_method(p, 1, name, 0);
    expect_write_fails(p, "cannot write: class 1 method 0 name is too long (256 bytes, max 255)");
    add_attr(p, 1, name);
    expect_write_fails(p, "cannot write: class 1 attribute 0 is too long (256 bytes, max 255)");
    for (int i = 0; i < TLC_MAX_CLASS_MEMBERS; i++)
        add_attr(p, 0, "a");
    assert_int_equal(p->classes[0].nattrs, 255);
    add_attr(p, 0, "a");
    expect_write_fails(p, "cannot write: class 0 has too many members (max 255 attributes and "
                          "255 methods)");
    tlc_program_free(p);

    p = new_prog(NULL, 0);
    add_string(p, "x");
    free(p->strings[0]);
    p->strings[0] = NULL;
    expect_write_fails(p, "cannot write: string 0 is missing");
    tlc_program_free(p);

    p = new_prog(NULL, 0);
    p->code_len = TLC_MAX_CODE_LEN + 1; /* never read: refused first */
    expect_write_fails(p, "cannot write: code length 16777217 exceeds the maximum 16777216");
    p->code_len = 0;
    tlc_program_free(p);

    p = new_prog(NULL, 0);
    add_class(p);
    p->classes[0].nmethods = 1; /* no array behind the count */
    expect_write_fails(p, "cannot write: class 0 is missing its member list");
    p->classes[0].nmethods = 0;
    p->nstrings = 1;
    expect_write_fails(p, "cannot write: incomplete program (missing pool or code)");
    p->nstrings = 0;
    tlc_program_free(p);

    expect_write_fails(NULL, "cannot write: no program");
}

/* ----------------------------------------------------- header rejections */

static void test_reject_empty_and_magic(void **state)
{
    (void)state;
    expect_reject(small_file, 0, "empty file (not a .tlcb file)");
    expect_reject(NULL, 10, "empty file (not a .tlcb file)");
    expect_reject((const uint8_t *)"TLX", 3, "bad magic (not a .tlcb file)");
    expect_reject((const uint8_t *)"#!/bin/sh\necho hi\n", 18, "bad magic (not a .tlcb file)");
    uint8_t f[sizeof small_file];
    for (size_t i = 0; i < 8; i++) {
        memcpy(f, small_file, sizeof f);
        f[i] ^= 0x20; /* e.g. case change, CR/LF mangling */
        expect_reject(f, sizeof f, "bad magic (not a .tlcb file)");
    }
    /* A text-mode transfer turning CR LF into LF. */
    memcpy(f, small_file, sizeof f);
    memmove(f + 4, f + 5, sizeof f - 5);
    expect_reject(f, sizeof f - 1, "bad magic (not a .tlcb file)");
    /* A proper prefix of the magic is a truncated header, not a bad magic. */
    expect_reject(small_file, 4, "truncated: header needs 20 bytes, 4 present");
    expect_reject(small_file, 19, "truncated: header needs 20 bytes, 19 present");
}

static void test_reject_version_flags(void **state)
{
    (void)state;
    uint8_t f[sizeof small_file];
    memcpy(f, small_file, sizeof f);
    f[8] = 7;
    expect_reject(f, sizeof f, "unsupported format version 7 (this tlc reads version 1)");
    f[8] = 0;
    expect_reject(f, sizeof f, "unsupported format version 0 (this tlc reads version 1)");
    f[8] = 1;
    f[9] = 1;
    expect_reject(f, sizeof f, "unsupported format version 257 (this tlc reads version 1)");
    memcpy(f, small_file, sizeof f);
    f[10] = 1;
    expect_reject(f, sizeof f, "unsupported flags 0x0001 (must be 0)");
    f[10] = 0;
    f[11] = 0x80;
    expect_reject(f, sizeof f, "unsupported flags 0x8000 (must be 0)");
}

static void test_reject_lengths(void **state)
{
    (void)state;
    uint8_t f[sizeof small_file + 3];
    memcpy(f, small_file, sizeof small_file);
    f[12] = 41;
    expect_reject(f, sizeof small_file, "truncated: payload needs 41 bytes, 40 present");
    f[12] = 0xff;
    f[15] = 0xff;
    expect_reject(f, sizeof small_file, "truncated: payload needs 4278190335 bytes, 40 present");
    f[12] = 39;
    f[15] = 0;
    expect_reject(f, sizeof small_file, "trailing bytes after payload (1 extra)");
    memcpy(f, small_file, sizeof small_file);
    memset(f + sizeof small_file, 0, 3);
    expect_reject(f, sizeof f, "trailing bytes after payload (3 extra)");
    expect_reject(small_file, sizeof small_file - 1,
                  "truncated: payload needs 40 bytes, 39 present");
    expect_reject(small_file, HEADER_LEN, "truncated: payload needs 40 bytes, 0 present");
}

static void test_reject_checksum(void **state)
{
    (void)state;
    uint8_t f[sizeof small_file];
    memcpy(f, small_file, sizeof f);
    f[HEADER_LEN + 6] = 'A'; /* "value" -> "vAlue": still a fine identifier */
    expect_reject(f, sizeof f,
                  "checksum mismatch (file corrupted): stored 3ad53d5d, computed 71b90e1b");
    memcpy(f, small_file, sizeof f);
    f[16] ^= 1;
    expect_reject(f, sizeof f,
                  "checksum mismatch (file corrupted): stored 3ad53d5c, computed 3ad53d5d");
    /* The edited file is accepted once its checksum is fixed. */
    memcpy(f, small_file, sizeof f);
    f[HEADER_LEN + 6] = 'A';
    fix_header(f, sizeof f);
    TlcDiag diag;
    TlcProgram *p = tlc_bytecode_read(f, sizeof f, &diag);
    assert_non_null(p);
    assert_string_equal(p->strings[0], "vAlue");
    tlc_program_free(p);
}

/* ---------------------------------------------------- payload rejections */

/* The fields of small_file's payload: [start, end) and the name the reader
 * gives each in its "truncated" messages. */
static const struct {
    size_t start, end;
    const char *name;
} small_fields[] = {
    {0, 4, "string count"},
    {4, 5, "string 0 length"},
    {5, 10, "string 0"},
    {10, 14, "class count"},
    {14, 15, "class 0 attribute count"},
    {15, 16, "class 0 attribute 0 length"},
    {16, 21, "class 0 attribute 0"},
    {21, 22, "class 0 method count"},
    {22, 23, "class 0 method 0 name length"},
    {23, 26, "class 0 method 0 name"},
    {26, 30, "class 0 method 0 pc"},
    {30, 34, "code length"},
    {34, 40, "code"},
};

static void test_reject_truncated_payload_each_field(void **state)
{
    (void)state;
    const uint8_t *payload = small_file + HEADER_LEN;
    size_t plen = sizeof small_file - HEADER_LEN;
    size_t nfields = sizeof small_fields / sizeof small_fields[0];
    assert_int_equal(small_fields[nfields - 1].end, plen);
    for (size_t cut = 0; cut < plen; cut++) {
        size_t k = 0;
        while (cut >= small_fields[k].end)
            k++;
        size_t need = small_fields[k].end - small_fields[k].start;
        char msg[128];
        snprintf(msg, sizeof msg, "truncated: %s needs %zu byte%s, %zu left", small_fields[k].name,
                 need, need == 1 ? "" : "s", cut - small_fields[k].start);
        expect_payload_reject(payload, cut, msg);
    }
}

static void test_reject_trailing_in_payload(void **state)
{
    (void)state;
    uint8_t payload[sizeof small_file - HEADER_LEN + 2];
    memcpy(payload, small_file + HEADER_LEN, sizeof payload - 2);
    payload[sizeof payload - 2] = TLC_OP_NOP;
    payload[sizeof payload - 1] = TLC_OP_NOP;
    expect_payload_reject(payload, sizeof payload,
                          "trailing bytes after code (2 extra inside the payload)");
}

static void test_reject_counts_beyond_limits(void **state)
{
    (void)state;
    uint8_t p[12] = {0};
    put_u32(p, 257);
    expect_payload_reject(p, 4, "too many strings (257, max 256)");
    put_u32(p, 0xFFFFFFFFu);
    expect_payload_reject(p, 12, "too many strings (4294967295, max 256)");
    put_u32(p, 256); /* at the limit: accepted as a count, then data missing */
    expect_payload_reject(p, 4, "truncated: string 0 length needs 1 byte, 0 left");
    put_u32(p, 0);
    put_u32(p + 4, 257);
    expect_payload_reject(p, 12, "too many classes (257, max 256)");
    put_u32(p + 4, 0x80000000u);
    expect_payload_reject(p, 12, "too many classes (2147483648, max 256)");
    put_u32(p + 4, 0);
    put_u32(p + 8, TLC_MAX_CODE_LEN + 1);
    expect_payload_reject(p, 12, "code length 16777217 exceeds the maximum 16777216");
    put_u32(p + 8, 0xFFFFFFFFu);
    expect_payload_reject(p, 12, "code length 4294967295 exceeds the maximum 16777216");
    put_u32(p + 8, TLC_MAX_CODE_LEN);
    expect_payload_reject(p, 12, "truncated: code needs 16777216 bytes, 0 left");
}

static void test_reject_nul_in_names(void **state)
{
    (void)state;
    const size_t plen = sizeof small_file - HEADER_LEN;
    uint8_t p[sizeof small_file - HEADER_LEN];
    static const struct {
        size_t offset;
        const char *msg;
    } cases[] = {
        {7, "string 0 contains a NUL byte"},
        {5, "string 0 contains a NUL byte"},
        {20, "class 0 attribute 0 contains a NUL byte"},
        {25, "class 0 method 0 name contains a NUL byte"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(p, small_file + HEADER_LEN, plen);
        p[cases[i].offset] = 0;
        expect_payload_reject(p, plen, cases[i].msg);
    }
}

/* Writes a (bad) program with the permissive writer and checks the reader
 * reports exactly what tlc_verify says about it. */
static void expect_verifier_reject(TlcProgram *p)
{
    TlcDiag want = {{0}}, diag = {{0}};
    assert_false(tlc_verify(p, &want));
    assert_true(want.message[0] != '\0');
    size_t len;
    uint8_t *f = tlc_bytecode_write(p, &len, &diag);
    assert_non_null(f);
    expect_reject(f, len, want.message);
    free(f);
    tlc_program_free(p);
}

static void test_reject_verifier_passthrough(void **state)
{
    (void)state;
    static const uint8_t br_out[] = {TLC_OP_BR, 5};
    expect_verifier_reject(new_prog(br_out, sizeof br_out));
    static const uint8_t br_inside[] = {TLC_OP_BR, 0xff, TLC_OP_NOP};
    expect_verifier_reject(new_prog(br_inside, sizeof br_inside));
    static const uint8_t unknown[] = {TLC_OP_NOP, 0};
    expect_verifier_reject(new_prog(unknown, sizeof unknown));
    static const uint8_t cut[] = {TLC_OP_NOP, TLC_OP_SEND, 0};
    TlcProgram *p = new_prog(cut, sizeof cut);
    add_string(p, "m");
    expect_verifier_reject(p);
    static const uint8_t new1[] = {TLC_OP_NEW, 1};
    p = new_prog(new1, sizeof new1);
    add_class(p);
    expect_verifier_reject(p);
    static const uint8_t get1[] = {TLC_OP_GETATTR, 1};
    p = new_prog(get1, sizeof get1);
    add_string(p, "a");
    expect_verifier_reject(p);
    p = new_prog(NULL, 0);
    add_string(p, ""); /* an empty name: encodable, but not an identifier */
    expect_verifier_reject(p);
    p = new_prog(NULL, 0);
    add_string(p, "1abc");
    expect_verifier_reject(p);
    p = new_prog(NULL, 0);
    add_class(p);
    add_attr(p, 0, "x");
    add_attr(p, 0, "x");
    expect_verifier_reject(p);
    p = small_prog();
    p->classes[0].methods[0].pc = 99;
    expect_verifier_reject(p);
    p = small_prog();
    p->classes[0].methods[0].pc = 1; /* inside NEW */
    expect_verifier_reject(p);
}

/* ------------------------------------------------ exhaustive and random */

static void test_every_prefix_rejected(void **state)
{
    (void)state;
    TlcProgram *p = dis_prog();
    TlcDiag diag;
    size_t len;
    uint8_t *f = tlc_bytecode_write(p, &len, &diag);
    assert_non_null(f);
    for (size_t n = 0; n < len; n++) {
        /* a fresh copy of exactly n bytes, so ASan sees any over-read */
        uint8_t *c = malloc(n ? n : 1);
        assert_non_null(c);
        memcpy(c, f, n);
        expect_any_reject(c, n);
        free(c);
    }
    free(f);
    tlc_program_free(p);
}

/* Every single-byte change of a valid file (every position, every other
 * value) is rejected: the header fields are checked exactly and CRC-32
 * catches every error burst of up to 32 bits in the payload. */
static void test_every_single_byte_change_rejected(void **state)
{
    (void)state;
    TlcProgram *p = dis_prog();
    TlcDiag diag;
    size_t len;
    uint8_t *f = tlc_bytecode_write(p, &len, &diag);
    assert_non_null(f);
    uint8_t *c = malloc(len);
    assert_non_null(c);
    for (size_t i = 0; i < len; i++) {
        for (unsigned x = 1; x < 256; x++) {
            memcpy(c, f, len);
            c[i] ^= (uint8_t)x;
            expect_any_reject(c, len);
        }
    }
    free(c);
    free(f);
    tlc_program_free(p);
}

/* Applies 1..8 random byte changes (at least one effective), or a random
 * insertion or deletion, to a copy of f. Returns the new length. */
static size_t mutate(Rng *r, uint8_t *c, const uint8_t *f, size_t len)
{
    memcpy(c, f, len);
    switch (rng_below(r, 4)) {
    case 0: { /* delete one byte */
        size_t i = rng_below(r, (uint32_t)len);
        memmove(c + i, c + i + 1, len - i - 1);
        return len - 1;
    }
    case 1: { /* insert one byte */
        size_t i = rng_below(r, (uint32_t)len + 1);
        memmove(c + i + 1, c + i, len - i);
        c[i] = (uint8_t)rng_next(r);
        return len + 1;
    }
    default: {
        uint32_t n = 1 + rng_below(r, 8);
        for (uint32_t k = 0; k < n; k++)
            c[rng_below(r, (uint32_t)len)] ^= (uint8_t)(1 + rng_below(r, 255));
        if (memcmp(c, f, len) == 0)
            c[0] ^= 1;
        return len;
    }
    }
}

static void test_random_mutations_rejected(void **state)
{
    (void)state;
    Rng r = {0x9E3779B97F4A7C15ULL};
    TlcProgram *progs[2] = {dis_prog(), small_prog()};
    for (int k = 0; k < 2; k++) {
        TlcDiag diag;
        size_t len;
        uint8_t *f = tlc_bytecode_write(progs[k], &len, &diag);
        assert_non_null(f);
        uint8_t *c = malloc(len + 1);
        assert_non_null(c);
        for (int i = 0; i < 500; i++) {
            size_t n = mutate(&r, c, f, len);
            expect_any_reject(c, n);
        }
        free(c);
        free(f);
        tlc_program_free(progs[k]);
    }
}

/* Reads bytes that passed the checksum: they must be rejected with a message
 * or give a program that verifies and re-encodes to exactly the same bytes
 * (the encoding is canonical). Returns whether it was accepted. */
static bool read_checked(const uint8_t *c, size_t n)
{
    TlcDiag diag = {{0}};
    TlcProgram *q = tlc_bytecode_read(c, n, &diag);
    if (!q) {
        assert_true(diag.message[0] != '\0');
        return false;
    }
    assert_true(tlc_verify(q, &diag));
    size_t n2;
    uint8_t *again = tlc_bytecode_write(q, &n2, &diag);
    assert_non_null(again);
    assert_int_equal(n2, n);
    assert_memory_equal(again, c, n);
    free(again);
    /* The disassembler copes with whatever the loader accepts. */
    char *buf = NULL;
    size_t blen = 0;
    FILE *m = open_memstream(&buf, &blen);
    assert_non_null(m);
    assert_true(tlc_disassemble(q, m));
    fclose(m);
    free(buf);
    tlc_program_free(q);
    return true;
}

/* Mutates the payload and then repairs the header, so the parser and the
 * verifier (not the checksum) must cope: no crash, no leak, consistent. */
static void test_checksum_repaired_mutations(void **state)
{
    (void)state;
    Rng r = {12345};
    TlcProgram *p = dis_prog();
    TlcDiag diag;
    size_t len;
    uint8_t *f = tlc_bytecode_write(p, &len, &diag);
    assert_non_null(f);
    uint8_t *c = malloc(len + 1);
    assert_non_null(c);
    int accepted = 0;
    for (int i = 0; i < 3000; i++) {
        size_t n = mutate(&r, c, f, len);
        if (n < HEADER_LEN)
            continue;
        memcpy(c, f, 12); /* magic, version, flags stay valid */
        fix_header(c, n);
        accepted += read_checked(c, n);
    }
    /* Both outcomes happen: e.g. a changed PUSH value is fine, a changed
     * count is not. */
    assert_true(accepted > 0);
    assert_true(accepted < 3000);
    free(c);
    free(f);
    tlc_program_free(p);
}

static void test_random_blobs_rejected(void **state)
{
    (void)state;
    Rng r = {0xDEADBEEFULL};
    uint8_t blob[300];
    for (int i = 0; i < 500; i++) {
        size_t n = rng_below(&r, sizeof blob + 1);
        for (size_t k = 0; k < n; k++)
            blob[k] = (uint8_t)rng_next(&r);
        uint8_t *c = malloc(n ? n : 1);
        assert_non_null(c);
        memcpy(c, blob, n);
        expect_any_reject(c, n);
        free(c);
    }
}

/* Random payloads behind a correct header: the parser sees arbitrary bytes
 * (mostly small counts, to get past the first fields now and then). */
static void test_random_payloads(void **state)
{
    (void)state;
    Rng r = {42};
    uint8_t payload[200];
    for (int i = 0; i < 2000; i++) {
        size_t n = rng_below(&r, sizeof payload + 1);
        for (size_t k = 0; k < n; k++) {
            uint8_t b = (uint8_t)rng_next(&r);
            payload[k] = rng_below(&r, 2) ? b : b % 4;
        }
        size_t flen;
        uint8_t *f = wrap_payload(payload, n, &flen);
        read_checked(f, flen);
        free(f);
    }
}

/* --------------------------------------------------------- disassembler */

static char *disassemble(const TlcProgram *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_non_null(m);
    assert_true(tlc_disassemble(p, m));
    assert_int_equal(fclose(m), 0);
    return buf;
}

static void test_dis_listing(void **state)
{
    (void)state;
    TlcProgram *p = dis_prog();
    TlcDiag diag;
    assert_true(tlc_verify(p, &diag));
    char *text = disassemble(p);
    assert_string_equal(text, "; constant pool: 2 classes, 2 strings\n"
                              "; class 0: attrs value,next  methods accumulate=L_000f\n"
                              "; class 1: attrs (none)  methods (none)\n"
                              "; string 0: \"value\"\n"
                              "; string 1: \"accumulate\"\n"
                              "; code (22 bytes)\n"
                              "0000  18        NIL\n"
                              "0001  1c 00     NEW value,next,accumulate=L_000f ; class 0\n"
                              "0003  02 05     PUSH 5\n"
                              "0005  05 fd     ROLL -3\n"
                              "0007  1f 01 01  SEND accumulate/1     ; string 1\n"
                              "000a  12 03     BR_COND L_000f        ; -> 000f\n"
                              "000c  14 01     CALL L_000f           ; -> 000f\n"
                              "000e  21        PRINT\n"
                              "L_000f:\n"
                              "000f  16        PUSHARG\n"
                              "0010  1d 00     GETATTR value         ; string 0\n"
                              "0012  06 00     PICK 0\n"
                              "0014  23 00     BR L_0016             ; -> end\n"
                              "L_0016:                               ; end of code\n");
    free(text);
    tlc_program_free(p);
}

static void test_dis_small_and_empty(void **state)
{
    (void)state;
    TlcProgram *p = small_prog();
    char *text = disassemble(p);
    assert_string_equal(text, "; constant pool: 1 class, 1 string\n"
                              "; class 0: attrs value  methods run=L_0005\n"
                              "; string 0: \"value\"\n"
                              "; code (6 bytes)\n"
                              "0000  1c 00     NEW value,run=L_0005  ; class 0\n"
                              "0002  1d 00     GETATTR value         ; string 0\n"
                              "0004  21        PRINT\n"
                              "L_0005:\n"
                              "0005  15        RETURN\n");
    free(text);
    tlc_program_free(p);

    p = new_prog(NULL, 0);
    text = disassemble(p);
    assert_string_equal(text, "; constant pool: 0 classes, 0 strings\n"
                              "; code (0 bytes)\n");
    free(text);
    tlc_program_free(p);
}

/* Code longer than 0xffff bytes gets wider pcs and labels. */
static void test_dis_wide_pcs(void **state)
{
    (void)state;
    uint32_t n = 0x10002;
    uint8_t *code = malloc(n);
    assert_non_null(code);
    memset(code, TLC_OP_NOP, n);
    code[n - 2] = TLC_OP_BR;
    code[n - 1] = 0;
    TlcProgram *p = new_prog(code, n);
    free(code);
    char *text = disassemble(p);
    assert_non_null(strstr(text, "\n00000  01        NOP\n"));
    assert_non_null(strstr(text, "\n10000  23 00     BR L_10002            ; -> end\n"
                                 "L_10002:                               ; end of code\n"));
    free(text);
    tlc_program_free(p);
}

/* Unverified code is listed without crashing: unknown opcodes, cut-off
 * operands, branches leaving the code, pool indices out of range, and
 * unprintable characters in pool strings. */
static void test_dis_unverified(void **state)
{
    (void)state;
    static const uint8_t code[] = {0x00,           TLC_OP_BR, 0x7f,      TLC_OP_NEW, 5,
                                   TLC_OP_GETATTR, 9,         TLC_OP_BR, 0x80,       TLC_OP_SEND};
    TlcProgram *p = new_prog(code, sizeof code);
    add_string(p, "a\"b\\c\x01");
    char *text = disassemble(p);
    assert_string_equal(text, "; constant pool: 0 classes, 1 string\n"
                              "; string 0: \"a\\\"b\\\\c\\x01\"\n"
                              "; code (10 bytes)\n"
                              "0000  00        .byte 0x00            ; unknown opcode\n"
                              "0001  23 7f     BR +127               ; -> 130 (outside the code)\n"
                              "0003  1c 05     NEW ?                 ; class 5\n"
                              "0005  1d 09     GETATTR ?             ; string 9\n"
                              "0007  23 80     BR -128               ; -> -119 (outside the code)\n"
                              "0009  1f        SEND                  ; operand cut off by the end "
                              "of the code\n");
    free(text);
    tlc_program_free(p);
}

/* The instruction column of a listing, one instruction or label per line:
 * what the assembler should accept. */
static char *asm_text_of_listing(const char *listing)
{
    size_t cap = strlen(listing) + 1;
    char *out = malloc(cap);
    assert_non_null(out);
    out[0] = '\0';
    for (const char *line = listing; *line;) {
        const char *eol = strchr(line, '\n');
        size_t n = eol ? (size_t)(eol - line) : strlen(line);
        char buf[1024];
        assert_true(n < sizeof buf);
        memcpy(buf, line, n);
        buf[n] = '\0';
        char *semi = strstr(buf, " ; ");
        if (semi)
            *semi = '\0';
        if (buf[0] == 'L' && strchr(buf, ':')) {
            strcat(out, strtok(buf, " "));
            strcat(out, "\n");
        } else if (buf[0] != ';' && n > 16) {
            strcat(out, buf + 16);
            strcat(out, "\n");
        }
        line += n + (eol ? 1 : 0);
    }
    return out;
}

/* The instruction column assembles back to the same code. */
static void test_dis_reassembles(void **state)
{
    (void)state;
    TlcProgram *p = dis_prog();
    /* Also instantiate the member-less class ("NEW -"). */
    uint8_t *code = realloc(p->code, p->code_len + 2);
    assert_non_null(code);
    code[p->code_len++] = TLC_OP_NEW;
    code[p->code_len++] = 1;
    p->code = code;
    char *listing = disassemble(p);
    assert_non_null(strstr(listing, "\n0016  1c 01     NEW -                 ; class 1\n"));
    char *src = asm_text_of_listing(listing);
    TlcDiag diag = {{0}};
    TlcProgram *q = tlc_assemble(src, strlen(src), "dis.tlc", &diag);
    if (!q)
        fail_msg("assembler rejected the listing: %s\n%s", diag.message, src);
    char *listing2 = disassemble(q);
    char *src2 = asm_text_of_listing(listing2);
    assert_string_equal(src, src2);
    assert_int_equal(q->code_len, p->code_len);
    free(listing);
    free(src);
    free(listing2);
    free(src2);
    tlc_program_free(q);
    tlc_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc_reference),
        cmocka_unit_test(test_exact_bytes),
        cmocka_unit_test(test_roundtrip_empty),
        cmocka_unit_test(test_roundtrip_methods),
        cmocka_unit_test(test_roundtrip_full_pools),
        cmocka_unit_test(test_roundtrip_max_code),
        cmocka_unit_test(test_writer_refuses),
        cmocka_unit_test(test_reject_empty_and_magic),
        cmocka_unit_test(test_reject_version_flags),
        cmocka_unit_test(test_reject_lengths),
        cmocka_unit_test(test_reject_checksum),
        cmocka_unit_test(test_reject_truncated_payload_each_field),
        cmocka_unit_test(test_reject_trailing_in_payload),
        cmocka_unit_test(test_reject_counts_beyond_limits),
        cmocka_unit_test(test_reject_nul_in_names),
        cmocka_unit_test(test_reject_verifier_passthrough),
        cmocka_unit_test(test_every_prefix_rejected),
        cmocka_unit_test(test_every_single_byte_change_rejected),
        cmocka_unit_test(test_random_mutations_rejected),
        cmocka_unit_test(test_checksum_repaired_mutations),
        cmocka_unit_test(test_random_blobs_rejected),
        cmocka_unit_test(test_random_payloads),
        cmocka_unit_test(test_dis_listing),
        cmocka_unit_test(test_dis_small_and_empty),
        cmocka_unit_test(test_dis_wide_pcs),
        cmocka_unit_test(test_dis_unverified),
        cmocka_unit_test(test_dis_reassembles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
