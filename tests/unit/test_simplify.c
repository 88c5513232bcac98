/* Simplified comparisons (pe/simplify.c): what jg_simplify_icmp answers
 * for the shapes interpreters leave in residual graphs, checked against
 * jg_fold for every outcome where it answers a new comparison. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "frontend/arena.h"
#include "frontend/ir.h"
#include "pe/fold.h"
#include "pe/simplify.h"

#include "arena_fixture.h"

/* A graph with block 0 (params: i64 x, i64 y, i1 b) and an empty block 1. */
static JgGraph *graph(void)
{
    JgType types[3] = {JG_I64, JG_I64, JG_I1};
    JgGraph *g = jg_graph_new(&arena, "simplify", JG_I64, 3, types);
    assert_non_null(g);
    assert_int_equal(jg_block_new(g, 0, NULL), 1);
    return g;
}

static JgVal param(const JgGraph *g, uint32_t i)
{
    return g->blocks.items[0].params[i];
}

static JgVal cmp(JgGraph *g, uint32_t block, JgPred p, JgVal a, JgVal b)
{
    JgVal r = jg_emit(g, block, JG_OP_ICMP, JG_I1, 2, (JgVal[]){a, b});
    jg_last_op(g, block)->pred = (uint8_t)p;
    return r;
}

static JgVal op(JgGraph *g, uint32_t block, JgOpcode c, JgType t, uint32_t n, const JgVal *args)
{
    return jg_emit(g, block, c, t, n, args);
}

static JgVal simplify(JgGraph *g, uint32_t block, JgPred p, JgVal a, JgVal b)
{
    return jg_simplify_icmp(g, block, p, (JgVal[]){a, b});
}

/* The last op of block 0 is `icmp want a, b`, and `r` is its result. */
static void expect_new_icmp(JgGraph *g, JgVal r, JgPred want, JgVal a, JgVal b)
{
    const JgBlock *bk = &g->blocks.items[0];
    const JgOp *last = &bk->ops.items[bk->ops.count - 1];
    assert_int_equal(last->result, r);
    assert_int_equal(last->opcode, JG_OP_ICMP);
    assert_int_equal(last->pred, want);
    assert_int_equal(last->args[0], a);
    assert_int_equal(last->args[1], b);
}

/* A three-way compare (`x < 0 ? -1 : x > 0`) tested `> 0` is `x > 0`: the
 * select's arms, the widened bool and the two tests of x against equal
 * constants (distinct values) all fold into the existing comparison. */
static void test_three_way_compare(void **state)
{
    (void)state;
    JgGraph *g = graph();
    JgVal x = param(g, 0);
    JgVal lt = cmp(g, 0, JG_SLT, x, jg_const(g, JG_I64, 0));
    JgVal gt = cmp(g, 0, JG_SGT, x, jg_const(g, JG_I64, 0));
    JgVal wide = op(g, 0, JG_OP_ZEXT, JG_I32, 1, (JgVal[]){gt});
    JgVal sel =
        op(g, 0, JG_OP_SELECT, JG_I32, 3, (JgVal[]){lt, jg_const(g, JG_I32, UINT32_MAX), wide});
    uint32_t before = g->blocks.items[0].ops.count;
    assert_int_equal(simplify(g, 0, JG_SGT, sel, jg_const(g, JG_I32, 0)), gt);
    /* `< 0` is x < 0; `== 0` is a new x == 0 */
    assert_int_equal(simplify(g, 0, JG_SLT, sel, jg_const(g, JG_I32, 0)), lt);
    assert_int_equal(g->blocks.items[0].ops.count, before);
    JgVal eq = simplify(g, 0, JG_EQ, sel, jg_const(g, JG_I32, 0));
    assert_int_not_equal(eq, 0);
    const JgOp *last = &g->blocks.items[0].ops.items[before];
    assert_int_equal(last->result, eq);
    assert_int_equal(last->pred, JG_EQ);
    assert_int_equal(last->args[0], x);
    /* `>= -1` holds for every outcome; the constant on the left swaps */
    JgVal all = simplify(g, 0, JG_SGE, sel, jg_const(g, JG_I32, UINT32_MAX));
    assert_true(jg_is_const(g, all));
    assert_int_equal(jg_value(g, all)->bits, 1);
    assert_int_equal(simplify(g, 0, JG_SLT, jg_const(g, JG_I32, 0), sel), gt);
}

/* A bool widened twice and tested against 0 is the bool; tested `== 0`,
 * the inverse comparison; against 5, a constant. */
static void test_widened_bool(void **state)
{
    (void)state;
    JgGraph *g = graph();
    JgVal x = param(g, 0), y = param(g, 1);
    JgVal lt = cmp(g, 0, JG_ULT, x, y);
    JgVal w32 = op(g, 0, JG_OP_ZEXT, JG_I32, 1, (JgVal[]){lt});
    JgVal w64 = op(g, 0, JG_OP_ZEXT, JG_I64, 1, (JgVal[]){w32});
    assert_int_equal(simplify(g, 0, JG_NE, w64, jg_const(g, JG_I64, 0)), lt);
    assert_int_equal(simplify(g, 0, JG_UGT, w64, jg_const(g, JG_I64, 0)), lt);
    JgVal ge = simplify(g, 0, JG_EQ, w64, jg_const(g, JG_I64, 0));
    expect_new_icmp(g, ge, JG_UGE, x, y);
    JgVal never = simplify(g, 0, JG_EQ, w64, jg_const(g, JG_I64, 5));
    assert_true(jg_is_const(g, never));
    assert_int_equal(jg_value(g, never)->bits, 0);
}

