/* The verifier: checks a TlcProgram from any source (assembler, bytecode
 * reader, hand-built) so that the interpreter and the JIT can trust it.
 * It only reads the program; every count is treated as untrusted except that
 * the arrays are assumed to hold as many elements as their counts say. */
#include "verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opcodes.h"

/* Longest piece of a name quoted in a message, so messages stay readable. */
#define QUOTE_MAX 40

/* Writes one formatted message into `diag` (which may be NULL) and returns
 * false, so that every check can end with `return fail(...)`. */
static bool fail(TlcDiag *diag, const char *fmt, ...)
{
    if (!diag)
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
    return false;
}

/* Renders an untrusted name for a message: printable ASCII as is, anything
 * else as \xNN, cut after QUOTE_MAX bytes. Names may hold any bytes. */
static const char *quote(const char *name, char buf[QUOTE_MAX * 4 + 4])
{
    size_t o = 0;
    size_t i = 0;
    for (; name[i] != '\0' && i < QUOTE_MAX; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
            buf[o++] = (char)c;
        } else {
            snprintf(buf + o, 5, "\\x%02x", c);
            o += 4;
        }
    }
    if (name[i] != '\0') {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}

/* True iff `s` is [A-Za-z_][A-Za-z0-9_]* with 1..TLC_MAX_NAME_LEN chars.
 * Reads at most TLC_MAX_NAME_LEN + 1 bytes of `s`. */
static bool is_identifier(const char *s)
{
    size_t i = 0;
    for (; s[i] != '\0'; i++) {
        unsigned char c = (unsigned char)s[i];
        bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
        bool digit = c >= '0' && c <= '9';
        if (i >= TLC_MAX_NAME_LEN || !(alpha || (digit && i > 0)))
            return false;
    }
    return i > 0;
}

/* Checks a name at pool position "WHAT INDEX" (e.g. "string 3"). */
static bool check_name(const char *name, TlcDiag *diag, const char *what, uint32_t index)
{
    char q[QUOTE_MAX * 4 + 4];
    if (!name)
        return fail(diag, "%s %u: missing name", what, index);
    if (!is_identifier(name))
        return fail(diag, "%s %u: name '%s' is not an identifier (1..%d characters)", what, index,
                    quote(name, q), TLC_MAX_NAME_LEN);
    return true;
}

static bool check_strings(const TlcProgram *prog, TlcDiag *diag)
{
    if (prog->nstrings > TLC_MAX_STRINGS)
        return fail(diag, "too many strings (%u, max %d)", prog->nstrings, TLC_MAX_STRINGS);
    if (prog->nstrings > 0 && !prog->strings)
        return fail(diag, "string table missing (%u strings)", prog->nstrings);
    for (uint32_t i = 0; i < prog->nstrings; i++)
        if (!check_name(prog->strings[i], diag, "string", i))
            return false;
    return true;
}

/* Checks the attribute names of class `k`: identifiers, no duplicates.
 * Names are validated first so that the quadratic duplicate scan compares
 * short strings only (at most 255 names of at most 255 chars). */
static bool check_attrs(const TlcClassDesc *d, uint32_t k, TlcDiag *diag)
{
    if (d->nattrs > TLC_MAX_CLASS_MEMBERS)
        return fail(diag, "class %u: too many attributes (%u, max %d)", k, d->nattrs,
                    TLC_MAX_CLASS_MEMBERS);
    if (d->nattrs > 0 && !d->attrs)
        return fail(diag, "class %u: attribute table missing", k);
    for (uint32_t i = 0; i < d->nattrs; i++) {
        const char *name = d->attrs[i];
        if (!name || !is_identifier(name)) {
            char q[QUOTE_MAX * 4 + 4];
            return fail(diag, "class %u: attribute %u name '%s' is not an identifier", k, i,
                        name ? quote(name, q) : "");
        }
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(d->attrs[j], name) == 0)
                return fail(diag, "class %u: duplicate attribute '%s'", k, name);
    }
    return true;
}

