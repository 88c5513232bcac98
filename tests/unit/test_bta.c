/* Binding-time analysis: the colors of the TLC portal, of a small hinted
 * sample, the error a wrong hint produces, and the analysis stored in the
 * graph image at build time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bta/bta.h"
#include "frontend/image.h"
#include "frontend/module.h"
#include "tlc/loader.h"

/* The interpreter's graph image, embedded in tlcjit (tlc/graph_image_blob.S). */
extern const unsigned char tlc_interp_graphs[], tlc_interp_graphs_end[];

static char *read_all(const char *path, size_t *len)
{
    char *data = tlc_read_file(path, len);
    if (!data)
        fail_msg("cannot read %s", path);
    return data;
}

static JgModule *read_module(const void *bc, size_t len)
{
    char err[512];
    JgModule *m = jg_module_read_bitcode(bc, len, NULL, jg_resolve_self, NULL, err, sizeof err);
    if (!m)
        fail_msg("reader: %s", err);
    return m;
}

/* Colors of all results of a given opcode in a graph (0: none found). */
static unsigned count_ops(const JgBtaVariant *v, JgOpcode opcode, JgColor color)
{
    unsigned n = 0;
    const JgGraph *g = v->graph;
    for (uint32_t b = 0; b < g->blocks.count; b++)
        for (uint32_t o = 0; o < g->blocks.items[b].ops.count; o++) {
            const JgOp *op = &g->blocks.items[b].ops.items[o];
            if (op->opcode == opcode && op->result && v->color[op->result] == color)
                n++;
        }
    return n;
}

/* The interpreter's graphs, from the embedded image. */
static JgModule *tlc_module(void)
{
    char err[512];
    JgModule *m = jg_module_load_image(tlc_interp_graphs, tlc_interp_graphs_end - tlc_interp_graphs,
                                       NULL, NULL, err, sizeof err);
    if (!m)
        fail_msg("image: %s", err);
    return m;
}

static void test_tlc_portal_colors(void **state)
{
    (void)state;
    char err[512];
    JgModule *m = tlc_module();
    JgBta *bta = jg_bta_new(m, err, sizeof err);
    if (!bta)
        fail_msg("bta: %s", err);
    /* tlc_resume(code, pc, arg0, arg1, arg2, arg3, args, nargs, depth,
     * saved, nsaved): code, pc, nargs and nsaved green (the depth of the
     * stack handed over), the rest red */
    assert_int_equal(bta->portal_green_params, 0x483);
    const JgBtaVariant *v = bta->portal;
    const JgGraph *g = v->graph;
    /* the opcode (the jit_concrete result) and every promoted value are green */
    assert_true(count_ops(v, JG_OP_CONCRETE, JG_GREEN) >= 1);
    assert_int_equal(count_ops(v, JG_OP_CONCRETE, JG_RED), 0);
    assert_true(count_ops(v, JG_OP_PROMOTE, JG_GREEN) >= 5);
    /* the opcode switch is decided at compile time */
    unsigned green_switches = 0;
    for (uint32_t b = 0; b < g->blocks.count; b++) {
        const JgTerm *t = &g->blocks.items[b].term;
        if (t->kind == JG_TERM_SWITCH && t->nlinks > 30 && v->color[t->value] == JG_GREEN)
            green_switches++;
    }
    assert_int_equal(green_switches, 1);
    /* stack values are red: every pointer loaded from the operand stack (an
     * ALLOCA) is red, and the ALLOCAs themselves are red */
    assert_int_equal(count_ops(v, JG_OP_ALLOCA, JG_GREEN), 0);
    assert_true(count_ops(v, JG_OP_ALLOCA, JG_RED) >= 1);
    /* the merge point's block: pc green (the loop's block parameters that
     * reach the concrete are green) */
    bool found = false;
    for (uint32_t b = 0; b < g->blocks.count; b++)
        if (v->merge_point[b]) {
            found = true;
            unsigned greens = 0;
            for (uint32_t p = 0; p < g->blocks.items[b].nparams; p++)
                greens += v->color[g->blocks.items[b].params[p]] == JG_GREEN;
            assert_true(greens >= 2); /* code and pc at least */
        }
    assert_true(found);
    assert_true(bta->ms < 100);
    jg_bta_free(bta);
    jg_module_free(m);
}

