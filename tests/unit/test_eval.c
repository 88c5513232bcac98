/* Unit tests of the graph printer (frontend/print.c), verifier
 * (frontend/verify.c) and evaluator (frontend/eval.c), on graphs built by
 * hand with the ir.h builders. Every evaluated graph is verified first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "slot_bits.h"

#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frontend/eval.h"
#include "frontend/ir.h"

/* ---- helpers ----------------------------------------------------------- */

#include "arena_fixture.h"

static JgVal param(const JgGraph *g, uint32_t block, uint32_t i)
{
    return g->blocks.items[block].params[i];
}

static void assert_verifies(const JgGraph *g)
{
    char err[256];
    if (!jg_verify_graph(g, err, sizeof err))
        fail_msg("verifier rejected %s: %s", g->name, err);
}

/* Verifies `g`, then evaluates it on `args` with evaluator `ev`. */
static uint64_t eval_with(JgEvaluator *ev, const JgGraph *g, const uint64_t *args)
{
    assert_verifies(g);
    return jg_eval(ev, g, args);
}

static uint64_t eval(const JgGraph *g, const uint64_t *args)
{
    JgEvaluator ev = {0};
    return eval_with(&ev, g, args);
}

/* `code` on two values of type `t`: once on parameters, once on constants;
 * both must agree. */
static uint64_t binop(JgOpcode code, JgType t, uint64_t a, uint64_t b)
{
    JgGraph *g = jg_graph_new(&arena, "binop", t, 2, (JgType[]){t, t});
    jg_set_return(g, 0, jg_emit(g, 0, code, t, 2, (JgVal[]){param(g, 0, 0), param(g, 0, 1)}));
    uint64_t r = eval(g, (uint64_t[]){a, b});

    JgGraph *k = jg_graph_new(&arena, "binop_const", t, 0, NULL);
    JgVal ca = jg_const(k, t, a), cb = jg_const(k, t, b);
    jg_set_return(k, 0, jg_emit(k, 0, code, t, 2, (JgVal[]){ca, cb}));
    assert_int_equal(eval(k, NULL), r);
    return r;
}

static bool compare(JgOpcode code, JgPred pred, JgType t, uint64_t a, uint64_t b)
{
    JgGraph *g = jg_graph_new(&arena, "cmp", JG_I1, 2, (JgType[]){t, t});
    JgVal r = jg_emit(g, 0, code, JG_I1, 2, (JgVal[]){param(g, 0, 0), param(g, 0, 1)});
    jg_last_op(g, 0)->pred = pred;
    jg_set_return(g, 0, r);
    uint64_t bits = eval(g, (uint64_t[]){a, b});
    assert_true(bits <= 1);
    return bits == 1;
}

static bool icmp(JgPred pred, JgType t, uint64_t a, uint64_t b)
{
    return compare(JG_OP_ICMP, pred, t, a, b);
}

static bool fcmp(JgPred pred, double a, double b)
{
    return compare(JG_OP_FCMP, pred, JG_F64, f64_bits(a), f64_bits(b));
}

static uint64_t cast(JgOpcode code, JgType from, JgType to, uint64_t x)
{
    JgGraph *g = jg_graph_new(&arena, "cast", to, 1, (JgType[]){from});
    jg_set_return(g, 0, jg_emit(g, 0, code, to, 1, (JgVal[]){param(g, 0, 0)}));
    return eval(g, (uint64_t[]){x});
}

/* ---- arithmetic -------------------------------------------------------- */

static void test_integer_wrapping(void **state)
{
    (void)state;
    assert_int_equal(binop(JG_OP_ADD, JG_I8, 200, 100), 44);
    assert_int_equal(binop(JG_OP_ADD, JG_I1, 1, 1), 0);
    assert_int_equal(binop(JG_OP_SUB, JG_I16, 0, 1), 0xffff);
    assert_int_equal(binop(JG_OP_MUL, JG_I32, 0x10000, 0x10000), 0);
    assert_int_equal(binop(JG_OP_MUL, JG_I32, 0xffffffff, 0xffffffff), 1);
    assert_int_equal(binop(JG_OP_ADD, JG_I64, UINT64_MAX, 2), 1);
    assert_int_equal(binop(JG_OP_SUB, JG_I64, 0, 1), UINT64_MAX);
    assert_int_equal(binop(JG_OP_MUL, JG_I64, UINT64_C(1) << 62, 4), 0);
    /* arguments with stray high bits are taken at their type's width */
    assert_int_equal(binop(JG_OP_ADD, JG_I8, 0xff01, 1), 2);
}

static void test_division(void **state)
{
    (void)state;
    assert_int_equal(binop(JG_OP_SDIV, JG_I8, 0xf9, 2), 0xfd); /* -7 / 2 = -3 */
    assert_int_equal(binop(JG_OP_SREM, JG_I8, 0xf9, 2), 0xff); /* -7 % 2 = -1 */
    assert_int_equal(binop(JG_OP_UDIV, JG_I8, 0xf9, 2), 124);
    assert_int_equal(binop(JG_OP_UREM, JG_I8, 0xf9, 2), 1);
    assert_int_equal(binop(JG_OP_SDIV, JG_I64, (uint64_t)-100, 7), (uint64_t)-14);
    assert_int_equal(binop(JG_OP_SREM, JG_I64, (uint64_t)-100, 7), (uint64_t)-2);
    assert_int_equal(binop(JG_OP_UDIV, JG_I64, UINT64_MAX, 2), UINT64_MAX / 2);
    /* undefined in LLVM; the evaluator must not trap */
    assert_int_equal(binop(JG_OP_SDIV, JG_I32, 5, 0), 0);
    assert_int_equal(binop(JG_OP_SREM, JG_I32, 5, 0), 0);
    assert_int_equal(binop(JG_OP_UDIV, JG_I32, 5, 0), 0);
    assert_int_equal(binop(JG_OP_UREM, JG_I64, 5, 0), 0);
    assert_int_equal(binop(JG_OP_SDIV, JG_I32, 0x80000000u, 0xffffffffu), 0x80000000u);
    assert_int_equal(binop(JG_OP_SREM, JG_I32, 0x80000000u, 0xffffffffu), 0);
    assert_int_equal(binop(JG_OP_SDIV, JG_I64, UINT64_C(1) << 63, UINT64_MAX), UINT64_C(1) << 63);
    assert_int_equal(binop(JG_OP_SREM, JG_I64, UINT64_C(1) << 63, UINT64_MAX), 0);
    assert_int_equal(binop(JG_OP_SDIV, JG_I16, 0x8000, 0xffff), 0x8000);
}

static void test_bitwise_and_shifts(void **state)
{
    (void)state;
    assert_int_equal(binop(JG_OP_AND, JG_I32, 0xf0f0, 0xff00), 0xf000);
    assert_int_equal(binop(JG_OP_OR, JG_I16, 0xf0f0, 0x0f00), 0xfff0);
    assert_int_equal(binop(JG_OP_XOR, JG_I8, 0xff, 0x0f), 0xf0);
    assert_int_equal(binop(JG_OP_XOR, JG_I1, 1, 1), 0);
    assert_int_equal(binop(JG_OP_SHL, JG_I8, 1, 7), 0x80);
    assert_int_equal(binop(JG_OP_SHL, JG_I8, 0x81, 1), 0x02);
    assert_int_equal(binop(JG_OP_SHL, JG_I8, 1, 9), 2); /* amount masked to the width */
    assert_int_equal(binop(JG_OP_SHL, JG_I64, 1, 63), UINT64_C(1) << 63);
    assert_int_equal(binop(JG_OP_SHL, JG_I64, 1, 64), 1);
    assert_int_equal(binop(JG_OP_LSHR, JG_I8, 0x80, 7), 1);
    assert_int_equal(binop(JG_OP_LSHR, JG_I32, 0x80000000u, 33), 0x40000000u);
    assert_int_equal(binop(JG_OP_ASHR, JG_I8, 0x80, 7), 0xff);
    assert_int_equal(binop(JG_OP_ASHR, JG_I8, 0x40, 6), 1);
    assert_int_equal(binop(JG_OP_ASHR, JG_I16, 0x8000, 4), 0xf800);
    assert_int_equal(binop(JG_OP_ASHR, JG_I32, 0xfffffff0u, 2), 0xfffffffcu);
    assert_int_equal(binop(JG_OP_ASHR, JG_I64, (uint64_t)-256, 4), (uint64_t)-16);
    assert_int_equal(binop(JG_OP_ASHR, JG_I64, 256, 4), 16);
}

