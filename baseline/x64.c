/* The x86-64 encoder (x64.h). Encodings from the Intel SDM, volume 2:
 * REX = 0100WRXB, ModRM = mod:2 reg:3 rm:3; rm = 100 (rsp, r12) needs a SIB
 * byte, and mod = 00 with rm = 101 (rbp, r13) means rip-relative, so memory
 * operands here always carry a displacement (disp8 or disp32). */
#include "x64.h"

#include <stdlib.h>
#include <string.h>

void x64_init(X64Buf *b)
{
    memset(b, 0, sizeof *b);
}

void x64_free(X64Buf *b)
{
    free(b->code);
    free(b->labels);
    free(b->fixups);
    memset(b, 0, sizeof *b);
}

/* Grows an array of `size`-byte items to hold `need`; false: no memory. */
static bool grow(void **items, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap * 2 : 256;
    while (n < need)
        n *= 2;
    void *p = realloc(*items, n * size);
    if (!p)
        return false;
    *items = p;
    *cap = n;
    return true;
}

void x64_byte(X64Buf *b, uint8_t v)
{
    if (b->oom || !grow((void **)&b->code, &b->cap, b->len + 1, 1)) {
        b->oom = true;
        return;
    }
    b->code[b->len++] = v;
}

void x64_u32(X64Buf *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        x64_byte(b, (uint8_t)(v >> (8 * i)));
}

static void u64(X64Buf *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        x64_byte(b, (uint8_t)(v >> (8 * i)));
}

/* ---- frame slots mirrored in registers (X64Buf.mirrors) ---- */

/* r was written: it mirrors nothing (rbp: no slot is where it was). */
static void wrote(X64Buf *b, X64Reg r)
{
    if (r == X64_RBP)
        b->mirrors = 0;
    else if (r < 16)
        b->mirrors &= ~(UINT32_C(1) << r);
}

/* Memory at [rbp + disp, + size) was written: no register mirrors a slot
 * overlapping it. */
static void wrote_frame(X64Buf *b, int32_t disp, unsigned size)
{
    for (uint32_t m = b->mirrors; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctz(m);
        if ((int64_t)b->mirror[r] < (int64_t)disp + size &&
            (int64_t)disp < (int64_t)b->mirror[r] + 8)
            b->mirrors &= ~(UINT32_C(1) << r);
    }
}

static void mirror(X64Buf *b, X64Reg r, int32_t disp)
{
    if (r < 16) {
        b->mirror[r] = disp;
        b->mirrors |= UINT32_C(1) << r;
    }
}

/* A register that mirrors the frame slot [rbp + disp], or X64_ABS. */
static X64Reg mirrored(const X64Buf *b, X64Reg base, int32_t disp)
{
    if (base != X64_RBP)
        return X64_ABS;
    for (uint32_t m = b->mirrors; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctz(m);
        if (b->mirror[r] == disp)
            return (X64Reg)r;
    }
    return X64_ABS;
}

X64Reg x64_holder(const X64Buf *b, int32_t disp)
{
    return mirrored(b, X64_RBP, disp);
}

bool x64_mirror_of(const X64Buf *b, X64Reg r, int32_t *disp)
{
    if (r >= 16 || !(b->mirrors >> r & 1))
        return false;
    *disp = b->mirror[r];
    return true;
}

uint32_t x64_label(X64Buf *b)
{
    size_t cap = b->labels_cap;
    if (b->oom || !grow((void **)&b->labels, &cap, (size_t)b->nlabels + 1, sizeof *b->labels)) {
        b->oom = true;
        return 0;
    }
    b->labels_cap = (uint32_t)cap;
    b->labels[b->nlabels] = UINT32_MAX;
    return b->nlabels++;
}

/* Whether the code ends with a jmp to `label` (a rel32 fixup ending the
 * code whose opcode byte is e9: a jcc has 0f 8x there). */
