/* A small x86-64 assembler: the instructions the baseline code generator
 * (baseline/) emits, encoded into a growable byte buffer, with labels whose
 * uses are patched once the label is placed. Only what the baseline needs:
 * 64-bit integer registers, [base + disp32] memory operands, rel32 jumps. */
#ifndef JITGEN_X64_H
#define JITGEN_X64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum X64Reg {
    X64_RAX,
    X64_RCX,
    X64_RDX,
    X64_RBX,
    X64_RSP,
    X64_RBP,
    X64_RSI,
    X64_RDI,
    X64_R8,
    X64_R9,
    X64_R10,
    X64_R11,
    X64_R12,
    X64_R13,
    X64_R14,
    X64_R15,
    /* as the base of a memory operand only: none, the displacement is an
     * absolute address below 2^31 (x64_base_of) */
    X64_ABS,
} X64Reg;

/* Condition codes (the low nibble of Jcc / SETcc / CMOVcc). */
typedef enum X64Cond {
    X64_O = 0,
    X64_NO = 1,
    X64_B = 2,
    X64_AE = 3,
    X64_E = 4,
    X64_NE = 5,
    X64_BE = 6,
    X64_A = 7,
    X64_S = 8,
    X64_NS = 9,
    X64_L = 12,
    X64_GE = 13,
    X64_LE = 14,
    X64_G = 15,
} X64Cond;

/* Two-operand ALU operations, by their /digit (ADD r/m, imm = 81 /0 ...). */
typedef enum X64Alu {
    X64_ADD = 0,
    X64_OR = 1,
    X64_AND = 4,
    X64_SUB = 5,
    X64_XOR = 6,
    X64_CMP = 7,
} X64Alu;

typedef struct X64Fixup {
    uint32_t at;    /* offset of the rel32 field */
    uint32_t label; /* label it refers to */
} X64Fixup;

typedef struct X64Buf {
    uint8_t *code;
    size_t len, cap;
    uint32_t *labels; /* per label: its offset, or UINT32_MAX while unplaced */
    uint32_t nlabels, labels_cap;
    X64Fixup *fixups;
    uint32_t nfixups, fixups_cap;
    bool oom; /* an allocation failed: the buffer is unusable */
    /* Registers that hold the word of a frame slot, [rbp + mirror[r]]
     * (bit r of `mirrors`): stored there or loaded from there, neither
     * register nor slot written since, no label placed since. A load of
     * such a slot is a move from the register, or nothing (x64_load,
     * x64_alu_rm, x64_alu_mi's compare). Every encoder that writes a
     * register forgets what it held; one that writes memory through rbp
     * forgets the slots it overlaps; calls forget everything. Frame slots
     * are written through rbp only (baseline homes are never addressed). */
    uint32_t mirrors;
    int32_t mirror[16];
} X64Buf;

void x64_init(X64Buf *b);
void x64_free(X64Buf *b);

/* A new unplaced label. */
uint32_t x64_label(X64Buf *b);
/* Places `label` at the current offset. Jmps to `label` just before are
 * taken out (control falls through), and labels placed after them move. */
/* Whether `label` has been placed. */
bool x64_placed(const X64Buf *b, uint32_t label);
void x64_place(X64Buf *b, uint32_t label);
/* Patches every jump to its label; false when a label was never placed. */
bool x64_resolve(X64Buf *b);

void x64_byte(X64Buf *b, uint8_t v);
void x64_u32(X64Buf *b, uint32_t v);

/* dst = src (64 bits) */
void x64_mov_rr(X64Buf *b, X64Reg dst, X64Reg src);
/* dst = imm, in the shortest encoding */
void x64_mov_ri(X64Buf *b, X64Reg dst, uint64_t imm);
/* dst = zero-extended `size`-byte load from [base + disp] (size 1, 2, 4, 8) */
/* A load of 8 bytes of a frame slot that a register mirrors (X64Buf) is
 * `mov dst, src`, or nothing. */
void x64_load(X64Buf *b, unsigned size, X64Reg dst, X64Reg base, int32_t disp);
/* [base + disp] = low `size` bytes of src */
void x64_store(X64Buf *b, unsigned size, X64Reg base, int32_t disp, X64Reg src);
/* dst = base + disp */
void x64_lea(X64Buf *b, X64Reg dst, X64Reg base, int32_t disp);
/* The frame slot [rbp + *disp] register r mirrors (X64Buf); false: none. */
bool x64_mirror_of(const X64Buf *b, X64Reg r, int32_t *disp);
/* A register that mirrors the frame slot [rbp + disp]; X64_ABS: none. */
X64Reg x64_holder(const X64Buf *b, int32_t disp);
/* The base of a memory operand at address `addr`: X64_ABS with *disp =
 * addr when the address fits a displacement (no instruction), else
 * `scratch` loaded with addr and *disp = 0. */
