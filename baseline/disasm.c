/* The baseline's disassembler (disasm.h): the instruction forms of x64.c,
 * decoded from their prefix (66, F3), REX, opcode and ModRM (+ SIB) bytes. */
#include "disasm.h"

#include <stdbool.h>
#include <string.h>

static const char *const reg64[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                      "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
static const char *const reg32[16] = {"eax", "ecx", "edx",  "ebx",  "esp",  "ebp",  "esi",  "edi",
                                      "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"};
static const char *const reg16[16] = {"ax",  "cx",  "dx",   "bx",   "sp",   "bp",   "si",   "di",
                                      "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"};
static const char *const reg8[16] = {"al",  "cl",  "dl",   "bl",   "spl",  "bpl",  "sil",  "dil",
                                     "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"};
static const char *const reg8_legacy[8] = {"al", "cl", "dl", "bl", "ah", "ch", "dh", "bh"};
static const char *const conds[16] = {"o", "no", "b", "ae", "e", "ne", "be", "a",
                                      "s", "ns", "p", "np", "l", "ge", "le", "g"};
static const char *const alus[8] = {"add", "or", "adc", "sbb", "and", "sub", "xor", "cmp"};

/* What is being decoded. */
typedef struct Dec {
    const uint8_t *code;
    size_t len, at;
    bool rex, w, r, x, b, opsize16, bad;
} Dec;

static uint8_t next(Dec *d)
{
    if (d->at >= d->len) {
        d->bad = true;
        return 0;
    }
    return d->code[d->at++];
}

static uint32_t next32(Dec *d)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)next(d) << (8 * i);
    return v;
}

static const char *reg_name(const Dec *d, unsigned r, unsigned bits)
{
    switch (bits) {
    case 8:
        return d->rex ? reg8[r] : r < 8 ? reg8_legacy[r] : reg8[r];
    case 16:
        return reg16[r];
    case 32:
        return reg32[r];
    default:
        return reg64[r];
    }
}

static const char *size_name(unsigned bits)
{
    return bits == 8 ? "byte" : bits == 16 ? "word" : bits == 32 ? "dword" : "qword";
}

/* A ModRM operand: *reg gets the reg field; the r/m operand is written to
 * `rm` (a register of `bits`, or `size ptr [base + disp]`). */
static void modrm(Dec *d, unsigned bits, unsigned *reg, char *rm, size_t size)
{
    uint8_t m = next(d);
    unsigned mod = m >> 6, base = (m & 7) | (d->b ? 8 : 0);
    *reg = ((m >> 3) & 7) | (d->r ? 8 : 0);
    if (mod == 3) {
        snprintf(rm, size, "%s", reg_name(d, base, bits));
        return;
    }
    char index[16] = "";
    bool sib = (m & 7) == 4;
    if (sib) { /* SIB: a base, and an index (x64.c's lea) or none */
        uint8_t s = next(d);
        base = (s & 7) | (d->b ? 8 : 0);
        unsigned ix = ((s >> 3) & 7) | (d->x ? 8 : 0);
        if (ix != 4)
            snprintf(index, sizeof index, " + %s*%u", reg64[ix], 1u << (s >> 6));
    }
    if (mod == 0 && (base & 7) == 5) { /* no base: an absolute address (x64_base_of) */
        uint32_t at = next32(d);
        if (!sib || index[0]) /* rip-relative, or an index: x64.c never writes them */
            d->bad = true;
        else
            snprintf(rm, size, "%s ptr [0x%x]", size_name(bits), at);
        return;
    }
    int32_t disp = 0;
    if (mod == 1)
        disp = (int8_t)next(d);
    else if (mod == 2)
        disp = (int32_t)next32(d);
    if (disp)
        snprintf(rm, size, "%s ptr [%s%s %c 0x%x]", size_name(bits), reg64[base], index,
                 disp < 0 ? '-' : '+', disp < 0 ? 0u - (uint32_t)disp : (uint32_t)disp);
    else
        snprintf(rm, size, "%s ptr [%s%s]", size_name(bits), reg64[base], index);
}