static bool ends_with_jmp_to(const X64Buf *b, uint32_t label)
{
    if (!b->nfixups || b->len < 5)
        return false;
    const X64Fixup *f = &b->fixups[b->nfixups - 1];
    return f->at + 4 == b->len && f->label == label && b->code[b->len - 5] == 0xe9;
}

bool x64_placed(const X64Buf *b, uint32_t label)
{
    return !b->oom && b->labels[label] != UINT32_MAX;
}

void x64_place(X64Buf *b, uint32_t label)
{
    if (b->oom)
        return;
    while (ends_with_jmp_to(b, label)) {
        for (uint32_t i = 0; i < b->nlabels; i++)
            if (b->labels[i] == b->len)
                b->labels[i] = (uint32_t)(b->len - 5);
        b->len -= 5;
        b->nfixups--;
    }
    b->labels[label] = (uint32_t)b->len;
    b->mirrors = 0; /* code may come here from elsewhere */
}

/* A rel32 field for `label`, patched by x64_resolve. */
static void rel32(X64Buf *b, uint32_t label)
{
    size_t cap = b->fixups_cap;
    if (b->oom || !grow((void **)&b->fixups, &cap, (size_t)b->nfixups + 1, sizeof *b->fixups)) {
        b->oom = true;
        return;
    }
    b->fixups_cap = (uint32_t)cap;
    b->fixups[b->nfixups++] = (X64Fixup){.at = (uint32_t)b->len, .label = label};
    x64_u32(b, 0);
}

bool x64_resolve(X64Buf *b)
{
    if (b->oom)
        return false;
    for (uint32_t i = 0; i < b->nfixups; i++) {
        uint32_t target = b->labels[b->fixups[i].label];
        if (target == UINT32_MAX)
            return false;
        uint32_t at = b->fixups[i].at;
        uint32_t rel = target - (at + 4); /* two's complement: backward is negative */
        for (int k = 0; k < 4; k++)
            b->code[at + k] = (uint8_t)(rel >> (8 * k));
    }
    return true;
}

/* REX with W, and the high bits of the reg and rm fields; `force` emits it
 * even when it is 0x40 (byte registers spl, bpl, sil, dil). */
static void rex(X64Buf *b, bool w, unsigned reg, unsigned rm, bool force)
{
    uint8_t v = (uint8_t)(0x40 | (w ? 8 : 0) | ((reg >> 3) & 1) << 2 | ((rm >> 3) & 1));
    if (v != 0x40 || force)
        x64_byte(b, v);
}

static void modrm_rr(X64Buf *b, unsigned reg, unsigned rm)
{
    x64_byte(b, (uint8_t)(0xc0 | (reg & 7) << 3 | (rm & 7)));
}

/* ModRM (+ SIB) + displacement for [base + disp]. */
static void modrm_mem(X64Buf *b, unsigned reg, unsigned base, int32_t disp)
{
    if (base == X64_ABS) { /* mod 00, SIB without index or base: [disp32] */
        x64_byte(b, (uint8_t)((reg & 7) << 3 | 4));
        x64_byte(b, 0x25);
        x64_u32(b, (uint32_t)disp);
        return;
    }
    bool short_disp = disp >= -128 && disp <= 127;
    x64_byte(b, (uint8_t)((short_disp ? 0x40 : 0x80) | (reg & 7) << 3 | (base & 7)));
    if ((base & 7) == 4)
        x64_byte(b, 0x24); /* SIB: no index, base */
    if (short_disp)
        x64_byte(b, (uint8_t)disp);
    else
        x64_u32(b, (uint32_t)disp);
}

void x64_mov_rr(X64Buf *b, X64Reg dst, X64Reg src)
{
    rex(b, true, src, dst, false);
    x64_byte(b, 0x89);
    modrm_rr(b, src, dst);
    int32_t disp;
    bool same = x64_mirror_of(b, src, &disp);
    wrote(b, dst);
    if (same)
        mirror(b, dst, disp);
}