/* The analysis of the good sample: its bitcode and module are returned for
 * the caller to free. */
static JgBta *analyse_good_sample(char **bc, JgModule **m)
{
    size_t len;
    *bc = read_all(BTA_GOOD_BC, &len);
    *m = read_module(*bc, len);
    char err[512];
    JgBta *bta = jg_bta_new(*m, err, sizeof err);
    if (!bta)
        fail_msg("bta: %s", err);
    return bta;
}

static void test_sample_colors(void **state)
{
    (void)state;
    char *bc;
    JgModule *m;
    JgBta *bta = analyse_good_sample(&bc, &m);
    /* prog and pc green, input red */
    assert_int_equal(bta->portal_green_params, 0x3);
    const JgBtaVariant *v = bta->portal;
    /* the elidable call with a green argument is green; the promote green;
     * the load from the mutable counter red; the load of the code byte green */
    assert_true(count_ops(v, JG_OP_PROMOTE, JG_GREEN) == 1);
    unsigned green_calls = count_ops(v, JG_OP_CALL, JG_GREEN);
    assert_true(green_calls >= 1);
    unsigned red_loads = 0, green_loads = 0;
    const JgGraph *g = v->graph;
    for (uint32_t b = 0; b < g->blocks.count; b++)
        for (uint32_t o = 0; o < g->blocks.items[b].ops.count; o++) {
            const JgOp *op = &g->blocks.items[b].ops.items[o];
            if (op->opcode != JG_OP_LOAD)
                continue;
            if (v->color[op->result] == JG_GREEN)
                green_loads++;
            else
                red_loads++;
        }
    assert_true(green_loads >= 2);  /* prog->len, prog->code, code[pc] */
    assert_int_equal(red_loads, 1); /* bta_good_counter */
    jg_bta_free(bta);
    jg_module_free(m);
    free(bc);
}

static void test_wrong_hint_is_named(void **state)
{
    (void)state;
    size_t len;
    char *bc = read_all(BTA_BAD_BC, &len);
    JgModule *m = read_module(bc, len);
    char err[512];
    JgBta *bta = jg_bta_new(m, err, sizeof err);
    assert_null(bta);
    /* the message names the file and line of the hint and why it fails */
    assert_non_null(strstr(err, "bta_bad.c:"));
    assert_non_null(strstr(err, "jit_concrete cannot be satisfied"));
    assert_non_null(strstr(err, "not frozen"));
    char line[32];
    snprintf(line, sizeof line, ":%d:", BTA_BAD_HINT_LINE);
    assert_non_null(strstr(err, line));
    jg_module_free(m);
    free(bc);
}

/* The analysis section of the embedded image (jitgen-image writes one). */
static const void *stored_analysis(size_t *len)
{
    const void *data = NULL;
    assert_true(jg_image_analysis(tlc_interp_graphs, tlc_interp_graphs_end - tlc_interp_graphs,
                                  &data, len));
    return data;
}

static unsigned count_variants(const JgBta *bta)
{
    unsigned n = 0;
    for (const JgBtaVariant *v = bta->variants; v; v = v->next)
        n++;
    return n;
}

/* Every variant of `a` is in `b` with the same colors, frozen values, loop
 * headers, merge points and return color. */
static void assert_variants_in(const JgBta *a, JgBta *b)
{
    for (const JgBtaVariant *v = a->variants; v; v = v->next) {
        const JgBtaVariant *w = jg_bta_variant(b, v->graph, v->green_params);
        uint32_t nv = v->graph->values.count, nb = v->graph->blocks.count;
        assert_memory_equal(v->color, w->color, nv);
        assert_memory_equal(v->frozen, w->frozen, nv);
        assert_memory_equal(v->loop_header, w->loop_header, nb);
        assert_memory_equal(v->merge_point, w->merge_point, nb);
        assert_int_equal(v->ret_color, w->ret_color);
    }
}