static void test_float_arithmetic(void **state)
{
    (void)state;
    assert_true(bits_f64(binop(JG_OP_FADD, JG_F64, f64_bits(1.5), f64_bits(2.25))) == 3.75);
    assert_true(bits_f64(binop(JG_OP_FSUB, JG_F64, f64_bits(1.5), f64_bits(2.25))) == -0.75);
    assert_true(bits_f64(binop(JG_OP_FMUL, JG_F64, f64_bits(1.5), f64_bits(-2.0))) == -3.0);
    assert_true(bits_f64(binop(JG_OP_FDIV, JG_F64, f64_bits(1.0), f64_bits(3.0))) == 1.0 / 3.0);
    assert_true(isinf(bits_f64(binop(JG_OP_FDIV, JG_F64, f64_bits(1.0), f64_bits(0.0)))));
    assert_true(bits_f32(binop(JG_OP_FADD, JG_F32, f32_bits(0.1f), f32_bits(0.2f))) == 0.1f + 0.2f);
    assert_true(bits_f32(binop(JG_OP_FDIV, JG_F32, f32_bits(1.0f), f32_bits(3.0f))) == 1.0f / 3.0f);

    JgGraph *g = jg_graph_new(&arena, "fneg", JG_F64, 1, (JgType[]){JG_F64});
    jg_set_return(g, 0, jg_emit(g, 0, JG_OP_FNEG, JG_F64, 1, (JgVal[]){param(g, 0, 0)}));
    assert_true(bits_f64(eval(g, (uint64_t[]){f64_bits(2.5)})) == -2.5);
    assert_int_equal(eval(g, (uint64_t[]){f64_bits(0.0)}), f64_bits(-0.0));

    JgGraph *h = jg_graph_new(&arena, "fneg32", JG_F32, 1, (JgType[]){JG_F32});
    jg_set_return(h, 0, jg_emit(h, 0, JG_OP_FNEG, JG_F32, 1, (JgVal[]){param(h, 0, 0)}));
    assert_true(bits_f32(eval(h, (uint64_t[]){f32_bits(2.5f)})) == -2.5f);
}

static void test_integer_compares(void **state)
{
    (void)state;
    /* 0xff is 255 unsigned and -1 signed */
    assert_true(icmp(JG_UGT, JG_I8, 0xff, 1));
    assert_false(icmp(JG_SGT, JG_I8, 0xff, 1));
    assert_true(icmp(JG_SLT, JG_I8, 0xff, 1));
    assert_false(icmp(JG_ULT, JG_I8, 0xff, 1));
    assert_true(icmp(JG_SLE, JG_I8, 0x80, 0x7f));
    assert_true(icmp(JG_SGE, JG_I16, 5, 5));
    assert_true(icmp(JG_UGE, JG_I16, 0x8000, 0x7fff));
    assert_true(icmp(JG_ULE, JG_I32, 0, 0xffffffffu));
    assert_true(icmp(JG_SLT, JG_I32, 0xffffffffu, 0));
    assert_true(icmp(JG_SLT, JG_I64, UINT64_C(1) << 63, UINT64_MAX));
    assert_true(icmp(JG_SGT, JG_I64, 0, UINT64_MAX));
    assert_true(icmp(JG_UGT, JG_I64, UINT64_MAX, 0));
    assert_true(icmp(JG_EQ, JG_I32, 7, 7));
    assert_false(icmp(JG_NE, JG_I32, 7, 7));
    assert_true(icmp(JG_SLT, JG_I1, 1, 0)); /* i1 true is -1 signed */
    assert_true(icmp(JG_ULT, JG_I1, 0, 1));
    int x, y;
    assert_true(icmp(JG_EQ, JG_PTR, addr(&x), addr(&x)));
    assert_true(icmp(JG_NE, JG_PTR, addr(&x), addr(&y)));
    assert_true(icmp(JG_ULT, JG_PTR, 0x1000, 0x2000));
}

static void test_float_compares(void **state)
{
    (void)state;
    assert_true(fcmp(JG_FOLT, 1.0, 2.0));
    assert_false(fcmp(JG_FOLT, 2.0, 1.0));
    assert_true(fcmp(JG_FOEQ, 1.0, 1.0));
    assert_true(fcmp(JG_FOGE, 1.0, 1.0));
    assert_true(fcmp(JG_FOLE, -0.0, 0.0));
    assert_true(fcmp(JG_FONE, 1.0, 2.0));
    assert_false(fcmp(JG_FOEQ, NAN, NAN));
    assert_false(fcmp(JG_FONE, NAN, 1.0));
    assert_true(fcmp(JG_FUNE, NAN, 1.0));
    assert_true(fcmp(JG_FUEQ, NAN, 1.0));
    assert_true(fcmp(JG_FULT, NAN, 1.0));
    assert_true(fcmp(JG_FUNO, 1.0, NAN));
    assert_false(fcmp(JG_FORD, 1.0, NAN));
    assert_true(fcmp(JG_FORD, 1.0, 2.0));
    assert_true(fcmp(JG_FTRUE, NAN, NAN));
    assert_false(fcmp(JG_FFALSE, 1.0, 1.0));
    assert_true(fcmp(JG_FUGT, 3.0, 2.0));
    assert_true(fcmp(JG_FUGE, 2.0, 2.0));
    assert_false(fcmp(JG_FULE, 3.0, 2.0));
    assert_true(fcmp(JG_FOGT, 3.0, 2.0));
    assert_true(compare(JG_OP_FCMP, JG_FOLT, JG_F32, f32_bits(1.5f), f32_bits(2.5f)));
    assert_false(compare(JG_OP_FCMP, JG_FOLT, JG_F32, f32_bits(3.5f), f32_bits(2.5f)));
}

static void test_casts(void **state)
{
    (void)state;
    assert_int_equal(cast(JG_OP_SEXT, JG_I8, JG_I32, 0x80), 0xffffff80u);
    assert_int_equal(cast(JG_OP_SEXT, JG_I8, JG_I64, 0x7f), 0x7f);
    assert_int_equal(cast(JG_OP_SEXT, JG_I1, JG_I64, 1), UINT64_MAX);
    assert_int_equal(cast(JG_OP_SEXT, JG_I32, JG_I64, 0xfffffffeu), (uint64_t)-2);
    assert_int_equal(cast(JG_OP_ZEXT, JG_I8, JG_I64, 0x80), 0x80);
    assert_int_equal(cast(JG_OP_ZEXT, JG_I1, JG_I32, 1), 1);
    assert_int_equal(cast(JG_OP_TRUNC, JG_I64, JG_I8, 0x1234), 0x34);
    assert_int_equal(cast(JG_OP_TRUNC, JG_I64, JG_I1, 6), 0);
    assert_int_equal(cast(JG_OP_TRUNC, JG_I32, JG_I16, 0xdeadbeef), 0xbeef);
    int x;
    assert_int_equal(cast(JG_OP_PTRTOINT, JG_PTR, JG_I64, addr(&x)), addr(&x));
    assert_int_equal(cast(JG_OP_INTTOPTR, JG_I64, JG_PTR, addr(&x)), addr(&x));
    assert_true(bits_f64(cast(JG_OP_SITOFP, JG_I32, JG_F64, (uint32_t)-5)) == -5.0);
    assert_true(bits_f64(cast(JG_OP_SITOFP, JG_I64, JG_F64, (uint64_t)INT64_MIN)) ==
                (double)INT64_MIN);
    assert_true(bits_f64(cast(JG_OP_UITOFP, JG_I32, JG_F64, 0xffffffffu)) == 4294967295.0);
    assert_true(bits_f64(cast(JG_OP_UITOFP, JG_I64, JG_F64, UINT64_MAX)) == 18446744073709551616.0);
    assert_true(bits_f32(cast(JG_OP_SITOFP, JG_I8, JG_F32, 0xff)) == -1.0f);
    assert_int_equal(cast(JG_OP_FPTOSI, JG_F64, JG_I32, f64_bits(-3.7)), (uint32_t)-3);
    assert_int_equal(cast(JG_OP_FPTOSI, JG_F64, JG_I64, f64_bits(1e18)), 1000000000000000000);
    assert_int_equal(cast(JG_OP_FPTOUI, JG_F64, JG_I64, f64_bits(1.8e19)),
                     UINT64_C(18000000000000000000));
    assert_int_equal(cast(JG_OP_FPTOSI, JG_F32, JG_I16, f32_bits(-2.5f)), 0xfffe);
    /* poison in LLVM; 0 here, and no undefined behaviour in the evaluator */
    assert_int_equal(cast(JG_OP_FPTOSI, JG_F64, JG_I64, f64_bits(NAN)), 0);
    assert_int_equal(cast(JG_OP_FPTOSI, JG_F64, JG_I64, f64_bits(1e30)), 0);
    assert_int_equal(cast(JG_OP_FPTOUI, JG_F64, JG_I64, f64_bits(-5.0)), 0);
    assert_true(bits_f64(cast(JG_OP_FPEXT, JG_F32, JG_F64, f32_bits(0.1f))) == (double)0.1f);
    assert_true(bits_f32(cast(JG_OP_FPTRUNC, JG_F64, JG_F32, f64_bits(0.1))) == 0.1f);
    assert_true(bits_f64(cast(JG_OP_BITCAST, JG_I64, JG_F64, f64_bits(6.25))) == 6.25);
    assert_int_equal(cast(JG_OP_BITCAST, JG_F64, JG_I64, f64_bits(-1.0)), f64_bits(-1.0));
    assert_int_equal(cast(JG_OP_BITCAST, JG_F32, JG_I32, f32_bits(1.0f)), 0x3f800000);
}

static void test_select(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "sel", JG_I64, 3, (JgType[]){JG_I1, JG_I64, JG_I64});
    JgVal r = jg_emit(g, 0, JG_OP_SELECT, JG_I64, 3,
                      (JgVal[]){param(g, 0, 0), param(g, 0, 1), param(g, 0, 2)});
    jg_set_return(g, 0, r);
    assert_int_equal(eval(g, (uint64_t[]){1, 10, 20}), 10);
    assert_int_equal(eval(g, (uint64_t[]){0, 10, 20}), 20);
    assert_int_equal(eval(g, (uint64_t[]){2, 10, 20}), 20); /* an i1 is its low bit */
}

