/* The disassembler. Listing layout (documented in docs/bytecode-format.md):
 *
 *   ; constant pool: 1 class, 1 string
 *   ; class 0: attrs value  methods run=L_0005
 *   ; string 0: "value"
 *   ; code (6 bytes)
 *   0000  1c 00     NEW value,run=L_0005  ; class 0
 *   0002  1d 00     GETATTR value         ; string 0
 *   0004  21        PRINT
 *   L_0005:
 *   0005  15        RETURN
 *
 * The instruction column (mnemonic and operands) is written in the assembly
 * syntax, with labels named after their pc, so that it can be fed back to the
 * assembler. Programs are expected to be verified, but the code is decoded
 * defensively (bounds-checked) so that an unverified one cannot crash it. */
#include "dis.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "opcodes.h"

#define BYTES_WIDTH 8 /* "1f 01 01": the longest instruction is 3 bytes */
#define TEXT_WIDTH 22 /* the instruction column before the ';' comment */

typedef struct Dis {
    const TlcProgram *prog;
    FILE *out;
    int pc_width;    /* hex digits of pcs and labels: 4, more for long code */
    uint8_t *target; /* code_len + 1 flags: pc needs a label */
    bool out_of_memory;
} Dis;

/* Hex digits needed for every pc up to code_len, at least 4. */
static int pc_width_for(uint32_t code_len)
{
    int w = 4;
    while (w < 8 && (code_len >> (4 * w)) != 0)
        w++;
    return w;
}

/* The target of the branch at `pc` (operand at pc + 1), as a signed 64-bit
 * value so that out-of-range targets can be recognised without overflow. */
static int64_t branch_target(const TlcProgram *prog, uint32_t pc)
{
    return (int64_t)pc + 2 + (int8_t)prog->code[pc + 1];
}

static bool in_code(const TlcProgram *prog, int64_t target)
{
    return target >= 0 && target <= (int64_t)prog->code_len;
}

/* Byte count of the instruction at pc, or 0 when its opcode is unknown. */
static uint32_t insn_size(const TlcProgram *prog, uint32_t pc)
{
    const TlcOpInfo *info = tlc_op_info(prog->code[pc]);
    return info ? 1u + info->operand_bytes : 0;
}

/* Flags every pc that gets a label: static branch and CALL targets and
 * method entry points (code_len included, for jumps to the end). */
static bool mark_targets(Dis *d)
{
    const TlcProgram *prog = d->prog;
    d->target = calloc((size_t)prog->code_len + 1, 1);
    if (!d->target)
        return false;
    for (uint32_t pc = 0; pc < prog->code_len;) {
        uint32_t size = insn_size(prog, pc);
        if (size == 0 || size > prog->code_len - pc)
            break;
        if (tlc_op_info(prog->code[pc])->operand == TLC_OPND_LABEL) {
            int64_t t = branch_target(prog, pc);
            if (in_code(prog, t))
                d->target[t] = 1;
        }
        pc += size;
    }
    for (uint32_t c = 0; c < prog->nclasses; c++) {
        const TlcClassDesc *cls = &prog->classes[c];
        for (uint32_t i = 0; i < cls->nmethods; i++)
            if (cls->methods[i].pc <= prog->code_len)
                d->target[cls->methods[i].pc] = 1;
    }
    return true;
}

/* Appends formatted text to a small fixed buffer (a mnemonic with one name,
 * a note), truncating rather than overflowing; buffers are sized so that
 * truncation does not happen for any program. */
static void append(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
}

static const char *name_or(const char *name)
{
    return name ? name : "?";
}

/* snprintf at `pos` of a `size`-byte buffer; returns the new end, clamped so
 * that a too-small buffer truncates instead of running past its end. */
static size_t put_at(char *buf, size_t size, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static size_t put_at(char *buf, size_t size, size_t pos, const char *fmt, ...)
{
    if (pos + 1 >= size)
        return pos;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + pos, size - pos, fmt, ap);
    va_end(ap);
    if (n < 0)
        return pos;
    return (size_t)n < size - pos ? pos + (size_t)n : size - 1;
}

/* The assembly form of class `c`: "attr,attr,method=L_pc", or "-" for a
 * class without members. Allocated (NULL when out of memory), since a class
 * may hold 510 names of 255 chars; built in one linear pass. */
