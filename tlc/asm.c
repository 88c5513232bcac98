/* The TLC assembler: `.tlc` text to a verified TlcProgram.
 *
 * Pass 1 reads the text line by line, emits the code (with placeholder bytes
 * for label offsets), fills the constant pool and records the labels. Pass 2
 * resolves label offsets and method entry labels in source order. The syntax
 * is documented in docs/assembly.md. Spans point into the caller's source
 * buffer, which outlives the assembly; the pool holds copies. */
#include "asm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opcodes.h"
#include "verify.h"

/* A piece of the source text (not NUL-terminated). */
typedef struct Span {
    const char *p;
    size_t n;
} Span;

/* Longest piece of source text quoted in a message. */
#define SHOW_MAX 60
#define SPAN_FMT "%.*s%s"
#define SPAN_ARG(s)                                                                                \
    (int)((s).n > SHOW_MAX ? SHOW_MAX : (s).n), (s).p, ((s).n > SHOW_MAX ? "..." : "")

/* Open-addressing hash map from source spans to a value (labels: pc;
 * strings and descriptors: pool index) and the line of the first use. */
typedef struct MapEntry {
    Span key; /* key.p == NULL marks an empty slot */
    uint32_t value;
    size_t line;
} MapEntry;

typedef struct Map {
    MapEntry *slots;
    size_t cap; /* a power of two, or 0 before the first insertion */
    size_t count;
} Map;

typedef enum FixKind {
    FIX_BRANCH,  /* `at` is the offset byte of a BR/BR_COND/CALL */
    FIX_METHODS, /* `at` is a class index whose method labels need pcs */
} FixKind;

/* Work left for pass 2, kept in source order so that the first error found
 * is the first one in the text. */
typedef struct Fixup {
    FixKind kind;
    uint32_t at;
    Span label;
    size_t line;
} Fixup;

typedef struct Asm {
    const char *file;
    TlcDiag *diag;
    size_t line;
    TlcProgram *prog;
    size_t code_cap;
    Map labels, strings, classes;
    Fixup *fix;
    size_t nfix, fixcap;
    Span *mlabels[TLC_MAX_CLASSES]; /* per class: the entry label of each method */
} Asm;

/* ---- messages ---------------------------------------------------------- */

/* Sets "FILE:LINE: problem" (the first error wins because every caller
 * returns false at once) and returns false. */
static bool err(Asm *a, const char *fmt, ...)
{
    int n = snprintf(a->diag->message, sizeof a->diag->message, "%s:%zu: ", a->file, a->line);
    if (n < 0 || (size_t)n >= sizeof a->diag->message)
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->diag->message + n, sizeof a->diag->message - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

static bool oom(Asm *a)
{
    snprintf(a->diag->message, sizeof a->diag->message, "%s: out of memory", a->file);
    return false;
}

/* ---- spans and characters ---------------------------------------------- */

static bool span_eq(Span a, Span b)
{
    return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

static bool span_is(Span s, const char *lit)
{
    return s.n == strlen(lit) && memcmp(s.p, lit, s.n) == 0;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}

static bool is_ident_char(char c, bool first)
{
    bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    return alpha || (!first && c >= '0' && c <= '9');
}

/* [A-Za-z_][A-Za-z0-9_]*, any length (callers check lengths separately). */
static bool is_ident(Span s)
{
    if (s.n == 0)
        return false;
    for (size_t i = 0; i < s.n; i++)
        if (!is_ident_char(s.p[i], i == 0))
            return false;
    return true;
}

/* Splits `*rest` at the first `sep`: returns the part before it and leaves
 * the part after it in `*rest`; `*found` says whether `sep` occurred (when
 * not, the whole span is returned and `*rest` becomes empty). */
static Span split_at(Span *rest, char sep, bool *found)
{
    const char *hit = memchr(rest->p, sep, rest->n);
    Span head = {rest->p, hit ? (size_t)(hit - rest->p) : rest->n};
    *found = hit != NULL;
    rest->p += hit ? head.n + 1 : head.n;
    rest->n -= hit ? head.n + 1 : head.n;
    return head;
}

/* Takes the next whitespace-delimited token from `*rest`; false at the end. */
static bool next_token(Span *rest, Span *tok)
{
    size_t i = 0;
    while (i < rest->n && is_space(rest->p[i]))
        i++;
    size_t start = i;
    while (i < rest->n && !is_space(rest->p[i]))
        i++;
    tok->p = rest->p + start;
    tok->n = i - start;
    rest->p += i;
    rest->n -= i;
    return tok->n > 0;
}

/* Length of the valid UTF-8 multi-byte sequence at `p` (at most `n` bytes
 * available), or 0 when the bytes there are not one (overlong forms,
 * surrogates and code points past U+10FFFF are invalid). */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    unsigned char c = p[0];
    size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0xC2 || c > 0xF4 || n < len)
        return 0;
    if (c == 0xE0)
        lo = 0xA0;
    else if (c == 0xED)
        hi = 0x9F;
    else if (c == 0xF0)
        lo = 0x90;
    else if (c == 0xF4)
        hi = 0x8F;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return len;
}

