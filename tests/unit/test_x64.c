/* Unit tests of the x86-64 encoder (baseline/x64.c): the exact bytes every
 * x64_* function emits, for low and high registers, the memory bases that need
 * a SIB byte (rsp, r12) or a displacement (rbp, r13), disp8 / disp32 and
 * negative displacements, byte registers that need a bare REX, every
 * immediate form, and rel32 jumps patched by x64_resolve. The expected bytes
 * come from llvm-mc-19 -show-encoding. Where our encoding is a different but
 * equally valid one, the comment says so; those bytes were checked with
 * llvm-mc-19 -disassemble to decode to the intended instruction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "baseline/disasm.h"
#include "baseline/x64.h"

/* Compares the bytes of `b` with `bytes`; on a mismatch fails printing both. */
static void expect(X64Buf *b, const char *what, const uint8_t *bytes, size_t n)
{
    assert_false(b->oom);
    if (b->len == n && memcmp(b->code, bytes, n) == 0)
        return;
    char got[256] = "", want[256] = "";
    for (size_t i = 0; i < b->len && i < 80; i++)
        snprintf(got + strlen(got), sizeof got - strlen(got), " %02x", b->code[i]);
    for (size_t i = 0; i < n && i < 80; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), " %02x", bytes[i]);
    fail_msg("%s\n  got:%s\n want:%s", what, got, want);
}

/* Runs `stmt`, which emits into `b`, on a fresh buffer and expects the bytes
 * that follow. */