void x64_mov_ri(X64Buf *b, X64Reg dst, uint64_t imm)
{
    wrote(b, dst);
    if (imm <= UINT32_MAX) { /* mov r32, imm32 zero-extends */
        rex(b, false, 0, dst, false);
        x64_byte(b, (uint8_t)(0xb8 | (dst & 7)));
        x64_u32(b, (uint32_t)imm);
    } else if (imm >= (uint64_t)INT32_MIN) { /* negative: mov r/m64, imm32 sign-extends */
        rex(b, true, 0, dst, false);
        x64_byte(b, 0xc7);
        modrm_rr(b, 0, dst);
        x64_u32(b, (uint32_t)imm);
    } else {
        rex(b, true, 0, dst, false);
        x64_byte(b, (uint8_t)(0xb8 | (dst & 7)));
        u64(b, imm);
    }
}

void x64_load(X64Buf *b, unsigned size, X64Reg dst, X64Reg base, int32_t disp)
{
    X64Reg held = size == 8 ? mirrored(b, base, disp) : X64_ABS;
    if (held != X64_ABS) {
        if (dst != held)
            x64_mov_rr(b, dst, held);
        return;
    }
    switch (size) {
    case 1:
    case 2: /* movzx r32, m8 / m16 */
        rex(b, false, dst, base, false);
        x64_byte(b, 0x0f);
        x64_byte(b, size == 1 ? 0xb6 : 0xb7);
        break;
    case 4:
        rex(b, false, dst, base, false);
        x64_byte(b, 0x8b);
        break;
    default:
        rex(b, true, dst, base, false);
        x64_byte(b, 0x8b);
        break;
    }
    modrm_mem(b, dst, base, disp);
    wrote(b, dst);
    if (size == 8 && base == X64_RBP)
        mirror(b, dst, disp);
}

void x64_store(X64Buf *b, unsigned size, X64Reg base, int32_t disp, X64Reg src)
{
    switch (size) {
    case 1:
        rex(b, false, src, base, src >= X64_RSP);
        x64_byte(b, 0x88);
        break;
    case 2:
        x64_byte(b, 0x66);
        rex(b, false, src, base, false);
        x64_byte(b, 0x89);
        break;
    case 4:
        rex(b, false, src, base, false);
        x64_byte(b, 0x89);
        break;
    default:
        rex(b, true, src, base, false);
        x64_byte(b, 0x89);
        break;
    }
    modrm_mem(b, src, base, disp);
    if (base == X64_RBP) {
        wrote_frame(b, disp, size);
        if (size == 8)
            mirror(b, src, disp);
    }
}

void x64_lea(X64Buf *b, X64Reg dst, X64Reg base, int32_t disp)
{
    rex(b, true, dst, base, false);
    x64_byte(b, 0x8d);
    modrm_mem(b, dst, base, disp);
    wrote(b, dst);
}

X64Reg x64_base_of(X64Buf *b, uint64_t addr, X64Reg scratch, int32_t *disp)
{
    if (addr <= INT32_MAX) {
        *disp = (int32_t)addr;
        return X64_ABS;
    }
    x64_mov_ri(b, scratch, addr);
    *disp = 0;
    return scratch;
}

void x64_lea_scaled(X64Buf *b, X64Reg dst, X64Reg base, X64Reg index, unsigned shift)
{
    x64_byte(b,
             (uint8_t)(0x48 | ((dst >> 3) & 1) << 2 | ((index >> 3) & 1) << 1 | ((base >> 3) & 1)));
    x64_byte(b, 0x8d);
    bool disp8 = (base & 7) == 5; /* rbp, r13: mod 00 would mean no base */
    x64_byte(b, (uint8_t)((disp8 ? 0x40 : 0x00) | (dst & 7) << 3 | 4));
    x64_byte(b, (uint8_t)((shift & 3) << 6 | (index & 7) << 3 | (base & 7)));
    if (disp8)
        x64_byte(b, 0);
    wrote(b, dst);
}