/* Where the comment of a line starts (`#`, `;` or `//`), or line.n. */
static size_t comment_start(Span line)
{
    for (size_t i = 0; i < line.n; i++) {
        char c = line.p[i];
        if (c == '#' || c == ';' || (c == '/' && i + 1 < line.n && line.p[i + 1] == '/'))
            return i;
    }
    return line.n;
}

/* Rejects bytes the syntax has no use for, before any parsing: the code part
 * of a line is printable ASCII and tabs; a comment may also hold valid UTF-8.
 * NUL bytes, other control characters and invalid UTF-8 are errors. */
static bool check_chars(Asm *a, Span line, size_t code_end)
{
    const unsigned char *p = (const unsigned char *)line.p;
    size_t i = 0;
    while (i < line.n) {
        if (p[i] == '\t' || (p[i] >= 0x20 && p[i] < 0x7f)) {
            i++;
            continue;
        }
        size_t len = i >= code_end && p[i] >= 0x80 ? utf8_len(p + i, line.n - i) : 0;
        if (len == 0)
            return err(a, "unexpected character 0x%02x at column %zu%s", p[i], i + 1,
                       p[i] >= 0x80 && i >= code_end ? " (invalid UTF-8)" : "");
        i += len;
    }
    return true;
}

/* ---- hash map ---------------------------------------------------------- */

static size_t hash_span(Span s)
{
    size_t h = 14695981039346656037u & SIZE_MAX;
    for (size_t i = 0; i < s.n; i++)
        h = (h ^ (unsigned char)s.p[i]) * 1099511628211u;
    return h;
}

/* The slot holding `key`, or the empty slot where it would go. */
static MapEntry *map_slot(const Map *m, Span key)
{
    size_t i = hash_span(key) & (m->cap - 1);
    while (m->slots[i].key.p && !span_eq(m->slots[i].key, key))
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

static MapEntry *map_find(const Map *m, Span key)
{
    if (m->cap == 0)
        return NULL;
    MapEntry *e = map_slot(m, key);
    return e->key.p ? e : NULL;
}

/* Doubles the table (keeping the load factor at most 1/2); false when out
 * of memory, leaving the map unchanged. */
static bool map_grow(Map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    if (cap > SIZE_MAX / sizeof(MapEntry))
        return false;
    Map bigger = {calloc(cap, sizeof(MapEntry)), cap, m->count};
    if (!bigger.slots)
        return false;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key.p)
            *map_slot(&bigger, m->slots[i].key) = m->slots[i];
    free(m->slots);
    *m = bigger;
    return true;
}

/* Inserts a key known to be absent; false when out of memory. */
static bool map_put(Map *m, Span key, uint32_t value, size_t line)
{
    if ((m->count + 1) * 2 > m->cap && !map_grow(m))
        return false;
    MapEntry *e = map_slot(m, key);
    *e = (MapEntry){key, value, line};
    m->count++;
    return true;
}