/* The operand size of an instruction without a byte form: 64 with REX.W,
 * 16 with 66, else 32. */
static unsigned op_bits(const Dec *d)
{
    return d->w ? 64 : d->opsize16 ? 16 : 32;
}

size_t x64_disasm_one(const uint8_t *code, size_t len, uint64_t addr, char *text, size_t size)
{
    Dec d = {.code = code, .len = len};
    char rm[64];
    unsigned reg;
    bool rep = false;
    uint8_t op = next(&d);
    if (op == 0x66) {
        d.opsize16 = true;
        op = next(&d);
    }
    if (op == 0xf3) {
        rep = true;
        op = next(&d);
    }
    if ((op & 0xf0) == 0x40) {
        d.rex = true;
        d.w = op & 8;
        d.r = op & 4;
        d.x = op & 2;
        d.b = op & 1;
        op = next(&d);
    }
    unsigned bits = op_bits(&d);
    if (op == 0x90 && !rep && !d.rex) {
        snprintf(text, size, "nop");
    } else if (op == 0x99 && !rep) {
        snprintf(text, size, d.w ? "cqo" : "cdq");
    } else if (rep && op == 0xaa) {
        snprintf(text, size, "rep stosb");
    } else if (rep) {
        d.bad = true;
    } else if (op == 0x89 || op == 0x88 || op == 0x8b || op == 0x8d || op == 0x85 || op == 0x63 ||
               op == 0x69 || op == 0x6b || (op < 0x40 && ((op & 7) == 1 || (op & 7) == 3))) {
        unsigned b = op == 0x88 ? 8 : op == 0x63 ? 32 : bits;
        modrm(&d, b, &reg, rm, sizeof rm);
        const char *r = reg_name(&d, reg, op == 0x88 ? 8 : bits);
        if (op == 0x89 || op == 0x88)
            snprintf(text, size, "mov %s, %s", rm, r);
        else if (op == 0x8b)
            snprintf(text, size, "mov %s, %s", r, rm);
        else if (op == 0x8d)
            snprintf(text, size, "lea %s, %s", r, rm);
        else if (op == 0x85)
            snprintf(text, size, "test %s, %s", rm, r);
        else if (op == 0x63)
            snprintf(text, size, "movsxd %s, %s", r, rm);
        else if (op == 0x6b || op == 0x69)
            snprintf(text, size, "imul %s, %s, %d", r, rm,
                     op == 0x6b ? (int8_t)next(&d) : (int32_t)next32(&d));
        else if ((op & 7) == 3)
            snprintf(text, size, "%s %s, %s", alus[op >> 3], r, rm);
        else
            snprintf(text, size, "%s %s, %s", alus[op >> 3], rm, r);
    } else if (op >= 0xb8 && op <= 0xbf) {
        unsigned r = (op & 7) | (d.b ? 8 : 0);
        if (d.w) {
            uint64_t lo = next32(&d), hi = next32(&d);
            snprintf(text, size, "movabs %s, 0x%llx", reg64[r],
                     (unsigned long long)(hi << 32 | lo));
        } else {
            snprintf(text, size, "mov %s, 0x%x", reg32[r], next32(&d));
        }
    } else if (op == 0xc7 || op == 0x81 || op == 0x83) {
        modrm(&d, bits, &reg, rm, sizeof rm);
        int32_t imm = op == 0x83 ? (int8_t)next(&d) : (int32_t)next32(&d);
        const char *name = op == 0xc7 ? (reg == 0 ? "mov" : NULL) : alus[reg & 7];
        if (!name)
            d.bad = true;
        else
            snprintf(text, size, "%s %s, %d", name, rm, imm);
    } else if (op == 0xc1) {
        modrm(&d, bits, &reg, rm, sizeof rm);
        uint8_t imm = next(&d);
        static const char *const shifts[8] = {[4] = "shl", [5] = "shr", [7] = "sar"};
        if (shifts[reg & 7])
            snprintf(text, size, "%s %s, %u", shifts[reg & 7], rm, imm);
        else
            d.bad = true;
    } else if (op == 0xf7 || op == 0xff) {
        modrm(&d, op == 0xff ? 64 : bits, &reg, rm, sizeof rm);
        if (op == 0xf7 && (reg & 7) == 3)
            snprintf(text, size, "neg %s", rm);
        else if (op == 0xf7 && (reg & 7) == 5)
            snprintf(text, size, "imul %s", rm);
        else if (op == 0xf7 && (reg & 7) == 6)
            snprintf(text, size, "div %s", rm);
        else if (op == 0xf7 && (reg & 7) == 7)
            snprintf(text, size, "idiv %s", rm);
        else if (op == 0xff && (reg & 7) == 2)
            snprintf(text, size, "call %s", rm);
        else
            d.bad = true;
    } else if (op == 0xe9) {
        int32_t rel = (int32_t)next32(&d);
        snprintf(text, size, "jmp 0x%llx",
                 (unsigned long long)(addr + d.at + (uint64_t)(int64_t)rel));
    } else if ((op & 0xf8) == 0x50 || (op & 0xf8) == 0x58) {
        snprintf(text, size, "%s %s", op < 0x58 ? "push" : "pop", reg64[(op & 7) | (d.b ? 8 : 0)]);
    } else if (op == 0xc3) {
        snprintf(text, size, "ret");
    } else if (op == 0x0f) {
        uint8_t op2 = next(&d);
        if ((op2 & 0xf0) == 0x80) {
            int32_t rel = (int32_t)next32(&d);
            snprintf(text, size, "j%s 0x%llx", conds[op2 & 15],
                     (unsigned long long)(addr + d.at + (uint64_t)(int64_t)rel));
        } else if ((op2 & 0xf0) == 0x90) {
            modrm(&d, 8, &reg, rm, sizeof rm);
            snprintf(text, size, "set%s %s", conds[op2 & 15], rm);
        } else if ((op2 & 0xf0) == 0x40) {
            modrm(&d, bits, &reg, rm, sizeof rm);
            snprintf(text, size, "cmov%s %s, %s", conds[op2 & 15], reg_name(&d, reg, bits), rm);
        } else if (op2 == 0x1f) {
            modrm(&d, bits, &reg, rm, sizeof rm);
            if ((reg & 7) == 0)
                snprintf(text, size, "nop %s", rm);
            else
                d.bad = true;
        } else if (op2 == 0xaf) {
            modrm(&d, bits, &reg, rm, sizeof rm);
            snprintf(text, size, "imul %s, %s", reg_name(&d, reg, bits), rm);
        } else if (op2 == 0xb6 || op2 == 0xb7 || op2 == 0xbe || op2 == 0xbf) {
            modrm(&d, op2 & 1 ? 16 : 8, &reg, rm, sizeof rm);
            snprintf(text, size, "%s %s, %s", op2 < 0xbe ? "movzx" : "movsx",
                     reg_name(&d, reg, bits), rm);
        } else {
            d.bad = true;
        }
    } else {
        d.bad = true;
    }
    if (d.bad) {
        snprintf(text, size, ".byte 0x%02x", code[0]);
        return 1;
    }
    return d.at;
}

void x64_disasm(FILE *out, const uint8_t *code, size_t len, uint64_t addr)
{
    char text[128];
    for (size_t at = 0; at < len;) {
        size_t n = x64_disasm_one(code + at, len - at, addr + at, text, sizeof text);
        fprintf(out, "  %llx:  ", (unsigned long long)(addr + at));
        for (size_t i = 0; i < 12; i++) {
            if (i < n)
                fprintf(out, "%02x ", code[at + i]);
            else
                fputs("   ", out);
        }
        fprintf(out, " %s\n", text);
        at += n;
    }
}
