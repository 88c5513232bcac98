/* Reading and writing `.tlcb` bytecode files. The byte-by-byte layout, the
 * checksum and every error message are documented in docs/bytecode-format.md;
 * keep the two in step. */
#include "bytecode.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"

#define TLCB_VERSION 1
#define TLCB_MAGIC_LEN 8
#define TLCB_HEADER_LEN 20 /* magic, u16 version, u16 flags, u32 length, u32 crc */

/* "TLCB" then CR LF SUB LF (as in PNG): a text-mode transfer or a `type` on
 * the file mangles one of them and the magic no longer matches. */
static const uint8_t tlcb_magic[TLCB_MAGIC_LEN] = {'T', 'L', 'C', 'B', '\r', '\n', 0x1a, '\n'};

/* Names are stored with a u8 length and class members with a u8 count, so
 * the program.h limits must not exceed what a byte can say. */
_Static_assert(TLC_MAX_NAME_LEN <= UINT8_MAX, "name length is stored in a u8");
_Static_assert(TLC_MAX_CLASS_MEMBERS <= UINT8_MAX, "member counts are stored in a u8");

static void set_diag(TlcDiag *diag, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_diag(TlcDiag *diag, const char *fmt, ...)
{
    if (!diag)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- CRC-32 */

/* CRC-32 as in zlib, gzip, PNG and Ethernet (reflected polynomial 0xEDB88320,
 * initial value and final xor 0xFFFFFFFF; crc("123456789") == 0xCBF43926),
 * computed a nibble at a time so the table is a constant, not state. */
static uint32_t crc32_ieee(const uint8_t *data, size_t len)
{
    static const uint32_t nibble[16] = {
        0x00000000, 0x1DB71064, 0x3B6E20C8, 0x26D930AC, 0x76DC4190, 0x6B6B51F4,
        0x4DB26158, 0x5005713C, 0xEDB88320, 0xF00F9344, 0xD6D6A3E8, 0xCB61B38C,
        0x9B64C2B0, 0x86D3D2D4, 0xA00AE278, 0xBDBDF21C,
    };
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        crc ^= data[i];
        crc = (crc >> 4) ^ nibble[crc & 0xF];
        crc = (crc >> 4) ^ nibble[crc & 0xF];
    }
    return crc ^ 0xFFFFFFFFu;
}

/* ------------------------------------------------------ little-endian I/O */

static uint16_t get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* ---------------------------------------------------------------- writing */

/* Bytes a name takes in the file, or 0 (with diag) when it cannot be
 * stored: missing, or longer than a u8 length can say. `what` names the
 * entry in the message. */
static size_t name_size(const char *name, const char *what, TlcDiag *diag)
{
    if (!name) {
        set_diag(diag, "cannot write: %s is missing", what);
        return 0;
    }
    size_t n = strlen(name);
    if (n > TLC_MAX_NAME_LEN) {
        set_diag(diag, "cannot write: %s is too long (%zu bytes, max %d)", what, n,
                 TLC_MAX_NAME_LEN);
        return 0;
    }
    return 1 + n;
}

/* Adds the size of class `c` to *size; false (with diag) when the class
 * cannot be stored. */
static bool class_size(const TlcClassDesc *d, uint32_t c, size_t *size, TlcDiag *diag)
{
    char what[64];
    if (d->nattrs > TLC_MAX_CLASS_MEMBERS || d->nmethods > TLC_MAX_CLASS_MEMBERS) {
        set_diag(diag,
                 "cannot write: class %" PRIu32
                 " has too many members (max %d attributes and %d methods)",
                 c, TLC_MAX_CLASS_MEMBERS, TLC_MAX_CLASS_MEMBERS);
        return false;
    }
    if ((d->nattrs && !d->attrs) || (d->nmethods && !d->methods)) {
        set_diag(diag, "cannot write: class %" PRIu32 " is missing its member list", c);
        return false;
    }
    *size += 2;
    for (uint32_t i = 0; i < d->nattrs; i++) {
        snprintf(what, sizeof what, "class %" PRIu32 " attribute %" PRIu32, c, i);
        size_t n = name_size(d->attrs[i], what, diag);
        if (!n)
            return false;
        *size += n;
    }
    for (uint32_t i = 0; i < d->nmethods; i++) {
        snprintf(what, sizeof what, "class %" PRIu32 " method %" PRIu32 " name", c, i);
        size_t n = name_size(d->methods[i].name, what, diag);
        if (!n)
            return false;
        *size += n + 4;
    }
    return true;
}

/* Computes the payload size, checking along the way that everything fits the
 * format. The limits bound the total well below 4 GiB, so size_t (at least
 * 32 bits) cannot overflow. */
static bool payload_size(const TlcProgram *prog, size_t *out, TlcDiag *diag)
{
    char what[32];
    if (prog->nstrings > TLC_MAX_STRINGS) {
        set_diag(diag, "cannot write: too many strings (%" PRIu32 ", max %d)", prog->nstrings,
                 TLC_MAX_STRINGS);
        return false;
    }
    if (prog->nclasses > TLC_MAX_CLASSES) {
        set_diag(diag, "cannot write: too many classes (%" PRIu32 ", max %d)", prog->nclasses,
                 TLC_MAX_CLASSES);
        return false;
    }
    if (prog->code_len > TLC_MAX_CODE_LEN) {
        set_diag(diag, "cannot write: code length %" PRIu32 " exceeds the maximum %u",
                 prog->code_len, TLC_MAX_CODE_LEN);
        return false;
    }
    if ((prog->nstrings && !prog->strings) || (prog->nclasses && !prog->classes) ||
        (prog->code_len && !prog->code)) {
        set_diag(diag, "cannot write: incomplete program (missing pool or code)");
        return false;
    }
    size_t size = 4;
    for (uint32_t i = 0; i < prog->nstrings; i++) {
        snprintf(what, sizeof what, "string %" PRIu32, i);
        size_t n = name_size(prog->strings[i], what, diag);
        if (!n)
            return false;
        size += n;
    }
    size += 4;
    for (uint32_t c = 0; c < prog->nclasses; c++)
        if (!class_size(&prog->classes[c], c, &size, diag))
            return false;
    size += 4 + (size_t)prog->code_len;
    *out = size;
    return true;
}

/* Appends a length-prefixed name; the size pass has checked it fits. */
static uint8_t *put_name(uint8_t *p, const char *name)
{
    size_t n = strlen(name);
    *p++ = (uint8_t)n;
    memcpy(p, name, n);
    return p + n;
}

static uint8_t *put_class(uint8_t *p, const TlcClassDesc *d)
{
    *p++ = (uint8_t)d->nattrs;
    for (uint32_t i = 0; i < d->nattrs; i++)
        p = put_name(p, d->attrs[i]);
    *p++ = (uint8_t)d->nmethods;
    for (uint32_t i = 0; i < d->nmethods; i++) {
        p = put_name(p, d->methods[i].name);
        put_u32(p, d->methods[i].pc);
        p += 4;
    }
    return p;
}

/* Writes the payload into `p` (exactly the size payload_size computed). */
static void put_payload(uint8_t *p, const TlcProgram *prog)
{
    put_u32(p, prog->nstrings);
    p += 4;
    for (uint32_t i = 0; i < prog->nstrings; i++)
        p = put_name(p, prog->strings[i]);
    put_u32(p, prog->nclasses);
    p += 4;
    for (uint32_t c = 0; c < prog->nclasses; c++)
        p = put_class(p, &prog->classes[c]);
    put_u32(p, prog->code_len);
    p += 4;
    if (prog->code_len)
        memcpy(p, prog->code, prog->code_len);
}

/* The writer checks only what the encoding needs (limits, names present and
 * short enough); whether the program makes sense is the verifier's business,
 * and the reader runs it. Keeping the writer permissive lets tests produce
 * well-formed files holding bad programs. */
uint8_t *tlc_bytecode_write(const TlcProgram *prog, size_t *out_len, TlcDiag *diag)
{
    size_t payload_len;
    if (!prog) {
        set_diag(diag, "cannot write: no program");
        return NULL;
    }
    if (!payload_size(prog, &payload_len, diag))
        return NULL;
    if ((uint64_t)payload_len > UINT32_MAX) {
        set_diag(diag, "cannot write: payload too large");
        return NULL;
    }
    uint8_t *buf = malloc(TLCB_HEADER_LEN + payload_len);
    if (!buf) {
        set_diag(diag, "out of memory");
        return NULL;
    }
    uint8_t *payload = buf + TLCB_HEADER_LEN;
    put_payload(payload, prog);
    memcpy(buf, tlcb_magic, TLCB_MAGIC_LEN);
    put_u16(buf + 8, TLCB_VERSION);
    put_u16(buf + 10, 0);
    put_u32(buf + 12, (uint32_t)payload_len);
    put_u32(buf + 16, crc32_ieee(payload, payload_len));
    if (out_len)
        *out_len = TLCB_HEADER_LEN + payload_len;
    return buf;
}

/* ---------------------------------------------------------------- reading */

/* A cursor over the payload. Every read checks the remaining length first
 * and, on failure, records a "truncated" message naming the field. */
typedef struct Reader {
    const uint8_t *p;
    size_t left;
    TlcDiag *diag;
} Reader;

/* Describes the field being read, for messages: e.g. "string 3". */
typedef char FieldName[80];

static bool need(Reader *r, size_t n, const char *field)
{
    if (r->left >= n)
        return true;
    set_diag(r->diag, "truncated: %s needs %zu byte%s, %zu left", field, n, n == 1 ? "" : "s",
             r->left);
    return false;
}

static bool read_u8(Reader *r, uint8_t *out, const char *field)
{
    if (!need(r, 1, field))
        return false;
    *out = r->p[0];
    r->p++;
    r->left--;
    return true;
}

static bool read_u32(Reader *r, uint32_t *out, const char *field)
{
    if (!need(r, 4, field))
        return false;
    *out = get_u32(r->p);
    r->p += 4;
    r->left -= 4;
    return true;
}

/* Reads a u8-length-prefixed name into a fresh NUL-terminated string. Names
 * with an embedded NUL are rejected: as C strings they would silently turn
 * into a different, shorter name. Other content (empty, non-identifier) is
 * left to the verifier, which names the rule broken. */
static bool read_name(Reader *r, char **out, const char *field)
{
    FieldName what;
    uint8_t n;
    snprintf(what, sizeof what, "%s length", field);
    if (!read_u8(r, &n, what) || !need(r, n, field))
        return false;
    if (n && memchr(r->p, '\0', n)) {
        set_diag(r->diag, "%s contains a NUL byte", field);
        return false;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        set_diag(r->diag, "out of memory");
        return false;
    }
    if (n)
        memcpy(s, r->p, n);
    s[n] = '\0';
    r->p += n;
    r->left -= n;
    *out = s;
    return true;
}

/* Reads a u32 count and checks it against `limit` before the caller
 * allocates anything for it. */
static bool read_count(Reader *r, uint32_t *out, uint32_t limit, const char *field,
                       const char *plural)
{
    if (!read_u32(r, out, field))
        return false;
    if (*out > limit) {
        set_diag(r->diag, "too many %s (%" PRIu32 ", max %" PRIu32 ")", plural, *out, limit);
        return false;
    }
    return true;
}

static bool read_strings(Reader *r, TlcProgram *prog)
{
    uint32_t n;
    FieldName what;
    if (!read_count(r, &n, TLC_MAX_STRINGS, "string count", "strings"))
        return false;
    if (n == 0)
        return true;
    prog->strings = calloc(n, sizeof *prog->strings);
    if (!prog->strings) {
        set_diag(r->diag, "out of memory");
        return false;
    }
    prog->nstrings = n; /* slots not yet read stay NULL, which free() takes */
    for (uint32_t i = 0; i < n; i++) {
        snprintf(what, sizeof what, "string %" PRIu32, i);
        if (!read_name(r, &prog->strings[i], what))
            return false;
    }
    return true;
}

/* Reads the attribute names of class `c`. The count is set only once the
 * array exists, so tlc_program_free copes with a failure at any point. */
static bool read_attrs(Reader *r, TlcClassDesc *d, uint32_t c)
{
    FieldName what;
    uint8_t n;
    snprintf(what, sizeof what, "class %" PRIu32 " attribute count", c);
    if (!read_u8(r, &n, what))
        return false;
    if (n == 0)
        return true;
    d->attrs = calloc(n, sizeof *d->attrs);
    if (!d->attrs) {
        set_diag(r->diag, "out of memory");
        return false;
    }
    d->nattrs = n;
    for (uint32_t i = 0; i < n; i++) {
        snprintf(what, sizeof what, "class %" PRIu32 " attribute %" PRIu32, c, i);
        if (!read_name(r, &d->attrs[i], what))
            return false;
    }
    return true;
}

/* Reads the methods (name, u32 entry pc) of class `c`; same ownership rule
 * as read_attrs. Whether the pc is an instruction start is verified later. */
static bool read_methods(Reader *r, TlcClassDesc *d, uint32_t c)
{
    FieldName what;
    uint8_t n;
    snprintf(what, sizeof what, "class %" PRIu32 " method count", c);
    if (!read_u8(r, &n, what))
        return false;
    if (n == 0)
        return true;
    d->methods = calloc(n, sizeof *d->methods);
    if (!d->methods) {
        set_diag(r->diag, "out of memory");
        return false;
    }
    d->nmethods = n;
    for (uint32_t i = 0; i < n; i++) {
        snprintf(what, sizeof what, "class %" PRIu32 " method %" PRIu32 " name", c, i);
        if (!read_name(r, &d->methods[i].name, what))
            return false;
        snprintf(what, sizeof what, "class %" PRIu32 " method %" PRIu32 " pc", c, i);
        if (!read_u32(r, &d->methods[i].pc, what))
            return false;
    }
    return true;
}

static bool read_classes(Reader *r, TlcProgram *prog)
{
    uint32_t n;
    if (!read_count(r, &n, TLC_MAX_CLASSES, "class count", "classes"))
        return false;
    if (n == 0)
        return true;
    prog->classes = calloc(n, sizeof *prog->classes);
    if (!prog->classes) {
        set_diag(r->diag, "out of memory");
        return false;
    }
    prog->nclasses = n; /* zeroed descriptors own nothing */
    for (uint32_t c = 0; c < n; c++)
        if (!read_attrs(r, &prog->classes[c], c) || !read_methods(r, &prog->classes[c], c))
            return false;
    return true;
}

/* Reads the code. The buffer always has at least one byte so that `code` is
 * never NULL, even for an empty program. */
static bool read_code(Reader *r, TlcProgram *prog)
{
    uint32_t n;
    if (!read_u32(r, &n, "code length"))
        return false;
    if (n > TLC_MAX_CODE_LEN) {
        set_diag(r->diag, "code length %" PRIu32 " exceeds the maximum %u", n, TLC_MAX_CODE_LEN);
        return false;
    }
    if (!need(r, n, "code"))
        return false;
    prog->code = malloc(n ? n : 1);
    if (!prog->code) {
        set_diag(r->diag, "out of memory");
        return false;
    }
    if (n)
        memcpy(prog->code, r->p, n);
    prog->code_len = n;
    r->p += n;
    r->left -= n;
    return true;
}

/* Checks the 20-byte header against the whole image and, on success, sets
 * *payload_len. Every header field must hold exactly the expected value, so
 * any damage to the header is caught here and the checksum covers the rest. */
static bool check_header(const uint8_t *data, size_t len, uint32_t *payload_len, TlcDiag *diag)
{
    if (len == 0) {
        set_diag(diag, "empty file (not a .tlcb file)");
        return false;
    }
    size_t magic_len = len < TLCB_MAGIC_LEN ? len : TLCB_MAGIC_LEN;
    if (memcmp(data, tlcb_magic, magic_len) != 0) {
        set_diag(diag, "bad magic (not a .tlcb file)");
        return false;
    }
    if (len < TLCB_HEADER_LEN) {
        set_diag(diag, "truncated: header needs %d bytes, %zu present", TLCB_HEADER_LEN, len);
        return false;
    }
    uint16_t version = get_u16(data + 8);
    if (version != TLCB_VERSION) {
        set_diag(diag, "unsupported format version %u (this tlc reads version %d)",
                 (unsigned)version, TLCB_VERSION);
        return false;
    }
    uint16_t flags = get_u16(data + 10);
    if (flags != 0) {
        set_diag(diag, "unsupported flags 0x%04x (must be 0)", (unsigned)flags);
        return false;
    }
    *payload_len = get_u32(data + 12);
    size_t present = len - TLCB_HEADER_LEN;
    if (*payload_len > present) {
        set_diag(diag, "truncated: payload needs %" PRIu32 " bytes, %zu present", *payload_len,
                 present);
        return false;
    }
    if (*payload_len < present) {
        set_diag(diag, "trailing bytes after payload (%zu extra)", present - *payload_len);
        return false;
    }
    uint32_t stored = get_u32(data + 16);
    uint32_t actual = crc32_ieee(data + TLCB_HEADER_LEN, *payload_len);
    if (stored != actual) {
        set_diag(diag,
                 "checksum mismatch (file corrupted): stored %08" PRIx32 ", computed %08" PRIx32,
                 stored, actual);
        return false;
    }
    return true;
}

/* Decodes a checksummed payload into a program; NULL with diag on any
 * malformation. The payload must be consumed exactly. */
static TlcProgram *parse_payload(const uint8_t *payload, size_t len, TlcDiag *diag)
{
    TlcProgram *prog = tlc_program_new();
    if (!prog) {
        set_diag(diag, "out of memory");
        return NULL;
    }
    Reader r = {payload, len, diag};
    if (!read_strings(&r, prog) || !read_classes(&r, prog) || !read_code(&r, prog))
        goto fail;
    if (r.left) {
        set_diag(diag, "trailing bytes after code (%zu extra inside the payload)", r.left);
        goto fail;
    }
    return prog;
fail:
    tlc_program_free(prog);
    return NULL;
}

TlcProgram *tlc_bytecode_read(const uint8_t *data, size_t len, TlcDiag *diag)
{
    uint32_t payload_len;
    if (!data)
        len = 0;
    if (!check_header(data, len, &payload_len, diag))
        return NULL;
    TlcProgram *prog = parse_payload(data + TLCB_HEADER_LEN, payload_len, diag);
    if (!prog)
        return NULL;
    if (!tlc_verify(prog, diag)) {
        tlc_program_free(prog);
        return NULL;
    }
    return prog;
}
