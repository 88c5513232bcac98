/* Loading graph images (docs/frontend.md, "Graph images"): one pass over the
 * image builds the module in its arena, resolving each symbol once and
 * applying the relocations. Every count, index and offset is checked against
 * the image, so a damaged image is an error message, never a crash; the
 * graphs' meaning is trusted (the image is the build's own output). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "image.h"
#include "image_format.h"
#include "module_internal.h"

typedef struct Loader {
    const uint8_t *p, *end;
    bool bad; /* read past the end, or an out-of-range field */
    JgModule *m;
    const char *strings;
    uint32_t strings_len;
    void **symbols; /* resolved addresses */
    uint32_t nsymbols;
    JgGraph *graphs; /* preallocated, so relocations may point at any graph */
    uint32_t ngraphs;
    JgSymbolResolver resolve;
    void *resolve_ctx;
    char *err;
    size_t errsize;
    bool failed;
} Loader;

static void fail(Loader *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Keeps the first error. */
static void fail(Loader *l, const char *fmt, ...)
{
    if (!l->failed && l->err && l->errsize) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(l->err, l->errsize, fmt, ap);
        va_end(ap);
    }
    l->failed = true;
}

static bool take(Loader *l, void *dst, size_t n)
{
    if (l->bad || (size_t)(l->end - l->p) < n) {
        l->bad = true;
        memset(dst, 0, n);
        return false;
    }
    memcpy(dst, l->p, n);
    l->p += n;
    return true;
}

static uint8_t get_u8(Loader *l)
{
    uint8_t v;
    take(l, &v, 1);
    return v;
}
static uint16_t get_u16(Loader *l)
{
    uint16_t v;
    take(l, &v, 2);
    return v;
}
static uint32_t get_u32(Loader *l)
{
    uint32_t v;
    take(l, &v, 4);
    return v;
}
static uint64_t get_u64(Loader *l)
{
    uint64_t v;
    take(l, &v, 8);
    return v;
}

/* A field that must be below `limit`: 0 and a mark when it is not. */
static uint32_t get_index(Loader *l, uint32_t limit)
{
    uint32_t v = get_u32(l);
    if (v >= limit) {
        l->bad = true;
        return 0;
    }
    return v;
}

/* A count of items of at least `min_bytes` each: the image must hold them,
 * so a damaged count cannot ask for a huge allocation. */
static uint32_t get_count(Loader *l, size_t min_bytes)
{
    uint32_t n = get_u32(l);
    if ((size_t)(l->end - l->p) / min_bytes < n) {
        l->bad = true;
        return 0;
    }
    return n;
}

static const char *get_string(Loader *l)
{
    uint32_t off = get_index(l, l->strings_len);
    return off ? l->strings + off : NULL;
}

/* An address relative to a symbol, a graph or a copied global. */
static uint64_t resolve_reloc(Loader *l, uint8_t kind, uint32_t index, uint64_t bits)
{
    switch (kind) {
    case JG_RELOC_NONE:
        return bits;
    case JG_RELOC_SYMBOL:
        if (index < l->nsymbols)
            return (uint64_t)(uintptr_t)l->symbols[index] + bits;
        break;
    case JG_RELOC_GRAPH:
        if (index < l->ngraphs)
            return (uint64_t)(uintptr_t)&l->graphs[index] + bits;
        break;
    case JG_RELOC_GLOBAL:
        if (index < l->m->globals.count && l->m->globals.items[index].copied)
            return (uint64_t)(uintptr_t)l->m->globals.items[index].address + bits;
        break;
    }
    l->bad = true;
    return 0;
}

static uint64_t relocate(Loader *l)
{
    uint8_t kind = get_u8(l);
    uint32_t index = get_u32(l);
    uint64_t bits = get_u64(l);
    return resolve_reloc(l, kind, index, bits);
}

static void load_symbols(Loader *l)
{
    l->symbols = jg_arena_alloc(&l->m->arena, sizeof *l->symbols * (l->nsymbols + 1));
    for (uint32_t i = 0; i < l->nsymbols && !l->bad && !l->failed; i++) {
        const char *name = get_string(l);
        if (!name) {
            l->bad = true;
            break;
        }
        l->symbols[i] = l->resolve(l->resolve_ctx, name);
        if (!l->symbols[i])
            fail(l,
                 "unresolved symbol '%s': it has no native address (is the binary linked "
                 "with its export list?)",
                 name);
    }
}

/* A relocation inside a copied global, applied once every global is
 * loaded (copies may refer to each other in either order). */
typedef struct PendingWord {
    uint8_t *dst;
    uint8_t kind;
    uint32_t index;
    uint64_t addend;
} PendingWord;

typedef JG_VEC(PendingWord) PendingWords;

