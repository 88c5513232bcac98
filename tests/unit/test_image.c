/* Graph images (frontend/image_*.c): a module written at build time and
 * loaded in another process must equal the module read from the same
 * bitcode: the same graphs (printed text), natives, globals and copied
 * constants (with their addresses relocated), and the same binding-time
 * colors. Damaged images must fail with a message, never crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bta/bta.h"
#include "frontend/eval.h"
#include "frontend/image.h"
#include "frontend/module.h"
#include "tlc/loader.h"

typedef struct Blob {
    char *bytes;
    size_t len;
} Blob;

static Blob samples_bc, tlc_bc;

static Blob load_file(const char *path)
{
    Blob b = {0};
    b.bytes = tlc_read_file(path, &b.len);
    if (!b.bytes)
        fail_msg("cannot read %s", path);
    return b;
}

static int setup_files(void **state)
{
    (void)state;
    samples_bc = load_file(READER_SAMPLES_BC);
    tlc_bc = load_file(READER_TLC_BC);
    return 0;
}

static int teardown_files(void **state)
{
    (void)state;
    free(samples_bc.bytes);
    free(tlc_bc.bytes);
    return 0;
}

static Blob make_image(const Blob *bc, const char *root)
{
    char err[512];
    Blob img = {0};
    void *data = NULL;
    if (!jg_image_from_bitcode(bc->bytes, bc->len, root, &data, &img.len, err, sizeof err))
        fail_msg("writing the image of %s: %s", root ? root : "the portal", err);
    img.bytes = data;
    return img;
}

static JgModule *load_ok(const Blob *img)
{
    char err[512];
    JgModule *m = jg_module_load_image(img->bytes, img->len, NULL, NULL, err, sizeof err);
    if (!m)
        fail_msg("loading the image: %s", err);
    return m;
}

static JgModule *read_ok(const Blob *bc, const char *root)
{
    char err[512];
    JgModule *m = jg_module_read_bitcode(bc->bytes, bc->len, root, NULL, NULL, err, sizeof err);
    if (!m)
        fail_msg("reading %s: %s", root ? root : "the portal", err);
    return m;
}

/* ---- comparing modules ---- */

static char *graph_text(const JgGraph *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    jg_print_graph(f, g, NULL, NULL);
    fclose(f);
    return text;
}

/* What an address means, independent of where the module lives: a graph
 * (by native address or token), a place in a global, or the number. */
static void describe(const JgModule *m, uint64_t bits, char *buf, size_t size)
{
    const void *p = (const void *)(uintptr_t)bits;
    const JgGraph *g = jg_module_graph_by_native(m, p);
    const JgGlobal *gl = jg_module_global_at(m, p);
    if (g)
        snprintf(buf, size, "graph %s", g->name);
    else if (gl)
        snprintf(buf, size, "global %s%+lld", gl->name,
                 (long long)(bits - (uint64_t)(uintptr_t)gl->address));
    else
        snprintf(buf, size, "%#llx", (unsigned long long)bits);
}

static void assert_same_global(const JgModule *read, const JgGlobal *a, const JgModule *loaded,
                               const JgGlobal *b)
{
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->size, b->size);
    assert_int_equal(a->constant, b->constant);
    assert_int_equal(a->copied, b->copied);
    if (!a->copied) {
        assert_ptr_equal(a->address, b->address);
        return;
    }
    assert_int_equal(a->align, b->align);
    assert_int_equal((uintptr_t)b->address % b->align, 0);
    /* bytes equal, except addresses, which must mean the same thing */
    uint8_t *expect = malloc(a->size + 1);
    assert_non_null(expect);
    memcpy(expect, a->address, a->size);
    for (uint32_t i = 0; i < read->address_words.count; i++) {
        const uint8_t *word = read->address_words.items[i];
        uint64_t off = (uint64_t)(word - (const uint8_t *)a->address);
        if (word < (const uint8_t *)a->address || off + 8 > a->size)
            continue;
        uint64_t x, y;
        memcpy(&x, word, 8);
        memcpy(&y, (const uint8_t *)b->address + off, 8);
        char dx[256], dy[256];
        describe(read, x, dx, sizeof dx);
        describe(loaded, y, dy, sizeof dy);
        assert_string_equal(dx, dy);
        memcpy(expect + off, &y, 8);
    }
    assert_memory_equal(expect, b->address, a->size);
    free(expect);
}

static char *bta_text(const JgModule *m)
{
    char err[512];
    JgBta *bta = jg_bta_new(m, err, sizeof err);
    if (!bta)
        fail_msg("bta: %s", err);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    jg_bta_print(f, bta->portal);
    fprintf(f, "green params %#llx\n", (unsigned long long)bta->portal_green_params);
    fclose(f);
    jg_bta_free(bta);
    return text;
}