static void test_hints_are_identities(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "hints", JG_I64, 2, (JgType[]){JG_I64, JG_PTR});
    jg_emit(g, 0, JG_OP_MERGE_POINT, JG_VOID, 0, NULL);
    JgVal a = jg_emit(g, 0, JG_OP_CONCRETE, JG_I64, 1, (JgVal[]){param(g, 0, 0)});
    JgVal b = jg_emit(g, 0, JG_OP_PROMOTE, JG_I64, 1, (JgVal[]){a});
    JgVal c = jg_emit(g, 0, JG_OP_FORGET, JG_I64, 1, (JgVal[]){b});
    JgVal p = jg_emit(g, 0, JG_OP_DEEPFREEZE, JG_PTR, 1, (JgVal[]){param(g, 0, 1)});
    JgVal x = jg_emit(g, 0, JG_OP_LOAD, JG_I64, 1, (JgVal[]){p});
    jg_set_return(g, 0, jg_emit(g, 0, JG_OP_ADD, JG_I64, 2, (JgVal[]){c, x}));
    static const int64_t frozen = 1000;
    JgEvaluator ev = {0};
    assert_int_equal(eval_with(&ev, g, (uint64_t[]){42, addr(&frozen)}), 1042);
    assert_int_equal(ev.ops_executed, 7);
}

/* ---- control flow ------------------------------------------------------ */

/* sum(n) = 1 + 2 + ... + n, as a loop with a back link:
 *   block0(n): goto block1(0, 1, n)
 *   block1(acc, i, n): branch i <= n, block2(acc, i, n), block3(acc)
 *   block2(acc, i, n): goto block1(acc + i, i + 1, n)
 *   block3(acc): return acc */
static JgGraph *build_sum(void)
{
    JgType t3[] = {JG_I64, JG_I64, JG_I64};
    JgGraph *g = jg_graph_new(&arena, "sum", JG_I64, 1, t3);
    uint32_t head = jg_block_new(g, 3, t3);
    uint32_t body = jg_block_new(g, 3, t3);
    uint32_t done = jg_block_new(g, 1, t3);
    JgVal zero = jg_const(g, JG_I64, 0), one = jg_const(g, JG_I64, 1);
    jg_set_goto(g, 0, jg_link(g, head, 3, (JgVal[]){zero, one, param(g, 0, 0)}));
    JgVal acc = param(g, head, 0), i = param(g, head, 1), n = param(g, head, 2);
    JgVal le = jg_emit(g, head, JG_OP_ICMP, JG_I1, 2, (JgVal[]){i, n});
    jg_last_op(g, head)->pred = JG_SLE;
    jg_set_branch(g, head, le, jg_link(g, body, 3, (JgVal[]){acc, i, n}),
                  jg_link(g, done, 1, (JgVal[]){acc}));
    acc = param(g, body, 0), i = param(g, body, 1), n = param(g, body, 2);
    JgVal acc2 = jg_emit(g, body, JG_OP_ADD, JG_I64, 2, (JgVal[]){acc, i});
    JgVal i2 = jg_emit(g, body, JG_OP_ADD, JG_I64, 2, (JgVal[]){i, one});
    jg_set_goto(g, body, jg_link(g, head, 3, (JgVal[]){acc2, i2, n}));
    jg_set_return(g, done, param(g, done, 0));
    return g;
}

static void test_loop_sum(void **state)
{
    (void)state;
    JgGraph *g = build_sum();
    JgEvaluator ev = {0};
    assert_int_equal(eval_with(&ev, g, (uint64_t[]){100}), 5050);
    assert_int_equal(ev.ops_executed, 101 + 2 * 100); /* 101 compares, 100 x 2 adds */
    assert_int_equal(eval(g, (uint64_t[]){0}), 0);
    assert_int_equal(eval(g, (uint64_t[]){100000}), UINT64_C(5000050000));
}

/* A self-loop that passes its own parameters back rotated: the link's
 * arguments must be read before any parameter is written. `n` parameters
 * (more than the evaluator's small buffer when n > 16). */
static void rotate_test(uint32_t n)
{
    JgType types[40];
    for (uint32_t i = 0; i < 40; i++)
        types[i] = JG_I64;
    JgGraph *g = jg_graph_new(&arena, "rotate", JG_I64, 1, types);
    uint32_t loop = jg_block_new(g, n + 1, types); /* count, x0 .. x(n-1) */
    uint32_t done = jg_block_new(g, 1, types);
    JgVal args[41];
    args[0] = param(g, 0, 0);
    for (uint32_t i = 0; i < n; i++)
        args[i + 1] = jg_const(g, JG_I64, i);
    jg_set_goto(g, 0, jg_link(g, loop, n + 1, args));
    JgVal count = param(g, loop, 0);
    JgVal zero = jg_const(g, JG_I64, 0), one = jg_const(g, JG_I64, 1);
    JgVal more = jg_emit(g, loop, JG_OP_ICMP, JG_I1, 2, (JgVal[]){count, zero});
    jg_last_op(g, loop)->pred = JG_NE;
    args[0] = jg_emit(g, loop, JG_OP_SUB, JG_I64, 2, (JgVal[]){count, one});
    for (uint32_t i = 0; i < n; i++)
        args[i + 1] = param(g, loop, 1 + (i + 1) % n);
    jg_set_branch(g, loop, more, jg_link(g, loop, n + 1, args),
                  jg_link(g, done, 1, (JgVal[]){param(g, loop, 1)}));
    jg_set_return(g, done, param(g, done, 0));
    for (uint64_t k = 0; k < 3 * n; k++)
        assert_int_equal(eval(g, (uint64_t[]){k}), k % n);
}

static void test_parallel_link_assignment(void **state)
{
    (void)state;
    rotate_test(2);
    rotate_test(5);
    rotate_test(39); /* beyond the small buffer */
}

static void test_switch(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "sw", JG_I64, 1, (JgType[]){JG_I32});
    uint32_t b[4];
    for (int i = 0; i < 4; i++)
        b[i] = jg_block_new(g, 0, NULL);
    int64_t cases[] = {1, 2, -1};
    JgLink links[] = {jg_link(g, b[0], 0, NULL), jg_link(g, b[1], 0, NULL),
                      jg_link(g, b[2], 0, NULL), jg_link(g, b[3], 0, NULL)};
    jg_set_switch(g, 0, param(g, 0, 0), 3, cases, links);
    for (int i = 0; i < 4; i++)
        jg_set_return(g, b[i], jg_const(g, JG_I64, 100 + (uint64_t)i));
    assert_int_equal(eval(g, (uint64_t[]){1}), 101);
    assert_int_equal(eval(g, (uint64_t[]){2}), 102);
    assert_int_equal(eval(g, (uint64_t[]){0xffffffffu}), 103); /* -1 as i32 */
    assert_int_equal(eval(g, (uint64_t[]){UINT64_MAX}), 103);  /* high bits ignored */
    assert_int_equal(eval(g, (uint64_t[]){3}), 100);
    assert_int_equal(eval(g, (uint64_t[]){0}), 100);
}

/* ---- memory ------------------------------------------------------------ */

static JgVal ptradd(JgGraph *g, uint32_t block, JgVal p, int64_t offset)
{
    JgVal off = jg_const(g, JG_I64, (uint64_t)offset);
    return jg_emit(g, block, JG_OP_PTRADD, JG_PTR, 2, (JgVal[]){p, off});
}

static void emit_store(JgGraph *g, uint32_t block, JgVal p, JgVal v)
{
    jg_emit(g, block, JG_OP_STORE, JG_VOID, 2, (JgVal[]){p, v});
}

static JgVal emit_load(JgGraph *g, uint32_t block, JgType t, JgVal p)
{
    return jg_emit(g, block, JG_OP_LOAD, t, 1, (JgVal[]){p});
}

/* Stack memory: zero-filled, stores and loads of every width. Returns
 * initial(0..8) + i32 at 4 + i64 at 8 + i8 at 16 + (i16 over the i8). */
static void test_alloca_memory(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "stack", JG_I64, 1, (JgType[]){JG_I32});
    JgVal p = jg_emit(g, 0, JG_OP_ALLOCA, JG_PTR, 0, NULL);
    jg_last_op(g, 0)->imm = 24;
    JgVal zero = emit_load(g, 0, JG_I64, p); /* zero-filled */
    emit_store(g, 0, ptradd(g, 0, p, 4), param(g, 0, 0));
    emit_store(g, 0, ptradd(g, 0, p, 8), jg_const(g, JG_I64, UINT64_C(0x100000000)));
    emit_store(g, 0, ptradd(g, 0, p, 16), jg_const(g, JG_I8, 0xff));
    JgVal a = emit_load(g, 0, JG_I32, ptradd(g, 0, p, 4));
    JgVal a64 = jg_emit(g, 0, JG_OP_SEXT, JG_I64, 1, (JgVal[]){a});
    JgVal b = emit_load(g, 0, JG_I64, ptradd(g, 0, p, 8));
    JgVal c = emit_load(g, 0, JG_I16, ptradd(g, 0, p, 16)); /* 0x00ff */
    JgVal c64 = jg_emit(g, 0, JG_OP_ZEXT, JG_I64, 1, (JgVal[]){c});
    JgVal s = jg_emit(g, 0, JG_OP_ADD, JG_I64, 2, (JgVal[]){zero, a64});
    s = jg_emit(g, 0, JG_OP_ADD, JG_I64, 2, (JgVal[]){s, b});
    s = jg_emit(g, 0, JG_OP_ADD, JG_I64, 2, (JgVal[]){s, c64});
    jg_set_return(g, 0, s);
    assert_int_equal(eval(g, (uint64_t[]){(uint32_t)-5}), UINT64_C(0x100000000) - 5 + 0xff);
    assert_int_equal(eval(g, (uint64_t[]){7}), UINT64_C(0x100000000) + 7 + 0xff);
}

