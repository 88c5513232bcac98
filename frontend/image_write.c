/* Writing graph images (docs/frontend.md, "Graph images"). The bitcode is
 * read with a resolver that records every symbol and answers with a
 * placeholder address far outside any process's address space (symbol k at
 * JG_IMAGE_FAKE_BASE + k * 2^32); constants are then sorted into plain bits and
 * relocations: placeholders decode to (symbol, addend), internal functions'
 * tokens to their graph, addresses inside copied constants to (global,
 * addend). An address the writer cannot account for is an error, never a
 * silently wrong constant. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitcode_reader_internal.h"
#include "image.h"
#include "image_format.h"

#define FAKE_HALF (1ull << 31)

typedef struct Symbols {
    char **names;
    uint32_t count, capacity;
    bool oom;
} Symbols;

/* The recording resolver: every name resolves, to its placeholder. */
static void *record_symbol(void *ctx, const char *name)
{
    Symbols *s = ctx;
    if (s->oom || s->count >= (1u << 24))
        return NULL;
    if (s->count == s->capacity) {
        uint32_t cap = s->capacity ? 2 * s->capacity : 64;
        char **grown = realloc(s->names, sizeof *grown * cap);
        if (!grown) {
            s->oom = true;
            return NULL;
        }
        s->names = grown;
        s->capacity = cap;
    }
    char *copy = strdup(name);
    if (!copy) {
        s->oom = true;
        return NULL;
    }
    s->names[s->count] = copy;
    return (void *)(uintptr_t)(JG_IMAGE_FAKE_BASE + (uint64_t)s->count++ * JG_IMAGE_FAKE_SPAN);
}

static void symbols_free(Symbols *s)
{
    for (uint32_t i = 0; i < s->count; i++)
        free(s->names[i]);
    free(s->names);
}

/* ---- the output buffer ---- */

typedef struct Out {
    uint8_t *data;
    size_t len, capacity;
    bool oom;
} Out;

static void put(Out *o, const void *bytes, size_t n)
{
    if (o->oom)
        return;
    if (o->len + n > o->capacity) {
        size_t cap = o->capacity ? o->capacity : 4096;
        while (cap < o->len + n)
            cap *= 2;
        uint8_t *grown = realloc(o->data, cap);
        if (!grown) {
            o->oom = true;
            return;
        }
        o->data = grown;
        o->capacity = cap;
    }
    if (n)
        memcpy(o->data + o->len, bytes, n);
    o->len += n;
}

static void put_u8(Out *o, uint8_t v)
{
    put(o, &v, 1);
}
static void put_u16(Out *o, uint16_t v)
{
    put(o, &v, 2);
}
static void put_u32(Out *o, uint32_t v)
{
    put(o, &v, 4);
}
static void put_u64(Out *o, uint64_t v)
{
    put(o, &v, 8);
}

/* ---- the writer ---- */

typedef struct Writer {
    const JgModule *m;
    const Symbols *syms;
    Out strings; /* starts with one NUL: offset 0 is "no string" */
    Out body;
    JgArena scratch;
    PtrMap strmap;    /* interned string pointer -> offset (by identity) */
    PtrMap graph_ids; /* graph -> index */
    PtrMap words;     /* address word inside a copied global -> 1 */
    char *err;
    size_t errsize;
    bool failed;
} Writer;

static void fail(Writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Keeps the first error. */
static void fail(Writer *w, const char *fmt, ...)
{
    if (!w->failed && w->err && w->errsize) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->err, w->errsize, fmt, ap);
        va_end(ap);
    }
    w->failed = true;
}

/* Strings are interned by pointer: the reader shares one copy of each name
 * between the graph and the constants naming it. */
static uint32_t string_ref(Writer *w, const char *s)
{
    if (!s)
        return 0;
    uint64_t off;
    if (pm_get(&w->strmap, s, &off))
        return (uint32_t)off;
    off = w->strings.len;
    if (off > UINT32_MAX - 1) {
        fail(w, "graph image: string table too large");
        return 0;
    }
    put(&w->strings, s, strlen(s) + 1);
    pm_put(&w->strmap, s, off);
    return (uint32_t)off;
}

typedef struct Reloc {
    uint8_t kind;
    uint32_t index;
    uint64_t addend; /* or the bits, for JG_RELOC_NONE */
} Reloc;

static bool is_placeholder(const Writer *w, uint64_t bits)
{
    uint64_t lo = JG_IMAGE_FAKE_BASE - FAKE_HALF;
    return bits >= lo && bits - lo < (uint64_t)w->syms->count * JG_IMAGE_FAKE_SPAN;
}

static Reloc placeholder_reloc(uint64_t bits)
{
    uint64_t k = (bits - JG_IMAGE_FAKE_BASE + FAKE_HALF) / JG_IMAGE_FAKE_SPAN;
    return (Reloc){JG_RELOC_SYMBOL, (uint32_t)k,
                   bits - (JG_IMAGE_FAKE_BASE + k * JG_IMAGE_FAKE_SPAN)};
}