/* ---- pass 1: code, pool and labels ------------------------------------- */

static bool add_fixup(Asm *a, FixKind kind, uint32_t at, Span label)
{
    if (a->nfix == a->fixcap) {
        size_t cap = a->fixcap ? a->fixcap * 2 : 64;
        Fixup *f = cap <= SIZE_MAX / sizeof(Fixup) ? realloc(a->fix, cap * sizeof(Fixup)) : NULL;
        if (!f)
            return oom(a);
        a->fix = f;
        a->fixcap = cap;
    }
    a->fix[a->nfix++] = (Fixup){kind, at, label, a->line};
    return true;
}

/* Makes room for one more instruction of `size` bytes (at most 3). */
static bool code_reserve(Asm *a, uint32_t size)
{
    TlcProgram *prog = a->prog;
    if (prog->code_len + size > TLC_MAX_CODE_LEN)
        return err(a, "code too long (more than %u bytes)", TLC_MAX_CODE_LEN);
    if (prog->code_len + size <= a->code_cap)
        return true;
    size_t cap = a->code_cap ? a->code_cap * 2 : 256;
    uint8_t *code = realloc(prog->code, cap);
    if (!code)
        return oom(a);
    prog->code = code;
    a->code_cap = cap;
    return true;
}

static void emit(Asm *a, uint8_t byte)
{
    a->prog->code[a->prog->code_len++] = byte;
}

/* A NUL-terminated copy of a span; NULL when out of memory. */
static char *span_dup(Span s)
{
    char *copy = malloc(s.n + 1);
    if (copy) {
        memcpy(copy, s.p, s.n);
        copy[s.n] = '\0';
    }
    return copy;
}

/* Checks a name that goes into the pool (`what` says which kind for the
 * message): an identifier of 1..TLC_MAX_NAME_LEN characters. */
static bool check_pool_name(Asm *a, Span s, const char *what)
{
    if (s.n == 0)
        return err(a, "empty %s", what);
    if (!is_ident(s))
        return err(a, "bad %s '" SPAN_FMT "' (expected an identifier)", what, SPAN_ARG(s));
    if (s.n > TLC_MAX_NAME_LEN)
        return err(a, "%s '" SPAN_FMT "' too long (%zu characters, max %d)", what, SPAN_ARG(s), s.n,
                   TLC_MAX_NAME_LEN);
    return true;
}

/* Returns in `*idx` the string-pool index of `name`, adding it on first use
 * (pool order = order of first use). */
static bool intern_string(Asm *a, Span name, const char *what, uint8_t *idx)
{
    if (!check_pool_name(a, name, what))
        return false;
    MapEntry *e = map_find(&a->strings, name);
    if (e) {
        *idx = (uint8_t)e->value;
        return true;
    }
    TlcProgram *prog = a->prog;
    if (prog->nstrings == TLC_MAX_STRINGS)
        return err(a, "too many strings (max %d distinct names)", TLC_MAX_STRINGS);
    if (!prog->strings && !(prog->strings = calloc(TLC_MAX_STRINGS, sizeof(char *))))
        return oom(a);
    char *copy = span_dup(name);
    if (!copy)
        return oom(a);
    prog->strings[prog->nstrings] = copy;
    *idx = (uint8_t)prog->nstrings;
    if (!map_put(&a->strings, name, prog->nstrings++, a->line))
        return oom(a);
    return true;
}

/* Counts the items of a descriptor and checks each one's syntax: `name` or
 * `name=label`, no empty item, identifiers only, at most 255 of each kind. */