typedef struct Record {
    int32_t a;
    int64_t b;
    double c;
    uint8_t flag;
    void *next;
} Record;

static Record global_record = {.a = -1, .b = 1234567890123, .c = 2.5, .flag = 1};

/* record_update(r, x): r->a = x; r->b += r->a; r->next = r; returns r->c *
 * 2 + flag (a struct accessed through PTRADD offsets). */
static JgGraph *build_record_update(void)
{
    JgGraph *g = jg_graph_new(&arena, "record_update", JG_F64, 2, (JgType[]){JG_PTR, JG_I32});
    JgVal r = param(g, 0, 0);
    emit_store(g, 0, ptradd(g, 0, r, offsetof(Record, a)), param(g, 0, 1));
    JgVal pb = ptradd(g, 0, r, offsetof(Record, b));
    JgVal a = emit_load(g, 0, JG_I32, ptradd(g, 0, r, offsetof(Record, a)));
    JgVal a64 = jg_emit(g, 0, JG_OP_SEXT, JG_I64, 1, (JgVal[]){a});
    JgVal b = emit_load(g, 0, JG_I64, pb);
    emit_store(g, 0, pb, jg_emit(g, 0, JG_OP_ADD, JG_I64, 2, (JgVal[]){b, a64}));
    emit_store(g, 0, ptradd(g, 0, r, offsetof(Record, next)), r);
    JgVal c = emit_load(g, 0, JG_F64, ptradd(g, 0, r, offsetof(Record, c)));
    JgVal c2 = jg_emit(g, 0, JG_OP_FMUL, JG_F64, 2, (JgVal[]){c, jg_const(g, JG_F64, f64_bits(2))});
    JgVal flag = emit_load(g, 0, JG_I1, ptradd(g, 0, r, offsetof(Record, flag)));
    JgVal fl = jg_emit(g, 0, JG_OP_UITOFP, JG_F64, 1, (JgVal[]){flag});
    jg_set_return(g, 0, jg_emit(g, 0, JG_OP_FADD, JG_F64, 2, (JgVal[]){c2, fl}));
    return g;
}

static void test_real_memory(void **state)
{
    (void)state;
    JgGraph *g = build_record_update();
    Record *heap = malloc(sizeof *heap);
    assert_non_null(heap);
    *heap = (Record){.a = 0, .b = 10, .c = -1.25, .flag = 0};
    assert_true(bits_f64(eval(g, (uint64_t[]){addr(heap), (uint32_t)-7})) == -2.5);
    assert_int_equal(heap->a, -7);
    assert_int_equal(heap->b, 3);
    assert_ptr_equal(heap->next, heap);
    free(heap);

    assert_true(bits_f64(eval(g, (uint64_t[]){addr(&global_record), 100})) == 6.0);
    assert_int_equal(global_record.a, 100);
    assert_int_equal(global_record.b, 1234567890223);
    assert_ptr_equal(global_record.next, &global_record);

    /* an unaligned load (memcpy inside: no alignment UB) */
    static const uint8_t bytes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    JgGraph *u = jg_graph_new(&arena, "unaligned", JG_I64, 1, (JgType[]){JG_PTR});
    jg_set_return(u, 0, emit_load(u, 0, JG_I64, ptradd(u, 0, param(u, 0, 0), 1)));
    uint64_t expect;
    memcpy(&expect, bytes + 1, sizeof expect);
    assert_int_equal(eval(u, (uint64_t[]){addr(bytes)}), expect);
}

static void test_memcpy_memset(void **state)
{
    (void)state;
    JgType pt[] = {JG_PTR, JG_PTR, JG_I64};
    JgGraph *g = jg_graph_new(&arena, "copy", JG_VOID, 3, pt);
    jg_emit(g, 0, JG_OP_MEMCPY, JG_VOID, 3,
            (JgVal[]){param(g, 0, 0), param(g, 0, 1), param(g, 0, 2)});
    jg_set_return(g, 0, 0);
    char buf[16] = "abcdefgh";
    assert_int_equal(eval(g, (uint64_t[]){addr(buf + 2), addr(buf), 6}), 0);
    assert_string_equal(buf, "ababcdef"); /* overlapping: memmove semantics */
    eval(g, (uint64_t[]){0, 0, 0});       /* zero length, null pointers: nothing */

    JgGraph *s = jg_graph_new(&arena, "fill", JG_VOID, 3, (JgType[]){JG_PTR, JG_I8, JG_I64});
    jg_emit(s, 0, JG_OP_MEMSET, JG_VOID, 3,
            (JgVal[]){param(s, 0, 0), param(s, 0, 1), param(s, 0, 2)});
    jg_set_return(s, 0, 0);
    eval(s, (uint64_t[]){addr(buf + 1), 'z', 3});
    assert_string_equal(buf, "azzzcdef");
}

/* ---- calls ------------------------------------------------------------- */