/* The binding times jitgen-image stored in the image are the ones the
 * analysis computes in this process, for every variant. */
static void test_stored_analysis_matches(void **state)
{
    (void)state;
    JgModule *m = tlc_module();
    size_t len = 0;
    const void *data = stored_analysis(&len);
    char err[512];
    JgBta *stored = jg_bta_load(m, data, len, err, sizeof err);
    if (!stored)
        fail_msg("load: %s", err);
    JgBta *fresh = jg_bta_new(m, err, sizeof err);
    if (!fresh)
        fail_msg("bta: %s", err);
    assert_int_equal(stored->portal_green_params, fresh->portal_green_params);
    assert_ptr_equal(stored->portal->graph, m->portal);
    unsigned n = count_variants(fresh);
    assert_int_equal(count_variants(stored), n);
    assert_variants_in(fresh, stored);
    assert_int_equal(count_variants(stored), n); /* found, none analysed anew */
    assert_variants_in(stored, fresh);
    /* a variant the build did not see is analysed on first use */
    const JgGraph *portal = m->portal;
    const JgBtaVariant *late = jg_bta_variant(stored, portal, 0x1);
    assert_int_equal(count_variants(stored), n + 1);
    assert_false(late->in_progress);
    assert_variants_in(stored, fresh);
    jg_bta_free(fresh);
    jg_bta_free(stored);
    jg_module_free(m);
}

/* write, then load: the same variants; a sample module's analysis does not
 * load against another module's graphs. */
static void test_write_load_round_trip(void **state)
{
    (void)state;
    char *bc;
    JgModule *m;
    JgBta *bta = analyse_good_sample(&bc, &m);
    char err[512];
    void *data = NULL;
    size_t len = 0;
    assert_true(jg_bta_write(bta, &data, &len));
    JgBta *loaded = jg_bta_load(m, data, len, err, sizeof err);
    if (!loaded)
        fail_msg("load: %s", err);
    assert_int_equal(count_variants(loaded), count_variants(bta));
    assert_int_equal(loaded->portal_green_params, bta->portal_green_params);
    assert_variants_in(bta, loaded);
    jg_bta_free(loaded);
    JgModule *other = tlc_module();
    assert_null(jg_bta_load(other, data, len, err, sizeof err));
    assert_non_null(strstr(err, "binding times"));
    jg_module_free(other);
    free(data);
    jg_bta_free(bta);
    jg_module_free(m);
    free(bc);
}

/* Damaged bytes are an error message or, where they are still well formed
 * (a color flipped), an analysis: never a crash. Every truncation fails, as
 * does every flag byte above 1. */
static void test_damaged_analysis(void **state)
{
    (void)state;
    JgModule *m = tlc_module();
    size_t len = 0;
    const void *data = stored_analysis(&len);
    unsigned char *copy = malloc(len);
    assert_non_null(copy);
    char err[512];
    for (size_t cut = 0; cut < len; cut += cut < 64 ? 1 : 97) {
        err[0] = '\0';
        assert_null(jg_bta_load(m, data, cut, err, sizeof err));
        assert_non_null(strstr(err, "damaged"));
    }
    for (size_t at = 0; at < len; at += at < 64 ? 1 : 53) {
        memcpy(copy, data, len);
        copy[at] ^= 0x5a;
        JgBta *bta = jg_bta_load(m, copy, len, err, sizeof err);
        jg_bta_free(bta);
        copy[at] = 2; /* a flag byte out of range, or a header field */
        bta = jg_bta_load(m, copy, len, err, sizeof err);
        if (at >= len - 16) /* the last variant's merge-point flags */
            assert_null(bta);
        jg_bta_free(bta);
    }
    free(copy);
    jg_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tlc_portal_colors),
        cmocka_unit_test(test_sample_colors),
        cmocka_unit_test(test_wrong_hint_is_named),
        cmocka_unit_test(test_stored_analysis_matches),
        cmocka_unit_test(test_write_load_round_trip),
        cmocka_unit_test(test_damaged_analysis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