/* What stays as it is: operands defined in another block (they may live
 * in another compiled method), two non-constant operands, the negation of
 * a bool that is no comparison (an op either way), a signed and an
 * unsigned test of the same values. */
static void test_left_alone(void **state)
{
    (void)state;
    JgGraph *g = graph();
    JgVal x = param(g, 0), y = param(g, 1), b = param(g, 2);
    JgVal lt = cmp(g, 0, JG_SLT, x, y);
    JgVal wide = op(g, 0, JG_OP_ZEXT, JG_I64, 1, (JgVal[]){lt});
    assert_int_equal(simplify(g, 1, JG_NE, wide, jg_const(g, JG_I64, 0)), 0);
    assert_int_equal(simplify(g, 0, JG_NE, wide, y), 0);
    JgVal bw = op(g, 0, JG_OP_ZEXT, JG_I64, 1, (JgVal[]){b});
    assert_int_equal(simplify(g, 0, JG_EQ, bw, jg_const(g, JG_I64, 0)), 0);
    assert_int_equal(simplify(g, 0, JG_NE, bw, jg_const(g, JG_I64, 0)), b);
    JgVal ult = cmp(g, 0, JG_ULT, x, y);
    JgVal ugt = cmp(g, 0, JG_UGT, x, y);
    JgVal mixed =
        op(g, 0, JG_OP_SELECT, JG_I64, 3,
           (JgVal[]){lt, jg_const(g, JG_I64, 1), op(g, 0, JG_OP_ZEXT, JG_I64, 1, (JgVal[]){ugt})});
    (void)ult;
    assert_int_equal(simplify(g, 0, JG_NE, mixed, jg_const(g, JG_I64, 0)), 0);
    assert_int_equal(simplify(g, 0, JG_SGT, x, jg_const(g, JG_I64, 0)), 0);
}

/* Every set of orderings a select of two comparisons of x and y can
 * decide, for each predicate on the selected 0/1: where jg_simplify_icmp
 * answers, its answer agrees with folding the original for x, y in
 * {-1, 0, 1} (signed and unsigned orders differ there). */
static void test_agrees_with_folding(void **state)
{
    (void)state;
    static const JgPred preds[] = {JG_EQ,  JG_NE,  JG_UGT, JG_UGE, JG_ULT,
                                   JG_ULE, JG_SGT, JG_SGE, JG_SLT, JG_SLE};
    static const uint64_t samples[] = {UINT64_MAX, 0, 1};
    unsigned answered = 0;
    for (unsigned p1 = 0; p1 < 10; p1++)
        for (unsigned p2 = 0; p2 < 10; p2++)
            for (unsigned outer = 0; outer < 10; outer++) {
                JgGraph *g = graph();
                JgVal x = param(g, 0), y = param(g, 1);
                JgVal c1 = cmp(g, 0, preds[p1], x, y), c2 = cmp(g, 0, preds[p2], x, y);
                JgVal sel = op(g, 0, JG_OP_SELECT, JG_I64, 3,
                               (JgVal[]){c1, jg_const(g, JG_I64, 2),
                                         op(g, 0, JG_OP_ZEXT, JG_I64, 1, (JgVal[]){c2})});
                JgVal r = simplify(g, 0, preds[outer], sel, jg_const(g, JG_I64, 1));
                if (!r)
                    continue;
                answered++;
                for (unsigned i = 0; i < 3; i++)
                    for (unsigned j = 0; j < 3; j++) {
                        uint64_t xy[2] = {samples[i], samples[j]};
                        JgType t2[2] = {JG_I64, JG_I64};
                        bool b1 = jg_fold(JG_OP_ICMP, JG_I1, preds[p1], 2, t2, xy);
                        bool b2 = jg_fold(JG_OP_ICMP, JG_I1, preds[p2], 2, t2, xy);
                        uint64_t s[2] = {b1 ? 2 : b2, 1};
                        bool want = jg_fold(JG_OP_ICMP, JG_I1, preds[outer], 2, t2, s);
                        bool got;
                        if (jg_is_const(g, r)) {
                            got = jg_value(g, r)->bits & 1;
                        } else {
                            const JgValueInfo *info = jg_value(g, r);
                            assert_int_equal(info->kind, JG_VK_OP);
                            const JgOp *o = &g->blocks.items[0].ops.items[info->index];
                            assert_int_equal(o->opcode, JG_OP_ICMP);
                            assert_true(o->args[0] == x && o->args[1] == y);
                            got = jg_fold(JG_OP_ICMP, JG_I1, (JgPred)o->pred, 2, t2, xy);
                        }
                        if (got != want)
                            fail_msg("select(x %u y, 2, x %u y) %u 1 at x=%d y=%d: %d, want %d", p1,
                                     p2, outer, (int)i - 1, (int)j - 1, got, want);
                    }
            }
    assert_true(answered > 100); /* most combinations fold */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_three_way_compare, setup, teardown),
        cmocka_unit_test_setup_teardown(test_widened_bool, setup, teardown),
        cmocka_unit_test_setup_teardown(test_left_alone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_agrees_with_folding, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