/* fact(n) = n <= 1 ? 1 : n * fact(n - 1), a direct recursive call. */
static JgGraph *build_factorial(void)
{
    JgGraph *g = jg_graph_new(&arena, "fact", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t rec = jg_block_new(g, 1, (JgType[]){JG_I64});
    uint32_t base = jg_block_new(g, 0, NULL);
    JgVal n = param(g, 0, 0), one = jg_const(g, JG_I64, 1);
    JgVal le = jg_emit(g, 0, JG_OP_ICMP, JG_I1, 2, (JgVal[]){n, one});
    jg_last_op(g, 0)->pred = JG_SLE;
    jg_set_branch(g, 0, le, jg_link(g, base, 0, NULL), jg_link(g, rec, 1, &n));
    JgVal m = param(g, rec, 0);
    JgVal m1 = jg_emit(g, rec, JG_OP_SUB, JG_I64, 2, (JgVal[]){m, one});
    JgVal self = jg_const_symbol(g, NULL, "fact");
    JgVal r = jg_emit(g, rec, JG_OP_CALL, JG_I64, 2, (JgVal[]){self, m1});
    jg_last_op(g, rec)->callee = g;
    jg_set_return(g, rec, jg_emit(g, rec, JG_OP_MUL, JG_I64, 2, (JgVal[]){m, r}));
    jg_set_return(g, base, one);
    return g;
}

static void test_recursive_call(void **state)
{
    (void)state;
    JgGraph *g = build_factorial();
    assert_int_equal(eval(g, (uint64_t[]){0}), 1);
    assert_int_equal(eval(g, (uint64_t[]){5}), 120);
    assert_int_equal(eval(g, (uint64_t[]){20}), UINT64_C(2432902008176640000));
    assert_int_equal(eval(g, (uint64_t[]){21}), UINT64_C(2432902008176640000) * 21); /* wraps */
}

/* A declaration of a native function. */
static JgGraph *declare(const char *name, void *native, JgType ret, uint32_t n, const JgType *types)
{
    JgGraph *g = jg_graph_new(&arena, name, ret, n, types);
    g->flags = JG_FLAG_EXTERNAL;
    g->native = native;
    return g;
}

/* A graph that calls `callee` (a declaration) directly with its own
 * parameters and returns the result. */
static JgGraph *build_caller(JgGraph *callee)
{
    JgType types[16];
    assert_true(callee->nparams <= 16);
    for (uint32_t i = 0; i < callee->nparams; i++)
        types[i] = (JgType)callee->param_types[i];
    JgGraph *g = jg_graph_new(&arena, "caller", (JgType)callee->ret_type, callee->nparams, types);
    JgVal args[17];
    args[0] = jg_const_symbol(g, callee->native, callee->name);
    for (uint32_t i = 0; i < callee->nparams; i++)
        args[i + 1] = param(g, 0, i);
    JgVal r = jg_emit(g, 0, JG_OP_CALL, (JgType)callee->ret_type, callee->nparams + 1, args);
    jg_last_op(g, 0)->callee = callee;
    jg_set_return(g, 0, r);
    return g;
}

static double mixed(int32_t a, int64_t b, double c, const char *s, int8_t d, float f)
{
    return a + (double)b * 2 + c * 4 + (double)strlen(s) * 8 + d * 16 + f * 32;
}

static bool is_negative(int64_t x)
{
    return x < 0;
}

static int8_t negate8(int8_t x)
{
    return (int8_t)-x;
}

static uint16_t twice16(uint16_t x)
{
    return (uint16_t)(x * 2);
}

static float half32(float x)
{
    return x / 2;
}

static double sum_squares(double x, double y)
{
    return x * x + y * y;
}

static void test_native_calls(void **state)
{
    (void)state;
    JgGraph *labs_g = declare("labs", (void *)labs, JG_I64, 1, (JgType[]){JG_I64});
    assert_int_equal(eval(build_caller(labs_g), (uint64_t[]){(uint64_t)-5}), 5);
    assert_int_equal(jg_eval(&(JgEvaluator){0}, labs_g, (uint64_t[]){(uint64_t)-9}), 9);

    JgGraph *strlen_g = declare("strlen", (void *)strlen, JG_I64, 1, (JgType[]){JG_PTR});
    assert_int_equal(eval(build_caller(strlen_g), (uint64_t[]){addr("hello")}), 5);

    JgType mt[] = {JG_I32, JG_I64, JG_F64, JG_PTR, JG_I8, JG_F32};
    JgGraph *mixed_g = declare("mixed", (void *)mixed, JG_F64, 6, mt);
    uint64_t margs[] = {(uint32_t)-3, 1000000000000, f64_bits(0.5),
                        addr("abc"),  0xfe,          f32_bits(0.25f)};
    assert_true(bits_f64(eval(build_caller(mixed_g), margs)) ==
                mixed(-3, 1000000000000, 0.5, "abc", -2, 0.25f));

    JgGraph *neg_g = declare("is_negative", (void *)is_negative, JG_I1, 1, (JgType[]){JG_I64});
    assert_int_equal(eval(build_caller(neg_g), (uint64_t[]){(uint64_t)-1}), 1);
    assert_int_equal(eval(build_caller(neg_g), (uint64_t[]){1}), 0);

    JgGraph *n8 = declare("negate8", (void *)negate8, JG_I8, 1, (JgType[]){JG_I8});
    assert_int_equal(eval(build_caller(n8), (uint64_t[]){5}), 0xfb);
    assert_int_equal(eval(build_caller(n8), (uint64_t[]){0xfb}), 5);
    JgGraph *t16 = declare("twice16", (void *)twice16, JG_I16, 1, (JgType[]){JG_I16});
    assert_int_equal(eval(build_caller(t16), (uint64_t[]){0x9000}), 0x2000);
    JgGraph *h32 = declare("half32", (void *)half32, JG_F32, 1, (JgType[]){JG_F32});
    assert_true(bits_f32(eval(build_caller(h32), (uint64_t[]){f32_bits(3.0f)})) == 1.5f);
    JgGraph *sq =
        declare("sum_squares", (void *)sum_squares, JG_F64, 2, (JgType[]){JG_F64, JG_F64});
    assert_true(bits_f64(eval(build_caller(sq), (uint64_t[]){f64_bits(3), f64_bits(4)})) == 25.0);
}

static int64_t add3(int64_t a, int64_t b, int64_t c)
{
    return a + b + c;
}

static int64_t weighted10(int64_t a, int32_t b, int64_t c, int16_t d, int64_t e, int8_t f,
                          int64_t g, int64_t h, double i, int64_t j)
{
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + (int64_t)(9 * i) + 10 * j;
}

/* More arguments than the call-description cache keeps, and many distinct
 * signatures through the cache's few slots. */
static void test_native_call_signatures(void **state)
{
    (void)state;
    JgType wt[] = {JG_I64, JG_I32, JG_I64, JG_I16, JG_I64, JG_I8, JG_I64, JG_I64, JG_F64, JG_I64};
    JgGraph *w = build_caller(declare("weighted10", (void *)weighted10, JG_I64, 10, wt));
    uint64_t wargs[] = {1, (uint32_t)-1, 1, 0xffff, 1, 0xff, 1, 1, f64_bits(1.0), 1};
    assert_int_equal(eval(w, wargs), (uint64_t)weighted10(1, -1, 1, -1, 1, -1, 1, 1, 1.0, 1));

    /* add3 called through declarations of 1..3 i64 parameters plus extra
     * arguments of varying types: many signatures, same results */
    JgType kinds[] = {JG_I64, JG_I32, JG_I16, JG_I8, JG_F64, JG_PTR};
    for (int round = 0; round < 2; round++)
        for (unsigned k = 0; k < 6; k++)
            for (unsigned extra = 0; extra < 6; extra++) {
                JgType types[9] = {JG_I64, JG_I64, JG_I64};
                uint64_t args[9] = {1, 2, 3};
                for (unsigned i = 0; i < extra; i++) {
                    types[3 + i] = kinds[(k + i) % 6];
                    args[3 + i] = 0;
                }
                JgGraph *g = build_caller(declare("add3", (void *)add3, JG_I64, 3 + extra, types));
                assert_int_equal(eval(g, args), 6);
            }
}

/* snprintf(buf, 64, "%d:%s:%.1f", 42, "ok", 2.5): a variadic native whose
 * fixed parameters come from its declaration. */
static void test_variadic_native_call(void **state)
{
    (void)state;
    JgGraph *decl =
        declare("snprintf", (void *)snprintf, JG_I32, 3, (JgType[]){JG_PTR, JG_I64, JG_PTR});
    decl->variadic = true;
    JgGraph *g = jg_graph_new(&arena, "format", JG_I32, 1, (JgType[]){JG_PTR});
    JgVal args[] = {jg_const_symbol(g, (void *)snprintf, "snprintf"),
                    param(g, 0, 0),
                    jg_const(g, JG_I64, 64),
                    jg_const_symbol(g, (void *)"%d:%s:%.1f", ".str"),
                    jg_const(g, JG_I32, 42),
                    jg_const_symbol(g, (void *)"ok", ".str.1"),
                    jg_const(g, JG_F64, f64_bits(2.5))};
    JgVal r = jg_emit(g, 0, JG_OP_CALL, JG_I32, 7, args);
    jg_last_op(g, 0)->callee = decl;
    jg_set_return(g, 0, r);
    char buf[64] = "";
    assert_int_equal(eval(g, (uint64_t[]){addr(buf)}), 9);
    assert_string_equal(buf, "42:ok:2.5");
}

static int64_t times10(int64_t a)
{
    return a * 10;
}

static int64_t (*const fn_table[])(int64_t) = {labs, times10};

/* Indirect calls: no callee graph, types from the values. */
static void test_indirect_calls(void **state)
{
    (void)state;
    JgType pt[] = {JG_PTR, JG_I64};
    JgGraph *g = jg_graph_new(&arena, "apply", JG_I64, 2, pt);
    JgVal r =
        jg_emit(g, 0, JG_OP_CALL, JG_I64, 4,
                (JgVal[]){param(g, 0, 0), param(g, 0, 1), param(g, 0, 1), jg_const(g, JG_I64, 1)});
    jg_set_return(g, 0, r);
    assert_int_equal(eval(g, (uint64_t[]){addr((void *)add3), 20}), 41);

    /* through a function pointer loaded from a table: table[i](x) */
    JgGraph *t = jg_graph_new(&arena, "dispatch", JG_I64, 2, (JgType[]){JG_I64, JG_I64});
    JgVal base = jg_const_symbol(t, (void *)fn_table, "fn_table");
    JgVal off =
        jg_emit(t, 0, JG_OP_MUL, JG_I64, 2, (JgVal[]){param(t, 0, 0), jg_const(t, JG_I64, 8)});
    JgVal slot = jg_emit(t, 0, JG_OP_PTRADD, JG_PTR, 2, (JgVal[]){base, off});
    JgVal fp = emit_load(t, 0, JG_PTR, slot);
    jg_set_return(t, 0, jg_emit(t, 0, JG_OP_CALL, JG_I64, 2, (JgVal[]){fp, param(t, 0, 1)}));
    assert_int_equal(eval(t, (uint64_t[]){0, (uint64_t)-8}), 8);
    assert_int_equal(eval(t, (uint64_t[]){1, 7}), 70);
}

typedef struct HookLog {
    const JgGraph *target;
    int calls;
    int handled;
} HookLog;

static bool hook(void *ctx, JgEvaluator *ev, const JgOp *op, const JgGraph *callee, void *native,
                 uint32_t nargs, const uint64_t *args, uint64_t *result)
{
    (void)ev;
    (void)native;
    assert_int_equal(op->opcode, JG_OP_CALL);
    HookLog *log = ctx;
    log->calls++;
    if (callee != log->target)
        return false;
    log->handled++;
    assert_int_equal(nargs, 1);
    *result = 1000 + args[0];
    return true;
}

/* f(x) = times10(x) + fact(x): the hook takes over fact and leaves times10. */
static void test_call_hook(void **state)
{
    (void)state;
    JgGraph *fact = build_factorial();
    JgGraph *t10 = declare("times10", (void *)times10, JG_I64, 1, (JgType[]){JG_I64});
    JgGraph *g = jg_graph_new(&arena, "f", JG_I64, 1, (JgType[]){JG_I64});
    JgVal x = param(g, 0, 0);
    JgVal a = jg_emit(g, 0, JG_OP_CALL, JG_I64, 2,
                      (JgVal[]){jg_const_symbol(g, (void *)times10, "times10"), x});
    jg_last_op(g, 0)->callee = t10;
    JgVal b = jg_emit(g, 0, JG_OP_CALL, JG_I64, 2, (JgVal[]){jg_const_symbol(g, NULL, "fact"), x});
    jg_last_op(g, 0)->callee = fact;
    jg_set_return(g, 0, jg_emit(g, 0, JG_OP_ADD, JG_I64, 2, (JgVal[]){a, b}));

    HookLog log = {.target = fact};
    JgEvaluator ev = {.hook = hook, .hook_ctx = &log};
    assert_int_equal(eval_with(&ev, g, (uint64_t[]){5}), 50 + 1005);
    assert_int_equal(log.calls, 2);
    assert_int_equal(log.handled, 1);
    /* the hook also sees calls inside evaluated graphs */
    log = (HookLog){.target = NULL};
    assert_int_equal(eval_with(&ev, fact, (uint64_t[]){4}), 24);
    assert_int_equal(log.calls, 3);
}

/* ---- bugs in graphs abort with a message ------------------------------- */

/* Runs `fn` in a child process; expects it to abort with `phrase` on
 * stderr. */
static void expect_abort(void (*fn)(void), const char *phrase)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        fn();
        _exit(0);
    }
    close(fds[1]);
    char buf[1024];
    size_t len = 0;
    ssize_t got;
    while (len < sizeof buf - 1 && (got = read(fds[0], buf + len, sizeof buf - 1 - len)) > 0)
        len += (size_t)got;
    buf[len] = '\0';
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
        fail_msg("expected an abort, got status %d, stderr: %s", status, buf);
    if (!strstr(buf, phrase))
        fail_msg("expected '%s' in: %s", phrase, buf);
}