/* The relocation of an address: a symbol's placeholder, an internal
 * function's token, or a place in (or just past) a copied constant. */
static bool address_reloc(Writer *w, uint64_t bits, Reloc *out)
{
    if (is_placeholder(w, bits)) {
        *out = placeholder_reloc(bits);
        return true;
    }
    const void *p = (const void *)(uintptr_t)bits;
    uint64_t id;
    if (pm_get(&w->graph_ids, p, &id)) {
        *out = (Reloc){JG_RELOC_GRAPH, (uint32_t)id, 0};
        return true;
    }
    const JgGlobal *g = jg_module_global_at(w->m, p);
    if (!g && bits) /* one past the end */
        g = jg_module_global_at(w->m, (const void *)(uintptr_t)(bits - 1));
    if (g && g->copied) {
        *out = (Reloc){JG_RELOC_GLOBAL, (uint32_t)(g - w->m->globals.items),
                       bits - (uint64_t)(uintptr_t)g->address};
        return true;
    }
    return false;
}

static void put_reloc(Out *o, Reloc r)
{
    put_u8(o, r.kind);
    put_u32(o, r.index);
    put_u64(o, r.addend);
}

static void write_global(Writer *w, const JgGlobal *g)
{
    put_u32(&w->body, string_ref(w, g->name));
    put_u64(&w->body, g->size);
    put_u8(&w->body, g->constant);
    put_u8(&w->body, g->copied);
    if (!g->copied) {
        uint64_t bits = (uint64_t)(uintptr_t)g->address;
        if (!is_placeholder(w, bits)) {
            fail(w, "graph image: global '%s' has no symbol", g->name);
            return;
        }
        put_u32(&w->body, placeholder_reloc(bits).index);
        return;
    }
    put_u32(&w->body, g->align);
    put(&w->body, g->address, g->size);
    /* the relocations of the copy: its address words, one pass */
    const uint8_t *mem = g->address;
    Out relocs = {0};
    uint32_t n = 0;
    for (uint64_t off = 0; off + 8 <= g->size; off++) {
        uint64_t bits;
        memcpy(&bits, mem + off, 8);
        Reloc r;
        if (!pm_get(&w->words, mem + off, &(uint64_t){0})) {
            if (is_placeholder(w, bits)) /* an address stored as an integer */
                fail(w,
                     "graph image: constant '%s' holds an address at offset %llu that cannot "
                     "be relocated",
                     g->name, (unsigned long long)off);
        } else if (!address_reloc(w, bits, &r)) {
            fail(w, "graph image: constant '%s' holds an unknown address at offset %llu", g->name,
                 (unsigned long long)off);
        } else {
            put_u64(&relocs, off);
            put_reloc(&relocs, r);
            n++;
        }
    }
    put_u32(&w->body, n);
    put(&w->body, relocs.data, relocs.len);
    w->body.oom = w->body.oom || relocs.oom;
    free(relocs.data);
}

static void write_value(Writer *w, const JgGraph *g, const JgValueInfo *vi)
{
    put_u8(&w->body, vi->type);
    put_u8(&w->body, vi->kind);
    if (vi->kind != JG_VK_CONST) {
        put_u32(&w->body, vi->block);
        put_u32(&w->body, vi->index);
        return;
    }
    put_u32(&w->body, string_ref(w, vi->symbol));
    Reloc r = {JG_RELOC_NONE, 0, vi->bits};
    if (vi->symbol && !address_reloc(w, vi->bits, &r))
        fail(w, "graph image: %s: constant @%s has an address the image cannot relocate", g->name,
             vi->symbol);
    else if (!vi->symbol && is_placeholder(w, vi->bits))
        fail(w,
             "graph image: %s: an integer constant holds a symbol's address (or collides with "
             "the image's placeholder addresses: %#llx)",
             g->name, (unsigned long long)vi->bits);
    put_reloc(&w->body, r);
}

static uint32_t graph_id(Writer *w, const JgGraph *g)
{
    uint64_t id;
    return g && pm_get(&w->graph_ids, g, &id) ? (uint32_t)id + 1 : 0;
}

static void put_vals(Writer *w, uint32_t n, const JgVal *vals)
{
    put_u32(&w->body, n);
    for (uint32_t i = 0; i < n; i++)
        put_u32(&w->body, vals[i]);
}

static void write_op(Writer *w, const JgOp *op)
{
    put_u16(&w->body, op->opcode);
    put_u8(&w->body, op->type);
    put_u8(&w->body, op->pred);
    put_vals(w, op->nargs, op->args);
    put_u32(&w->body, op->result);
    put_u64(&w->body, (uint64_t)op->imm);
    put_u32(&w->body, graph_id(w, op->callee));
    put_u32(&w->body, op->line);
}