static void assert_same_module(const JgModule *a, const JgModule *b)
{
    assert_int_equal(a->graphs.count, b->graphs.count);
    for (uint32_t i = 0; i < a->graphs.count; i++) {
        const JgGraph *x = a->graphs.items[i], *y = b->graphs.items[i];
        assert_string_equal(x->name, y->name);
        assert_ptr_equal(x->native, y->native);
        assert_int_equal(x->flags, y->flags);
        assert_int_equal(x->ret_type, y->ret_type);
        assert_int_equal(x->nparams, y->nparams);
        assert_memory_equal(x->param_types, y->param_types, x->nparams);
        assert_int_equal(x->variadic, y->variadic);
        assert_int_equal(x->line, y->line);
        assert_string_equal(x->file ? x->file : "", y->file ? y->file : "");
        assert_int_equal(x->values.count, y->values.count);
        assert_int_equal(x->blocks.count, y->blocks.count);
        char *tx = graph_text(x), *ty = graph_text(y);
        assert_string_equal(tx, ty);
        free(tx);
        free(ty);
        /* lookups find the loaded graphs */
        assert_ptr_equal(jg_module_graph_by_name(b, y->name), y);
        if (!(y->flags & JG_FLAG_EXTERNAL))
            assert_ptr_equal(jg_module_graph_by_native(b, y->native ? y->native : (void *)y), y);
    }
    assert_int_equal(a->globals.count, b->globals.count);
    for (uint32_t i = 0; i < a->globals.count; i++)
        assert_same_global(a, &a->globals.items[i], b, &b->globals.items[i]);
    if (a->portal)
        assert_string_equal(a->portal->name, b->portal->name);
    else
        assert_null(b->portal);
}

/* ---- tests ---- */

static void test_tlc_round_trip(void **state)
{
    (void)state;
    JgModule *read = read_ok(&tlc_bc, NULL);
    Blob img = make_image(&tlc_bc, NULL);
    assert_true(jg_is_graph_image(img.bytes, img.len));
    assert_false(jg_is_graph_image(tlc_bc.bytes, tlc_bc.len));
    JgModule *loaded = load_ok(&img);
    assert_same_module(read, loaded);
    char *ca = bta_text(read), *cb = bta_text(loaded);
    assert_string_equal(ca, cb);
    free(ca);
    free(cb);
    jg_module_free(read);
    jg_module_free(loaded);
    free(img.bytes);
}

static uint64_t eval(JgModule *m, const char *name, const uint64_t *args)
{
    JgEvaluator ev = {.module = m};
    JgGraph *g = jg_module_graph_by_name(m, name);
    assert_non_null(g);
    return jg_eval(&ev, g, args);
}

/* A table of function pointers (with an internal function's token), string
 * literals and a table of numbers, loaded from an image and run. */
static void test_samples_round_trip(void **state)
{
    (void)state;
    const char *roots[] = {"s_apply", "s_greeting", "s_table", "s_fib"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        JgModule *read = read_ok(&samples_bc, roots[i]);
        Blob img = make_image(&samples_bc, roots[i]);
        JgModule *loaded = load_ok(&img);
        free(img.bytes); /* the module owns its copies */
        assert_same_module(read, loaded);
        jg_module_free(read);
        if (strcmp(roots[i], "s_apply") == 0) {
            uint64_t max[3] = {3, 5, 9}, sub[3] = {1, 5, 9};
            assert_int_equal(eval(loaded, "s_apply", max), 9);
            assert_int_equal((int64_t)eval(loaded, "s_apply", sub), -4);
        } else if (strcmp(roots[i], "s_greeting") == 0) {
            uint64_t one[1] = {1};
            assert_string_equal((const char *)(uintptr_t)eval(loaded, "s_greeting", one),
                                "bitcode");
        } else if (strcmp(roots[i], "s_table") == 0) {
            uint64_t seven[1] = {7};
            assert_int_equal((int64_t)eval(loaded, "s_table", seven), -19 * 8);
        }
        jg_module_free(loaded);
    }
}

static void expect_load_error(const void *data, size_t len, JgSymbolResolver resolve,
                              const char *part)
{
    char err[512];
    JgModule *m = jg_module_load_image(data, len, resolve, NULL, err, sizeof err);
    if (m)
        fail_msg("loading succeeded; expected an error with \"%s\"", part);
    if (!strstr(err, part))
        fail_msg("error \"%s\", expected \"%s\"", err, part);
}

static void *no_s_op_add(void *ctx, const char *name)
{
    return strcmp(name, "s_op_add") == 0 ? NULL : jg_resolve_self(ctx, name);
}