static void load_global(Loader *l, JgGlobal *g, PendingWords *pending)
{
    g->name = get_string(l);
    g->size = get_u64(l);
    g->constant = get_u8(l) != 0;
    g->copied = get_u8(l) != 0;
    if (!g->copied) {
        g->address = l->symbols[get_index(l, l->nsymbols)];
        return;
    }
    g->align = get_u32(l);
    if (l->bad || g->align < 16 || g->align > 4096 || (g->align & (g->align - 1)) ||
        g->size > (uint64_t)(l->end - l->p)) {
        l->bad = true;
        return;
    }
    uint8_t *raw = jg_arena_alloc(&l->m->arena, g->size + g->align);
    uint8_t *mem = (uint8_t *)(((uintptr_t)raw + g->align - 1) & ~(uintptr_t)(g->align - 1));
    take(l, mem, g->size);
    g->address = mem;
    uint32_t n = get_count(l, 21);
    for (uint32_t i = 0; i < n && !l->bad; i++) {
        uint64_t off = get_u64(l);
        PendingWord w = {.kind = get_u8(l), .index = get_u32(l), .addend = get_u64(l)};
        if (g->size < 8 || off > g->size - 8) {
            l->bad = true;
            return;
        }
        w.dst = mem + off;
        JG_VEC_PUSH(&l->m->arena, *pending, w);
    }
}

static void load_globals(Loader *l, uint32_t n)
{
    JgModule *m = l->m;
    PendingWords pending = {0};
    m->globals.items = jg_arena_alloc(&m->arena, sizeof *m->globals.items * (n + 1));
    m->globals.capacity = n;
    for (uint32_t i = 0; i < n && !l->bad; i++) {
        load_global(l, &m->globals.items[i], &pending);
        m->globals.count = i + 1;
    }
    for (uint32_t i = 0; i < pending.count && !l->bad; i++) {
        const PendingWord *w = &pending.items[i];
        uint64_t bits = resolve_reloc(l, w->kind, w->index, w->addend);
        memcpy(w->dst, &bits, 8);
    }
}

static JgVal *get_vals(Loader *l, uint32_t *n, uint32_t nvalues)
{
    *n = get_count(l, 4);
    JgVal *vals = *n ? jg_arena_alloc(&l->m->arena, sizeof *vals * *n) : NULL;
    for (uint32_t i = 0; i < *n; i++)
        vals[i] = get_index(l, nvalues);
    return vals;
}

static void load_value(Loader *l, JgValueInfo *vi, uint32_t nblocks)
{
    vi->type = get_u8(l);
    vi->kind = get_u8(l);
    if (vi->type > JG_F64 || vi->kind > JG_VK_OP)
        l->bad = true;
    if (vi->kind != JG_VK_CONST) {
        /* a declaration keeps its parameters' values but has no blocks */
        vi->block = get_index(l, nblocks ? nblocks : 1);
        vi->index = get_u32(l);
        return;
    }
    vi->symbol = get_string(l);
    vi->bits = relocate(l);
}

static void load_op(Loader *l, JgOp *op, uint32_t nvalues)
{
    op->opcode = get_u16(l);
    op->type = get_u8(l);
    op->pred = get_u8(l);
    if (op->opcode >= JG_OP__COUNT || op->type > JG_F64 || op->pred > JG_FFALSE)
        l->bad = true;
    op->args = get_vals(l, &op->nargs, nvalues);
    op->result = get_index(l, nvalues);
    op->imm = (int64_t)get_u64(l);
    uint32_t callee = get_index(l, l->ngraphs + 1);
    op->callee = callee ? &l->graphs[callee - 1] : NULL;
    op->line = get_u32(l);
}

static void load_term(Loader *l, JgTerm *t, uint32_t nvalues, uint32_t nblocks)
{
    t->kind = get_u8(l);
    if (t->kind == JG_TERM_NONE || t->kind > JG_TERM_UNREACHABLE)
        l->bad = true;
    t->value = get_index(l, nvalues);
    t->nlinks = get_count(l, 8);
    t->links = t->nlinks ? jg_arena_alloc(&l->m->arena, sizeof *t->links * t->nlinks) : NULL;
    for (uint32_t i = 0; i < t->nlinks && !l->bad; i++) {
        t->links[i].target = get_index(l, nblocks);
        t->links[i].args = get_vals(l, &t->links[i].nargs, nvalues);
    }
    if (t->kind == JG_TERM_SWITCH && t->nlinks && !l->bad) {
        t->cases = jg_arena_alloc(&l->m->arena, sizeof *t->cases * t->nlinks);
        for (uint32_t i = 0; i + 1 < t->nlinks; i++)
            t->cases[i] = (int64_t)get_u64(l);
    }
    t->line = get_u32(l);
}

static void load_block(Loader *l, JgBlock *b, uint32_t nvalues, uint32_t nblocks)
{
    b->flags = get_u32(l);
    b->params = get_vals(l, &b->nparams, nvalues);
    uint32_t nops = get_count(l, 28);
    b->ops.items = jg_arena_alloc(&l->m->arena, sizeof *b->ops.items * (nops + 1));
    b->ops.count = b->ops.capacity = nops;
    for (uint32_t i = 0; i < nops && !l->bad; i++)
        load_op(l, &b->ops.items[i], nvalues);
    load_term(l, &b->term, nvalues, nblocks);
}

