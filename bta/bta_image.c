/* Binding times computed at build time (docs/architecture.md, "Binding-time
 * analysis"): the analysis depends on the interpreter's graphs alone, never
 * on the program the interpreter runs, so jitgen-image runs it once and
 * stores every variant in the graph image's analysis section. A process
 * then loads the variants (a copy) instead of analysing the portal again,
 * which took a sixth of the instructions of a loop's hand-over. Variants the
 * partial evaluator asks for later (callees of calls through pointers, red
 * to the analysis) are still computed on first use.
 *
 * Layout (fixed-width little-endian numbers):
 *
 *   header   "JGBTA\0\0\0", u32 version, u32 variants, u32 portal variant,
 *            u64 portal green parameters
 *   variant  u32 graph (index in the module), u64 green parameters,
 *            u8 return color, u32 values, u32 blocks, u8 color[values],
 *            u8 frozen[values], u8 loop header[blocks], u8 merge point[blocks]
 *
 * Loading checks every field against the module, so a damaged section is an
 * error message, never a crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bta.h"
#include "bta_internal.h"

#define BTA_MAGIC "JGBTA\0\0"
#define BTA_MAGIC_LEN 8
#define BTA_VERSION 1u
#define HEADER_BYTES (BTA_MAGIC_LEN + 4 + 4 + 4 + 8)
#define VARIANT_BYTES (4 + 8 + 1 + 4 + 4)

static uint32_t graph_index(const JgModule *m, const JgGraph *g)
{
    for (uint32_t i = 0; i < m->graphs.count; i++)
        if (m->graphs.items[i] == g)
            return i;
    return UINT32_MAX;
}

static uint8_t *put(uint8_t *p, const void *bytes, size_t n)
{
    memcpy(p, bytes, n);
    return p + n;
}

bool jg_bta_write(const JgBta *bta, void **out, size_t *out_len)
{
    size_t len = HEADER_BYTES;
    uint32_t n = 0, portal = UINT32_MAX;
    for (const JgBtaVariant *v = bta->variants; v; v = v->next, n++) {
        if (v == bta->portal)
            portal = n;
        if (v->in_progress || graph_index(bta->module, v->graph) == UINT32_MAX)
            return false;
        len +=
            VARIANT_BYTES + 2 * (size_t)v->graph->values.count + 2 * (size_t)v->graph->blocks.count;
    }
    uint8_t *data = malloc(len);
    if (!data || portal == UINT32_MAX) {
        free(data);
        return false;
    }
    uint32_t version = BTA_VERSION;
    uint8_t *p = put(data, BTA_MAGIC, BTA_MAGIC_LEN);
    p = put(p, &version, 4);
    p = put(p, &n, 4);
    p = put(p, &portal, 4);
    p = put(p, &bta->portal_green_params, 8);
    for (const JgBtaVariant *v = bta->variants; v; v = v->next) {
        uint32_t gi = graph_index(bta->module, v->graph);
        uint32_t nv = v->graph->values.count, nb = v->graph->blocks.count;
        uint8_t ret = (uint8_t)v->ret_color;
        p = put(p, &gi, 4);
        p = put(p, &v->green_params, 8);
        p = put(p, &ret, 1);
        p = put(p, &nv, 4);
        p = put(p, &nb, 4);
        p = put(p, v->color, nv);
        p = put(p, v->frozen, nv);
        p = put(p, v->loop_header, nb);
        p = put(p, v->merge_point, nb);
    }
    *out = data;
    *out_len = len;
    return true;
}

typedef struct Reader {
    const uint8_t *p, *end;
    bool bad;
} Reader;

static void take(Reader *r, void *dst, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, r->p, n);
    r->p += n;
}

/* `n` bytes of flags (each 0 or 1) copied into fresh arena memory with one
 * byte to spare, as the analysis allocates them. */
static uint8_t *take_flags(Reader *r, JgArena *a, uint32_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        return NULL;
    }
    uint8_t *flags = jg_arena_alloc(a, (size_t)n + 1);
    memcpy(flags, r->p, n);
    r->p += n;
    uint8_t any = 0; /* an OR over all: a loop the compiler vectorizes */
    for (uint32_t i = 0; i < n; i++)
        any |= flags[i];
    if (any > 1)
        r->bad = true;
    return flags;
}

static void load_variant(Reader *r, JgBta *bta, JgBtaVariant *v)
{
    const JgModule *m = bta->module;
    uint32_t gi, nv, nb;
    uint8_t ret;
    take(r, &gi, 4);
    take(r, &v->green_params, 8);
    take(r, &ret, 1);
    take(r, &nv, 4);
    take(r, &nb, 4);
    if (r->bad || gi >= m->graphs.count || ret > JG_RED) {
        r->bad = true;
        return;
    }
    v->graph = m->graphs.items[gi];
    v->ret_color = (JgColor)ret;
    if (nv != v->graph->values.count || nb != v->graph->blocks.count ||
        bta_find_variant(bta, v->graph, v->green_params)) {
        r->bad = true;
        return;
    }
    v->color = take_flags(r, &bta->arena, nv);
    v->frozen = take_flags(r, &bta->arena, nv);
    v->loop_header = take_flags(r, &bta->arena, nb);
    v->merge_point = take_flags(r, &bta->arena, nb);
}

JgBta *jg_bta_load(const JgModule *m, const void *data, size_t len, char *err, size_t errsize)
{
    JgBta *bta = calloc(1, sizeof *bta);
    if (!bta) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    bta->module = m;
    Reader r = {data, (const uint8_t *)data + len, false};
    char magic[BTA_MAGIC_LEN];
    uint32_t version, n, portal;
    take(&r, magic, sizeof magic);
    take(&r, &version, 4);
    take(&r, &n, 4);
    take(&r, &portal, 4);
    take(&r, &bta->portal_green_params, 8);
    if (r.bad || memcmp(magic, BTA_MAGIC, BTA_MAGIC_LEN) != 0 || version != BTA_VERSION ||
        n > (size_t)(r.end - r.p) / VARIANT_BYTES || portal >= n)
        r.bad = true;
    for (uint32_t i = 0; i < n && !r.bad; i++) {
        JgBtaVariant *v = jg_arena_alloc(&bta->arena, sizeof *v);
        load_variant(&r, bta, v);
        if (r.bad)
            break;
        bta_add_variant(bta, v);
        if (i == portal)
            bta->portal = v;
    }
    if (!r.bad && (r.p != r.end || bta->portal->graph != m->portal ||
                   bta->portal->green_params != bta->portal_green_params))
        r.bad = true;
    if (r.bad) {
        snprintf(err, errsize,
                 "the graph image's binding times are damaged or belong to other graphs (at "
                 "byte %zu of %zu)",
                 (size_t)(r.p - (const uint8_t *)data), len);
        jg_bta_free(bta);
        return NULL;
    }
    return bta;
}