#define CHECK(stmt, ...)                                                                           \
    do {                                                                                           \
        X64Buf buf_;                                                                               \
        X64Buf *b = &buf_;                                                                         \
        x64_init(b);                                                                               \
        stmt;                                                                                      \
        static const uint8_t want_[] = {__VA_ARGS__};                                              \
        expect(b, #stmt, want_, sizeof want_);                                                     \
        x64_free(b);                                                                               \
    } while (0)

static void test_mov_rr(void **state)
{
    (void)state;
    CHECK(x64_mov_rr(b, X64_RAX, X64_RCX), 0x48, 0x89, 0xc8); /* mov rax, rcx */
    CHECK(x64_mov_rr(b, X64_R8, X64_RDI), 0x49, 0x89, 0xf8);  /* mov r8, rdi */
    CHECK(x64_mov_rr(b, X64_RDI, X64_R15), 0x4c, 0x89, 0xff); /* mov rdi, r15 */
    CHECK(x64_mov_rr(b, X64_R12, X64_R13), 0x4d, 0x89, 0xec); /* mov r12, r13 */
    CHECK(x64_mov_rr(b, X64_RSP, X64_RBP), 0x48, 0x89, 0xec); /* mov rsp, rbp */
}

static void test_mov_ri(void **state)
{
    (void)state;
    /* fits in 32 bits unsigned: mov r32, imm32 */
    CHECK(x64_mov_ri(b, X64_RAX, 42), 0xb8, 0x2a, 0x00, 0x00, 0x00);
    CHECK(x64_mov_ri(b, X64_RDI, 0), 0xbf, 0x00, 0x00, 0x00, 0x00);
    CHECK(x64_mov_ri(b, X64_R9, 0xffffffffu), 0x41, 0xb9, 0xff, 0xff, 0xff, 0xff);
    CHECK(x64_mov_ri(b, X64_R8, 0x80000000u), 0x41, 0xb8, 0x00, 0x00, 0x00, 0x80);
    /* negative, fits a sign-extended imm32: mov r/m64, imm32 */
    CHECK(x64_mov_ri(b, X64_RCX, (uint64_t)-1), 0x48, 0xc7, 0xc1, 0xff, 0xff, 0xff, 0xff);
    CHECK(x64_mov_ri(b, X64_RSI, (uint64_t)-2), 0x48, 0xc7, 0xc6, 0xfe, 0xff, 0xff, 0xff);
    CHECK(x64_mov_ri(b, X64_R12, (uint64_t)-128), 0x49, 0xc7, 0xc4, 0x80, 0xff, 0xff, 0xff);
    CHECK(x64_mov_ri(b, X64_R15, (uint64_t)(int64_t)INT32_MIN), 0x49, 0xc7, 0xc7, 0x00, 0x00, 0x00,
          0x80);
    /* full 64 bits: movabs */
    CHECK(x64_mov_ri(b, X64_RDX, 0x123456789abcdef0u), 0x48, 0xba, 0xf0, 0xde, 0xbc, 0x9a, 0x78,
          0x56, 0x34, 0x12);
    CHECK(x64_mov_ri(b, X64_R10, 0x100000000u), 0x49, 0xba, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
          0x00, 0x00);
    CHECK(x64_mov_ri(b, X64_R15, 0x8000000000000000u), 0x49, 0xbf, 0x00, 0x00, 0x00, 0x00, 0x00,
          0x00, 0x00, 0x80);
    /* one below INT32_MIN: no longer a sign-extended imm32 */
    CHECK(x64_mov_ri(b, X64_RBX, 0xffffffff7fffffffu), 0x48, 0xbb, 0xff, 0xff, 0xff, 0x7f, 0xff,
          0xff, 0xff, 0xff);
}

static void test_load(void **state)
{
    (void)state;
    /* 8 bytes */
    CHECK(x64_load(b, 8, X64_RAX, X64_RCX, 8), 0x48, 0x8b, 0x41, 0x08);       /* mov rax, [rcx+8] */
    CHECK(x64_load(b, 8, X64_R8, X64_RSP, 16), 0x4c, 0x8b, 0x44, 0x24, 0x10); /* [rsp+16] */
    CHECK(x64_load(b, 8, X64_RDI, X64_R12, -8), 0x49, 0x8b, 0x7c, 0x24, 0xf8); /* [r12-8] */
    CHECK(x64_load(b, 8, X64_RDX, X64_RBP, 0), 0x48, 0x8b, 0x55, 0x00);        /* [rbp] */
    CHECK(x64_load(b, 8, X64_RSI, X64_R13, 0x1000), 0x49, 0x8b, 0xb5, 0x00, 0x10, 0x00, 0x00);
    CHECK(x64_load(b, 8, X64_R14, X64_R14, INT32_MAX), 0x4d, 0x8b, 0xb6, 0xff, 0xff, 0xff, 0x7f);
    /* Displacement 0: llvm-mc uses mod=00 (48 8b 04 24 / 48 8b 00); our disp8 of 0 is an
     * equally valid encoding (disassembles to mov rax, qword ptr [rsp] / [rax]). */
    CHECK(x64_load(b, 8, X64_RAX, X64_RSP, 0), 0x48, 0x8b, 0x44, 0x24, 0x00);
    CHECK(x64_load(b, 8, X64_RAX, X64_RAX, 0), 0x48, 0x8b, 0x40, 0x00);
    /* 4 bytes: mov r32, m32 */
    CHECK(x64_load(b, 4, X64_R10, X64_RBP, -128), 0x44, 0x8b, 0x55, 0x80); /* disp8 limit */
    CHECK(x64_load(b, 4, X64_RDX, X64_R13, INT32_MIN), 0x41, 0x8b, 0x95, 0x00, 0x00, 0x00, 0x80);
    /* 2 bytes: movzx r32, m16 */
    CHECK(x64_load(b, 2, X64_R11, X64_RBX, 127), 0x44, 0x0f, 0xb7, 0x5b, 0x7f); /* disp8 limit */
    /* 1 byte: movzx r32, m8 */
    CHECK(x64_load(b, 1, X64_RAX, X64_R15, -200), 0x41, 0x0f, 0xb6, 0x87, 0x38, 0xff, 0xff, 0xff);
    CHECK(x64_load(b, 1, X64_RCX, X64_R12, 128), 0x41, 0x0f, 0xb6, 0x8c, 0x24, 0x80, 0x00, 0x00,
          0x00);
    CHECK(x64_load(b, 1, X64_RSI, X64_RBP, 1), 0x0f, 0xb6, 0x75, 0x01);
}

static void test_store(void **state)
{
    (void)state;
    /* 1 byte: sil, dil, spl, bpl need a bare REX (0x40) */
    CHECK(x64_store(b, 1, X64_RAX, 1, X64_RSI), 0x40, 0x88, 0x70, 0x01); /* [rax+1], sil */
    CHECK(x64_store(b, 1, X64_RCX, 2, X64_RDI), 0x40, 0x88, 0x79, 0x02); /* [rcx+2], dil */
    CHECK(x64_store(b, 1, X64_RDX, 3, X64_RSP), 0x40, 0x88, 0x62, 0x03); /* [rdx+3], spl */
    CHECK(x64_store(b, 1, X64_RBX, 4, X64_RBP), 0x40, 0x88, 0x6b, 0x04); /* [rbx+4], bpl */
    CHECK(x64_store(b, 1, X64_RBX, 4, X64_RAX), 0x88, 0x43, 0x04);       /* [rbx+4], al */
    CHECK(x64_store(b, 1, X64_R12, 5, X64_R9), 0x45, 0x88, 0x4c, 0x24, 0x05);
    CHECK(x64_store(b, 1, X64_RSP, 0x100, X64_RBX), 0x88, 0x9c, 0x24, 0x00, 0x01, 0x00, 0x00);
    CHECK(x64_store(b, 1, X64_RBP, -1, X64_R15), 0x44, 0x88, 0x7d, 0xff);
    CHECK(x64_store(b, 1, X64_R13, 0, X64_RSI), 0x41, 0x88, 0x75, 0x00); /* [r13], sil */
    /* 2 bytes */
    CHECK(x64_store(b, 2, X64_R13, -2, X64_R8), 0x66, 0x45, 0x89, 0x45, 0xfe);
    CHECK(x64_store(b, 2, X64_RDI, 0x200, X64_RAX), 0x66, 0x89, 0x87, 0x00, 0x02, 0x00, 0x00);
    CHECK(x64_store(b, 2, X64_RSP, 8, X64_RSI), 0x66, 0x89, 0x74, 0x24, 0x08);
    /* 4 bytes */
    CHECK(x64_store(b, 4, X64_RBP, -129, X64_R11), 0x44, 0x89, 0x9d, 0x7f, 0xff, 0xff, 0xff);
    CHECK(x64_store(b, 4, X64_R12, -4, X64_RCX), 0x41, 0x89, 0x4c, 0x24, 0xfc);
    /* 8 bytes */
    CHECK(x64_store(b, 8, X64_R12, 8, X64_RAX), 0x49, 0x89, 0x44, 0x24, 0x08);
    CHECK(x64_store(b, 8, X64_RSP, 8, X64_R15), 0x4c, 0x89, 0x7c, 0x24, 0x08);
    CHECK(x64_store(b, 8, X64_R13, -0x1000, X64_RDI), 0x49, 0x89, 0xbd, 0x00, 0xf0, 0xff, 0xff);
}

static void test_lea(void **state)
{
    (void)state;
    CHECK(x64_lea(b, X64_RAX, X64_RSP, 8), 0x48, 0x8d, 0x44, 0x24, 0x08);
    CHECK(x64_lea(b, X64_R8, X64_R13, INT32_MAX), 0x4d, 0x8d, 0x85, 0xff, 0xff, 0xff, 0x7f);
    CHECK(x64_lea(b, X64_RDI, X64_R12, -1), 0x49, 0x8d, 0x7c, 0x24, 0xff);
    CHECK(x64_lea(b, X64_RBP, X64_RBP, INT32_MIN), 0x48, 0x8d, 0xad, 0x00, 0x00, 0x00, 0x80);
}

/* lea with an index: no displacement but for the bases that need one
 * (rbp, r13), rsp and r12 as bases through the SIB byte. */
static void test_lea_scaled(void **state)
{
    (void)state;
    CHECK(x64_lea_scaled(b, X64_RSI, X64_R14, X64_R8, 1), 0x4b, 0x8d, 0x34, 0x46);
    CHECK(x64_lea_scaled(b, X64_RAX, X64_RCX, X64_RDX, 0), 0x48, 0x8d, 0x04, 0x11);
    CHECK(x64_lea_scaled(b, X64_R9, X64_R13, X64_RAX, 3), 0x4d, 0x8d, 0x4c, 0xc5, 0x00);
    CHECK(x64_lea_scaled(b, X64_RDI, X64_RBP, X64_R12, 2), 0x4a, 0x8d, 0x7c, 0xa5, 0x00);
    CHECK(x64_lea_scaled(b, X64_R12, X64_RSP, X64_RBX, 0), 0x4c, 0x8d, 0x24, 0x1c);
}

/* shl r, imm8 (llvm-mc writes shl r, 1 as d1 /4; c1 /4 01 is the same
 * instruction). */
static void test_shl(void **state)
{
    (void)state;
    CHECK(x64_shl_ri(b, X64_RSI, 1), 0x48, 0xc1, 0xe6, 0x01);
    CHECK(x64_shl_ri(b, X64_R11, 63), 0x49, 0xc1, 0xe3, 0x3f);
    CHECK(x64_shl_ri(b, X64_RAX, 0), 0x48, 0xc1, 0xe0, 0x00);
    CHECK(x64_shr_ri(b, X64_RAX, 31), 0x48, 0xc1, 0xe8, 0x1f);
    CHECK(x64_shr_ri(b, X64_R9, 1), 0x49, 0xc1, 0xe9, 0x01);
    CHECK(x64_sar_ri(b, X64_RDX, 63), 0x48, 0xc1, 0xfa, 0x3f);
    CHECK(x64_sar_ri(b, X64_R15, 2), 0x49, 0xc1, 0xff, 0x02);
}

/* A backward jump closing a loop of at most 64 bytes that crosses a 64-byte
 * line moves the loop to the next line, NOPs before it; labels and jumps
 * from the loop on move with it. A loop within one line, or longer than
 * one, stays. */
static void test_loop_alignment(void **state)
{
    (void)state;
    X64Buf buf;
    X64Buf *b = &buf;
    x64_init(b);
    uint32_t out = x64_label(b), top = x64_label(b);
    for (int i = 0; i < 56; i++)
        x64_byte(b, 0xc3);
    x64_jcc(b, X64_E, out); /* 56: a forward jump before the loop */
    x64_place(b, top);      /* 62 -> 64 */
    x64_alu_rr(b, X64_ADD, X64_RAX, X64_RCX);
    x64_jcc(b, X64_NE, out); /* a forward jump inside the loop */
    x64_jcc(b, X64_G, top);  /* 71..77: the loop crosses 64, it moves */
    x64_place(b, out);
    x64_ret(b);
    assert_true(x64_resolve(b));
    assert_false(b->oom);
    assert_int_equal(b->len, 80);
    static const uint8_t moved[] = {
        0x0f, 0x84, 0x11, 0x00, 0x00, 0x00, /* 56: je out (79) */
        0x66, 0x90,                         /* 62: nop */
        0x48, 0x01, 0xc8,                   /* 64: add rax, rcx */
        0x0f, 0x85, 0x06, 0x00, 0x00, 0x00, /* 67: jne out (79) */
        0x0f, 0x8f, 0xf1, 0xff, 0xff, 0xff, /* 73: jg top (64) */
        0xc3,                               /* 79: out: ret */
    };
    assert_memory_equal(b->code + 56, moved, sizeof moved);
    x64_free(b);
    /* 57 bytes of NOPs, read back one instruction each */
    x64_init(b);
    top = x64_label(b);
    for (int i = 0; i < 7; i++)
        x64_byte(b, 0xc3);
    x64_place(b, top);
    x64_alu_rr(b, X64_ADD, X64_RAX, X64_RCX);
    for (int i = 0; i < 52; i++)
        x64_byte(b, 0x90);
    x64_jcc(b, X64_G, top); /* [7, 68): moves to 64 */
    assert_int_equal(b->len, 64 + 61);
    for (size_t at = 7; at < 64;) {
        char text[64];
        at += x64_disasm_one(b->code + at, 64 - at, at, text, sizeof text);
        assert_true(strncmp(text, "nop", 3) == 0);
    }
    x64_free(b);
    /* within one line: no NOPs */
    x64_init(b);
    top = x64_label(b);
    x64_place(b, top);
    x64_alu_rr(b, X64_ADD, X64_RAX, X64_RCX);
    x64_jcc(b, X64_G, top);
    assert_int_equal(b->len, 9);
    x64_free(b);
}

static void test_alu_rr(void **state)
{
    (void)state;
    CHECK(x64_alu_rr(b, X64_ADD, X64_RAX, X64_RCX), 0x48, 0x01, 0xc8); /* add rax, rcx */
    CHECK(x64_alu_rr(b, X64_SUB, X64_R8, X64_RDI), 0x49, 0x29, 0xf8);  /* sub r8, rdi */
    CHECK(x64_alu_rr(b, X64_AND, X64_RSI, X64_R15), 0x4c, 0x21, 0xfe); /* and rsi, r15 */
    CHECK(x64_alu_rr(b, X64_OR, X64_R12, X64_R13), 0x4d, 0x09, 0xec);  /* or r12, r13 */
    CHECK(x64_alu_rr(b, X64_XOR, X64_RDX, X64_RDX), 0x48, 0x31, 0xd2); /* xor rdx, rdx */
    CHECK(x64_alu_rr(b, X64_CMP, X64_R9, X64_R10), 0x4d, 0x39, 0xd1);  /* cmp r9, r10 */
}

static void test_alu_ri(void **state)
{
    (void)state;
    /* imm8 */
    CHECK(x64_alu_ri(b, X64_ADD, X64_RAX, 1), 0x48, 0x83, 0xc0, 0x01);
    CHECK(x64_alu_ri(b, X64_AND, X64_R15, -128), 0x49, 0x83, 0xe7, 0x80);
    CHECK(x64_alu_ri(b, X64_CMP, X64_RDI, 127), 0x48, 0x83, 0xff, 0x7f);
    CHECK(x64_alu_ri(b, X64_ADD, X64_R12, -1), 0x49, 0x83, 0xc4, 0xff);
    /* imm32 */
    CHECK(x64_alu_ri(b, X64_SUB, X64_RSP, 128), 0x48, 0x81, 0xec, 0x80, 0x00, 0x00, 0x00);
    CHECK(x64_alu_ri(b, X64_OR, X64_RCX, 0x12345678), 0x48, 0x81, 0xc9, 0x78, 0x56, 0x34, 0x12);
    CHECK(x64_alu_ri(b, X64_XOR, X64_R11, -129), 0x49, 0x81, 0xf3, 0x7f, 0xff, 0xff, 0xff);
    /* llvm-mc uses the short rax form 48 05 imm32; our 81 /0 form is equally valid
     * (disassembles to add rax, 4096). */
    CHECK(x64_alu_ri(b, X64_ADD, X64_RAX, 0x1000), 0x48, 0x81, 0xc0, 0x00, 0x10, 0x00, 0x00);
}

/* Expected bytes from llvm-mc-19 --show-encoding. */
/* A load of a frame slot's word that a register still holds (stored
 * there or loaded from there, the register and the slot not written since,
 * no label placed since) is a move from that register, or nothing; not
 * of another word or size, not after the register, the slot or anything
 * through a call was written. */
static void test_store_then_load(void **state)
{
    (void)state;
    CHECK((x64_store(b, 8, X64_RBP, -0x40, X64_RAX), x64_load(b, 8, X64_RCX, X64_RBP, -0x40)), 0x48,
          0x89, 0x45, 0xc0, 0x48, 0x89, 0xc1); /* mov [rbp-0x40], rax; mov rcx, rax */
    CHECK((x64_store(b, 8, X64_RBP, -0x40, X64_RAX), x64_load(b, 8, X64_RAX, X64_RBP, -0x40)), 0x48,
          0x89, 0x45, 0xc0);
    CHECK((x64_store(b, 8, X64_RBP, -0x40, X64_RAX), x64_load(b, 8, X64_RAX, X64_RBP, -0x48)), 0x48,
          0x89, 0x45, 0xc0, 0x48, 0x8b, 0x45, 0xb8);
    CHECK((x64_store(b, 8, X64_RBP, -0x40, X64_RAX), x64_load(b, 4, X64_RAX, X64_RBP, -0x40)), 0x48,
          0x89, 0x45, 0xc0, 0x8b, 0x45, 0xc0);
    CHECK((x64_store(b, 4, X64_RBP, -0x40, X64_RAX), x64_load(b, 8, X64_RAX, X64_RBP, -0x40)), 0x89,
          0x45, 0xc0, 0x48, 0x8b, 0x45, 0xc0);
    CHECK((x64_store(b, 8, X64_RBP, -0x40, X64_RAX), x64_place(b, x64_label(b)),
           x64_load(b, 8, X64_RCX, X64_RBP, -0x40)),
          0x48, 0x89, 0x45, 0xc0, 0x48, 0x8b, 0x4d, 0xc0);
    /* another register written between: still held */
    CHECK((x64_store(b, 8, X64_RBP, -0x40, X64_RAX), x64_mov_ri(b, X64_RDX, 1),
           x64_load(b, 8, X64_RCX, X64_RBP, -0x40)),
          0x48, 0x89, 0x45, 0xc0, 0xba, 0x01, 0x00, 0x00, 0x00, 0x48, 0x89, 0xc1);
    /* the holding register written: a load */
    CHECK((x64_store(b, 8, X64_RBP, -0x40, X64_RAX), x64_mov_ri(b, X64_RAX, 1),
           x64_load(b, 8, X64_RCX, X64_RBP, -0x40)),
          0x48, 0x89, 0x45, 0xc0, 0xb8, 0x01, 0x00, 0x00, 0x00, 0x48, 0x8b, 0x4d, 0xc0);
    /* a copy holds the slot too */
    CHECK((x64_store(b, 8, X64_RBP, -0x40, X64_RAX), x64_mov_rr(b, X64_RDX, X64_RAX),
           x64_mov_ri(b, X64_RAX, 1), x64_load(b, 8, X64_RCX, X64_RBP, -0x40)),
          0x48, 0x89, 0x45, 0xc0, 0x48, 0x89, 0xc2, 0xb8, 0x01, 0x00, 0x00, 0x00, 0x48, 0x89, 0xd1);
    /* a slot loaded once is held by the register it went to */
    CHECK((x64_load(b, 8, X64_RAX, X64_RBP, -0x40), x64_load(b, 8, X64_RCX, X64_RBP, -0x40)), 0x48,
          0x8b, 0x45, 0xc0, 0x48, 0x89, 0xc1);
    /* a store that overlaps the slot, or an operation on it in memory */
    CHECK((x64_store(b, 8, X64_RBP, -0x40, X64_RAX), x64_store(b, 4, X64_RBP, -0x3c, X64_RDX),
           x64_load(b, 8, X64_RCX, X64_RBP, -0x40)),
          0x48, 0x89, 0x45, 0xc0, 0x89, 0x55, 0xc4, 0x48, 0x8b, 0x4d, 0xc0);
    CHECK((x64_store(b, 8, X64_RBP, -0x40, X64_RAX), x64_alu_mi(b, X64_ADD, X64_RBP, -0x40, 1),
           x64_load(b, 8, X64_RCX, X64_RBP, -0x40)),
          0x48, 0x89, 0x45, 0xc0, 0x48, 0x83, 0x45, 0xc0, 0x01, 0x48, 0x8b, 0x4d, 0xc0);
    /* implicit writes: idiv's rax and rdx */
    CHECK((x64_store(b, 8, X64_RBP, -0x40, X64_RAX), x64_idiv(b, X64_RCX),
           x64_load(b, 8, X64_RCX, X64_RBP, -0x40)),
          0x48, 0x89, 0x45, 0xc0, 0x48, 0xf7, 0xf9, 0x48, 0x8b, 0x4d, 0xc0);
    /* operands from a held slot are the register */
    CHECK((x64_store(b, 8, X64_RBP, -0x40, X64_RAX),
           x64_alu_rm(b, X64_ADD, X64_RCX, X64_RBP, -0x40),
           x64_alu_mi(b, X64_CMP, X64_RBP, -0x40, 5)),
          0x48, 0x89, 0x45, 0xc0, 0x48, 0x01, 0xc1, 0x48, 0x83, 0xf8, 0x05);
    X64Buf none;
    int32_t disp = 0;
    x64_init(&none);
    x64_store(&none, 8, X64_RBP, -0x40, X64_RDX);
    assert_true(x64_mirror_of(&none, X64_RDX, &disp));
    assert_int_equal(disp, -0x40);
    assert_false(x64_mirror_of(&none, X64_RAX, &disp));
    x64_call_reg(&none, X64_R11);
    assert_false(x64_mirror_of(&none, X64_RDX, &disp));
    x64_free(&none);
}

static void test_alu_mi(void **state)
{
    (void)state;
    CHECK(x64_alu_mi(b, X64_SUB, X64_RBP, -56, 1), 0x48, 0x83, 0x6d, 0xc8, 0x01);
    CHECK(x64_alu_mi(b, X64_SUB, X64_RBP, -4096, 1), 0x48, 0x83, 0xad, 0x00, 0xf0, 0xff, 0xff,
          0x01);
    CHECK(x64_alu_mi(b, X64_ADD, X64_R12, 8, 300), 0x49, 0x81, 0x44, 0x24, 0x08, 0x2c, 0x01, 0x00,
          0x00);
    CHECK(x64_alu_mi(b, X64_CMP, X64_RBX, 16, -2), 0x48, 0x83, 0x7b, 0x10, 0xfe);
    CHECK(x64_alu_rm(b, X64_ADD, X64_RSI, X64_RBP, -0x108), 0x48, 0x03, 0xb5, 0xf8, 0xfe, 0xff,
          0xff); /* add rsi, [rbp-0x108] */
    CHECK(x64_alu_rm(b, X64_XOR, X64_R9, X64_RBP, -8), 0x4c, 0x33, 0x4d, 0xf8);
}

/* Memory at an absolute address below 2^31 (X64_ABS): ModRM mod 00 with a
 * SIB of no base and no index, then the address as disp32; a higher
 * address is loaded into the scratch register first (x64_base_of). */
static void test_absolute(void **state)
{
    (void)state;
    CHECK(x64_load(b, 8, X64_RAX, X64_ABS, 0x4036588), 0x48, 0x8b, 0x04, 0x25, 0x88, 0x65, 0x03,
          0x04); /* mov rax, [0x4036588] */
    CHECK(x64_load(b, 4, X64_R9, X64_ABS, 0x1000), 0x44, 0x8b, 0x0c, 0x25, 0x00, 0x10, 0x00, 0x00);
    CHECK(x64_store(b, 8, X64_ABS, INT32_MAX, X64_R15), 0x4c, 0x89, 0x3c, 0x25, 0xff, 0xff, 0xff,
          0x7f);
    CHECK(x64_alu_mi(b, X64_ADD, X64_ABS, 0x4036550, 1), 0x48, 0x83, 0x04, 0x25, 0x50, 0x65, 0x03,
          0x04, 0x01); /* add qword ptr [0x4036550], 1 */
    CHECK(x64_mov_mi(b, X64_ABS, 0x4cd3f8, -1), 0x48, 0xc7, 0x04, 0x25, 0xf8, 0xd3, 0x4c, 0x00,
          0xff, 0xff, 0xff, 0xff);
    int32_t disp = -1;
    X64Buf none;
    x64_init(&none);
    assert_int_equal(x64_base_of(&none, 0x4cd3f8, X64_RCX, &disp), X64_ABS);
    assert_int_equal(none.len, 0); /* no code */
    assert_int_equal(disp, 0x4cd3f8);
    x64_free(&none);
    CHECK(assert_int_equal(x64_base_of(b, UINT64_C(0x80000000), X64_RCX, &disp), X64_RCX), 0xb9,
          0x00, 0x00, 0x00, 0x80); /* mov ecx, 0x80000000 */
    assert_int_equal(disp, 0);
    CHECK(assert_int_equal(x64_base_of(b, UINT64_C(0x7f0012345678), X64_RDI, &disp), X64_RDI), 0x48,
          0xbf, 0x78, 0x56, 0x34, 0x12, 0x00, 0x7f, 0x00, 0x00); /* movabs rdi, ... */
}

static void test_cmp32_ri(void **state)
{
    (void)state;
    CHECK(x64_cmp32_ri(b, X64_RCX, 100000), 0x81, 0xf9, 0xa0, 0x86, 0x01, 0x00);
    CHECK(x64_cmp32_ri(b, X64_R15, INT32_MAX), 0x41, 0x81, 0xff, 0xff, 0xff, 0xff, 0x7f);
    /* llvm-mc uses imm8 (83 f8 05 / 41 83 fc ff); our always-imm32 form is equally valid
     * (disassembles to cmp eax, 5 / cmp r12d, 0xffffffff). */
    CHECK(x64_cmp32_ri(b, X64_RAX, 5), 0x81, 0xf8, 0x05, 0x00, 0x00, 0x00);
    CHECK(x64_cmp32_ri(b, X64_R12, -1), 0x41, 0x81, 0xfc, 0xff, 0xff, 0xff, 0xff);
}

static void test_imul_test_neg(void **state)
{
    (void)state;
    CHECK(x64_imul_rr(b, X64_RAX, X64_RCX), 0x48, 0x0f, 0xaf, 0xc1); /* imul rax, rcx */
    CHECK(x64_imul_rr(b, X64_R8, X64_R15), 0x4d, 0x0f, 0xaf, 0xc7);  /* imul r8, r15 */
    CHECK(x64_imul_rr(b, X64_RDI, X64_R9), 0x49, 0x0f, 0xaf, 0xf9);  /* imul rdi, r9 */
    CHECK(x64_imul_rr(b, X64_R12, X64_RSI), 0x4c, 0x0f, 0xaf, 0xe6); /* imul r12, rsi */
    CHECK(x64_test_rr(b, X64_RAX, X64_RAX), 0x48, 0x85, 0xc0);       /* test rax, rax */
    CHECK(x64_test_rr(b, X64_R10, X64_RSI), 0x49, 0x85, 0xf2);       /* test r10, rsi */
    CHECK(x64_test_rr(b, X64_RCX, X64_R13), 0x4c, 0x85, 0xe9);       /* test rcx, r13 */
    CHECK(x64_neg(b, X64_RAX), 0x48, 0xf7, 0xd8);
    CHECK(x64_neg(b, X64_R11), 0x49, 0xf7, 0xdb);
    CHECK(x64_neg(b, X64_RSP), 0x48, 0xf7, 0xdc);
    CHECK(x64_cqo(b), 0x48, 0x99);
    CHECK(x64_idiv(b, X64_RCX), 0x48, 0xf7, 0xf9);                      /* idiv rcx */
    CHECK(x64_idiv(b, X64_R10), 0x49, 0xf7, 0xfa);                      /* idiv r10 */
    CHECK(x64_div32(b, X64_RCX), 0xf7, 0xf1);                           /* div ecx */
    CHECK(x64_div32(b, X64_R9), 0x41, 0xf7, 0xf1);                      /* div r9d */
    CHECK(x64_imul_wide(b, X64_RCX), 0x48, 0xf7, 0xe9);                 /* imul rcx */
    CHECK(x64_imul_wide(b, X64_R11), 0x49, 0xf7, 0xeb);                 /* imul r11 */
    CHECK(x64_imul_rri(b, X64_R9, X64_RAX, 3), 0x4c, 0x6b, 0xc8, 0x03); /* imul r9, rax, 3 */
    CHECK(x64_imul_rri(b, X64_RCX, X64_R13, 1000), 0x49, 0x69, 0xcd, 0xe8, 0x03, 0x00, 0x00);
}

static void test_zext(void **state)
{
    (void)state;
    /* size 1: movzx r32, r8; sil, dil, spl, bpl need a bare REX */
    CHECK(x64_zext(b, X64_RAX, 1), 0x0f, 0xb6, 0xc0);
    CHECK(x64_zext(b, X64_RBX, 1), 0x0f, 0xb6, 0xdb);
    CHECK(x64_zext(b, X64_RSI, 1), 0x40, 0x0f, 0xb6, 0xf6);
    CHECK(x64_zext(b, X64_RDI, 1), 0x40, 0x0f, 0xb6, 0xff);
    CHECK(x64_zext(b, X64_RSP, 1), 0x40, 0x0f, 0xb6, 0xe4);
    CHECK(x64_zext(b, X64_RBP, 1), 0x40, 0x0f, 0xb6, 0xed);
    CHECK(x64_zext(b, X64_R9, 1), 0x45, 0x0f, 0xb6, 0xc9);
    /* size 2: movzx r32, r16 */
    CHECK(x64_zext(b, X64_RCX, 2), 0x0f, 0xb7, 0xc9);
    CHECK(x64_zext(b, X64_RSI, 2), 0x0f, 0xb7, 0xf6);
    CHECK(x64_zext(b, X64_R14, 2), 0x45, 0x0f, 0xb7, 0xf6);
    /* size 4: mov r32, r32. llvm-mc uses 89 (89 c0 / 45 89 e4 / 89 ff); our 8b form is
     * equally valid (disassembles to mov eax, eax / mov r12d, r12d / mov edi, edi). */
    CHECK(x64_zext(b, X64_RAX, 4), 0x8b, 0xc0);
    CHECK(x64_zext(b, X64_R12, 4), 0x45, 0x8b, 0xe4);
    CHECK(x64_zext(b, X64_RDI, 4), 0x8b, 0xff);
}

static void test_sext(void **state)
{
    (void)state;
    CHECK(x64_sext(b, X64_RAX, 1), 0x48, 0x0f, 0xbe, 0xc0); /* movsx rax, al */
    CHECK(x64_sext(b, X64_RDI, 1), 0x48, 0x0f, 0xbe, 0xff); /* movsx rdi, dil */
    CHECK(x64_sext(b, X64_R8, 1), 0x4d, 0x0f, 0xbe, 0xc0);  /* movsx r8, r8b */
    CHECK(x64_sext(b, X64_RBX, 2), 0x48, 0x0f, 0xbf, 0xdb); /* movsx rbx, bx */
    CHECK(x64_sext(b, X64_R13, 2), 0x4d, 0x0f, 0xbf, 0xed); /* movsx r13, r13w */
    CHECK(x64_sext(b, X64_RCX, 4), 0x48, 0x63, 0xc9);       /* movsxd rcx, ecx */
    CHECK(x64_sext(b, X64_R15, 4), 0x4d, 0x63, 0xff);       /* movsxd r15, r15d */
}

/* setcc of the low byte, then movzx r32, r8 of it (the whole register). */
static void test_setcc(void **state)
{
    (void)state;
    CHECK(x64_setcc(b, X64_E, X64_RAX), 0x0f, 0x94, 0xc0, 0x0f, 0xb6, 0xc0);
    CHECK(x64_setcc(b, X64_NE, X64_RBX), 0x0f, 0x95, 0xc3, 0x0f, 0xb6, 0xdb);
    CHECK(x64_setcc(b, X64_NS, X64_RDX), 0x0f, 0x99, 0xc2, 0x0f, 0xb6, 0xd2);
    CHECK(x64_setcc(b, X64_L, X64_RSI), 0x40, 0x0f, 0x9c, 0xc6, 0x40, 0x0f, 0xb6, 0xf6);
    CHECK(x64_setcc(b, X64_B, X64_RDI), 0x40, 0x0f, 0x92, 0xc7, 0x40, 0x0f, 0xb6, 0xff);
    CHECK(x64_setcc(b, X64_AE, X64_RSP), 0x40, 0x0f, 0x93, 0xc4, 0x40, 0x0f, 0xb6, 0xe4);
    CHECK(x64_setcc(b, X64_BE, X64_RBP), 0x40, 0x0f, 0x96, 0xc5, 0x40, 0x0f, 0xb6, 0xed);
    CHECK(x64_setcc(b, X64_G, X64_R10), 0x41, 0x0f, 0x9f, 0xc2, 0x45, 0x0f, 0xb6, 0xd2);
    CHECK(x64_setcc(b, X64_O, X64_R15), 0x41, 0x0f, 0x90, 0xc7, 0x45, 0x0f, 0xb6, 0xff);
}

static void test_cmov(void **state)
{
    (void)state;
    CHECK(x64_cmov(b, X64_E, X64_RAX, X64_RCX), 0x48, 0x0f, 0x44, 0xc1); /* cmove rax, rcx */
    CHECK(x64_cmov(b, X64_L, X64_R8, X64_R15), 0x4d, 0x0f, 0x4c, 0xc7);  /* cmovl r8, r15 */
    CHECK(x64_cmov(b, X64_G, X64_RDI, X64_R12), 0x49, 0x0f, 0x4f, 0xfc); /* cmovg rdi, r12 */
    CHECK(x64_cmov(b, X64_A, X64_RSI, X64_RDX), 0x48, 0x0f, 0x47, 0xf2); /* cmova rsi, rdx */
    CHECK(x64_cmov(b, X64_NE, X64_R13, X64_R9), 0x4d, 0x0f, 0x45, 0xe9); /* cmovne r13, r9 */
}

static void test_push_pop_misc(void **state)
{
    (void)state;
    CHECK(x64_push(b, X64_RBX), 0x53);
    CHECK(x64_push(b, X64_RBP), 0x55);
    CHECK(x64_push(b, X64_R12), 0x41, 0x54);
    CHECK(x64_push(b, X64_R15), 0x41, 0x57);
    CHECK(x64_pop(b, X64_RAX), 0x58);
    CHECK(x64_pop(b, X64_RBP), 0x5d);
    CHECK(x64_pop(b, X64_R12), 0x41, 0x5c);
    CHECK(x64_pop(b, X64_R15), 0x41, 0x5f);
    CHECK(x64_ret(b), 0xc3);
    CHECK(x64_rep_stosb(b), 0xf3, 0xaa);
    CHECK((x64_byte(b, 0x90), x64_u32(b, 0x12345678)), 0x90, 0x78, 0x56, 0x34, 0x12);
}

/* Backward and forward jumps; expected bytes from llvm-mc assembling the same
 * sequence with {disp32} jumps to labels (relocations resolved in the object). */
static void test_jumps(void **state)
{
    (void)state;
    X64Buf buf;
    X64Buf *b = &buf;
    x64_init(b);
    uint32_t back = x64_label(b);
    uint32_t fwd = x64_label(b);
    x64_place(b, back);
    x64_ret(b);              /* 0x00 */
    x64_jmp(b, back);        /* 0x01: jmp back */
    x64_jcc(b, X64_L, fwd);  /* 0x06: jl fwd */
    x64_byte(b, 0x90);       /* 0x0c */
    x64_byte(b, 0x90);       /* 0x0d */
    x64_jcc(b, X64_E, back); /* 0x0e: je back */
    x64_jmp(b, back);        /* 0x14: jmp back */
    x64_place(b, fwd);
    x64_ret(b); /* 0x19 */
    assert_true(x64_resolve(b));
    static const uint8_t want[] = {
        0xc3,                               /* ret */
        0xe9, 0xfa, 0xff, 0xff, 0xff,       /* jmp back: rel32 -6 */
        0x0f, 0x8c, 0x0d, 0x00, 0x00, 0x00, /* jl fwd: rel32 +13 */
        0x90, 0x90,                         /* nop; nop */
        0x0f, 0x84, 0xec, 0xff, 0xff, 0xff, /* je back: rel32 -20 */
        0xe9, 0xe7, 0xff, 0xff, 0xff,       /* jmp back: rel32 -25 */
        0xc3,                               /* ret */
    };
    expect(b, "backward and forward jumps", want, sizeof want);
    x64_free(b);
}

/* Jmps to the label placed right after them are taken out, and the labels
 * placed between move back with them; a jmp with code after it stays. */
static void test_jump_to_next_falls_through(void **state)
{
    (void)state;
    X64Buf buf;
    X64Buf *b = &buf;
    x64_init(b);
    uint32_t next = x64_label(b), between = x64_label(b), other = x64_label(b);
    x64_jcc(b, X64_E, between); /* 0x00: je between */
    x64_jmp(b, next);           /* taken out */
    x64_place(b, between);      /* 0x06, once both jmps are out */
    x64_jmp(b, next);           /* taken out */
    x64_place(b, next);         /* 0x06 */
    x64_jmp(b, other);          /* 0x06: jmp other */
    x64_ret(b);                 /* 0x0b */
    x64_place(b, other);
    x64_ret(b); /* 0x0c */
    assert_true(x64_resolve(b));
    static const uint8_t want[] = {
        0x0f, 0x84, 0x00, 0x00, 0x00, 0x00, /* je between: rel32 0 */
        0xe9, 0x01, 0x00, 0x00, 0x00,       /* jmp other: rel32 +1 */
        0xc3, 0xc3,                         /* ret; ret */
    };
    expect(b, "fall-through", want, sizeof want);
    x64_free(b);
}

static void test_resolve_unplaced(void **state)
{
    (void)state;
    X64Buf buf;
    X64Buf *b = &buf;
    x64_init(b);
    assert_true(x64_resolve(b)); /* nothing to patch */
    uint32_t placed = x64_label(b);
    uint32_t never = x64_label(b);
    x64_place(b, placed);
    x64_jmp(b, placed);
    assert_true(x64_resolve(b));
    x64_jcc(b, X64_NE, never);
    assert_false(x64_resolve(b));
    x64_free(b);
}

static void test_call_abs(void **state)
{
    (void)state;
    /* mov eax, 0x401000; call rax */
    CHECK(x64_call_abs(b, (const void *)(uintptr_t)0x401000), 0xb8, 0x00, 0x10, 0x40, 0x00, 0xff,
          0xd0);
    /* movabs rax, 0x123456789abc; call rax */
    CHECK(x64_call_abs(b, (const void *)(uintptr_t)0x123456789abcu), 0x48, 0xb8, 0xbc, 0x9a, 0x78,
          0x56, 0x34, 0x12, 0x00, 0x00, 0xff, 0xd0);
}

/* The buffer grows past its first allocation and keeps every byte. */
static void test_growth(void **state)
{
    (void)state;
    X64Buf buf;
    X64Buf *b = &buf;
    x64_init(b);
    enum { N = 1000 };
    for (int i = 0; i < N; i++)
        x64_store(b, 8, X64_R12, 8, X64_RAX);
    assert_false(b->oom);
    assert_int_equal(b->len, 5 * N);
    static const uint8_t one[] = {0x49, 0x89, 0x44, 0x24, 0x08};
    for (int i = 0; i < N; i++)
        assert_memory_equal(b->code + 5 * i, one, sizeof one);
    x64_free(b);
}

/* The disassembler reads back every form the encoder writes (Intel
 * syntax, jump targets as addresses), and a byte it does not know, or an
 * instruction cut short, as `.byte`. */
static void test_disasm(void **state)
{
    (void)state;
    X64Buf buf;
    X64Buf *b = &buf;
    x64_init(b);
    uint32_t top = x64_label(b);
    x64_place(b, top);
    x64_mov_rr(b, X64_R13, X64_RSI);
    x64_mov_ri(b, X64_RAX, 0x447560);
    x64_mov_ri(b, X64_RCX, UINT64_MAX);
    x64_mov_ri(b, X64_R11, UINT64_C(0x123456789a));
    x64_load(b, 8, X64_RAX, X64_RBP, -0x110);
    x64_load(b, 1, X64_R9, X64_R12, 8);
    x64_store(b, 2, X64_RBX, 0, X64_RDX);
    x64_store(b, 1, X64_RBP, -8, X64_RSI);
    x64_lea(b, X64_RSP, X64_RBP, -40);
    x64_lea_scaled(b, X64_RSI, X64_R14, X64_R8, 1);
    x64_lea_scaled(b, X64_R9, X64_R13, X64_RAX, 3);
    x64_shl_ri(b, X64_R11, 63);
    x64_shr_ri(b, X64_RSI, 7);
    x64_sar_ri(b, X64_R10, 33);
    x64_alu_rr(b, X64_ADD, X64_R13, X64_RCX);
    x64_alu_ri(b, X64_CMP, X64_RDI, 999);
    x64_alu_ri(b, X64_SUB, X64_R8, 1);
    x64_alu_mi(b, X64_SUB, X64_RBP, -56, 1);
    x64_mov_mi(b, X64_RSP, 16, -2);
    x64_cmp32_ri(b, X64_RDI, 3);
    x64_imul_rr(b, X64_R13, X64_RDI);
    x64_test_rr(b, X64_RSI, X64_RSI);
    x64_imul_rri(b, X64_R9, X64_RAX, -3);
    x64_alu_rm(b, X64_SUB, X64_R9, X64_RBP, -0x40);
    x64_alu_mi(b, X64_ADD, X64_ABS, 0x4036550, 1);
    x64_zext(b, X64_RAX, 4);
    x64_sext(b, X64_RCX, 1);
    x64_sext(b, X64_RAX, 4);
    x64_neg(b, X64_RDX);
    x64_cqo(b);
    x64_idiv(b, X64_R9);
    x64_div32(b, X64_RCX);
    x64_imul_wide(b, X64_RCX);
    x64_setcc(b, X64_G, X64_RSI);
    x64_cmov(b, X64_E, X64_RAX, X64_R13);
    x64_jcc(b, X64_LE, top);
    x64_call_reg(b, X64_R11);
    x64_push(b, X64_R15);
    x64_pop(b, X64_RBX);
    x64_rep_stosb(b);
    x64_ret(b);
    static const uint8_t nops[] = {0x0f, 0x1f, 0x80, 0,    0, 0,    0,    0x0f, 0x1f,
                                   0x40, 0,    0x0f, 0x1f, 0, 0x66, 0x90, 0x90};
    for (size_t i = 0; i < sizeof nops; i++) /* the loop alignment's NOPs */
        x64_byte(b, nops[i]);
    x64_jmp(b, top);
    x64_byte(b, 0x0b); /* or r32, r/m32: not a form the encoder writes */
    assert_true(x64_resolve(b));
    static const char *const want[] = {
        "mov r13, rsi",
        "mov eax, 0x447560",
        "mov rcx, -1",
        "movabs r11, 0x123456789a",
        "mov rax, qword ptr [rbp - 0x110]",
        "movzx r9d, byte ptr [r12 + 0x8]",
        "mov word ptr [rbx], dx",
        "mov byte ptr [rbp - 0x8], sil",
        "lea rsp, qword ptr [rbp - 0x28]",
        "lea rsi, qword ptr [r14 + r8*2]",
        "lea r9, qword ptr [r13 + rax*8]",
        "shl r11, 63",
        "shr rsi, 7",
        "sar r10, 33",
        "add r13, rcx",
        "cmp rdi, 999",
        "sub r8, 1",
        "sub qword ptr [rbp - 0x38], 1",
        "mov qword ptr [rsp + 0x10], -2",
        "cmp edi, 3",
        "imul r13, rdi",
        "test rsi, rsi",
        "imul r9, rax, -3",
        "sub r9, qword ptr [rbp - 0x40]",
        "add qword ptr [0x4036550], 1",
        "mov eax, eax",
        "movsx rcx, cl",
        "movsxd rax, eax",
        "neg rdx",
        "cqo",
        "idiv r9",
        "div ecx",
        "imul rcx",
        "setg sil",
        "movzx esi, sil",
        "cmove rax, r13",
        "jle 0x1000",
        "call r11",
        "push r15",
        "pop rbx",
        "rep stosb",
        "ret",
        "nop dword ptr [rax]",
        "nop dword ptr [rax]",
        "nop dword ptr [rax]",
        "nop",
        "nop",
        "jmp 0x1000",
        ".byte 0x0b",
    };
    size_t at = 0, i = 0;
    char text[128];
    for (; at < b->len && i < sizeof want / sizeof *want; i++) {
        at += x64_disasm_one(b->code + at, b->len - at, 0x1000 + at, text, sizeof text);
        assert_string_equal(text, want[i]);
    }
    assert_int_equal(i, sizeof want / sizeof *want);
    assert_int_equal(at, b->len);
    /* truncated: the first byte only */
    assert_int_equal(x64_disasm_one(b->code, 2, 0, text, sizeof text), 1);
    assert_string_equal(text, ".byte 0x49");
    char *listing = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&listing, &size);
    assert_non_null(out);
    x64_disasm(out, b->code, 3, 0x1000);
    fclose(out);
    assert_string_equal(listing, "  1000:  49 89 f5                             mov r13, rsi\n");
    free(listing);
    x64_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mov_rr),
        cmocka_unit_test(test_mov_ri),
        cmocka_unit_test(test_load),
        cmocka_unit_test(test_store),
        cmocka_unit_test(test_lea),
        cmocka_unit_test(test_lea_scaled),
        cmocka_unit_test(test_shl),
        cmocka_unit_test(test_loop_alignment),
        cmocka_unit_test(test_alu_rr),
        cmocka_unit_test(test_alu_ri),
        cmocka_unit_test(test_store_then_load),
        cmocka_unit_test(test_alu_mi),
        cmocka_unit_test(test_absolute),
        cmocka_unit_test(test_cmp32_ri),
        cmocka_unit_test(test_imul_test_neg),
        cmocka_unit_test(test_zext),
        cmocka_unit_test(test_sext),
        cmocka_unit_test(test_setcc),
        cmocka_unit_test(test_cmov),
        cmocka_unit_test(test_push_pop_misc),
        cmocka_unit_test(test_jumps),
        cmocka_unit_test(test_disasm),
        cmocka_unit_test(test_jump_to_next_falls_through),
        cmocka_unit_test(test_resolve_unplaced),
        cmocka_unit_test(test_call_abs),
        cmocka_unit_test(test_growth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