static bool scan_descriptor(Asm *a, Span text, uint32_t *nattrs, uint32_t *nmethods)
{
    Span rest = text;
    bool more = true;
    *nattrs = *nmethods = 0;
    while (more) {
        Span label = split_at(&rest, ',', &more);
        bool is_method;
        Span name = split_at(&label, '=', &is_method);
        if (name.n == 0)
            return err(a, "malformed descriptor '" SPAN_FMT "': empty name", SPAN_ARG(text));
        if (!check_pool_name(a, name, is_method ? "method name" : "attribute name"))
            return false;
        if (is_method && label.n == 0)
            return err(a, "malformed descriptor: '=' without a label after method '" SPAN_FMT "'",
                       SPAN_ARG(name));
        if (is_method && !is_ident(label))
            return err(a,
                       "malformed descriptor: bad label '" SPAN_FMT "' for method '" SPAN_FMT "'",
                       SPAN_ARG(label), SPAN_ARG(name));
        if ((is_method ? ++*nmethods : ++*nattrs) > TLC_MAX_CLASS_MEMBERS)
            return err(a, "malformed descriptor: more than %d %s", TLC_MAX_CLASS_MEMBERS,
                       is_method ? "methods" : "attributes");
    }
    return true;
}

static bool name_eq(const char *s, Span name)
{
    return strlen(s) == name.n && memcmp(s, name.p, name.n) == 0;
}

/* True iff class `d` already has an attribute (or method) called `name`. */
static bool has_member(const TlcClassDesc *d, Span name, bool is_method)
{
    if (is_method) {
        for (uint32_t i = 0; i < d->nmethods; i++)
            if (name_eq(d->methods[i].name, name))
                return true;
    } else {
        for (uint32_t i = 0; i < d->nattrs; i++)
            if (name_eq(d->attrs[i], name))
                return true;
    }
    return false;
}

/* Adds one checked item of a descriptor to class `k` (arrays already sized
 * by scan_descriptor), rejecting duplicates within the class. */
static bool add_member(Asm *a, uint32_t k, Span name, Span label, bool is_method)
{
    TlcClassDesc *d = &a->prog->classes[k];
    if (has_member(d, name, is_method))
        return err(a, "malformed descriptor: duplicate %s '" SPAN_FMT "'",
                   is_method ? "method" : "attribute", SPAN_ARG(name));
    char *copy = span_dup(name);
    if (!copy)
        return oom(a);
    if (is_method) {
        a->mlabels[k][d->nmethods] = label;
        d->methods[d->nmethods++] = (TlcMethodDesc){copy, 0};
    } else {
        d->attrs[d->nattrs++] = copy;
    }
    return true;
}

/* Fills class slot `k` from descriptor text (`-` is the empty descriptor).
 * Method pcs are set in pass 2 from the labels kept in a->mlabels[k]. */
static bool parse_descriptor(Asm *a, Span text, uint32_t k)
{
    uint32_t nattrs, nmethods;
    if (span_is(text, "-"))
        return true;
    if (!scan_descriptor(a, text, &nattrs, &nmethods))
        return false;
    TlcClassDesc *d = &a->prog->classes[k];
    if ((nattrs && !(d->attrs = calloc(nattrs, sizeof(char *)))) ||
        (nmethods && !(d->methods = calloc(nmethods, sizeof(TlcMethodDesc)))) ||
        (nmethods && !(a->mlabels[k] = calloc(nmethods, sizeof(Span)))))
        return oom(a);
    Span rest = text;
    bool more = true;
    while (more) {
        Span label = split_at(&rest, ',', &more);
        bool is_method;
        Span name = split_at(&label, '=', &is_method);
        if (!add_member(a, k, name, label, is_method))
            return false;
    }
    return nmethods == 0 || add_fixup(a, FIX_METHODS, k, (Span){text.p, 0});
}

/* Returns in `*idx` the class-pool index of a descriptor, adding it on first
 * use. Identical descriptor text always means the same pool entry. */