void x64_alu_rr(X64Buf *b, X64Alu op, X64Reg dst, X64Reg src)
{
    rex(b, true, src, dst, false);
    x64_byte(b, (uint8_t)(op << 3 | 1)); /* op r/m64, r64 */
    modrm_rr(b, src, dst);
    if (op != X64_CMP)
        wrote(b, dst);
}

void x64_alu_rm(X64Buf *b, X64Alu op, X64Reg dst, X64Reg base, int32_t disp)
{
    X64Reg held = mirrored(b, base, disp);
    if (held != X64_ABS) {
        x64_alu_rr(b, op, dst, held);
        return;
    }
    rex(b, true, dst, base, false);
    x64_byte(b, (uint8_t)(op << 3 | 3)); /* op r64, r/m64 */
    modrm_mem(b, dst, base, disp);
    if (op != X64_CMP)
        wrote(b, dst);
}

void x64_alu_ri(X64Buf *b, X64Alu op, X64Reg dst, int32_t imm)
{
    if (op != X64_CMP)
        wrote(b, dst);
    rex(b, true, 0, dst, false);
    if (imm >= -128 && imm <= 127) {
        x64_byte(b, 0x83);
        modrm_rr(b, op, dst);
        x64_byte(b, (uint8_t)imm);
    } else {
        x64_byte(b, 0x81);
        modrm_rr(b, op, dst);
        x64_u32(b, (uint32_t)imm);
    }
}

void x64_alu_mi(X64Buf *b, X64Alu op, X64Reg base, int32_t disp, int32_t imm)
{
    X64Reg held = op == X64_CMP ? mirrored(b, base, disp) : X64_ABS;
    if (held != X64_ABS) {
        x64_alu_ri(b, X64_CMP, held, imm);
        return;
    }
    if (base == X64_RBP && op != X64_CMP)
        wrote_frame(b, disp, 8);
    rex(b, true, 0, base, false);
    bool short_imm = imm >= -128 && imm <= 127;
    x64_byte(b, short_imm ? 0x83 : 0x81);
    modrm_mem(b, op, base, disp);
    if (short_imm)
        x64_byte(b, (uint8_t)imm);
    else
        x64_u32(b, (uint32_t)imm);
}

void x64_mov_mi(X64Buf *b, X64Reg base, int32_t disp, int32_t imm)
{
    if (base == X64_RBP)
        wrote_frame(b, disp, 8);
    rex(b, true, 0, base, false);
    x64_byte(b, 0xc7);
    modrm_mem(b, 0, base, disp);
    x64_u32(b, (uint32_t)imm);
}

void x64_cmp32_ri(X64Buf *b, X64Reg dst, int32_t imm)
{
    rex(b, false, 0, dst, false);
    x64_byte(b, 0x81);
    modrm_rr(b, X64_CMP, dst);
    x64_u32(b, (uint32_t)imm);
}

void x64_imul_rr(X64Buf *b, X64Reg dst, X64Reg src)
{
    wrote(b, dst);
    rex(b, true, dst, src, false);
    x64_byte(b, 0x0f);
    x64_byte(b, 0xaf);
    modrm_rr(b, dst, src);
}

void x64_imul_rri(X64Buf *b, X64Reg dst, X64Reg src, int32_t imm)
{
    wrote(b, dst);
    rex(b, true, dst, src, false);
    bool short_imm = imm >= -128 && imm <= 127;
    x64_byte(b, short_imm ? 0x6b : 0x69);
    modrm_rr(b, dst, src);
    if (short_imm)
        x64_byte(b, (uint8_t)imm);
    else
        x64_u32(b, (uint32_t)imm);
}

/* C1 /ext ib: the shifts by an immediate */
static void shift_ri(X64Buf *b, unsigned ext, X64Reg dst, uint8_t imm)
{
    wrote(b, dst);
    rex(b, true, 0, dst, false);
    x64_byte(b, 0xc1);
    modrm_rr(b, ext, dst);
    x64_byte(b, imm);
}