static void run_unreachable(void)
{
    JgGraph *g = jg_graph_new(&arena, "dead", JG_VOID, 0, NULL);
    jg_set_unreachable(g, 0);
    eval(g, NULL);
}

static void no_return(void)
{
}

static void run_noreturn_returning(void)
{
    JgGraph *decl = declare("no_return", (void *)no_return, JG_VOID, 0, NULL);
    decl->flags |= JG_FLAG_NORETURN;
    JgGraph *g = build_caller(decl);
    eval(g, NULL);
}

static void test_bugs_abort(void **state)
{
    (void)state;
    expect_abort(run_unreachable, "graph dead, block 0: reached unreachable");
    expect_abort(run_noreturn_returning, "no_return is noreturn, but returned");
}

/* ---- printer ----------------------------------------------------------- */

static const char *annotate(void *ctx, const JgGraph *g, JgVal v)
{
    (void)g;
    const char *const *colors = ctx;
    return colors[v % 2];
}

static char *print_to_string(const JgGraph *g, JgValueAnnotator ann, void *ctx)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    jg_print_graph(f, g, ann, ctx);
    fclose(f);
    return text;
}

static void test_print(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "demo", JG_I32, 2, (JgType[]){JG_I32, JG_PTR});
    g->flags = JG_FLAG_ELIDABLE | JG_FLAG_PORTAL;
    g->file = "demo.c";
    g->line = 3;
    uint32_t b1 = jg_block_new(g, 1, (JgType[]){JG_I32});
    uint32_t b2 = jg_block_new(g, 0, NULL);
    JgVal x = param(g, 0, 0), p = param(g, 0, 1);
    JgVal sum =
        jg_emit(g, 0, JG_OP_ADD, JG_I32, 2, (JgVal[]){x, jg_const(g, JG_I32, (uint64_t)-3)});
    jg_last_op(g, 0)->line = 7;
    JgVal f =
        jg_emit(g, 0, JG_OP_FADD, JG_F64, 2,
                (JgVal[]){jg_const(g, JG_F64, f64_bits(0.1)), jg_const(g, JG_F64, f64_bits(2))});
    (void)f;
    JgVal ld = emit_load(g, 0, JG_I64, ptradd(g, 0, p, 8));
    JgVal r = jg_emit(g, 0, JG_OP_CALL, JG_I64, 2,
                      (JgVal[]){jg_const_symbol(g, (void *)labs, "labs"), ld});
    jg_last_op(g, 0)->line = 12;
    emit_store(g, 0, p, r);
    JgVal isnull = jg_emit(g, 0, JG_OP_ICMP, JG_I1, 2, (JgVal[]){p, jg_const(g, JG_PTR, 0)});
    jg_last_op(g, 0)->pred = JG_EQ;
    jg_emit(g, 0, JG_OP_SELECT, JG_I1, 3,
            (JgVal[]){isnull, jg_const(g, JG_I1, 1), jg_const(g, JG_I1, 0)});
    JgVal stack = jg_emit(g, 0, JG_OP_ALLOCA, JG_PTR, 0, NULL);
    jg_last_op(g, 0)->imm = 16;
    jg_emit(g, 0, JG_OP_CALL, JG_VOID, 2, (JgVal[]){stack, x});
    int64_t cases[] = {1, -2};
    JgLink links[] = {jg_link(g, b1, 1, &x), jg_link(g, b1, 1, &sum), jg_link(g, b2, 0, NULL)};
    jg_set_switch(g, 0, sum, 2, cases, links);
    g->blocks.items[0].term.line = 13;
    jg_emit(g, b1, JG_OP_MERGE_POINT, JG_VOID, 0, NULL);
    jg_set_return(g, b1, param(g, b1, 0));
    jg_set_unreachable(g, b2);
    assert_verifies(g);

    const char *colors[] = {"[G]", "[R]"};
    char *text = print_to_string(g, annotate, colors);
    const char *expected =
        "graph demo(v1: i32, v2: ptr) -> i32  [elidable, portal]  ; demo.c:3\n"
        "block0(v1[R]: i32, v2[G]: ptr):\n"
        "    v5[R]: i32 = add v1, -3                     ; line 7\n"
        "    v8[G]: f64 = fadd 0.1, 2.0\n"
        "    v10[G]: ptr = ptradd v2, 8\n"
        "    v11[R]: i64 = load v10\n"
        "    v13[R]: i64 = call @labs(v11)               ; line 12\n"
        "    store v2, v13\n"
        "    v15[R]: i1 = icmp eq v2, null\n"
        "    v18[G]: i1 = select v15, true, false\n"
        "    v19[R]: ptr = alloca 16\n"
        "    call v19(v1)\n"
        "    switch v5 [1 -> block1(v5), -2 -> block2()], default block1(v1) ; line 13\n"
        "block1(v3[R]: i32):\n"
        "    merge_point\n"
        "    return v3\n"
        "block2():\n"
        "    unreachable\n";
    assert_string_equal(text, expected);
    free(text);

    /* no annotator; a declaration prints its signature only */
    JgGraph *d = declare("printf", (void *)printf, JG_I32, 1, (JgType[]){JG_PTR});
    d->variadic = true;
    d->flags |= JG_FLAG_DONT_LOOK_INSIDE;
    text = print_to_string(d, NULL, NULL);
    assert_string_equal(text, "graph printf(ptr, ...) -> i32  [dont_look_inside, external]\n");
    free(text);

    /* a residual graph with an entry block */
    JgGraph *res = jg_graph_new(&arena, "res", JG_VOID, 0, NULL);
    res->flags |= JG_FLAG_RESIDUAL;
    uint32_t e = jg_block_new(res, 1, (JgType[]){JG_I8});
    res->blocks.items[e].flags |= JG_BLOCK_ENTRY;
    jg_set_goto(res, 0, jg_link(res, e, 1, (JgVal[]){jg_const(res, JG_I8, 200)}));
    jg_set_return(res, e, 0);
    text = print_to_string(res, NULL, NULL);
    assert_string_equal(text, "graph res() -> void  [residual]\n"
                              "block0():\n"
                              "    goto block1(-56)\n"
                              "block1(v1: i8) [entry]:\n"
                              "    return\n");
    free(text);
}

static void test_print_constants(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "k", JG_VOID, 0, NULL);
    JgVal vals[] = {
        jg_const(g, JG_I8, 0xff),
        jg_const(g, JG_I16, 300),
        jg_const(g, JG_I64, UINT64_MAX),
        jg_const(g, JG_I64, (uint64_t)INT64_MIN),
        jg_const(g, JG_PTR, 0x1000),
        jg_const(g, JG_F64, f64_bits(1e100)),
        jg_const(g, JG_F64, f64_bits(-0.5)),
        jg_const(g, JG_F32, f32_bits(0.1f)),
        jg_const(g, JG_F64, f64_bits(INFINITY)),
    };
    JgVal fn = jg_const(g, JG_PTR, 0x2000);
    JgVal args[10] = {fn};
    memcpy(args + 1, vals, sizeof vals);
    jg_emit(g, 0, JG_OP_CALL, JG_VOID, 10, args);
    jg_set_return(g, 0, 0);
    char *text = print_to_string(g, NULL, NULL);
    assert_string_equal(text, "graph k() -> void\n"
                              "block0():\n"
                              "    call 0x2000(-1, 300, -1, -9223372036854775808, 0x1000, 1e+100, "
                              "-0.5, 0.1, inf)\n"
                              "    return\n");
    free(text);
}

/* ---- verifier ---------------------------------------------------------- */

static void expect_rejected(const JgGraph *g, const char *prefix, const char *phrase)
{
    char err[256];
    if (jg_verify_graph(g, err, sizeof err))
        fail_msg("verifier accepted %s, expected '%s'", g->name, phrase);
    if (strncmp(err, prefix, strlen(prefix)) != 0 || !strstr(err, phrase))
        fail_msg("got '%s', expected '%s...%s'", err, prefix, phrase);
}