static char *class_text(const Dis *d, uint32_t c)
{
    const TlcClassDesc *cls = &d->prog->classes[c];
    size_t size = 2;
    for (uint32_t i = 0; i < cls->nattrs; i++)
        size += strlen(name_or(cls->attrs[i])) + 1;
    for (uint32_t i = 0; i < cls->nmethods; i++)
        size += strlen(name_or(cls->methods[i].name)) + sizeof ",=L_ffffffff";
    char *buf = malloc(size);
    if (!buf)
        return NULL;
    buf[0] = '\0';
    size_t pos = 0;
    if (cls->nattrs == 0 && cls->nmethods == 0)
        pos = put_at(buf, size, pos, "-");
    for (uint32_t i = 0; i < cls->nattrs; i++)
        pos = put_at(buf, size, pos, "%s%s", i ? "," : "", name_or(cls->attrs[i]));
    for (uint32_t i = 0; i < cls->nmethods; i++)
        pos = put_at(buf, size, pos, "%s%s=L_%0*" PRIx32, (i || cls->nattrs) ? "," : "",
                     name_or(cls->methods[i].name), d->pc_width, cls->methods[i].pc);
    return buf;
}

/* Prints a pool string as a C-like quoted literal (escaping anything
 * unprintable, which a verified program never has). */
static void print_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)name_or(s); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p >= 0x20 && *p < 0x7f) /* ASCII only, whatever the locale */
            fputc(*p, out);
        else
            fprintf(out, "\\x%02x", *p);
    }
    fputc('"', out);
}

/* Prints one class of the pool comment: attributes, then methods with the
 * labels of their entry points. */
static void print_class(const Dis *d, uint32_t c)
{
    const TlcClassDesc *cls = &d->prog->classes[c];
    fprintf(d->out, "; class %" PRIu32 ": attrs ", c);
    if (cls->nattrs == 0)
        fputs("(none)", d->out);
    for (uint32_t i = 0; i < cls->nattrs; i++)
        fprintf(d->out, "%s%s", i ? "," : "", name_or(cls->attrs[i]));
    fputs("  methods ", d->out);
    if (cls->nmethods == 0)
        fputs("(none)", d->out);
    for (uint32_t i = 0; i < cls->nmethods; i++)
        fprintf(d->out, "%s%s=L_%0*" PRIx32, i ? "," : "", name_or(cls->methods[i].name),
                d->pc_width, cls->methods[i].pc);
    fputc('\n', d->out);
}

static void print_pool(const Dis *d)
{
    const TlcProgram *prog = d->prog;
    fprintf(d->out, "; constant pool: %" PRIu32 " class%s, %" PRIu32 " string%s\n", prog->nclasses,
            prog->nclasses == 1 ? "" : "es", prog->nstrings, prog->nstrings == 1 ? "" : "s");
    for (uint32_t c = 0; c < prog->nclasses; c++)
        print_class(d, c);
    for (uint32_t i = 0; i < prog->nstrings; i++) {
        fprintf(d->out, "; string %" PRIu32 ": ", i);
        print_quoted(d->out, prog->strings[i]);
        fputc('\n', d->out);
    }
}

static const char *pool_string(const TlcProgram *prog, uint8_t index)
{
    return index < prog->nstrings ? name_or(prog->strings[index]) : "?";
}

/* Formats the operand of the (complete) instruction at pc into `text` (after
 * the mnemonic) and the remark for the ';' column into `note`. Returns a
 * malloc'd descriptor for NEW that the caller prints instead of `text`'s
 * operand, since descriptors can be far longer than the fixed buffers. */
static char *format_operand(Dis *d, uint32_t pc, char *text, size_t tsize, char *note, size_t nsize)
{
    const TlcProgram *prog = d->prog;
    const TlcOpInfo *info = tlc_op_info(prog->code[pc]);
    uint8_t a = info->operand_bytes ? prog->code[pc + 1] : 0;
    int64_t t;
    switch (info->operand) {
    case TLC_OPND_NONE:
        break;
    case TLC_OPND_INT:
    case TLC_OPND_DEPTH:
        append(text, tsize, " %d", (int)(int8_t)a);
        break;
    case TLC_OPND_LABEL:
        t = branch_target(prog, pc);
        if (!in_code(prog, t)) {
            append(text, tsize, " %+d", (int)(int8_t)a);
            append(note, nsize, "-> %" PRId64 " (outside the code)", t);
        } else {
            append(text, tsize, " L_%0*" PRIx64, d->pc_width, (uint64_t)t);
            if (t == (int64_t)prog->code_len)
                append(note, nsize, "-> end");
            else
                append(note, nsize, "-> %0*" PRIx64, d->pc_width, (uint64_t)t);
        }
        break;
    case TLC_OPND_CLASS:
        append(note, nsize, "class %u", (unsigned)a);
        if (a < prog->nclasses) {
            char *desc = class_text(d, a);
            d->out_of_memory |= desc == NULL;
            return desc;
        }
        append(text, tsize, " ?");
        break;
    case TLC_OPND_STRING:
        append(text, tsize, " %s", pool_string(prog, a));
        append(note, nsize, "string %u", (unsigned)a);
        break;
    case TLC_OPND_SEND:
        append(text, tsize, " %s/%u", pool_string(prog, a), (unsigned)prog->code[pc + 2]);
        append(note, nsize, "string %u", (unsigned)a);
        break;
    }
    return NULL;
}