static void load_graph(Loader *l, JgGraph *g)
{
    JgArena *arena = &l->m->arena;
    g->arena = arena;
    g->name = get_string(l);
    g->ret_type = get_u8(l);
    g->flags = get_u32(l);
    uint32_t native = get_index(l, l->nsymbols + 1);
    g->native = native ? l->symbols[native - 1] : NULL;
    g->nparams = get_count(l, 1);
    g->param_types = jg_arena_alloc(arena, g->nparams + 1);
    take(l, g->param_types, g->nparams);
    g->variadic = get_u8(l) != 0;
    g->file = get_string(l);
    g->line = get_u32(l);
    uint32_t nvalues = get_count(l, 2);
    uint32_t nblocks = get_count(l, 17);
    if (!g->name || g->ret_type > JG_F64 || nvalues == 0)
        l->bad = true;
    if (l->bad)
        return;
    g->values.items = jg_arena_alloc(arena, sizeof *g->values.items * nvalues);
    g->values.count = g->values.capacity = nvalues;
    for (uint32_t v = 1; v < nvalues && !l->bad; v++)
        load_value(l, &g->values.items[v], nblocks);
    g->blocks.items = jg_arena_alloc(arena, sizeof *g->blocks.items * (nblocks + 1));
    g->blocks.count = g->blocks.capacity = nblocks;
    for (uint32_t b = 0; b < nblocks && !l->bad; b++)
        load_block(l, &g->blocks.items[b], nvalues, nblocks);
}

static bool load_header(Loader *l, uint32_t *nglobals, uint32_t *portal)
{
    char magic[JG_IMAGE_MAGIC_LEN];
    take(l, magic, sizeof magic);
    if (l->bad || memcmp(magic, JG_IMAGE_MAGIC, sizeof magic) != 0) {
        fail(l, "not a graph image");
        return false;
    }
    uint32_t version = get_u32(l);
    if (version != JG_IMAGE_VERSION) {
        fail(l, "graph image version %u, expected %u", version, JG_IMAGE_VERSION);
        return false;
    }
    l->strings_len = get_u32(l);
    l->nsymbols = get_u32(l);
    *nglobals = get_u32(l);
    l->ngraphs = get_u32(l);
    *portal = get_u32(l);
    uint32_t analysis = get_u32(l);
    if (l->bad || analysis > (size_t)(l->end - l->p)) {
        l->bad = true;
        return false;
    }
    l->end -= analysis; /* the graphs end where the analysis starts */
    size_t left = (size_t)(l->end - l->p);
    /* the string table ends with a NUL, so every offset into it is a string */
    if (l->bad || l->strings_len == 0 || l->strings_len > left ||
        l->p[l->strings_len - 1] != '\0' || l->nsymbols > left / 4 || *nglobals > left / 14 ||
        l->ngraphs > left / 30 || *portal > l->ngraphs) {
        l->bad = true;
        return false;
    }
    l->strings = jg_arena_strndup(&l->m->arena, (const char *)l->p, l->strings_len);
    l->p += l->strings_len;
    return true;
}

static void load_module(Loader *l)
{
    JgModule *m = l->m;
    uint32_t nglobals = 0, portal = 0;
    if (!load_header(l, &nglobals, &portal))
        return;
    l->graphs = jg_arena_alloc(&m->arena, sizeof *l->graphs * (l->ngraphs + 1));
    load_symbols(l);
    if (l->failed || l->bad)
        return;
    load_globals(l, nglobals);
    m->graphs.items = jg_arena_alloc(&m->arena, sizeof *m->graphs.items * (l->ngraphs + 1));
    m->graphs.capacity = l->ngraphs;
    for (uint32_t i = 0; i < l->ngraphs && !l->bad; i++) {
        load_graph(l, &l->graphs[i]);
        m->graphs.items[m->graphs.count++] = &l->graphs[i];
    }
    if (l->p != l->end)
        l->bad = true;
    m->portal = portal ? &l->graphs[portal - 1] : NULL;
}

bool jg_is_graph_image(const void *data, size_t len)
{
    return data && len >= JG_IMAGE_MAGIC_LEN &&
           memcmp(data, JG_IMAGE_MAGIC, JG_IMAGE_MAGIC_LEN) == 0;
}

JgModule *jg_module_load_image(const void *image, size_t len, JgSymbolResolver resolve, void *ctx,
                               char *err, size_t errsize)
{
    if (err && errsize)
        err[0] = '\0';
    Loader l = {.p = image,
                .end = (const uint8_t *)image + (image ? len : 0),
                .m = jg_module_new(),
                .resolve = resolve ? resolve : jg_resolve_self,
                .resolve_ctx = ctx,
                .err = err,
                .errsize = errsize};
    load_module(&l);
    if (l.bad)
        fail(&l, "malformed graph image (at byte %zu of %zu)",
             (size_t)(l.p - (const uint8_t *)image), len);
    if (l.failed) {
        jg_module_free(l.m);
        return NULL;
    }
    jg_module_build_index(l.m);
    return l.m;
}