void x64_shl_ri(X64Buf *b, X64Reg dst, uint8_t imm)
{
    shift_ri(b, 4, dst, imm);
}

void x64_shr_ri(X64Buf *b, X64Reg dst, uint8_t imm)
{
    shift_ri(b, 5, dst, imm);
}

void x64_sar_ri(X64Buf *b, X64Reg dst, uint8_t imm)
{
    shift_ri(b, 7, dst, imm);
}

void x64_test_rr(X64Buf *b, X64Reg dst, X64Reg src)
{
    rex(b, true, src, dst, false);
    x64_byte(b, 0x85);
    modrm_rr(b, src, dst);
}

void x64_zext(X64Buf *b, X64Reg dst, unsigned size)
{
    wrote(b, dst);
    if (size == 4) { /* mov r32, r32 clears the upper half */
        rex(b, false, dst, dst, false);
        x64_byte(b, 0x8b);
        modrm_rr(b, dst, dst);
        return;
    }
    rex(b, false, dst, dst, size == 1 && dst >= X64_RSP);
    x64_byte(b, 0x0f);
    x64_byte(b, size == 1 ? 0xb6 : 0xb7);
    modrm_rr(b, dst, dst);
}

void x64_sext(X64Buf *b, X64Reg dst, unsigned size)
{
    wrote(b, dst);
    rex(b, true, dst, dst, false);
    if (size == 4) {
        x64_byte(b, 0x63); /* movsxd r64, r/m32 */
    } else {
        x64_byte(b, 0x0f);
        x64_byte(b, size == 1 ? 0xbe : 0xbf);
    }
    modrm_rr(b, dst, dst);
}

void x64_neg(X64Buf *b, X64Reg dst)
{
    wrote(b, dst);
    rex(b, true, 0, dst, false);
    x64_byte(b, 0xf7);
    modrm_rr(b, 3, dst);
}

void x64_cqo(X64Buf *b)
{
    wrote(b, X64_RDX);
    x64_byte(b, 0x48);
    x64_byte(b, 0x99);
}

void x64_idiv(X64Buf *b, X64Reg src)
{
    wrote(b, X64_RAX);
    wrote(b, X64_RDX);
    rex(b, true, 0, src, false);
    x64_byte(b, 0xf7);
    modrm_rr(b, 7, src);
}

void x64_div32(X64Buf *b, X64Reg src)
{
    wrote(b, X64_RAX);
    wrote(b, X64_RDX);
    rex(b, false, 0, src, false);
    x64_byte(b, 0xf7);
    modrm_rr(b, 6, src);
}

void x64_imul_wide(X64Buf *b, X64Reg src)
{
    wrote(b, X64_RAX);
    wrote(b, X64_RDX);
    rex(b, true, 0, src, false);
    x64_byte(b, 0xf7);
    modrm_rr(b, 5, src);
}

void x64_setcc(X64Buf *b, X64Cond cond, X64Reg dst)
{
    wrote(b, dst);
    rex(b, false, 0, dst, dst >= X64_RSP);
    x64_byte(b, 0x0f);
    x64_byte(b, (uint8_t)(0x90 | cond));
    modrm_rr(b, 0, dst);
    x64_zext(b, dst, 1);
}

void x64_cmov(X64Buf *b, X64Cond cond, X64Reg dst, X64Reg src)
{
    wrote(b, dst);
    rex(b, true, dst, src, false);
    x64_byte(b, 0x0f);
    x64_byte(b, (uint8_t)(0x40 | cond));
    modrm_rr(b, dst, src);
}

/* NOPs filling n bytes: 7-byte ones (0f 1f 80 disp32), then one of 4, 3,
 * 2 or 1 bytes; none needs a SIB byte (disasm.c reads them). */