static bool intern_class(Asm *a, Span text, uint8_t *idx)
{
    MapEntry *e = map_find(&a->classes, text);
    if (e) {
        *idx = (uint8_t)e->value;
        return true;
    }
    TlcProgram *prog = a->prog;
    if (prog->nclasses == TLC_MAX_CLASSES)
        return err(a, "too many classes (max %d distinct descriptors)", TLC_MAX_CLASSES);
    if (!prog->classes && !(prog->classes = calloc(TLC_MAX_CLASSES, sizeof(TlcClassDesc))))
        return oom(a);
    uint32_t k = prog->nclasses++; /* the slot is zeroed, so freeing it is safe */
    if (!parse_descriptor(a, text, k))
        return false;
    *idx = (uint8_t)k;
    if (!map_put(&a->classes, text, k, a->line))
        return oom(a);
    return true;
}

/* Parses `[+-]digits` or `[+-]0x hexdigits`. Values far outside any byte
 * range saturate (they are rejected by the caller), so nothing overflows. */
static bool parse_int(Span s, long *out)
{
    size_t i = 0;
    bool neg = s.n > 0 && s.p[0] == '-';
    if (s.n > 0 && (s.p[0] == '-' || s.p[0] == '+'))
        i++;
    int base = 10;
    if (s.n - i > 2 && s.p[i] == '0' && (s.p[i + 1] == 'x' || s.p[i + 1] == 'X')) {
        base = 16;
        i += 2;
    }
    if (i == s.n)
        return false;
    long v = 0;
    for (; i < s.n; i++) {
        char c = s.p[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : 99;
        if (d >= base)
            return false;
        if (v < 1000000)
            v = v * base + d;
    }
    *out = neg ? -v : v;
    return true;
}

/* An integer operand within [lo, hi]; `what` names it for messages. */
static bool int_operand(Asm *a, Span tok, long lo, long hi, const char *what, long *out)
{
    if (!parse_int(tok, out))
        return err(a, "bad integer '" SPAN_FMT "' for %s", SPAN_ARG(tok), what);
    if (*out < lo || *out > hi)
        return err(a, "integer " SPAN_FMT " out of range %ld..%ld for %s", SPAN_ARG(tok), lo, hi,
                   what);
    return true;
}

/* `name/argc`: a string-pool name and an argument count 0..255. */
static bool send_operand(Asm *a, Span tok)
{
    Span rest = tok;
    bool slash;
    Span name = split_at(&rest, '/', &slash);
    long argc = 0;
    uint8_t idx = 0;
    if (!slash || name.n == 0 || rest.n == 0)
        return err(a, "malformed SEND operand '" SPAN_FMT "' (expected name/argc)", SPAN_ARG(tok));
    if (!parse_int(rest, &argc))
        return err(a, "malformed SEND operand '" SPAN_FMT "': bad argument count '" SPAN_FMT "'",
                   SPAN_ARG(tok), SPAN_ARG(rest));
    if (argc < 0 || argc > 255)
        return err(a, "SEND argument count " SPAN_FMT " out of range 0..255", SPAN_ARG(rest));
    if (!intern_string(a, name, "method name", &idx))
        return false;
    emit(a, idx);
    emit(a, (uint8_t)argc);
    return true;
}

/* Parses and emits the operand bytes of one instruction (opcode emitted). */
static bool emit_operand(Asm *a, const TlcOpInfo *info, Span tok)
{
    long v = 0;
    uint8_t idx = 0;
    switch (info->operand) {
    case TLC_OPND_INT:
        if (!int_operand(a, tok, -128, 127, info->name, &v))
            return false;
        emit(a, (uint8_t)(v & 0xff));
        return true;
    case TLC_OPND_DEPTH:
        if (!int_operand(a, tok, 0, 127, info->name, &v))
            return false;
        emit(a, (uint8_t)v);
        return true;
    case TLC_OPND_LABEL:
        if (!is_ident(tok))
            return err(a, "bad label name '" SPAN_FMT "' for %s", SPAN_ARG(tok), info->name);
        emit(a, 0); /* placeholder, resolved in pass 2 */
        return add_fixup(a, FIX_BRANCH, a->prog->code_len - 1, tok);
    case TLC_OPND_CLASS:
        if (!intern_class(a, tok, &idx))
            return false;
        emit(a, idx);
        return true;
    case TLC_OPND_STRING:
        if (!intern_string(a, tok, "attribute name", &idx))
            return false;
        emit(a, idx);
        return true;
    case TLC_OPND_SEND:
        return send_operand(a, tok);
    default:
        return true;
    }
}

static const char *expected_operand(TlcOperandKind kind)
{
    switch (kind) {
    case TLC_OPND_INT:
        return "an integer -128..127";
    case TLC_OPND_DEPTH:
        return "a stack depth 0..127";
    case TLC_OPND_LABEL:
        return "a label";
    case TLC_OPND_CLASS:
        return "a class descriptor, or - for an empty one";
    case TLC_OPND_STRING:
        return "an attribute name";
    case TLC_OPND_SEND:
        return "name/argc";
    default:
        return "nothing";
    }
}

/* Looks up a mnemonic; the copy is needed because tlc_op_by_name takes a
 * NUL-terminated string and spans are not. */
static int find_opcode(Span tok)
{
    char buf[16];
    if (tok.n >= sizeof buf)
        return 0;
    memcpy(buf, tok.p, tok.n);
    buf[tok.n] = '\0';
    return tlc_op_by_name(buf);
}

/* Reports an unknown mnemonic, hinting at upper case when that would fix it. */
static bool unknown_mnemonic(Asm *a, Span tok)
{
    char buf[16];
    bool upper_ok = false;
    if (tok.n < sizeof buf) {
        for (size_t i = 0; i < tok.n; i++)
            buf[i] = (char)(tok.p[i] >= 'a' && tok.p[i] <= 'z' ? tok.p[i] - 'a' + 'A' : tok.p[i]);
        buf[tok.n] = '\0';
        upper_ok = tlc_op_by_name(buf) != 0;
    }
    return err(a, "unknown mnemonic '" SPAN_FMT "'%s", SPAN_ARG(tok),
               upper_ok ? " (mnemonics are upper case)" : "");
}

/* One instruction: mnemonic token `mn`, operand tokens in `rest`. */
static bool assemble_insn(Asm *a, Span mn, Span rest)
{
    int op = find_opcode(mn);
    if (op == 0)
        return unknown_mnemonic(a, mn);
    const TlcOpInfo *info = tlc_op_info(op);
    Span tok, extra;
    bool has = next_token(&rest, &tok);
    if (info->operand == TLC_OPND_NONE && has)
        return err(a, "extra operand '" SPAN_FMT "' after %s (it takes none)", SPAN_ARG(tok),
                   info->name);
    if (info->operand != TLC_OPND_NONE && !has)
        return err(a, "missing operand for %s (expected %s)", info->name,
                   expected_operand(info->operand));
    if (has && next_token(&rest, &extra))
        return err(a, "extra operand '" SPAN_FMT "' after %s " SPAN_FMT, SPAN_ARG(extra),
                   info->name, SPAN_ARG(tok));
    if (!code_reserve(a, 1u + info->operand_bytes))
        return false;
    emit(a, (uint8_t)op);
    return emit_operand(a, info, tok);
}

static bool define_label(Asm *a, Span name)
{
    if (name.n == 0)
        return err(a, "empty label name before ':'");
    if (!is_ident(name))
        return err(a, "bad label name '" SPAN_FMT "' (expected an identifier)", SPAN_ARG(name));
    MapEntry *e = map_find(&a->labels, name);
    if (e)
        return err(a, "duplicate label '" SPAN_FMT "' (first defined on line %zu)", SPAN_ARG(name),
                   e->line);
    if (!map_put(&a->labels, name, a->prog->code_len, a->line))
        return oom(a);
    return true;
}

/* One line without its line ending: labels (`name:`, any number, the first
 * at the start of the line), then at most one instruction. */
static bool assemble_line(Asm *a, Span line)
{
    size_t code_end = comment_start(line);
    if (!check_chars(a, line, code_end))
        return false;
    Span rest = {line.p, code_end};
    for (;;) {
        Span tok;
        if (!next_token(&rest, &tok))
            return true;
        const char *colon = memchr(tok.p, ':', tok.n);
        if (!colon)
            return assemble_insn(a, tok, rest);
        if (!define_label(a, (Span){tok.p, (size_t)(colon - tok.p)}))
            return false;
        /* Continue right after the ':' so that `loop:NOP` also works. */
        rest.n += (size_t)(tok.p + tok.n - colon - 1);
        rest.p = colon + 1;
    }
}

/* Pass 1 over all lines; accepts LF and CRLF endings and a UTF-8 BOM. */
static bool pass1(Asm *a, const char *src, size_t len)
{
    size_t pos = 0;
    if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;
    while (pos < len) {
        const char *nl = memchr(src + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - src) : len;
        Span line = {src + pos, end - pos};
        if (line.n > 0 && line.p[line.n - 1] == '\r')
            line.n--;
        a->line++;
        if (!assemble_line(a, line))
            return false;
        pos = nl ? end + 1 : len;
    }
    return true;
}

/* ---- pass 2: labels to offsets and method entries ---------------------- */

static bool resolve_branch(Asm *a, const Fixup *f)
{
    MapEntry *e = map_find(&a->labels, f->label);
    if (!e)
        return err(a, "undefined label '" SPAN_FMT "'", SPAN_ARG(f->label));
    long long off = (long long)e->value - ((long long)f->at + 1);
    if (off < -128 || off > 127)
        return err(a, "offset %lld to label '" SPAN_FMT "' out of range -128..127", off,
                   SPAN_ARG(f->label));
    a->prog->code[f->at] = (uint8_t)(off & 0xff);
    return true;
}

static bool resolve_methods(Asm *a, const Fixup *f)
{
    TlcClassDesc *d = &a->prog->classes[f->at];
    for (uint32_t i = 0; i < d->nmethods; i++) {
        Span label = a->mlabels[f->at][i];
        MapEntry *e = map_find(&a->labels, label);
        if (!e)
            return err(a, "undefined label '" SPAN_FMT "' for method '%s'", SPAN_ARG(label),
                       d->methods[i].name);
        d->methods[i].pc = e->value;
    }
    return true;
}

static bool pass2(Asm *a)
{
    for (size_t i = 0; i < a->nfix; i++) {
        const Fixup *f = &a->fix[i];
        a->line = f->line;
        if (!(f->kind == FIX_BRANCH ? resolve_branch(a, f) : resolve_methods(a, f)))
            return false;
    }
    return true;
}

/* ---- driver ------------------------------------------------------------ */

static void asm_cleanup(Asm *a)
{
    free(a->labels.slots);
    free(a->strings.slots);
    free(a->classes.slots);
    free(a->fix);
    for (size_t k = 0; k < TLC_MAX_CLASSES; k++)
        free(a->mlabels[k]);
}

/* The verifier should accept whatever passes 1 and 2 produce; a rejection
 * is reported rather than handing an unsafe program to the interpreter. */
static bool final_verify(Asm *a)
{
    TlcDiag vd;
    if (tlc_verify(a->prog, &vd))
        return true;
    if (strcmp(vd.message, "out of memory") == 0)
        return oom(a);
    snprintf(a->diag->message, sizeof a->diag->message,
             "%s: internal error: assembled program fails verification: %.300s", a->file,
             vd.message);
    return false;
}

TlcProgram *tlc_assemble(const char *source, size_t len, const char *filename, TlcDiag *diag)
{
    TlcDiag scratch;
    Asm a = {0};
    a.file = filename ? filename : "<input>";
    a.diag = diag ? diag : &scratch;
    a.diag->message[0] = '\0';
    a.prog = tlc_program_new();
    if (!a.prog) {
        oom(&a);
        return NULL;
    }
    if (!source && len > 0)
        len = 0;
    bool ok = pass1(&a, source, len) && pass2(&a) && final_verify(&a);
    asm_cleanup(&a);
    if (!ok) {
        tlc_program_free(a.prog);
        return NULL;
    }
    return a.prog;
}