/* Prints the pc and raw-bytes columns for `n` bytes at pc. */
static void print_bytes(const Dis *d, uint32_t pc, uint32_t n)
{
    char bytes[BYTES_WIDTH + 4] = "";
    for (uint32_t i = 0; i < n && i < 3; i++)
        append(bytes, sizeof bytes, "%s%02x", i ? " " : "", d->prog->code[pc + i]);
    fprintf(d->out, "%0*" PRIx32 "  %-*s  ", d->pc_width, pc, BYTES_WIDTH, bytes);
}

/* Prints the instruction column padded to TEXT_WIDTH, then the note. */
static void print_text(const Dis *d, const char *text, const char *extra, const char *note)
{
    int len = fprintf(d->out, "%s%s%s", text, extra ? " " : "", extra ? extra : "");
    if (note[0])
        fprintf(d->out, "%*s; %s", len < TEXT_WIDTH ? TEXT_WIDTH - len : 1, "", note);
    fputc('\n', d->out);
}

/* Prints the instruction at pc and returns its size; a byte that is no
 * opcode, or an instruction cut off by the end, is printed alone (size 1 or
 * the rest of the code) so the listing always terminates. */
static uint32_t print_insn(Dis *d, uint32_t pc)
{
    const TlcProgram *prog = d->prog;
    uint32_t size = insn_size(prog, pc);
    char text[TLC_MAX_NAME_LEN + 32] = "";
    char note[64] = "";
    if (size == 0) {
        print_bytes(d, pc, 1);
        snprintf(text, sizeof text, ".byte 0x%02x", prog->code[pc]);
        print_text(d, text, NULL, "unknown opcode");
        return 1;
    }
    const char *name = tlc_op_info(prog->code[pc])->name;
    if (size > prog->code_len - pc) {
        size = prog->code_len - pc;
        print_bytes(d, pc, size);
        print_text(d, name, NULL, "operand cut off by the end of the code");
        return size;
    }
    print_bytes(d, pc, size);
    append(text, sizeof text, "%s", name);
    char *desc = format_operand(d, pc, text, sizeof text, note, sizeof note);
    print_text(d, text, desc, note);
    free(desc);
    return size;
}

static void print_label(const Dis *d, uint32_t pc)
{
    fprintf(d->out, "L_%0*" PRIx32 ":\n", d->pc_width, pc);
}

static void print_code(Dis *d)
{
    const TlcProgram *prog = d->prog;
    fprintf(d->out, "; code (%" PRIu32 " byte%s)\n", prog->code_len,
            prog->code_len == 1 ? "" : "s");
    for (uint32_t pc = 0; pc < prog->code_len;) {
        if (d->target[pc])
            print_label(d, pc);
        pc += print_insn(d, pc);
    }
    if (d->target[prog->code_len]) {
        /* the ';' lines up with the notes: label "L_" pc ":" is 3 + pc_width wide */
        fprintf(d->out, "L_%0*" PRIx32 ":%*s; end of code\n", d->pc_width, prog->code_len,
                2 + BYTES_WIDTH + 2 + TEXT_WIDTH - 3, "");
    }
}

bool tlc_disassemble(const TlcProgram *prog, FILE *out)
{
    if (!prog || !out || (prog->code_len && !prog->code) || (prog->nstrings && !prog->strings) ||
        (prog->nclasses && !prog->classes))
        return false;
    Dis d = {prog, out, pc_width_for(prog->code_len), NULL, false};
    if (!mark_targets(&d))
        return false;
    print_pool(&d);
    print_code(&d);
    free(d.target);
    return !d.out_of_memory && !ferror(out);
}