static void test_load_errors(void **state)
{
    (void)state;
    Blob img = make_image(&samples_bc, "s_apply");
    expect_load_error(NULL, 0, NULL, "not a graph image");
    expect_load_error(samples_bc.bytes, samples_bc.len, NULL, "not a graph image");
    expect_load_error(img.bytes, img.len, no_s_op_add, "unresolved symbol 's_op_add'");
    char *copy = malloc(img.len);
    assert_non_null(copy);
    memcpy(copy, img.bytes, img.len);
    copy[8] = 9; /* the version */
    expect_load_error(copy, img.len, NULL, "graph image version 9");
    free(copy);
    /* a byte too many is as wrong as one too few */
    char *longer = malloc(img.len + 1);
    assert_non_null(longer);
    memcpy(longer, img.bytes, img.len);
    longer[img.len] = 0;
    expect_load_error(longer, img.len + 1, NULL, "malformed graph image");
    free(longer);
    free(img.bytes);
}

/* The analysis section: none in a fresh image; once added, the image
 * carries exactly those bytes after its graphs, still loads to the same
 * module, and takes no second one. An analysis length beyond the image is
 * malformed. */
static void test_analysis_section(void **state)
{
    (void)state;
    Blob img = make_image(&samples_bc, "s_apply");
    const void *data = NULL;
    size_t len = 0;
    assert_false(jg_image_analysis(img.bytes, img.len, &data, &len));
    assert_false(jg_image_analysis(samples_bc.bytes, samples_bc.len, &data, &len));
    const char extra[] = "binding times";
    void *grown = img.bytes;
    size_t grown_len = img.len;
    assert_true(jg_image_add_analysis(&grown, &grown_len, extra, sizeof extra));
    assert_int_equal(grown_len, img.len + sizeof extra);
    assert_true(jg_image_analysis(grown, grown_len, &data, &len));
    assert_int_equal(len, sizeof extra);
    assert_memory_equal(data, extra, sizeof extra);
    assert_false(jg_image_add_analysis(&grown, &grown_len, extra, sizeof extra));
    JgModule *read = read_ok(&samples_bc, "s_apply");
    Blob with = {grown, grown_len};
    JgModule *loaded = load_ok(&with);
    assert_same_module(read, loaded);
    jg_module_free(loaded);
    jg_module_free(read);
    /* the length field (bytes 32..35) claims more than the image holds */
    unsigned char *bytes = grown;
    bytes[35] = 0x7f;
    expect_load_error(grown, grown_len, NULL, "malformed graph image");
    assert_false(jg_image_analysis(grown, grown_len, &data, &len));
    free(grown);
}

/* Every truncation of a small image, and of the TLC image at a stride, and
 * single damaged bytes: an error or (for damage the checks cannot see, such
 * as a changed number) a module, never a crash. */
static void test_damaged_images(void **state)
{
    (void)state;
    const Blob *sources[] = {&samples_bc, &tlc_bc};
    const char *roots[] = {"s_apply", NULL};
    for (size_t s = 0; s < 2; s++) {
        Blob img = make_image(sources[s], roots[s]);
        size_t stride = img.len > 20000 ? 97 : 1;
        for (size_t cut = 0; cut < img.len; cut += cut < 64 ? 1 : stride)
            expect_load_error(img.bytes, cut, NULL, cut < 8 ? "not a graph image" : "graph image");
        char *copy = malloc(img.len);
        assert_non_null(copy);
        uint32_t seed = 12345;
        for (int i = 0; i < 400; i++) {
            memcpy(copy, img.bytes, img.len);
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % img.len;
            copy[at] = (char)(copy[at] ^ (1 + (seed >> 3) % 255));
            char err[512];
            JgModule *m = jg_module_load_image(copy, img.len, NULL, NULL, err, sizeof err);
            if (!m)
                assert_true(err[0] != '\0');
            jg_module_free(m);
        }
        free(copy);
        free(img.bytes);
    }
}

static void test_writer_errors(void **state)
{
    (void)state;
    char err[512];
    void *img = NULL;
    size_t len = 0;
    const char garbage[] = "not bitcode at all";
    assert_false(jg_image_from_bitcode(garbage, sizeof garbage, "x", &img, &len, err, sizeof err));
    assert_non_null(strstr(err, "cannot read bitcode"));
    assert_false(jg_image_from_bitcode(samples_bc.bytes, samples_bc.len, "s_no_such_function", &img,
                                       &len, err, sizeof err));
    assert_non_null(strstr(err, "'s_no_such_function' not found"));
    assert_null(img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tlc_round_trip), cmocka_unit_test(test_samples_round_trip),
        cmocka_unit_test(test_load_errors),    cmocka_unit_test(test_damaged_images),
        cmocka_unit_test(test_writer_errors),  cmocka_unit_test(test_analysis_section),
    };
    return cmocka_run_group_tests(tests, setup_files, teardown_files);
}