static void test_verify_accepts(void **state)
{
    (void)state;
    assert_verifies(build_sum());
    assert_verifies(build_factorial());
    assert_verifies(build_record_update());
    JgGraph *d = declare("labs", (void *)labs, JG_I64, 1, (JgType[]){JG_I64});
    assert_verifies(d);
    char err[8];
    assert_true(jg_verify_graph(build_caller(d), err, sizeof err));
}

static void test_verify_missing_terminator(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "bad", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t b = jg_block_new(g, 0, NULL);
    jg_set_goto(g, 0, jg_link(g, b, 0, NULL));
    expect_rejected(g, "graph bad, block 1, terminator: ", "no terminator");
}

static void test_verify_cross_block_use(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "bad", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t b = jg_block_new(g, 0, NULL);
    jg_set_goto(g, 0, jg_link(g, b, 0, NULL));
    JgVal x = param(g, 0, 0);
    jg_set_return(g, b, jg_emit(g, b, JG_OP_ADD, JG_I64, 2, (JgVal[]){x, x}));
    expect_rejected(g, "graph bad, block 1, op 0 (add): ", "v1 belongs to block 0");

    /* in a terminator too */
    JgGraph *h = jg_graph_new(&arena, "bad2", JG_I64, 1, (JgType[]){JG_I64});
    b = jg_block_new(h, 0, NULL);
    jg_set_goto(h, 0, jg_link(h, b, 0, NULL));
    jg_set_return(h, b, param(h, 0, 0));
    expect_rejected(h,
                    "graph bad2, block 1, terminator: ", "returned value: v1 belongs to block 0");
}

static void test_verify_use_before_definition(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "bad", JG_I64, 1, (JgType[]){JG_I64});
    JgVal x = param(g, 0, 0);
    jg_emit(g, 0, JG_OP_ADD, JG_I64, 2, (JgVal[]){x, x});
    JgVal later = jg_emit(g, 0, JG_OP_MUL, JG_I64, 2, (JgVal[]){x, x});
    g->blocks.items[0].ops.items[0].args[1] = later;
    jg_set_return(g, 0, later);
    expect_rejected(g, "graph bad, block 0, op 0 (add): ", "used before its definition");
}

static void test_verify_type_mismatch(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "bad", JG_I32, 2, (JgType[]){JG_I32, JG_I64});
    jg_set_return(g, 0,
                  jg_emit(g, 0, JG_OP_ADD, JG_I32, 2, (JgVal[]){param(g, 0, 0), param(g, 0, 1)}));
    expect_rejected(g, "graph bad, block 0, op 0 (add): ", "operand 1 is i64, expected i32");

    JgGraph *c = jg_graph_new(&arena, "cmp", JG_I1, 2, (JgType[]){JG_I32, JG_I64});
    jg_set_return(c, 0,
                  jg_emit(c, 0, JG_OP_ICMP, JG_I1, 2, (JgVal[]){param(c, 0, 0), param(c, 0, 1)}));
    expect_rejected(c,
                    "graph cmp, block 0, op 0 (icmp): ", "operands of different types i32 and i64");

    JgGraph *l = jg_graph_new(&arena, "ld", JG_I64, 1, (JgType[]){JG_I64});
    jg_set_return(l, 0, emit_load(l, 0, JG_I64, param(l, 0, 0)));
    expect_rejected(l, "graph ld, block 0, op 0 (load): ", "operand 0 is i64, expected ptr");

    JgGraph *p = jg_graph_new(&arena, "pa", JG_PTR, 2, (JgType[]){JG_PTR, JG_I32});
    jg_set_return(
        p, 0, jg_emit(p, 0, JG_OP_PTRADD, JG_PTR, 2, (JgVal[]){param(p, 0, 0), param(p, 0, 1)}));
    expect_rejected(p, "graph pa, block 0, op 0 (ptradd): ", "operand 1 is i32, expected i64");

    JgGraph *s = jg_graph_new(&arena, "sx", JG_I8, 1, (JgType[]){JG_I32});
    jg_set_return(s, 0, jg_emit(s, 0, JG_OP_SEXT, JG_I8, 1, (JgVal[]){param(s, 0, 0)}));
    expect_rejected(s, "graph sx, block 0, op 0 (sext): ", "cannot convert i32 to i8");

    JgGraph *b = jg_graph_new(&arena, "br", JG_VOID, 1, (JgType[]){JG_I64});
    uint32_t t = jg_block_new(b, 0, NULL);
    jg_set_branch(b, 0, param(b, 0, 0), jg_link(b, t, 0, NULL), jg_link(b, t, 0, NULL));
    jg_set_return(b, t, 0);
    expect_rejected(b, "graph br, block 0, terminator: ", "branch condition is i64, expected i1");

    JgGraph *f = jg_graph_new(&arena, "callf", JG_I64, 1, (JgType[]){JG_I32});
    JgGraph *labs_g = declare("labs", (void *)labs, JG_I64, 1, (JgType[]){JG_I64});
    JgVal r = jg_emit(f, 0, JG_OP_CALL, JG_I64, 2,
                      (JgVal[]){jg_const_symbol(f, (void *)labs, "labs"), param(f, 0, 0)});
    jg_last_op(f, 0)->callee = labs_g;
    jg_set_return(f, 0, r);
    expect_rejected(
        f, "graph callf, block 0, op 0 (call): ", "argument 0 to labs is i32, expected i64");
}

static void test_verify_call_arity(void **state)
{
    (void)state;
    JgGraph *add = declare("add3", (void *)add3, JG_I64, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    JgGraph *g = jg_graph_new(&arena, "bad", JG_I64, 1, (JgType[]){JG_I64});
    JgVal r = jg_emit(g, 0, JG_OP_CALL, JG_I64, 2,
                      (JgVal[]){jg_const_symbol(g, (void *)add3, "add3"), param(g, 0, 0)});
    jg_last_op(g, 0)->callee = add;
    jg_set_return(g, 0, r);
    expect_rejected(g, "graph bad, block 0, op 0 (call): ", "1 arguments to add3, which takes 3");
}

static void test_verify_link_mismatch(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "bad", JG_VOID, 1, (JgType[]){JG_I64});
    uint32_t b = jg_block_new(g, 2, (JgType[]){JG_I64, JG_I64});
    jg_set_goto(g, 0, jg_link(g, b, 1, (JgVal[]){param(g, 0, 0)}));
    jg_set_return(g, b, 0);
    expect_rejected(g, "graph bad, block 0, terminator: ",
                    "link 0 passes 1 values to block 1, which has 2 parameters");

    JgGraph *h = jg_graph_new(&arena, "bad2", JG_VOID, 1, (JgType[]){JG_I64});
    b = jg_block_new(h, 1, (JgType[]){JG_I32});
    jg_set_goto(h, 0, jg_link(h, b, 1, (JgVal[]){param(h, 0, 0)}));
    jg_set_return(h, b, 0);
    expect_rejected(h, "graph bad2, block 0, terminator: ",
                    "link 0 argument 0 is i64, parameter 0 of block 1 is i32");

    JgGraph *m = jg_graph_new(&arena, "bad3", JG_VOID, 0, NULL);
    jg_set_goto(m, 0, jg_link(m, 7, 0, NULL));
    expect_rejected(m, "graph bad3, block 0, terminator: ", "link 0 targets missing block 7");
}

static void test_verify_bad_return(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "bad", JG_I64, 1, (JgType[]){JG_I32});
    jg_set_return(g, 0, param(g, 0, 0));
    expect_rejected(g,
                    "graph bad, block 0, terminator: ", "returns i32 from a graph returning i64");

    JgGraph *h = jg_graph_new(&arena, "bad2", JG_I64, 0, NULL);
    jg_set_return(h, 0, 0);
    expect_rejected(
        h, "graph bad2, block 0, terminator: ", "returns nothing from a graph returning i64");
}

static void test_verify_switch(void **state)
{
    (void)state;
    JgGraph *g = jg_graph_new(&arena, "bad", JG_VOID, 1, (JgType[]){JG_I8});
    uint32_t b = jg_block_new(g, 0, NULL);
    int64_t cases[] = {1, 257}; /* the same i8 value */
    JgLink links[] = {jg_link(g, b, 0, NULL), jg_link(g, b, 0, NULL), jg_link(g, b, 0, NULL)};
    jg_set_switch(g, 0, param(g, 0, 0), 2, cases, links);
    jg_set_return(g, b, 0);
    expect_rejected(g, "graph bad, block 0, terminator: ", "case 257 appears twice");
}

/* ---- residual graphs: ordinary SSA -------------------------------------- */

/* f(n) = fib(n) + n + 10 with values used across blocks:
 *   block0(n): k = n + 10; goto block1(0, 1, 0)
 *   block1(a, b, i): branch i < n, block2(), block3()
 *   block2(): goto block1(a + b, a, i + 1)     -- passes a back into b
 *   block3(): return a + k */