/* Like check_attrs, for method names (entry points are checked later, once
 * the instruction starts are known). */
static bool check_method_names(const TlcClassDesc *d, uint32_t k, TlcDiag *diag)
{
    if (d->nmethods > TLC_MAX_CLASS_MEMBERS)
        return fail(diag, "class %u: too many methods (%u, max %d)", k, d->nmethods,
                    TLC_MAX_CLASS_MEMBERS);
    if (d->nmethods > 0 && !d->methods)
        return fail(diag, "class %u: method table missing", k);
    for (uint32_t i = 0; i < d->nmethods; i++) {
        const char *name = d->methods[i].name;
        if (!name || !is_identifier(name)) {
            char q[QUOTE_MAX * 4 + 4];
            return fail(diag, "class %u: method %u name '%s' is not an identifier", k, i,
                        name ? quote(name, q) : "");
        }
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(d->methods[j].name, name) == 0)
                return fail(diag, "class %u: duplicate method '%s'", k, name);
    }
    return true;
}

static bool check_classes(const TlcProgram *prog, TlcDiag *diag)
{
    if (prog->nclasses > TLC_MAX_CLASSES)
        return fail(diag, "too many classes (%u, max %d)", prog->nclasses, TLC_MAX_CLASSES);
    if (prog->nclasses > 0 && !prog->classes)
        return fail(diag, "class table missing (%u classes)", prog->nclasses);
    for (uint32_t k = 0; k < prog->nclasses; k++) {
        if (!check_attrs(&prog->classes[k], k, diag))
            return false;
        if (!check_method_names(&prog->classes[k], k, diag))
            return false;
    }
    return true;
}

/* Checks the operand bytes of the instruction at `pc` (already known to be
 * present). Branch targets are left for check_branches. */
static bool check_operand(const TlcProgram *prog, uint32_t pc, const TlcOpInfo *info, TlcDiag *diag)
{
    if (info->operand_bytes == 0)
        return true;
    uint8_t b = prog->code[pc + 1];
    switch (info->operand) {
    case TLC_OPND_DEPTH:
        if ((int8_t)b < 0)
            return fail(diag, "pc %u: %s depth %d outside 0..127", pc, info->name, (int8_t)b);
        return true;
    case TLC_OPND_CLASS:
        if (b >= prog->nclasses)
            return fail(diag, "pc %u: class index %u out of range (%u classes)", pc, b,
                        prog->nclasses);
        return true;
    case TLC_OPND_STRING:
    case TLC_OPND_SEND:
        if (b >= prog->nstrings)
            return fail(diag, "pc %u: string index %u out of range (%u strings)", pc, b,
                        prog->nstrings);
        return true;
    default:
        return true;
    }
}

/* The linear decode from pc 0: known opcodes, operands present and valid.
 * Marks every instruction start (and code_len) in `starts`. */
static bool check_decode(const TlcProgram *prog, uint8_t *starts, TlcDiag *diag)
{
    uint32_t pc = 0;
    while (pc < prog->code_len) {
        const TlcOpInfo *info = tlc_op_info(prog->code[pc]);
        if (!info)
            return fail(diag, "pc %u: unknown opcode %u", pc, prog->code[pc]);
        if (prog->code_len - pc - 1 < info->operand_bytes)
            return fail(diag, "pc %u: operand of %s cut off by the end of the code", pc,
                        info->name);
        if (!check_operand(prog, pc, info, diag))
            return false;
        starts[pc] = 1;
        pc += 1u + info->operand_bytes;
    }
    starts[prog->code_len] = 1;
    return true;
}