X64Reg x64_base_of(X64Buf *b, uint64_t addr, X64Reg scratch, int32_t *disp);
/* dst = base + (index << shift), shift 0..3; index is not rsp */
void x64_lea_scaled(X64Buf *b, X64Reg dst, X64Reg base, X64Reg index, unsigned shift);
/* dst op= src (64 bits); X64_CMP only sets the flags */
void x64_alu_rr(X64Buf *b, X64Alu op, X64Reg dst, X64Reg src);
/* dst op= imm (sign-extended 32-bit immediate, 64-bit operation) */
void x64_alu_ri(X64Buf *b, X64Alu op, X64Reg dst, int32_t imm);
/* dst op= [base + disp] (64-bit; a mirrored frame slot's register instead) */
void x64_alu_rm(X64Buf *b, X64Alu op, X64Reg dst, X64Reg base, int32_t disp);
/* [base + disp] op= imm (64 bits, sign-extended 32-bit immediate; a compare
 * of a mirrored frame slot compares its register) */
void x64_alu_mi(X64Buf *b, X64Alu op, X64Reg base, int32_t disp, int32_t imm);
/* qword [base + disp] = imm, sign-extended */
void x64_mov_mi(X64Buf *b, X64Reg base, int32_t disp, int32_t imm);
/* 32-bit cmp of dst with imm */
void x64_cmp32_ri(X64Buf *b, X64Reg dst, int32_t imm);
/* dst *= src (64 bits) */
void x64_imul_rr(X64Buf *b, X64Reg dst, X64Reg src);
/* dst = src * imm (the low 64 bits; imm sign-extended) */
void x64_imul_rri(X64Buf *b, X64Reg dst, X64Reg src, int32_t imm);
/* dst <<= imm (64 bits; imm < 64) */
void x64_shl_ri(X64Buf *b, X64Reg dst, uint8_t imm);
/* dst >>= imm, logical (shr) and arithmetic (sar) (64 bits; imm < 64) */
void x64_shr_ri(X64Buf *b, X64Reg dst, uint8_t imm);
void x64_sar_ri(X64Buf *b, X64Reg dst, uint8_t imm);
/* flags of dst & src (64 bits) */
void x64_test_rr(X64Buf *b, X64Reg dst, X64Reg src);
/* dst = zero-extension of its low `size` bytes (size 1, 2, 4) */
void x64_zext(X64Buf *b, X64Reg dst, unsigned size);
/* dst = sign-extension of its low `size` bytes (size 1, 2, 4) */
void x64_sext(X64Buf *b, X64Reg dst, unsigned size);
/* dst = -dst */
void x64_neg(X64Buf *b, X64Reg dst);
/* rdx = the sign of rax (cqo), then rax, rdx = rdx:rax / src, remainder
 * (idiv, signed, 64-bit; traps on 0 and on INT64_MIN / -1) */
void x64_cqo(X64Buf *b);
void x64_idiv(X64Buf *b, X64Reg src);
/* div r32: edx:eax by src's low half, unsigned; quotient eax, remainder edx */
void x64_div32(X64Buf *b, X64Reg src);
/* rdx:rax = rax * src, signed (the 128-bit product) */
void x64_imul_wide(X64Buf *b, X64Reg src);
/* dst = cond ? 1 : 0 (the whole register) */
void x64_setcc(X64Buf *b, X64Cond cond, X64Reg dst);
/* if cond: dst = src (64 bits) */
void x64_cmov(X64Buf *b, X64Cond cond, X64Reg dst, X64Reg src);
void x64_jmp(X64Buf *b, uint32_t label);
void x64_jcc(X64Buf *b, X64Cond cond, uint32_t label);
/* call the function at `fn` (through rax, which it clobbers) */
void x64_call_abs(X64Buf *b, const void *fn);
/* call the function whose address is in `r` */
void x64_call_reg(X64Buf *b, X64Reg r);
void x64_push(X64Buf *b, X64Reg r);
void x64_pop(X64Buf *b, X64Reg r);
void x64_ret(X64Buf *b);
/* rep stosb: zeroes rcx bytes at rdi (with al = 0) */
void x64_rep_stosb(X64Buf *b);

/* A 5-byte NOP, one instruction: the place of a `jmp rel32` patched in
 * and out while the code runs (runtime's tier-up looks, patch.c) */
#define X64_PATCH_LEN 5
extern const uint8_t x64_patch_nop[X64_PATCH_LEN];
void x64_nop_patchable(X64Buf *b);

#endif