static JgGraph *build_residual_fib(bool residual)
{
    JgType t3[] = {JG_I64, JG_I64, JG_I64};
    JgGraph *g = jg_graph_new(&arena, "rfib", JG_I64, 1, t3);
    if (residual)
        g->flags |= JG_FLAG_RESIDUAL;
    uint32_t head = jg_block_new(g, 3, t3), body = jg_block_new(g, 0, NULL);
    uint32_t done = jg_block_new(g, 0, NULL);
    JgVal n = param(g, 0, 0), one = jg_const(g, JG_I64, 1), zero = jg_const(g, JG_I64, 0);
    JgVal k = jg_emit(g, 0, JG_OP_ADD, JG_I64, 2, (JgVal[]){n, jg_const(g, JG_I64, 10)});
    jg_set_goto(g, 0, jg_link(g, head, 3, (JgVal[]){zero, one, zero}));
    JgVal a = param(g, head, 0), b = param(g, head, 1), i = param(g, head, 2);
    JgVal lt = jg_emit(g, head, JG_OP_ICMP, JG_I1, 2, (JgVal[]){i, n});
    jg_last_op(g, head)->pred = JG_SLT;
    jg_set_branch(g, head, lt, jg_link(g, body, 0, NULL), jg_link(g, done, 0, NULL));
    JgVal s = jg_emit(g, body, JG_OP_ADD, JG_I64, 2, (JgVal[]){a, b});
    JgVal i2 = jg_emit(g, body, JG_OP_ADD, JG_I64, 2, (JgVal[]){i, one});
    jg_set_goto(g, body, jg_link(g, head, 3, (JgVal[]){s, a, i2}));
    jg_set_return(g, done, jg_emit(g, done, JG_OP_ADD, JG_I64, 2, (JgVal[]){a, k}));
    return g;
}

static void test_residual_cross_block_values(void **state)
{
    (void)state;
    JgGraph *g = build_residual_fib(true);
    assert_int_equal(eval(g, (uint64_t[]){0}), 10);
    assert_int_equal(eval(g, (uint64_t[]){1}), 1 + 11);
    assert_int_equal(eval(g, (uint64_t[]){10}), 55 + 20);
    assert_int_equal(eval(g, (uint64_t[]){90}), UINT64_C(2880067194370816120) + 100);
    /* the same graph is not in block-local SSA */
    expect_rejected(build_residual_fib(false),
                    "graph rfib, block 1, op 0 (icmp): ", "operand 1: v1 belongs to block 0");
}

static void test_verify_dominance(void **state)
{
    (void)state;
    /* a diamond: x is defined in one arm and used after the join */
    JgGraph *g = jg_graph_new(&arena, "diamond", JG_I64, 2, (JgType[]){JG_I1, JG_I64});
    g->flags |= JG_FLAG_RESIDUAL;
    uint32_t left = jg_block_new(g, 0, NULL), right = jg_block_new(g, 0, NULL);
    uint32_t join = jg_block_new(g, 0, NULL), dead = jg_block_new(g, 0, NULL);
    jg_set_branch(g, 0, param(g, 0, 0), jg_link(g, left, 0, NULL), jg_link(g, right, 0, NULL));
    JgVal x = jg_emit(g, left, JG_OP_ADD, JG_I64, 2, (JgVal[]){param(g, 0, 1), param(g, 0, 1)});
    jg_set_goto(g, left, jg_link(g, join, 0, NULL));
    jg_set_goto(g, right, jg_link(g, join, 0, NULL));
    jg_set_return(g, join, x);
    /* an unreachable block may use any defined value */
    jg_set_return(g, dead, x);
    expect_rejected(g, "graph diamond, block 3, terminator: ",
                    "returned value: v3 of block 1 does not dominate this use");
    jg_set_return(g, join, param(g, 0, 1));
    assert_verifies(g);

    /* an entry block (a later compilation may jump in) starts a new scope */
    JgGraph *e = jg_graph_new(&arena, "entry", JG_I64, 1, (JgType[]){JG_I64});
    e->flags |= JG_FLAG_RESIDUAL;
    uint32_t b = jg_block_new(e, 1, (JgType[]){JG_I64});
    JgVal k = jg_emit(e, 0, JG_OP_MUL, JG_I64, 2, (JgVal[]){param(e, 0, 0), param(e, 0, 0)});
    jg_set_goto(e, 0, jg_link(e, b, 1, &k));
    jg_set_return(e, b, jg_emit(e, b, JG_OP_ADD, JG_I64, 2, (JgVal[]){param(e, b, 0), k}));
    assert_verifies(e);
    e->blocks.items[b].flags |= JG_BLOCK_ENTRY;
    expect_rejected(e, "graph entry, block 1, op 0 (add): ",
                    "operand 1: v3 of block 0 does not dominate this use");
}

/* Whether block `b` can be reached from the roots (block 0 and the entry
 * blocks) without passing through block `skip` (UINT32_MAX: none). */
static bool reaches(const JgGraph *g, uint32_t b, uint32_t skip)
{
    uint32_t n = g->blocks.count, stack[64], sp = 0;
    bool seen[64] = {false};
    for (uint32_t r = 0; r < n; r++)
        if ((r == 0 || (g->blocks.items[r].flags & JG_BLOCK_ENTRY)) && r != skip && !seen[r]) {
            seen[r] = true;
            stack[sp++] = r;
        }
    while (sp) {
        const JgTerm *t = &g->blocks.items[stack[--sp]].term;
        for (uint32_t i = 0; i < t->nlinks; i++) {
            uint32_t w = t->links[i].target;
            if (w != skip && !seen[w]) {
                seen[w] = true;
                stack[sp++] = w;
            }
        }
    }
    return seen[b];
}

/* A small linear congruential generator (deterministic tests). */
static uint32_t rnd(uint64_t *seed, uint32_t k)
{
    *seed = *seed * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*seed >> 33) % k;
}

/* Random control flow graphs: a use in block b of a value of block d must be
 * accepted exactly when d dominates b (by the definition: every path from a
 * root to b passes through d) or b is unreachable. */
static void test_verify_dominance_random(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    int accepted = 0, rejected = 0;
    for (int trial = 0; trial < 3000; trial++) {
        jg_arena_free(&arena);
        JgGraph *g = jg_graph_new(&arena, "random", JG_VOID, 0, NULL);
        g->flags |= JG_FLAG_RESIDUAL;
        uint32_t n = 2 + rnd(&seed, 14);
        for (uint32_t b = 1; b < n; b++) {
            uint32_t index = jg_block_new(g, 0, NULL); /* may move the block array */
            g->blocks.items[index].flags = rnd(&seed, 6) == 0 ? JG_BLOCK_ENTRY : 0;
        }
        JgVal x[16], one = jg_const(g, JG_I64, 1), cond = jg_const(g, JG_I1, 1);
        for (uint32_t b = 0; b < n; b++) {
            x[b] = jg_emit(g, b, JG_OP_ADD, JG_I64, 2, (JgVal[]){one, one});
            uint32_t kind = rnd(&seed, 5);
            if (kind == 0)
                jg_set_return(g, b, 0);
            else if (kind < 3)
                jg_set_goto(g, b, jg_link(g, rnd(&seed, n), 0, NULL));
            else {
                uint32_t t1 = rnd(&seed, n), t2 = rnd(&seed, n);
                jg_set_branch(g, b, cond, jg_link(g, t1, 0, NULL), jg_link(g, t2, 0, NULL));
            }
        }
        uint32_t b = (uint32_t)(seed >> 20) % n, d = (uint32_t)(seed >> 40) % n;
        jg_emit(g, b, JG_OP_ADD, JG_I64, 2, (JgVal[]){x[d], x[d]});
        bool expect = d == b || !reaches(g, b, UINT32_MAX) || !reaches(g, b, d);
        char err[256];
        bool got = jg_verify_graph(g, err, sizeof err);
        if (got != expect) {
            jg_print_graph(stderr, g, NULL, NULL);
            fail_msg("trial %d: use in block %u of block %u's value: verifier %s (%s)", trial, b, d,
                     got ? "accepted" : "rejected", err);
        }
        expect ? accepted++ : rejected++;
    }
    assert_true(accepted > 500 && rejected > 500); /* both outcomes exercised */
}

/* ---- performance smoke check ------------------------------------------- */

/* Not a benchmark: guards against an accidentally quadratic or allocating
 * loop (10 million ops must take well under the test timeout). */
static void test_many_ops(void **state)
{
    (void)state;
    JgGraph *g = build_sum();
    JgEvaluator ev = {0};
    assert_int_equal(eval_with(&ev, g, (uint64_t[]){3000000}), UINT64_C(4500001500000));
    assert_int_equal(ev.ops_executed, 9000001);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_integer_wrapping),
        T(test_division),
        T(test_bitwise_and_shifts),
        T(test_float_arithmetic),
        T(test_integer_compares),
        T(test_float_compares),
        T(test_casts),
        T(test_select),
        T(test_hints_are_identities),
        T(test_loop_sum),
        T(test_parallel_link_assignment),
        T(test_switch),
        T(test_alloca_memory),
        T(test_real_memory),
        T(test_memcpy_memset),
        T(test_recursive_call),
        T(test_native_calls),
        T(test_native_call_signatures),
        T(test_variadic_native_call),
        T(test_indirect_calls),
        T(test_call_hook),
        T(test_bugs_abort),
        T(test_print),
        T(test_print_constants),
        T(test_verify_accepts),
        T(test_verify_missing_terminator),
        T(test_verify_cross_block_use),
        T(test_verify_use_before_definition),
        T(test_verify_type_mismatch),
        T(test_verify_call_arity),
        T(test_verify_link_mismatch),
        T(test_verify_bad_return),
        T(test_verify_switch),
        T(test_residual_cross_block_values),
        T(test_verify_dominance),
        T(test_verify_dominance_random),
        T(test_many_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