static void write_nops(uint8_t *at, uint32_t n)
{
    static const uint8_t forms[8][7] = {
        {0},
        {0x90},
        {0x66, 0x90},
        {0x0f, 0x1f, 0x00},
        {0x0f, 0x1f, 0x40, 0x00},
        {0x0f, 0x1f, 0x40, 0x00, 0x90},
        {0x0f, 0x1f, 0x40, 0x00, 0x66, 0x90},
        {0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00},
    };
    while (n) {
        uint32_t k = n < 7 ? n : 7;
        memcpy(at, forms[k], k);
        at += k;
        n -= k;
    }
}

/* Called before a jump of `jump_len` bytes back to `label`: when the loop
 * it closes fits in one 64-byte line but starts in one and ends in the
 * next, moves the loop's code to the start of the next line, NOPs before
 * it (run once, falling through into the loop). On AMD Zen 4 a loop split
 * across two lines runs at half speed (bench/ANALYSIS.md); labels and
 * fixups from the loop on move with it (all jumps are label-relative). */
static void align_loop(X64Buf *b, uint32_t label, uint32_t jump_len)
{
    uint32_t start = label < b->nlabels ? b->labels[label] : UINT32_MAX;
    if (b->oom || start == UINT32_MAX)
        return;
    size_t end = b->len + jump_len;
    if (end - start > 64 || start / 64 == (end - 1) / 64)
        return;
    uint32_t pad = 64 - start % 64;
    if (!grow((void **)&b->code, &b->cap, b->len + pad, 1)) {
        b->oom = true;
        return;
    }
    memmove(b->code + start + pad, b->code + start, b->len - start);
    write_nops(b->code + start, pad);
    b->len += pad;
    for (uint32_t i = 0; i < b->nlabels; i++)
        if (b->labels[i] != UINT32_MAX && b->labels[i] >= start)
            b->labels[i] += pad;
    for (uint32_t i = 0; i < b->nfixups; i++)
        if (b->fixups[i].at >= start)
            b->fixups[i].at += pad;
}

void x64_jmp(X64Buf *b, uint32_t label)
{
    align_loop(b, label, 5);
    x64_byte(b, 0xe9);
    rel32(b, label);
}

void x64_jcc(X64Buf *b, X64Cond cond, uint32_t label)
{
    align_loop(b, label, 6);
    x64_byte(b, 0x0f);
    x64_byte(b, (uint8_t)(0x80 | cond));
    rel32(b, label);
}

void x64_call_abs(X64Buf *b, const void *fn)
{
    x64_mov_ri(b, X64_RAX, (uint64_t)(uintptr_t)fn);
    x64_byte(b, 0xff); /* call rax: FF /2 */
    modrm_rr(b, 2, X64_RAX);
    b->mirrors = 0; /* the callee may write any caller-saved register */
}

void x64_call_reg(X64Buf *b, X64Reg r)
{
    rex(b, false, 0, r, false);
    x64_byte(b, 0xff);
    modrm_rr(b, 2, r);
    b->mirrors = 0;
}

void x64_push(X64Buf *b, X64Reg r)
{
    rex(b, false, 0, r, false);
    x64_byte(b, (uint8_t)(0x50 | (r & 7)));
}

void x64_pop(X64Buf *b, X64Reg r)
{
    wrote(b, r);
    rex(b, false, 0, r, false);
    x64_byte(b, (uint8_t)(0x58 | (r & 7)));
}

void x64_ret(X64Buf *b)
{
    x64_byte(b, 0xc3);
}

void x64_rep_stosb(X64Buf *b)
{
    b->mirrors = 0; /* rcx, rdi and the memory at rdi */
    x64_byte(b, 0xf3);
    x64_byte(b, 0xaa);
}

/* nop dword [rax + rax*1 + 0]: one instruction, so that no thread can be
 * stopped in its middle when a jmp rel32 replaces it */
const uint8_t x64_patch_nop[X64_PATCH_LEN] = {0x0f, 0x1f, 0x44, 0x00, 0x00};

void x64_nop_patchable(X64Buf *b)
{
    for (uint32_t i = 0; i < X64_PATCH_LEN; i++)
        x64_byte(b, x64_patch_nop[i]);
}