static void write_term(Writer *w, const JgGraph *g, const JgTerm *t)
{
    if (t->kind == JG_TERM_FLEXSWITCH || t->kind == JG_TERM_NONE)
        fail(w, "graph image: %s: a block without a final terminator", g->name);
    put_u8(&w->body, t->kind);
    put_u32(&w->body, t->value);
    put_u32(&w->body, t->nlinks);
    for (uint32_t i = 0; i < t->nlinks; i++) {
        put_u32(&w->body, t->links[i].target);
        put_vals(w, t->links[i].nargs, t->links[i].args);
    }
    if (t->kind == JG_TERM_SWITCH)
        for (uint32_t i = 0; i + 1 < t->nlinks; i++)
            put_u64(&w->body, (uint64_t)t->cases[i]);
    put_u32(&w->body, t->line);
}

static void write_graph(Writer *w, const JgGraph *g)
{
    put_u32(&w->body, string_ref(w, g->name));
    put_u8(&w->body, g->ret_type);
    put_u32(&w->body, g->flags);
    uint64_t native = (uint64_t)(uintptr_t)g->native;
    if (native && !is_placeholder(w, native))
        fail(w, "graph image: function '%s' has no symbol", g->name);
    put_u32(&w->body, native ? placeholder_reloc(native).index + 1 : 0);
    put_u32(&w->body, g->nparams);
    put(&w->body, g->param_types, g->nparams);
    put_u8(&w->body, g->variadic);
    put_u32(&w->body, string_ref(w, g->file));
    put_u32(&w->body, g->line);
    put_u32(&w->body, g->values.count);
    put_u32(&w->body, g->blocks.count);
    for (uint32_t v = 1; v < g->values.count; v++)
        write_value(w, g, &g->values.items[v]);
    for (uint32_t b = 0; b < g->blocks.count; b++) {
        const JgBlock *blk = &g->blocks.items[b];
        put_u32(&w->body, blk->flags);
        put_vals(w, blk->nparams, blk->params);
        put_u32(&w->body, blk->ops.count);
        for (uint32_t i = 0; i < blk->ops.count; i++)
            write_op(w, &blk->ops.items[i]);
        write_term(w, g, &blk->term);
    }
}

static void write_module(Writer *w)
{
    const JgModule *m = w->m;
    pm_init(&w->strmap, &w->scratch, 1024);
    pm_init(&w->graph_ids, &w->scratch, m->graphs.count);
    pm_init(&w->words, &w->scratch, m->address_words.count);
    for (uint32_t i = 0; i < m->graphs.count; i++)
        pm_put(&w->graph_ids, m->graphs.items[i], i);
    for (uint32_t i = 0; i < m->address_words.count; i++)
        pm_put(&w->words, m->address_words.items[i], 1);
    put_u8(&w->strings, 0);
    for (uint32_t i = 0; i < w->syms->count; i++)
        put_u32(&w->body, string_ref(w, w->syms->names[i]));
    for (uint32_t i = 0; i < m->globals.count; i++)
        write_global(w, &m->globals.items[i]);
    for (uint32_t i = 0; i < m->graphs.count; i++)
        write_graph(w, m->graphs.items[i]);
}

/* Header, string table, then the body (symbols, globals, graphs). */
static bool assemble(Writer *w, void **image, size_t *image_len)
{
    Out out = {0};
    char magic[JG_IMAGE_MAGIC_LEN] = JG_IMAGE_MAGIC;
    put(&out, magic, sizeof magic);
    put_u32(&out, JG_IMAGE_VERSION);
    put_u32(&out, (uint32_t)w->strings.len);
    put_u32(&out, w->syms->count);
    put_u32(&out, w->m->globals.count);
    put_u32(&out, w->m->graphs.count);
    put_u32(&out, graph_id(w, w->m->portal));
    put_u32(&out, 0); /* no analysis section yet: jg_image_with_analysis */
    put(&out, w->strings.data, w->strings.len);
    put(&out, w->body.data, w->body.len);
    if (out.oom || w->strings.oom || w->body.oom) {
        free(out.data);
        fail(w, "graph image: out of memory");
        return false;
    }
    *image = out.data;
    *image_len = out.len;
    return true;
}

bool jg_image_from_bitcode(const void *bitcode, size_t len, const char *root, void **image,
                           size_t *image_len, char *err, size_t errsize)
{
    Symbols syms = {0};
    JgModule *m = jg_module_read_bitcode(bitcode, len, root, record_symbol, &syms, err, errsize);
    bool ok = m != NULL;
    if (ok && syms.oom) {
        snprintf(err, errsize, "graph image: out of memory");
        ok = false;
    }
    if (ok) {
        Writer w = {.m = m, .syms = &syms, .err = err, .errsize = errsize};
        write_module(&w);
        ok = !w.failed && assemble(&w, image, image_len);
        free(w.strings.data);
        free(w.body.data);
        jg_arena_free(&w.scratch);
    }
    jg_module_free(m);
    symbols_free(&syms);
    return ok;
}