/* Static branch and CALL targets: inside [0, code_len] and on a start. */
static bool check_branches(const TlcProgram *prog, const uint8_t *starts, TlcDiag *diag)
{
    uint32_t pc = 0;
    while (pc < prog->code_len) {
        const TlcOpInfo *info = tlc_op_info(prog->code[pc]);
        if (info->operand == TLC_OPND_LABEL) {
            int64_t target = (int64_t)pc + 2 + (int8_t)prog->code[pc + 1];
            if (target < 0 || target > (int64_t)prog->code_len)
                return fail(diag, "pc %u: branch target %lld outside the code (length %u)", pc,
                            (long long)target, prog->code_len);
            if (!starts[target])
                return fail(diag, "pc %u: branch target %lld is inside an instruction", pc,
                            (long long)target);
        }
        pc += 1u + info->operand_bytes;
    }
    return true;
}

static bool check_method_entries(const TlcProgram *prog, const uint8_t *starts, TlcDiag *diag)
{
    for (uint32_t k = 0; k < prog->nclasses; k++) {
        const TlcClassDesc *d = &prog->classes[k];
        for (uint32_t i = 0; i < d->nmethods; i++) {
            uint32_t entry = d->methods[i].pc;
            if (entry > prog->code_len)
                return fail(diag, "class %u: method '%s' entry %u outside the code (length %u)", k,
                            d->methods[i].name, entry, prog->code_len);
            if (!starts[entry])
                return fail(diag, "class %u: method '%s' entry %u is inside an instruction", k,
                            d->methods[i].name, entry);
        }
    }
    return true;
}

static bool check_code(const TlcProgram *prog, TlcDiag *diag)
{
    if (prog->code_len > TLC_MAX_CODE_LEN)
        return fail(diag, "code length %u exceeds the maximum %u", prog->code_len,
                    TLC_MAX_CODE_LEN);
    if (prog->code_len > 0 && !prog->code)
        return fail(diag, "code missing (length %u)", prog->code_len);
    uint8_t *starts = calloc((size_t)prog->code_len + 1, 1);
    if (!starts)
        return fail(diag, "out of memory");
    bool ok = check_decode(prog, starts, diag) && check_branches(prog, starts, diag) &&
              check_method_entries(prog, starts, diag);
    free(starts);
    return ok;
}

bool tlc_verify(const TlcProgram *prog, TlcDiag *diag)
{
    if (!prog)
        return fail(diag, "no program");
    return check_strings(prog, diag) && check_classes(prog, diag) && check_code(prog, diag);
}

uint8_t *tlc_join_points(const TlcProgram *prog, const uint8_t *starts)
{
    uint8_t *join = calloc((size_t)prog->code_len + 1, 1);
    if (!join)
        return NULL;
    bool computed = false;
    for (uint32_t pc = 0; pc < prog->code_len; pc++) {
        if (!starts[pc])
            continue;
        const TlcOpInfo *info = tlc_op_info(prog->code[pc]);
        computed |= prog->code[pc] == TLC_OP_BR_COND_STK;
        if (info && info->operand == TLC_OPND_LABEL && prog->code_len - pc - 1 >= 1) {
            int64_t target = (int64_t)pc + 2 + (int8_t)prog->code[pc + 1];
            if (target >= 0 && target <= (int64_t)prog->code_len)
                join[target] = 1;
        }
    }
    if (computed)
        memcpy(join, starts, (size_t)prog->code_len + 1);
    return join;
}

uint8_t *tlc_insn_starts(const TlcProgram *prog)
{
    uint8_t *starts = calloc((size_t)prog->code_len + 1, 1);
    if (!starts)
        return NULL;
    uint32_t pc = 0;
    while (pc < prog->code_len) {
        const TlcOpInfo *info = tlc_op_info(prog->code[pc]);
        /* Defensive: an unverified program stops the marking, never overruns. */
        if (!info || prog->code_len - pc - 1 < info->operand_bytes)
            break;
        starts[pc] = 1;
        pc += 1u + info->operand_bytes;
    }
    starts[prog->code_len] = 1;
    return starts;
}
