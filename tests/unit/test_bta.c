/* Binding-time analysis: the colors of the TLC portal, of a small hinted
 * sample, and the error a wrong hint produces. */
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

static void test_tlc_portal_colors(void **state)
{
    (void)state;
    char err[512];
    JgModule *m = jg_module_load_image(tlc_interp_graphs, tlc_interp_graphs_end - tlc_interp_graphs,
                                       NULL, NULL, err, sizeof err);
    if (!m)
        fail_msg("image: %s", err);
    JgBta *bta = jg_bta_new(m, err, sizeof err);
    if (!bta)
        fail_msg("bta: %s", err);
    /* tlc_resume(code, pc, args, nargs, depth, saved, nsaved): code, pc and
     * nsaved green (the depth of the stack handed over), the rest red */
    assert_int_equal(bta->portal_green_params, 0x43);
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

static void test_sample_colors(void **state)
{
    (void)state;
    size_t len;
    char *bc = read_all(BTA_GOOD_BC, &len);
    JgModule *m = read_module(bc, len);
    char err[512];
    JgBta *bta = jg_bta_new(m, err, sizeof err);
    if (!bta)
        fail_msg("bta: %s", err);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tlc_portal_colors),
        cmocka_unit_test(test_sample_colors),
        cmocka_unit_test(test_wrong_hint_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
