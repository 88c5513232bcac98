/* Unit tests of the baseline backend (baseline/): residual graphs built by
 * hand with the ir.h builders, compiled straight to x86-64 and run with
 * jg_baseline_call; results are compared with the graph evaluator
 * (frontend/eval.c, the reference semantics) on the same graph and
 * arguments, or with known values. Covered: integer arithmetic, compares
 * (register and immediate operands, branches fused with their compare),
 * casts, floats (helper calls), loops and the parallel moves of their
 * back-edges, register pressure, switches, returns of every type, memory,
 * native calls (registers, libffi, variadic, computed callees), values
 * live across calls, portal calls, flexswitches grown by a miss callback,
 * the tier-up hook and its looks, methods, big graphs without coalescing,
 * and compile errors. On a host without baseline code, everything is
 * skipped. */
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

#include "baseline/baseline.h"
#include "baseline/internal.h" /* BL_DIRECT_SLOTS */
#include "flexswitch/flexswitch.h"
#include "frontend/eval.h"
#include "frontend/fatal.h"
#include "frontend/ir.h"

#include "residual_build.h"

#include "free_list_fixture.h"

/* ---- helpers ----------------------------------------------------------- */

static JgBaseline *baseline_with(JgBaselineOptions o)
{
    char err[512];
    JgBaseline *bl = jg_baseline_new(&o, err, sizeof err);
    if (!bl)
        fail_msg("jg_baseline_new: %s", err);
    return bl;
}

static JgBaseline *baseline(void)
{
    return baseline_with((JgBaselineOptions){0});
}

/* Compiles what `g` grew since the last compilation (verified first: the
 * evaluator runs the same graph). */
static void compile(JgBaseline *bl, JgGraph *g)
{
    char err[512];
    verified(g);
    if (!jg_baseline_compile(bl, g, err, sizeof err))
        fail_msg("compiling %s: %s", g->name, err);
}

/* Compilation must fail with a message containing `want`. */
static void compile_fails(JgBaseline *bl, JgGraph *g, const char *want)
{
    char err[512] = "";
    assert_false(jg_baseline_compile(bl, g, err, sizeof err));
    if (!strstr(err, want))
        fail_msg("error \"%s\" does not mention \"%s\"", err, want);
}

static JgVal alloca_op(JgGraph *g, uint32_t b, int64_t size)
{
    JgVal p = jg_emit(g, b, JG_OP_ALLOCA, JG_PTR, 0, NULL);
    jg_last_op(g, b)->imm = size;
    return p;
}

static JgVal at(JgGraph *g, uint32_t b, JgVal base, uint64_t offset)
{
    return op2(g, b, JG_OP_PTRADD, JG_PTR, base, k64(g, offset));
}

static uint64_t eval(const JgGraph *g, const uint64_t *args)
{
    JgEvaluator ev = {0};
    return jg_eval(&ev, g, args);
}

/* Runs `g` on `args` in baseline code and in the evaluator: the results
 * must be the same bits. */
static uint64_t same(JgBaseline *bl, const JgGraph *g, const uint64_t *args)
{
    uint64_t got = jg_baseline_call(bl, g, args), want = eval(g, args);
    if (got != want) {
        char text[256] = "";
        for (uint32_t i = 0; i < g->nparams && i < 4; i++)
            snprintf(text + strlen(text), sizeof text - strlen(text), "%s%#llx", i ? ", " : "",
                     (unsigned long long)args[i]);
        fail_msg("%s(%s): baseline %#llx, evaluator %#llx", g->name, text, (unsigned long long)got,
                 (unsigned long long)want);
    }
    return got;
}

static uint64_t fn_addr(void (*f)(void))
{
    return (uint64_t)(uintptr_t)f;
}

#define FN(f) ((void *)(uintptr_t)fn_addr((void (*)(void))(f)))

static const JgType int_types[] = {JG_I1, JG_I8, JG_I16, JG_I32, JG_I64};
#define NINT_TYPES (sizeof int_types / sizeof int_types[0])

/* Operands at every width once truncated: 0, 1, -1, the signed minimum
 * and maximum of each width, shift amounts past every width, values that
 * do and do not fit a sign-extended 32-bit immediate, powers of two and
 * their negations (divisors: shifts or idiv). */
static const uint64_t samples[] = {
    0,
    1,
    2,
    3,
    5,
    7,
    31,
    63,
    64,
    0x7f,
    0x80,
    0xff,
    0x1234,
    0x7fff,
    0x8000,
    0xffff,
    0x12345678,
    0x40000000,
    0x7fffffff,
    0x80000000,
    0xffffffff,
    UINT64_C(0x100000000),
    UINT64_C(0xffffffff80000000),
    UINT64_C(0xffffffff7fffffff),
    UINT64_C(0xffffffffffffff80),
    UINT64_C(0xfffffffffffffff8),
    UINT64_C(0x123456789abcdef0),
    UINT64_C(1) << 63,
    UINT64_MAX - 6,
    UINT64_MAX,
};
#define NSAMPLES (sizeof samples / sizeof samples[0])

/* v (an integer) zero- or sign-extended to an i64 */
static JgVal to_i64(JgGraph *g, uint32_t b, JgOpcode how, JgVal v)
{
    return jg_value_type(g, v) == JG_I64 ? v : op1(g, b, how, JG_I64, v);
}

/* ---- availability ------------------------------------------------------- */

static void test_not_available(void **state)
{
    (void)state;
    char err[256] = "";
    assert_null(jg_baseline_new(&(JgBaselineOptions){0}, err, sizeof err));
    assert_non_null(strstr(err, "x86-64"));
    skip();
}

/* ---- integer arithmetic --------------------------------------------------- */

/* A graph (x, j) whose switch on j picks block j: blocks [0, n) return
 * x op k_j, blocks [n, 2n) return k_j op x, for the samples k as constants
 * of type t (immediates, or registers when they do not fit). */
static JgGraph *constant_operands(JgOpcode c, JgType t, JgPred pred, bool branch)
{
    JgType rt = c == JG_OP_ICMP ? (branch ? JG_I64 : JG_I1) : t;
    JgGraph *g = residual("with_constants", rt, 2, (JgType[]){t, JG_I32});
    uint32_t n = NSAMPLES;
    JgLink links[2 * NSAMPLES + 1];
    int64_t cases[2 * NSAMPLES];
    uint32_t none = jg_block_new(g, 0, NULL);
    jg_set_return(g, none, jg_const(g, rt, 0));
    uint32_t yes = 0, no = 0;
    if (branch) {
        yes = jg_block_new(g, 0, NULL);
        no = jg_block_new(g, 0, NULL);
        jg_set_return(g, yes, k64(g, 7));
        jg_set_return(g, no, k64(g, 9));
    }
    links[0] = jg_link(g, none, 0, NULL);
    for (uint32_t j = 0; j < 2 * n; j++) {
        uint32_t b = jg_block_new(g, 0, NULL);
        JgVal x = P(g, 0, 0), k = jg_const(g, t, samples[j % n]);
        JgType ot = c == JG_OP_ICMP ? JG_I1 : t;
        JgVal r = j < n ? op2(g, b, c, ot, x, k) : op2(g, b, c, ot, k, x);
        jg_last_op(g, b)->pred = (uint8_t)pred;
        if (branch) /* the compare is the block's last op: fused with the branch */
            jg_set_branch(g, b, r, jg_link(g, yes, 0, NULL), jg_link(g, no, 0, NULL));
        else
            jg_set_return(g, b, r);
        cases[j] = j;
        links[j + 1] = jg_link(g, b, 0, NULL);
    }
    jg_set_switch(g, 0, P(g, 0, 1), 2 * n, cases, links);
    return g;
}

static void check_int_binop(JgBaseline *bl, JgOpcode c, JgType t)
{
    JgGraph *g = residual(jg_opcode_name(c), t, 2, (JgType[]){t, t});
    jg_set_return(g, 0, op2(g, 0, c, t, P(g, 0, 0), P(g, 0, 1)));
    compile(bl, g);
    JgGraph *h = constant_operands(c, t, JG_EQ, false);
    compile(bl, h);
    for (size_t i = 0; i < NSAMPLES; i++) {
        uint64_t a = jg_truncate_bits(t, samples[i]);
        for (size_t j = 0; j < NSAMPLES; j++)
            same(bl, g, (uint64_t[]){a, jg_truncate_bits(t, samples[j])});
        for (uint64_t j = 0; j < 2 * NSAMPLES + 1; j++)
            same(bl, h, (uint64_t[]){a, j});
    }
}

/* Every operation at every width on registers and on constants, including
 * division by zero and INT_MIN / -1 (the evaluator yields 0 or wraps) and
 * shift amounts past the width (taken modulo the width). */
static void test_integer_arithmetic(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    for (int c = JG_OP_ADD; c <= JG_OP_ASHR; c++)
        for (size_t t = 0; t < NINT_TYPES; t++)
            check_int_binop(bl, (JgOpcode)c, int_types[t]);
    jg_baseline_free(bl);
}

/* Known values of the evaluator's definitions, in baseline code. */
static void test_integer_edge_values(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    static const struct {
        JgOpcode code;
        JgType type;
        uint64_t a, b, want;
    } cases[] = {
        {JG_OP_ADD, JG_I8, 255, 1, 0},
        {JG_OP_ADD, JG_I1, 1, 1, 0},
        {JG_OP_SUB, JG_I32, 0, 1, 0xffffffff},
        {JG_OP_MUL, JG_I16, 0x100, 0x100, 0},
        {JG_OP_SDIV, JG_I32, 0x80000000, 0xffffffff, 0x80000000},
        {JG_OP_SREM, JG_I32, 0x80000000, 0xffffffff, 0},
        {JG_OP_SDIV, JG_I64, UINT64_C(1) << 63, UINT64_MAX, UINT64_C(1) << 63},
        {JG_OP_SDIV, JG_I8, 0x80, 0xff, 0x80},
        {JG_OP_SDIV, JG_I64, 7, 0, 0},
        {JG_OP_UDIV, JG_I64, 7, 0, 0},
        {JG_OP_SREM, JG_I16, 7, 0, 0},
        {JG_OP_UREM, JG_I8, 7, 0, 0},
        {JG_OP_SDIV, JG_I8, 0xf9, 2, 0xfd}, /* -7 / 2 = -3 */
        {JG_OP_SREM, JG_I8, 0xf9, 2, 0xff}, /* -7 % 2 = -1 */
        {JG_OP_UDIV, JG_I8, 0xf9, 2, 0x7c},
        {JG_OP_SHL, JG_I8, 1, 9, 2}, /* 9 mod 8 */
        {JG_OP_LSHR, JG_I32, 0x80000000, 33, 0x40000000},
        {JG_OP_ASHR, JG_I16, 0x8000, 0xff, 0xffff},
        {JG_OP_ASHR, JG_I64, UINT64_C(1) << 63, 64, UINT64_C(1) << 63},
        {JG_OP_SHL, JG_I64, 3, 65, 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        JgType t = cases[i].type;
        JgGraph *g = residual("edge", t, 2, (JgType[]){t, t});
        jg_set_return(g, 0, op2(g, 0, cases[i].code, t, P(g, 0, 0), P(g, 0, 1)));
        compile(bl, g);
        uint64_t args[2] = {cases[i].a, cases[i].b};
        if (same(bl, g, args) != cases[i].want)
            fail_msg("case %zu: %s", i, jg_opcode_name(cases[i].code));
    }
    jg_baseline_free(bl);
}

/* g (two parameters of type t) as the evaluator on every pair of samples. */
static void same_on_pairs(JgBaseline *bl, const JgGraph *g, JgType t)
{
    for (size_t i = 0; i < NSAMPLES; i++)
        for (size_t j = 0; j < NSAMPLES; j++)
            same(bl, g,
                 (uint64_t[]){jg_truncate_bits(t, samples[i]), jg_truncate_bits(t, samples[j])});
}

/* g returns ext(x) ^ (ext(y) << shift): two results in one. */
static void return_mix(JgGraph *g, JgOpcode ext, JgVal x, JgVal y, uint64_t shift)
{
    JgVal mix = op2(g, 0, JG_OP_XOR, JG_I64, to_i64(g, 0, ext, x),
                    op2(g, 0, JG_OP_SHL, JG_I64, to_i64(g, 0, ext, y), k64(g, shift)));
    jg_set_return(g, 0, mix);
}

/* return_mix, compiled and compared with the evaluator on every pair of
 * samples of type t. */
static void check_mix(JgBaseline *bl, JgGraph *g, JgType t, JgOpcode ext, JgVal x, JgVal y,
                      uint64_t shift)
{
    return_mix(g, ext, x, y, shift);
    compile(bl, g);
    same_on_pairs(bl, g, t);
}

/* Divisors the tests below give as constants: powers of two (a rounding
 * and a shift), others (a multiplication, divide_magic.h), 1, and
 * negative ones (truncated to each width). */
static const uint64_t const_divisors[] = {2,
                                          8,
                                          UINT64_C(1) << 30,
                                          3,
                                          7,
                                          10,
                                          641,
                                          1000003,
                                          INT32_MAX,
                                          (UINT64_C(1) << 40) + 1,
                                          1,
                                          (uint64_t)-3,
                                          (uint64_t)-100,
                                          (uint64_t)INT64_MAX};
#define NCONST_DIVISORS (sizeof const_divisors / sizeof const_divisors[0])

/* In block 0 of g, shape 0: the sdiv and the srem of parameter 0 by
 * `divisor`, shape 1: the sdiv alone, shape 2: the srem alone (parameter 1
 * standing for the other result); each division with `likely` (0: none). */
static void divide_shape(JgGraph *g, JgType t, JgVal divisor, int shape, JgVal likely, JgVal *q,
                         JgVal *r)
{
    *q = *r = P(g, 0, 1);
    if (shape != 2) {
        *q = op2(g, 0, JG_OP_SDIV, t, P(g, 0, 0), divisor);
        jg_last_op(g, 0)->likely = likely;
    }
    if (shape != 1) {
        *r = op2(g, 0, JG_OP_SREM, t, P(g, 0, 0), divisor);
        jg_last_op(g, 0)->likely = likely;
    }
}

/* An sdiv right before the srem of the same operands takes one idiv for
 * both, one rounding of the dividend for a constant power-of-two divisor,
 * or one multiplication for another constant (method.c, pairs_divide);
 * each alone too: the evaluator's results at every width, divisors 0 and
 * -1 included. */
static void test_divide_pair(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    for (size_t ti = 0; ti < NINT_TYPES; ti++) {
        JgType t = int_types[ti];
        if (t == JG_I1)
            continue;
        for (size_t pi = 0; pi <= NCONST_DIVISORS; pi++)
            for (int shape = 0; shape < 3; shape++) { /* the pair, sdiv alone, srem alone */
                JgGraph *g = residual("divrem", JG_I64, 2, (JgType[]){t, t});
                JgVal divisor =
                    pi ? jg_const(g, t, jg_truncate_bits(t, const_divisors[pi - 1])) : P(g, 0, 1);
                JgVal q, r;
                divide_shape(g, t, divisor, shape, 0, &q, &r);
                check_mix(bl, g, t, JG_OP_SEXT, q, r, 7);
            }
    }
    jg_baseline_free(bl);
}

/* A division by a variable with a likely divisor (JgOp.likely) compares
 * the divisor with it and divides by the constant where they are equal,
 * with idiv where not (method.c, lower_divide): the pair and each alone,
 * every width, every likely divisor of const_divisors, the divisor equal
 * to it and every sample (0 and -1 included), on every sample dividend. */
static void test_divide_likely(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    for (size_t ti = 0; ti < NINT_TYPES; ti++) {
        JgType t = int_types[ti];
        if (t == JG_I1)
            continue;
        for (size_t pi = 0; pi < NCONST_DIVISORS; pi++)
            for (int shape = 0; shape < 3; shape++) { /* the pair, sdiv alone, srem alone */
                uint64_t likely = jg_truncate_bits(t, const_divisors[pi]);
                JgGraph *g = residual("divlikely", JG_I64, 2, (JgType[]){t, t});
                JgVal q, r;
                divide_shape(g, t, P(g, 0, 1), shape, jg_const(g, t, likely), &q, &r);
                return_mix(g, JG_OP_SEXT, q, r, 7);
                compile(bl, g);
                for (size_t i = 0; i < NSAMPLES; i++) {
                    uint64_t dividend = jg_truncate_bits(t, samples[i]);
                    same(bl, g, (uint64_t[]){dividend, likely});
                    for (size_t j = 0; j < NSAMPLES; j++)
                        same(bl, g, (uint64_t[]){dividend, jg_truncate_bits(t, samples[j])});
                }
            }
    }
    jg_baseline_free(bl);
}

/* Division by constants on random dividends: the multiplication's
 * quotient and remainder as the evaluator's. */
static void test_divide_by_constant_random(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    uint64_t rng = 0x243f6a8885a308d3u;
    for (size_t pi = 0; pi < NCONST_DIVISORS; pi++) {
        JgGraph *g = residual("divk", JG_I64, 1, (JgType[]){JG_I64});
        JgVal divisor = k64(g, const_divisors[pi]);
        JgVal q = op2(g, 0, JG_OP_SDIV, JG_I64, P(g, 0, 0), divisor);
        JgVal r = op2(g, 0, JG_OP_SREM, JG_I64, P(g, 0, 0), divisor);
        jg_set_return(g, 0,
                      op2(g, 0, JG_OP_XOR, JG_I64, q,
                          op2(g, 0, JG_OP_MUL, JG_I64, r, k64(g, 0x9e3779b97f4a7c15u))));
        compile(bl, g);
        for (int i = 0; i < 20000; i++) {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            uint64_t x = rng >> (i % 64); /* every magnitude */
            same(bl, g, (uint64_t[]){i & 1 ? x : 0 - x});
        }
    }
    jg_baseline_free(bl);
}

/* A multiply by a constant: a shift for a power of two, else a
 * three-address imul with an immediate; the evaluator's results at every
 * width, the constant first or second. */
static void test_multiply_by_constant(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    static const uint64_t factors[] = {2, 3, 64, 100, 1000003, UINT64_C(1) << 30, UINT64_MAX};
    for (size_t ti = 0; ti < NINT_TYPES; ti++) {
        JgType t = int_types[ti];
        for (size_t fi = 0; fi < sizeof factors / sizeof factors[0]; fi++)
            for (int first = 0; first < 2; first++) {
                JgGraph *g = residual("mulk", JG_I64, 2, (JgType[]){t, t});
                JgVal k = jg_const(g, t, jg_truncate_bits(t, factors[fi]));
                JgVal a = P(g, 0, 0);
                JgVal m = op2(g, 0, JG_OP_MUL, t, first ? k : a, first ? a : k);
                check_mix(bl, g, t, JG_OP_ZEXT, m, a, 9); /* a stays live after m */
            }
    }
    jg_baseline_free(bl);
}

/* Narrow results feed later operations (helper calls read their operands
 * unmasked): every value must stay zero-extended from its width. */
static void test_zero_extension_invariant(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    for (size_t ti = 0; ti < NINT_TYPES; ti++) {
        JgType t = int_types[ti];
        JgGraph *g = residual("narrow", JG_I64, 2, (JgType[]){t, t});
        JgVal a = P(g, 0, 0), b = P(g, 0, 1);
        JgVal s = op2(g, 0, JG_OP_ADD, t, a, b);
        JgVal neg = op2(g, 0, JG_OP_SUB, t, jg_const(g, t, 0), a);
        JgVal m = op2(g, 0, JG_OP_MUL, t, a, b);
        JgVal d = op2(g, 0, JG_OP_UDIV, t, s, jg_const(g, t, 3));
        JgVal e = op2(g, 0, JG_OP_LSHR, t, s, jg_const(g, t, 1));
        JgVal carry = cmp(g, 0, JG_OP_ICMP, JG_ULT, s, a);
        JgVal f = op2(g, 0, JG_OP_UREM, t, m, jg_const(g, t, 5));
        JgVal r = to_i64(g, 0, JG_OP_ZEXT, neg);
        JgVal parts[] = {
            op2(g, 0, JG_OP_SHL, JG_I64, to_i64(g, 0, JG_OP_SEXT, neg), k64(g, 1)),
            op2(g, 0, JG_OP_SHL, JG_I64, to_i64(g, 0, JG_OP_ZEXT, d), k64(g, 3)),
            op2(g, 0, JG_OP_SHL, JG_I64, to_i64(g, 0, JG_OP_ZEXT, e), k64(g, 5)),
            op2(g, 0, JG_OP_SHL, JG_I64, to_i64(g, 0, JG_OP_ZEXT, carry), k64(g, 7)),
            op2(g, 0, JG_OP_SHL, JG_I64, to_i64(g, 0, JG_OP_ZEXT, f), k64(g, 11)),
            op2(g, 0, JG_OP_SHL, JG_I64, to_i64(g, 0, JG_OP_ZEXT, m), k64(g, 13)),
        };
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
            r = op2(g, 0, JG_OP_XOR, JG_I64, r, parts[i]);
        jg_set_return(g, 0, r);
        compile(bl, g);
        same_on_pairs(bl, g, t);
    }
    /* i8 255 + 1 is 0 as an i64; an i32 -1 is 0xffffffff zero-extended */
    JgGraph *g = residual("wrap", JG_I64, 2, (JgType[]){JG_I8, JG_I32});
    JgVal w = op2(g, 0, JG_OP_ADD, JG_I8, P(g, 0, 0), jg_const(g, JG_I8, 1));
    JgVal n = op2(g, 0, JG_OP_SUB, JG_I32, jg_const(g, JG_I32, 0), P(g, 0, 1));
    JgVal sum = op2(g, 0, JG_OP_ADD, JG_I64, op1(g, 0, JG_OP_ZEXT, JG_I64, w),
                    op1(g, 0, JG_OP_ZEXT, JG_I64, n));
    jg_set_return(g, 0, sum);
    compile(bl, g);
    assert_int_equal(same(bl, g, (uint64_t[]){255, 1}), 0xffffffff);
    assert_int_equal(same(bl, g, (uint64_t[]){254, 0}), 255);
    jg_baseline_free(bl);
}

/* ---- compares ------------------------------------------------------------- */

/* Every predicate at every width: on two registers, on a constant right
 * (or left) operand, as a value and as a branch fused with its compare. */
static void test_integer_compare(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    for (size_t ti = 0; ti < NINT_TYPES; ti++)
        for (int p = JG_EQ; p <= JG_SLE; p++) {
            JgType t = int_types[ti];
            JgGraph *g = residual("icmp", JG_I1, 2, (JgType[]){t, t});
            jg_set_return(g, 0, cmp(g, 0, JG_OP_ICMP, (JgPred)p, P(g, 0, 0), P(g, 0, 1)));
            compile(bl, g);
            JgGraph *h = residual("icmp_branch", JG_I64, 2, (JgType[]){t, t});
            uint32_t yes = jg_block_new(h, 0, NULL), no = jg_block_new(h, 0, NULL);
            JgVal c = cmp(h, 0, JG_OP_ICMP, (JgPred)p, P(h, 0, 0), P(h, 0, 1));
            jg_set_branch(h, 0, c, jg_link(h, yes, 0, NULL), jg_link(h, no, 0, NULL));
            jg_set_return(h, yes, k64(h, 1));
            jg_set_return(h, no, k64(h, 2));
            compile(bl, h);
            JgGraph *kv = constant_operands(JG_OP_ICMP, t, (JgPred)p, false);
            compile(bl, kv);
            JgGraph *kb = constant_operands(JG_OP_ICMP, t, (JgPred)p, true);
            compile(bl, kb);
            for (size_t i = 0; i < NSAMPLES; i++) {
                uint64_t a = jg_truncate_bits(t, samples[i]);
                for (size_t j = 0; j < NSAMPLES; j++) {
                    uint64_t args[2] = {a, jg_truncate_bits(t, samples[j])};
                    uint64_t v = same(bl, g, args);
                    assert_int_equal(same(bl, h, args), v ? 1 : 2);
                }
                for (uint64_t j = 0; j < 2 * NSAMPLES + 1; j++) {
                    same(bl, kv, (uint64_t[]){a, j});
                    same(bl, kb, (uint64_t[]){a, j});
                }
            }
        }
    jg_baseline_free(bl);
}

/* Known results where immediates are easy to get wrong: a negative i8
 * constant (0xff zero-extended, -1 sign-extended), an i32 constant above
 * INT32_MAX, i64 constants that do and do not fit 32 bits, pointers. */
static void test_compare_immediates(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    static const struct {
        JgType type;
        JgPred pred;
        uint64_t x, k;
        bool want;
    } cases[] = {
        {JG_I8, JG_ULT, 0x7f, 0xff, true},
        {JG_I8, JG_SLT, 0x7f, 0xff, false},
        {JG_I8, JG_SGT, 0x80, 0xff, false},
        {JG_I8, JG_EQ, 0xff, 0xff, true},
        {JG_I16, JG_SLE, 0x8000, 0x8000, true},
        {JG_I16, JG_UGT, 0x8000, 0x7fff, true},
        {JG_I32, JG_UGE, 0x80000000, 0xffffffff, false},
        {JG_I32, JG_SLT, 0x80000000, 0xffffffff, true},
        {JG_I32, JG_EQ, 0xffffffff, 0xffffffff, true},
        {JG_I64, JG_EQ, 0xffffffff, 0xffffffff, true},
        {JG_I64, JG_EQ, UINT64_MAX, 0xffffffff, false},
        {JG_I64, JG_EQ, UINT64_MAX, UINT64_MAX, true},
        {JG_I64, JG_ULT, 0x7fffffff, 0x80000000, true},
        {JG_I64, JG_SLT, UINT64_C(0xffffffff80000000), UINT64_C(0xffffffff7fffffff), false},
        {JG_I64, JG_UGT, UINT64_C(0x100000000), 0xffffffff, true},
        {JG_I1, JG_SLT, 1, 0, true}, /* i1 1 is -1 */
        {JG_I1, JG_ULT, 1, 0, false},
        {JG_PTR, JG_ULT, 0x1000, UINT64_C(0xffff800000000000), true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        JgType t = cases[i].type;
        JgGraph *g = residual("imm", JG_I64, 1, (JgType[]){t});
        uint32_t yes = jg_block_new(g, 0, NULL), no = jg_block_new(g, 0, NULL);
        JgVal x = P(g, 0, 0);
        /* fused with the branch; then again as a value in each successor */
        JgVal fused = cmp(g, 0, JG_OP_ICMP, cases[i].pred, x, jg_const(g, t, cases[i].k));
        jg_set_branch(g, 0, fused, jg_link(g, yes, 0, NULL), jg_link(g, no, 0, NULL));
        const uint32_t succ[2] = {yes, no};
        for (int s = 0; s < 2; s++) {
            uint32_t b = succ[s];
            JgVal v = cmp(g, b, JG_OP_ICMP, cases[i].pred, x, jg_const(g, t, cases[i].k));
            JgVal z = op1(g, b, JG_OP_ZEXT, JG_I64, v);
            jg_set_return(g, b, op2(g, b, JG_OP_ADD, JG_I64, z, k64(g, s ? 20 : 10)));
        }
        compile(bl, g);
        uint64_t want = cases[i].want ? 11 : 20;
        if (same(bl, g, (uint64_t[]){cases[i].x}) != want)
            fail_msg("case %zu: %s %s", i, jg_type_name(t), jg_pred_name(cases[i].pred));
    }
    jg_baseline_free(bl);
}

/* A branch on an i1 that is not a compare of its block (a parameter, an
 * AND of compares, a compare also used later). */
static void test_branch_on_booleans(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *g = residual("bools", JG_I64, 3, (JgType[]){JG_I1, JG_I64, JG_I64});
    uint32_t b1 = jg_block_new(g, 0, NULL), b2 = jg_block_new(g, 0, NULL);
    uint32_t b3 = jg_block_new(g, 0, NULL), b4 = jg_block_new(g, 0, NULL);
    uint32_t b5 = jg_block_new(g, 0, NULL);
    JgVal x = P(g, 0, 1), y = P(g, 0, 2);
    jg_set_branch(g, 0, P(g, 0, 0), jg_link(g, b1, 0, NULL), jg_link(g, b2, 0, NULL));
    JgVal c1 = cmp(g, b1, JG_OP_ICMP, JG_SLT, x, y);
    JgVal c2 = cmp(g, b1, JG_OP_ICMP, JG_NE, x, k64(g, 5));
    jg_set_branch(g, b1, op2(g, b1, JG_OP_AND, JG_I1, c1, c2), jg_link(g, b3, 0, NULL),
                  jg_link(g, b4, 0, NULL));
    JgVal c3 = cmp(g, b2, JG_OP_ICMP, JG_UGE, x, y);
    jg_set_branch(g, b2, c3, jg_link(g, b3, 0, NULL), jg_link(g, b5, 0, NULL));
    jg_set_return(g, b3, op2(g, b3, JG_OP_ADD, JG_I64, x, k64(g, 100)));
    jg_set_return(g, b4, k64(g, 200));
    /* c3 is read after the branch too: not fused */
    JgVal z = op1(g, b5, JG_OP_ZEXT, JG_I64, c3);
    jg_set_return(g, b5, op2(g, b5, JG_OP_ADD, JG_I64, z, k64(g, 300)));
    compile(bl, g);
    for (uint64_t f = 0; f < 2; f++)
        for (uint64_t a = 3; a < 8; a++)
            for (uint64_t b = 3; b < 8; b++)
                same(bl, g, (uint64_t[]){f, a, b});
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){1, 3, 4}), 103);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){1, 5, 6}), 200);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){0, 3, 4}), 300);
    jg_baseline_free(bl);
}

/* ---- casts, select -------------------------------------------------------- */

static void test_casts(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    static const JgOpcode codes[] = {JG_OP_ZEXT, JG_OP_SEXT, JG_OP_TRUNC};
    for (size_t c = 0; c < 3; c++)
        for (size_t fi = 0; fi < NINT_TYPES; fi++)
            for (size_t ti = 0; ti < NINT_TYPES; ti++) {
                JgType from = int_types[fi], to = int_types[ti];
                if (codes[c] == JG_OP_TRUNC ? ti >= fi : ti <= fi)
                    continue;
                JgGraph *g = residual("cast", to, 1, (JgType[]){from});
                jg_set_return(g, 0, op1(g, 0, codes[c], to, P(g, 0, 0)));
                compile(bl, g);
                for (size_t i = 0; i < NSAMPLES; i++)
                    same(bl, g, (uint64_t[]){jg_truncate_bits(from, samples[i])});
            }
    /* sext of an i8 constant, trunc of an i64 constant */
    JgGraph *k = residual("cast_const", JG_I64, 0, NULL);
    JgVal s = op1(k, 0, JG_OP_SEXT, JG_I32, jg_const(k, JG_I8, 0x80));
    JgVal t = op1(k, 0, JG_OP_TRUNC, JG_I16, k64(k, 0x123456789));
    jg_set_return(k, 0,
                  op2(k, 0, JG_OP_ADD, JG_I64, op1(k, 0, JG_OP_ZEXT, JG_I64, s),
                      op1(k, 0, JG_OP_ZEXT, JG_I64, t)));
    compile(bl, k);
    assert_int_equal(same(bl, k, NULL), UINT64_C(0xffffff80) + 0x6789);
    /* pointers and integers */
    JgGraph *g = residual("p2i", JG_I32, 1, (JgType[]){JG_PTR});
    JgVal p = op1(
        g, 0, JG_OP_INTTOPTR, JG_PTR,
        op2(g, 0, JG_OP_ADD, JG_I64, op1(g, 0, JG_OP_PTRTOINT, JG_I64, P(g, 0, 0)), k64(g, 0x10)));
    jg_set_return(g, 0, op1(g, 0, JG_OP_PTRTOINT, JG_I32, p));
    compile(bl, g);
    assert_int_equal(same(bl, g, (uint64_t[]){UINT64_C(0x1234567800001000)}), 0x1010);
    JgGraph *h = residual("i2p", JG_PTR, 1, (JgType[]){JG_I32});
    jg_set_return(h, 0, op1(h, 0, JG_OP_INTTOPTR, JG_PTR, P(h, 0, 0)));
    compile(bl, h);
    assert_int_equal(same(bl, h, (uint64_t[]){0xfffffff0}), 0xfffffff0);
    jg_baseline_free(bl);
}

static void test_float_conversions(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    struct {
        JgOpcode code;
        JgType from, to;
        uint64_t in;
    } cases[] = {
        {JG_OP_SITOFP, JG_I32, JG_F64, 0xfffffff9u},
        {JG_OP_UITOFP, JG_I32, JG_F64, 0xfffffff9u},
        {JG_OP_SITOFP, JG_I64, JG_F32, (uint64_t)-5},
        {JG_OP_SITOFP, JG_I8, JG_F64, 0x80},
        {JG_OP_SITOFP, JG_I1, JG_F64, 1},
        {JG_OP_UITOFP, JG_I8, JG_F32, 200},
        {JG_OP_UITOFP, JG_I64, JG_F64, UINT64_MAX},
        {JG_OP_FPTOSI, JG_F64, JG_I32, f64_bits(-7.9)},
        {JG_OP_FPTOSI, JG_F64, JG_I32, f64_bits(3e9)}, /* out of range: 0 */
        {JG_OP_FPTOSI, JG_F64, JG_I64, f64_bits(NAN)},
        {JG_OP_FPTOUI, JG_F64, JG_I64, f64_bits(1e18)},
        {JG_OP_FPTOUI, JG_F64, JG_I64, f64_bits(-1.0)},
        {JG_OP_FPTOSI, JG_F32, JG_I16, f32_bits(-300.5f)},
        {JG_OP_FPTOSI, JG_F32, JG_I8, f32_bits(-100.7f)},
        {JG_OP_FPTOSI, JG_F64, JG_I64, f64_bits(1e30)},
        {JG_OP_FPEXT, JG_F32, JG_F64, f32_bits(0.1f)},
        {JG_OP_FPTRUNC, JG_F64, JG_F32, f64_bits(0.1)},
        {JG_OP_BITCAST, JG_F64, JG_I64, f64_bits(2.5)},
        {JG_OP_BITCAST, JG_I64, JG_F64, 0x4004000000000000u},
        {JG_OP_BITCAST, JG_I32, JG_F32, 0x3f800000u},
        {JG_OP_BITCAST, JG_F32, JG_I32, f32_bits(-0.5f)},
        {JG_OP_BITCAST, JG_PTR, JG_I64, 0x1234},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        JgGraph *g = residual("fconv", cases[i].to, 1, (JgType[]){cases[i].from});
        jg_set_return(g, 0, op1(g, 0, cases[i].code, cases[i].to, P(g, 0, 0)));
        compile(bl, g);
        same(bl, g, (uint64_t[]){cases[i].in});
    }
    /* known values */
    JgGraph *g = residual("fptosi", JG_I32, 1, (JgType[]){JG_F64});
    jg_set_return(g, 0, op1(g, 0, JG_OP_FPTOSI, JG_I32, P(g, 0, 0)));
    compile(bl, g);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){f64_bits(-7.9)}), 0xfffffff9u);
    JgGraph *h = residual("sitofp", JG_F64, 1, (JgType[]){JG_I16});
    jg_set_return(h, 0, op1(h, 0, JG_OP_SITOFP, JG_F64, P(h, 0, 0)));
    compile(bl, h);
    assert_true(bits_f64(jg_baseline_call(bl, h, (uint64_t[]){0xfffe})) == -2.0);
    jg_baseline_free(bl);
}

static void test_select(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *g = residual("select", JG_I16, 3, (JgType[]){JG_I1, JG_I16, JG_I16});
    jg_set_return(
        g, 0,
        jg_emit(g, 0, JG_OP_SELECT, JG_I16, 3, (JgVal[]){P(g, 0, 0), P(g, 0, 1), P(g, 0, 2)}));
    compile(bl, g);
    assert_int_equal(same(bl, g, (uint64_t[]){1, 7, 9}), 7);
    assert_int_equal(same(bl, g, (uint64_t[]){0, 7, 0xffff}), 0xffff);
    /* on a compare, between constants and a double */
    JgGraph *h = residual("select2", JG_F64, 2, (JgType[]){JG_I64, JG_F64});
    JgVal c = cmp(h, 0, JG_OP_ICMP, JG_SLT, P(h, 0, 0), k64(h, 0));
    JgVal s = jg_emit(h, 0, JG_OP_SELECT, JG_F64, 3,
                      (JgVal[]){c, jg_const(h, JG_F64, f64_bits(-1.5)), P(h, 0, 1)});
    jg_set_return(h, 0, s);
    compile(bl, h);
    assert_true(bits_f64(same(bl, h, (uint64_t[]){(uint64_t)-3, f64_bits(2.0)})) == -1.5);
    assert_true(bits_f64(same(bl, h, (uint64_t[]){3, f64_bits(2.0)})) == 2.0);
    JgGraph *k = residual("select3", JG_I64, 1, (JgType[]){JG_I1});
    jg_set_return(k, 0,
                  jg_emit(k, 0, JG_OP_SELECT, JG_I64, 3,
                          (JgVal[]){P(k, 0, 0), k64(k, UINT64_MAX), k64(k, 0)}));
    compile(bl, k);
    assert_int_equal(same(bl, k, (uint64_t[]){1}), UINT64_MAX);
    assert_int_equal(same(bl, k, (uint64_t[]){0}), 0);
    jg_baseline_free(bl);
}

/* ---- floating point (helper calls) ------------------------------------------ */

static const double fsamples[] = {0.0, -0.0, 1.5, -2.25, 3.0, 1e10, -1e-3, 123456.789, INFINITY};
#define NFSAMPLES (sizeof fsamples / sizeof fsamples[0])

static bool is_nan_bits(JgType t, uint64_t b)
{
    return t == JG_F32 ? isnan(bits_f32(b)) : isnan(bits_f64(b));
}

static void test_float_arithmetic(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    const JgType ft[] = {JG_F32, JG_F64};
    for (size_t k = 0; k < 2; k++)
        for (int c = JG_OP_FADD; c <= JG_OP_FDIV; c++) {
            JgType t = ft[k];
            JgGraph *g = residual("farith", t, 2, (JgType[]){t, t});
            jg_set_return(g, 0, op2(g, 0, (JgOpcode)c, t, P(g, 0, 0), P(g, 0, 1)));
            compile(bl, g);
            for (size_t i = 0; i < NFSAMPLES; i++)
                for (size_t j = 0; j < NFSAMPLES; j++) {
                    uint64_t args[2] = {fbits(t, fsamples[i]), fbits(t, fsamples[j])};
                    uint64_t want = eval(g, args), got = jg_baseline_call(bl, g, args);
                    if (!(is_nan_bits(t, want) && is_nan_bits(t, got)))
                        assert_int_equal(got, want);
                }
        }
    for (size_t k = 0; k < 2; k++) {
        JgType t = ft[k];
        JgGraph *g = residual("fneg", t, 1, (JgType[]){t});
        jg_set_return(g, 0, op1(g, 0, JG_OP_FNEG, t, P(g, 0, 0)));
        compile(bl, g);
        assert_int_equal(same(bl, g, (uint64_t[]){fbits(t, 1.5)}), fbits(t, -1.5));
        assert_int_equal(same(bl, g, (uint64_t[]){fbits(t, 0.0)}), fbits(t, -0.0));
    }
    /* 1.5 * x + 0.25 */
    JgGraph *g = residual("fma", JG_F64, 1, (JgType[]){JG_F64});
    JgVal m = op2(g, 0, JG_OP_FMUL, JG_F64, jg_const(g, JG_F64, f64_bits(1.5)), P(g, 0, 0));
    jg_set_return(g, 0, op2(g, 0, JG_OP_FADD, JG_F64, m, jg_const(g, JG_F64, f64_bits(0.25))));
    compile(bl, g);
    assert_true(bits_f64(same(bl, g, (uint64_t[]){f64_bits(2.0)})) == 3.25);
    jg_baseline_free(bl);
}

static void test_float_compare(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    const double v[] = {1.0, 2.0, -1.0, -0.0, 0.0, NAN, INFINITY};
    const size_t nv = sizeof v / sizeof v[0];
    for (int p = JG_FOEQ; p <= JG_FFALSE; p++)
        for (int k = 0; k < 2; k++) {
            JgType t = k ? JG_F32 : JG_F64;
            JgGraph *g = residual("fcmp", JG_I1, 2, (JgType[]){t, t});
            jg_set_return(g, 0, cmp(g, 0, JG_OP_FCMP, (JgPred)p, P(g, 0, 0), P(g, 0, 1)));
            compile(bl, g);
            /* branching on an fcmp (not fused: it is a helper call) */
            JgGraph *h = residual("fcmp_branch", JG_I64, 2, (JgType[]){t, t});
            uint32_t yes = jg_block_new(h, 0, NULL), no = jg_block_new(h, 0, NULL);
            JgVal c = cmp(h, 0, JG_OP_FCMP, (JgPred)p, P(h, 0, 0), P(h, 0, 1));
            jg_set_branch(h, 0, c, jg_link(h, yes, 0, NULL), jg_link(h, no, 0, NULL));
            jg_set_return(h, yes, k64(h, 1));
            jg_set_return(h, no, k64(h, 0));
            compile(bl, h);
            for (size_t i = 0; i < nv; i++)
                for (size_t j = 0; j < nv; j++) {
                    uint64_t args[2] = {fbits(t, v[i]), fbits(t, v[j])};
                    assert_int_equal(same(bl, g, args), same(bl, h, args));
                }
        }
    jg_baseline_free(bl);
}

/* ---- control flow ------------------------------------------------------------ */

/* sum(n) = 1 + ... + n; the loop header is a merge point (JG_BLOCK_ENTRY)
 * when `entry`. The body and the exit use the header's values. */
enum { SUM_HEAD = 1 };

static JgGraph *sum_graph(bool entry)
{
    JgGraph *g = residual("sum", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t head = jg_block_new(g, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    assert_int_equal(head, SUM_HEAD);
    if (entry)
        g->blocks.items[head].flags |= JG_BLOCK_ENTRY;
    uint32_t body = jg_block_new(g, 0, NULL);
    uint32_t done = jg_block_new(g, 0, NULL);
    JgVal n = P(g, 0, 0);
    go(g, 0, head, 3, (JgVal[]){k64(g, 1), k64(g, 0), n});
    JgVal i = P(g, head, 0), acc = P(g, head, 1), lim = P(g, head, 2);
    JgVal c = cmp(g, head, JG_OP_ICMP, JG_SLE, i, lim);
    jg_set_branch(g, head, c, jg_link(g, body, 0, NULL), jg_link(g, done, 0, NULL));
    JgVal acc2 = op2(g, body, JG_OP_ADD, JG_I64, acc, i);
    JgVal i2 = op2(g, body, JG_OP_ADD, JG_I64, i, k64(g, 1));
    go(g, body, head, 3, (JgVal[]){i2, acc2, lim});
    jg_set_return(g, done, acc);
    return g;
}

static void test_counting_loop(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    for (int entry = 0; entry < 2; entry++) {
        JgGraph *g = sum_graph(entry);
        compile(bl, g);
        assert_int_equal(same(bl, g, (uint64_t[]){100}), 5050);
        assert_int_equal(same(bl, g, (uint64_t[]){0}), 0);
        assert_int_equal(same(bl, g, (uint64_t[]){1}), 1);
        assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){1000000}), UINT64_C(500000500000));
    }
    assert_int_equal(jg_baseline_stats(bl)->methods, 2);
    assert_true(jg_baseline_stats(bl)->code_bytes > 0);
    /* an i8 counter from x up to its wrap to 0 (at most 300 steps): the
     * counter must be 8 bits wide at every compare */
    JgGraph *h = residual("wrap_loop", JG_I64, 1, (JgType[]){JG_I8});
    uint32_t head = jg_block_new(h, 2, (JgType[]){JG_I8, JG_I64});
    uint32_t body = jg_block_new(h, 0, NULL), done = jg_block_new(h, 0, NULL);
    go(h, 0, head, 2, (JgVal[]){P(h, 0, 0), k64(h, 0)});
    JgVal c = P(h, head, 0), count = P(h, head, 1);
    JgVal more =
        op2(h, head, JG_OP_AND, JG_I1, cmp(h, head, JG_OP_ICMP, JG_NE, c, jg_const(h, JG_I8, 0)),
            cmp(h, head, JG_OP_ICMP, JG_ULT, count, k64(h, 300)));
    jg_set_branch(h, head, more, jg_link(h, body, 0, NULL), jg_link(h, done, 0, NULL));
    go(h, body, head, 2,
       (JgVal[]){op2(h, body, JG_OP_ADD, JG_I8, c, jg_const(h, JG_I8, 1)),
                 op2(h, body, JG_OP_ADD, JG_I64, count, k64(h, 1))});
    jg_set_return(h, done, count);
    compile(bl, h);
    assert_int_equal(same(bl, h, (uint64_t[]){250}), 6);
    assert_int_equal(same(bl, h, (uint64_t[]){1}), 255);
    assert_int_equal(same(bl, h, (uint64_t[]){0}), 0);
    jg_baseline_free(bl);
}

/* A back-edge that swaps two parameters (a cycle of two in the parallel
 * move), one that rotates three, and one passing a constant among them. */
static void test_parallel_move_cycles(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    /* swap(a, b, n): n times (a, b) = (b, a); returns 1000 a + b */
    JgGraph *g = residual("swap", JG_I64, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    uint32_t head = jg_block_new(g, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    uint32_t body = jg_block_new(g, 0, NULL), done = jg_block_new(g, 0, NULL);
    go(g, 0, head, 3, (JgVal[]){P(g, 0, 0), P(g, 0, 1), k64(g, 0)});
    JgVal a = P(g, head, 0), b = P(g, head, 1), i = P(g, head, 2);
    jg_set_branch(g, head, cmp(g, head, JG_OP_ICMP, JG_ULT, i, P(g, 0, 2)),
                  jg_link(g, body, 0, NULL), jg_link(g, done, 0, NULL));
    go(g, body, head, 3, (JgVal[]){b, a, op2(g, body, JG_OP_ADD, JG_I64, i, k64(g, 1))});
    jg_set_return(
        g, done,
        op2(g, done, JG_OP_ADD, JG_I64, op2(g, done, JG_OP_MUL, JG_I64, a, k64(g, 1000)), b));
    compile(bl, g);
    assert_int_equal(same(bl, g, (uint64_t[]){1, 2, 0}), 1002);
    assert_int_equal(same(bl, g, (uint64_t[]){1, 2, 1}), 2001);
    assert_int_equal(same(bl, g, (uint64_t[]){1, 2, 7}), 2001);
    assert_int_equal(same(bl, g, (uint64_t[]){1, 2, 8}), 1002);

    /* rot(a, b, c, n): n times (a, b, c) = (b, c, a); returns 100 a + 10 b + c */
    JgGraph *h = residual("rotate", JG_I64, 4, (JgType[]){JG_I64, JG_I64, JG_I64, JG_I64});
    uint32_t hh = jg_block_new(h, 4, (JgType[]){JG_I64, JG_I64, JG_I64, JG_I64});
    uint32_t hb = jg_block_new(h, 0, NULL), hd = jg_block_new(h, 0, NULL);
    go(h, 0, hh, 4, (JgVal[]){P(h, 0, 0), P(h, 0, 1), P(h, 0, 2), k64(h, 0)});
    JgVal x = P(h, hh, 0), y = P(h, hh, 1), z = P(h, hh, 2), j = P(h, hh, 3);
    jg_set_branch(h, hh, cmp(h, hh, JG_OP_ICMP, JG_ULT, j, P(h, 0, 3)), jg_link(h, hb, 0, NULL),
                  jg_link(h, hd, 0, NULL));
    go(h, hb, hh, 4, (JgVal[]){y, z, x, op2(h, hb, JG_OP_ADD, JG_I64, j, k64(h, 1))});
    JgVal r = op2(h, hd, JG_OP_MUL, JG_I64, x, k64(h, 100));
    r = op2(h, hd, JG_OP_ADD, JG_I64, r, op2(h, hd, JG_OP_MUL, JG_I64, y, k64(h, 10)));
    jg_set_return(h, hd, op2(h, hd, JG_OP_ADD, JG_I64, r, z));
    compile(bl, h);
    assert_int_equal(same(bl, h, (uint64_t[]){1, 2, 3, 0}), 123);
    assert_int_equal(same(bl, h, (uint64_t[]){1, 2, 3, 1}), 231);
    assert_int_equal(same(bl, h, (uint64_t[]){1, 2, 3, 2}), 312);
    assert_int_equal(same(bl, h, (uint64_t[]){1, 2, 3, 3}), 123);
    assert_int_equal(same(bl, h, (uint64_t[]){1, 2, 3, 11}), 312);

    /* mixed(a, b, c, n): (a, b, c) = (c, a, 7 + b) with i32 values: a
     * cycle through a computed value and a constant on the other link */
    JgGraph *k = residual("mixed", JG_I32, 3, (JgType[]){JG_I32, JG_I32, JG_I32});
    uint32_t kh = jg_block_new(k, 4, (JgType[]){JG_I32, JG_I32, JG_I32, JG_I32});
    uint32_t kb = jg_block_new(k, 0, NULL), kd = jg_block_new(k, 0, NULL);
    go(k, 0, kh, 4, (JgVal[]){P(k, 0, 0), P(k, 0, 1), jg_const(k, JG_I32, 0xfffffffe), P(k, 0, 2)});
    JgVal ka = P(k, kh, 0), kbv = P(k, kh, 1), kc = P(k, kh, 2), kn = P(k, kh, 3);
    jg_set_branch(k, kh, cmp(k, kh, JG_OP_ICMP, JG_SGT, kn, jg_const(k, JG_I32, 0)),
                  jg_link(k, kb, 0, NULL), jg_link(k, kd, 0, NULL));
    go(k, kb, kh, 4,
       (JgVal[]){kc, ka, op2(k, kb, JG_OP_ADD, JG_I32, kbv, jg_const(k, JG_I32, 7)),
                 op2(k, kb, JG_OP_SUB, JG_I32, kn, jg_const(k, JG_I32, 1))});
    JgVal kr = op2(k, kd, JG_OP_MUL, JG_I32, ka, jg_const(k, JG_I32, 3));
    kr = op2(k, kd, JG_OP_XOR, JG_I32, kr,
             op2(k, kd, JG_OP_SHL, JG_I32, kbv, jg_const(k, JG_I32, 8)));
    jg_set_return(k, kd, op2(k, kd, JG_OP_SUB, JG_I32, kr, kc));
    compile(bl, k);
    for (uint64_t n = 0; n < 10; n++)
        same(bl, k, (uint64_t[]){5, 0xfffffff0, n});
    jg_baseline_free(bl);
}

/* More values live across the loop than there are registers: 20 loop
 * values, each iteration computing 20 new ones from them (40 live at
 * once) and passing them on rotated, through registers and slots. */
enum { NLIVE = 20 };

static JgGraph *pressure_graph(void)
{
    JgGraph *g = residual("pressure", JG_I64, 2, (JgType[]){JG_I64, JG_I64});
    JgType types[NLIVE + 2];
    for (int i = 0; i < NLIVE + 2; i++)
        types[i] = JG_I64;
    uint32_t head = jg_block_new(g, NLIVE + 2, types); /* values, count, limit */
    uint32_t body = jg_block_new(g, 0, NULL), done = jg_block_new(g, 0, NULL);
    JgVal init[NLIVE + 2];
    for (int i = 0; i < NLIVE; i++)
        init[i] = op2(g, 0, JG_OP_ADD, JG_I64, P(g, 0, 0), k64(g, (uint64_t)i * 7));
    init[NLIVE] = k64(g, 0);
    init[NLIVE + 1] = P(g, 0, 1);
    go(g, 0, head, NLIVE + 2, init);
    JgVal count = P(g, head, NLIVE);
    jg_set_branch(g, head, cmp(g, head, JG_OP_ICMP, JG_ULT, count, P(g, head, NLIVE + 1)),
                  jg_link(g, body, 0, NULL), jg_link(g, done, 0, NULL));
    JgVal t[NLIVE], next[NLIVE + 2];
    for (int i = 0; i < NLIVE; i++)
        t[i] = op2(g, body, JG_OP_ADD, JG_I64,
                   op2(g, body, JG_OP_MUL, JG_I64, P(g, head, i), k64(g, 3)),
                   P(g, head, (i + 1) % NLIVE));
    for (int i = 0; i < NLIVE; i++)
        next[i] = t[(i + 1) % NLIVE];
    next[NLIVE] = op2(g, body, JG_OP_ADD, JG_I64, count, k64(g, 1));
    next[NLIVE + 1] = P(g, head, NLIVE + 1);
    go(g, body, head, NLIVE + 2, next);
    JgVal r = k64(g, 0);
    for (int i = 0; i < NLIVE; i++)
        r = op2(g, done, JG_OP_ADD, JG_I64, r,
                op2(g, done, JG_OP_MUL, JG_I64, P(g, head, i), k64(g, (uint64_t)i + 1)));
    jg_set_return(g, done, r);
    return g;
}

/* Values that live in slots (NLIVE of them, live to the end) read in
 * place: compared with a register, an immediate and each other, combined
 * by ALU operations, and a boolean in a slot branched on at the end. */
static void test_operands_in_slots(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *g = residual("in_slots", JG_I64, 2, (JgType[]){JG_I64, JG_I64});
    uint32_t yes = jg_block_new(g, 0, NULL), no = jg_block_new(g, 0, NULL);
    JgVal x = P(g, 0, 0), y = P(g, 0, 1), v[NLIVE];
    JgVal even =
        cmp(g, 0, JG_OP_ICMP, JG_EQ, op2(g, 0, JG_OP_AND, JG_I64, x, k64(g, 1)), k64(g, 0));
    for (int i = 0; i < NLIVE; i++)
        v[i] = op2(g, 0, JG_OP_ADD, JG_I64, x, k64(g, (uint64_t)i * 7 - 60));
    JgVal r = k64(g, 0);
    for (int i = 0; i < NLIVE; i++) {
        JgVal lt = cmp(g, 0, JG_OP_ICMP, JG_SLT, v[i], y);
        JgVal small = cmp(g, 0, JG_OP_ICMP, JG_ULT, v[i], k64(g, 100));
        JgVal gt = cmp(g, 0, JG_OP_ICMP, JG_SGT, y, v[(i + 3) % NLIVE]);
        JgVal mix = op2(g, 0, JG_OP_XOR, JG_I64, v[i], v[(i + 1) % NLIVE]);
        mix = op2(g, 0, JG_OP_SUB, JG_I64, mix, v[(i + 2) % NLIVE]);
        mix = op2(g, 0, JG_OP_ADD, JG_I64, mix, op1(g, 0, JG_OP_ZEXT, JG_I64, lt));
        mix = op2(g, 0, JG_OP_OR, JG_I64, mix,
                  op2(g, 0, JG_OP_SHL, JG_I64, op1(g, 0, JG_OP_ZEXT, JG_I64, small), k64(g, 40)));
        mix = op2(g, 0, JG_OP_ADD, JG_I64, mix,
                  op2(g, 0, JG_OP_SHL, JG_I64, op1(g, 0, JG_OP_ZEXT, JG_I64, gt), k64(g, 50)));
        r = op2(g, 0, JG_OP_ADD, JG_I64, op2(g, 0, JG_OP_MUL, JG_I64, r, k64(g, 31)), mix);
    }
    for (int i = 0; i < NLIVE; i++) /* every v live to here */
        r = op2(g, 0, JG_OP_ADD, JG_I64, r, v[i]);
    jg_set_branch(g, 0, even, jg_link(g, yes, 0, NULL), jg_link(g, no, 0, NULL));
    jg_set_return(g, yes, r);
    jg_set_return(g, no, op2(g, no, JG_OP_XOR, JG_I64, r, k64(g, 0x5555)));
    compile(bl, g);
    for (size_t i = 0; i < NSAMPLES; i++)
        for (size_t j = 0; j < NSAMPLES; j += 3)
            same(bl, g, (uint64_t[]){samples[i], samples[j]});
    jg_baseline_free(bl);
}

static void test_register_pressure(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *g = pressure_graph();
    JgType types[NLIVE + 1];
    for (int i = 0; i <= NLIVE; i++)
        types[i] = JG_I64;
    JgVal init[NLIVE + 1], next[NLIVE + 1], r;
    compile(bl, g);
    for (uint64_t n = 0; n < 25; n++)
        same(bl, g, (uint64_t[]){n * 11 + 1, n});
    /* a pure rotation of 20: 20 steps bring every value back */
    JgGraph *h = residual("rotate20", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t hh = jg_block_new(h, NLIVE + 1, types);
    uint32_t hb = jg_block_new(h, 0, NULL), hd = jg_block_new(h, 0, NULL);
    for (int i = 0; i < NLIVE; i++)
        init[i] = k64(h, (uint64_t)i + 1);
    init[NLIVE] = k64(h, 0);
    go(h, 0, hh, NLIVE + 1, init);
    jg_set_branch(h, hh, cmp(h, hh, JG_OP_ICMP, JG_ULT, P(h, hh, NLIVE), P(h, 0, 0)),
                  jg_link(h, hb, 0, NULL), jg_link(h, hd, 0, NULL));
    for (int i = 0; i < NLIVE; i++)
        next[i] = P(h, hh, (i + 1) % NLIVE);
    next[NLIVE] = op2(h, hb, JG_OP_ADD, JG_I64, P(h, hh, NLIVE), k64(h, 1));
    go(h, hb, hh, NLIVE + 1, next);
    r = k64(h, 0);
    for (int i = 0; i < NLIVE; i++)
        r = op2(h, hd, JG_OP_ADD, JG_I64, op2(h, hd, JG_OP_MUL, JG_I64, r, k64(h, 100)),
                P(h, hh, i));
    /* r: the values in order, as digits in base 100 (wrapping) */
    jg_set_return(h, hd, r);
    compile(bl, h);
    for (uint64_t n = 0; n < 45; n++)
        same(bl, h, (uint64_t[]){n});
    assert_int_equal(jg_baseline_call(bl, h, (uint64_t[]){20}),
                     jg_baseline_call(bl, h, (uint64_t[]){0}));
    jg_baseline_free(bl);
}

/* Values used in blocks their definition dominates, not passed as
 * parameters (blocks out of dominance order; a value of the entry used in
 * a loop and after it). */
static void test_dominated_uses(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *g = residual("dom", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t b1 = jg_block_new(g, 0, NULL), b2 = jg_block_new(g, 0, NULL);
    uint32_t b3 = jg_block_new(g, 0, NULL);
    JgVal x = op2(g, 0, JG_OP_MUL, JG_I64, P(g, 0, 0), k64(g, 3));
    go(g, 0, b2, 0, NULL);
    JgVal y = op2(g, b2, JG_OP_ADD, JG_I64, x, k64(g, 1));
    jg_set_branch(g, b2, cmp(g, b2, JG_OP_ICMP, JG_SGT, y, k64(g, 10)), jg_link(g, b1, 0, NULL),
                  jg_link(g, b3, 0, NULL));
    jg_set_return(g, b1, op2(g, b1, JG_OP_ADD, JG_I64, y, x));
    jg_set_return(g, b3, y);
    compile(bl, g);
    for (uint64_t v = 0; v < 8; v++)
        same(bl, g, &v);

    /* k = 3n + 1 in the entry; the loop adds k n times; the exit adds k */
    JgGraph *h = residual("dom_loop", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t head = jg_block_new(h, 2, (JgType[]){JG_I64, JG_I64});
    uint32_t body = jg_block_new(h, 0, NULL), done = jg_block_new(h, 0, NULL);
    JgVal n = P(h, 0, 0);
    JgVal k = op2(h, 0, JG_OP_ADD, JG_I64, op2(h, 0, JG_OP_MUL, JG_I64, n, k64(h, 3)), k64(h, 1));
    go(h, 0, head, 2, (JgVal[]){k64(h, 0), k64(h, 0)});
    JgVal i = P(h, head, 0), acc = P(h, head, 1);
    jg_set_branch(h, head, cmp(h, head, JG_OP_ICMP, JG_ULT, i, n), jg_link(h, body, 0, NULL),
                  jg_link(h, done, 0, NULL));
    go(h, body, head, 2,
       (JgVal[]){op2(h, body, JG_OP_ADD, JG_I64, i, k64(h, 1)),
                 op2(h, body, JG_OP_ADD, JG_I64, acc, k)});
    jg_set_return(h, done, op2(h, done, JG_OP_ADD, JG_I64, acc, k));
    compile(bl, h);
    assert_int_equal(same(bl, h, (uint64_t[]){4}), 5 * 13);
    assert_int_equal(same(bl, h, (uint64_t[]){0}), 1);
    jg_baseline_free(bl);
}

/* sum(n) whose loop header is reached only through blocks that pass their
 * (permuted) parameters on: parameter aliases and goto threading. A branch
 * into an empty infinite loop of such blocks is never taken. */
static void test_forwarding_blocks(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgType t3[3] = {JG_I64, JG_I64, JG_I64};
    JgGraph *g = residual("fwd", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t f1 = jg_block_new(g, 3, t3), f2 = jg_block_new(g, 3, t3);
    uint32_t head = jg_block_new(g, 3, t3), body = jg_block_new(g, 0, NULL);
    uint32_t done = jg_block_new(g, 0, NULL), start = jg_block_new(g, 0, NULL);
    uint32_t c1 = jg_block_new(g, 0, NULL), c2 = jg_block_new(g, 0, NULL);
    JgVal n = P(g, 0, 0);
    jg_set_branch(g, 0, cmp(g, 0, JG_OP_ICMP, JG_SLT, n, k64(g, 0)), jg_link(g, c1, 0, NULL),
                  jg_link(g, start, 0, NULL));
    go(g, c1, c2, 0, NULL);
    go(g, c2, c1, 0, NULL);
    JgVal from1[3] = {n, k64(g, 1), k64(g, 0)};
    jg_set_branch(g, start, cmp(g, start, JG_OP_ICMP, JG_EQ, n, k64(g, 5)),
                  jg_link(g, f1, 3, from1), jg_link(g, f1, 3, from1));
    /* f1(lim, i, acc) -> f2(i, lim, acc) -> head(i, acc, lim) */
    go(g, f1, f2, 3, (JgVal[]){P(g, f1, 1), P(g, f1, 0), P(g, f1, 2)});
    go(g, f2, head, 3, (JgVal[]){P(g, f2, 0), P(g, f2, 2), P(g, f2, 1)});
    JgVal i = P(g, head, 0), acc = P(g, head, 1), lim = P(g, head, 2);
    jg_set_branch(g, head, cmp(g, head, JG_OP_ICMP, JG_SLE, i, lim), jg_link(g, body, 0, NULL),
                  jg_link(g, done, 0, NULL));
    JgVal acc2 = op2(g, body, JG_OP_ADD, JG_I64, acc, i);
    JgVal i2 = op2(g, body, JG_OP_ADD, JG_I64, i, k64(g, 1));
    go(g, body, f1, 3, (JgVal[]){lim, i2, acc2});
    jg_set_return(g, done, acc);
    compile(bl, g);
    for (uint64_t v = 0; v < 12; v++)
        same(bl, g, &v);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){100}), 5050);
    jg_baseline_free(bl);
}

/* Switches: several cases to one target, with the same or different
 * arguments; case values of narrow types given negative or too wide; i64
 * cases beyond 32 bits. */
static void test_switch(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *g = residual("switch", JG_I32, 1, (JgType[]){JG_I32});
    uint32_t b1 = jg_block_new(g, 1, (JgType[]){JG_I32}), b2 = jg_block_new(g, 0, NULL);
    JgVal c10 = jg_const(g, JG_I32, 10), c20 = jg_const(g, JG_I32, 20);
    JgLink links[6] = {jg_link(g, b1, 1, (JgVal[]){jg_const(g, JG_I32, 0)}),
                       jg_link(g, b1, 1, &c10),
                       jg_link(g, b1, 1, &c20),
                       jg_link(g, b2, 0, NULL),
                       jg_link(g, b2, 0, NULL),
                       jg_link(g, b1, 1, &c10)};
    jg_set_switch(g, 0, P(g, 0, 0), 5, (int64_t[]){1, 2, 3, 4, 5}, links);
    jg_set_return(g, b1, P(g, b1, 0));
    jg_set_return(g, b2, jg_const(g, JG_I32, 99));
    compile(bl, g);
    for (uint64_t v = 0; v < 7; v++)
        same(bl, g, &v);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){2}), 20);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){5}), 10);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){4}), 99);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){0xffffffff}), 0);

    JgGraph *h = residual("switch8", JG_I64, 1, (JgType[]){JG_I8});
    uint32_t d = jg_block_new(h, 1, (JgType[]){JG_I64});
    JgLink l8[4] = {jg_link(h, d, 1, (JgVal[]){k64(h, 0)}), jg_link(h, d, 1, (JgVal[]){k64(h, 1)}),
                    jg_link(h, d, 1, (JgVal[]){k64(h, 2)}),
                    jg_link(h, d, 1, (JgVal[]){op1(h, 0, JG_OP_ZEXT, JG_I64, P(h, 0, 0))})};
    jg_set_switch(h, 0, P(h, 0, 0), 3, (int64_t[]){-1, 300, -128}, l8);
    jg_set_return(h, d, P(h, d, 0));
    compile(bl, h);
    assert_int_equal(same(bl, h, (uint64_t[]){0xff}), 1);
    assert_int_equal(same(bl, h, (uint64_t[]){44}), 2); /* 300 as an i8 */
    assert_int_equal(same(bl, h, (uint64_t[]){0x80}), 0x80);
    assert_int_equal(same(bl, h, (uint64_t[]){0x7f}), 0);

    JgGraph *k = residual("switch64", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t e = jg_block_new(k, 1, (JgType[]){JG_I64});
    JgLink l64[4] = {jg_link(k, e, 1, (JgVal[]){k64(k, 0)}), jg_link(k, e, 1, (JgVal[]){k64(k, 1)}),
                     jg_link(k, e, 1, (JgVal[]){k64(k, 2)}),
                     jg_link(k, e, 1, (JgVal[]){k64(k, 3)})};
    jg_set_switch(k, 0, P(k, 0, 0), 3, (int64_t[]){INT64_C(1) << 40, -5, 0xffffffff}, l64);
    jg_set_return(k, e, P(k, e, 0));
    compile(bl, k);
    assert_int_equal(same(bl, k, (uint64_t[]){UINT64_C(1) << 40}), 1);
    assert_int_equal(same(bl, k, (uint64_t[]){(uint64_t)-5}), 2);
    assert_int_equal(same(bl, k, (uint64_t[]){0xffffffff}), 3);
    assert_int_equal(same(bl, k, (uint64_t[]){UINT64_MAX}), 0);
    assert_int_equal(same(bl, k, (uint64_t[]){0xfffffffb}), 0);

    /* a branch whose two links go to one block, with different values */
    JgGraph *two = residual("branch2", JG_I64, 3, (JgType[]){JG_I1, JG_I64, JG_I64});
    uint32_t t = jg_block_new(two, 1, (JgType[]){JG_I64});
    jg_set_branch(two, 0, P(two, 0, 0), jg_link(two, t, 1, (JgVal[]){P(two, 0, 1)}),
                  jg_link(two, t, 1, (JgVal[]){P(two, 0, 2)}));
    jg_set_return(two, t, P(two, t, 0));
    compile(bl, two);
    assert_int_equal(same(bl, two, (uint64_t[]){1, 5, 6}), 5);
    assert_int_equal(same(bl, two, (uint64_t[]){0, 5, 6}), 6);
    jg_baseline_free(bl);
}

/* Results of every type: a parameter, and a computed value. */
static void test_return_every_type(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    static const JgType types[] = {JG_I1, JG_I8, JG_I16, JG_I32, JG_I64, JG_PTR, JG_F32, JG_F64};
    const uint64_t in[] = {1,          0xfe,           0x8001,          0xfffffffe,
                           UINT64_MAX, 0x7fff12345678, f32_bits(-2.5f), f64_bits(1e300)};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        JgType t = types[i];
        JgGraph *g = residual("ret", t, 1, (JgType[]){t});
        jg_set_return(g, 0, P(g, 0, 0));
        compile(bl, g);
        assert_int_equal(same(bl, g, (uint64_t[]){in[i]}), in[i]);
        if (!jg_type_is_int(t))
            continue;
        /* x + 3, wrapped to the width */
        JgGraph *h = residual("ret_add", t, 1, (JgType[]){t});
        jg_set_return(h, 0, op2(h, 0, JG_OP_ADD, t, P(h, 0, 0), jg_const(h, t, 3)));
        compile(bl, h);
        assert_int_equal(same(bl, h, (uint64_t[]){in[i]}), jg_truncate_bits(t, in[i] + 3));
    }
    JgGraph *g = residual("ret_void", JG_VOID, 1, (JgType[]){JG_I64});
    jg_set_return(g, 0, 0);
    compile(bl, g);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){5}), 0);
    /* constants of every type */
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        JgGraph *h = residual("ret_const", types[i], 0, NULL);
        jg_set_return(h, 0, jg_const(h, types[i], in[i]));
        compile(bl, h);
        assert_int_equal(same(bl, h, NULL), in[i]);
    }
    /* arguments are taken at their width: high garbage bits are dropped */
    JgGraph *k = residual("args_masked", JG_I64, 2, (JgType[]){JG_I8, JG_I32});
    jg_set_return(k, 0,
                  op2(k, 0, JG_OP_ADD, JG_I64, op1(k, 0, JG_OP_ZEXT, JG_I64, P(k, 0, 0)),
                      op1(k, 0, JG_OP_ZEXT, JG_I64, P(k, 0, 1))));
    compile(bl, k);
    assert_int_equal(same(bl, k, (uint64_t[]){0x1234, UINT64_C(0xabc00000001)}), 0x35);
    jg_baseline_free(bl);
}

/* PROMOTE, CONCRETE, FORGET and MERGE_POINT are identities; an
 * unreachable block never reached costs nothing. */
static void test_hints_and_unreachable(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *g = residual("hints", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t dead = jg_block_new(g, 0, NULL), live = jg_block_new(g, 0, NULL);
    JgVal x = op1(g, 0, JG_OP_PROMOTE, JG_I64, P(g, 0, 0));
    x = op1(g, 0, JG_OP_FORGET, JG_I64, op1(g, 0, JG_OP_CONCRETE, JG_I64, x));
    x = op1(g, 0, JG_OP_DEEPFREEZE, JG_I64, x);
    jg_emit(g, 0, JG_OP_MERGE_POINT, JG_VOID, 0, NULL);
    jg_set_branch(g, 0, cmp(g, 0, JG_OP_ICMP, JG_EQ, x, k64(g, 12345)), jg_link(g, dead, 0, NULL),
                  jg_link(g, live, 0, NULL));
    jg_set_unreachable(g, dead);
    jg_set_return(g, live, op2(g, live, JG_OP_ADD, JG_I64, x, x));
    compile(bl, g);
    assert_int_equal(same(bl, g, (uint64_t[]){21}), 42);
    jg_baseline_free(bl);
}

/* ---- memory ------------------------------------------------------------------ */

typedef struct Fields {
    uint8_t z; /* i1 */
    uint8_t b;
    uint16_t h;
    uint32_t w;
    uint64_t q;
    void *p;
    float f;
    double d;
} Fields;

static const struct {
    JgType type;
    size_t offset;
} field_list[] = {
    {JG_I1, offsetof(Fields, z)},  {JG_I8, offsetof(Fields, b)},  {JG_I16, offsetof(Fields, h)},
    {JG_I32, offsetof(Fields, w)}, {JG_I64, offsetof(Fields, q)}, {JG_PTR, offsetof(Fields, p)},
    {JG_F32, offsetof(Fields, f)}, {JG_F64, offsetof(Fields, d)},
};
#define NFIELDS (sizeof field_list / sizeof field_list[0])

/* copy(src, dst): every field loaded with its type and stored. */
static void test_loads_and_stores(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *g = residual("copy", JG_VOID, 2, (JgType[]){JG_PTR, JG_PTR});
    for (size_t i = 0; i < NFIELDS; i++) {
        JgVal v =
            op1(g, 0, JG_OP_LOAD, field_list[i].type, at(g, 0, P(g, 0, 0), field_list[i].offset));
        op2(g, 0, JG_OP_STORE, JG_VOID, at(g, 0, P(g, 0, 1), field_list[i].offset), v);
    }
    jg_set_return(g, 0, 0);
    compile(bl, g);
    Fields src = {.z = 1,
                  .b = 0xfe,
                  .h = 0xbeef,
                  .w = 0xdeadbeef,
                  .q = UINT64_MAX - 1,
                  .p = &src,
                  .f = -1.25f,
                  .d = 6.5e100};
    Fields dst;
    memset(&dst, 0x55, sizeof dst);
    jg_baseline_call(bl, g, (uint64_t[]){addr(&src), addr(&dst)});
    assert_int_equal(dst.z, 1);
    assert_int_equal(dst.b, 0xfe);
    assert_int_equal(dst.h, 0xbeef);
    assert_int_equal(dst.w, 0xdeadbeef);
    assert_int_equal(dst.q, UINT64_MAX - 1);
    assert_ptr_equal(dst.p, &src);
    assert_true(dst.f == -1.25f);
    assert_true(dst.d == 6.5e100);
    jg_baseline_free(bl);
}

/* Stores of every width into an ALLOCA write only their bytes; loads of
 * every width read only theirs, zero-extended. */
static void test_alloca_every_width(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    /* (i8 b, i16 h, i32 w, i64 q, f64 d) stored at their Fields offsets of
     * a 64-byte ALLOCA (i1 1, a pointer to it and f32 -1.25 too); returns a
     * mix of every load, and of wide loads over narrow stores */
    JgGraph *g =
        residual("alloca_widths", JG_I64, 5, (JgType[]){JG_I8, JG_I16, JG_I32, JG_I64, JG_F64});
    JgVal p = alloca_op(g, 0, 64);
    JgVal vals[NFIELDS] = {jg_const(g, JG_I1, 1),
                           P(g, 0, 0),
                           P(g, 0, 1),
                           P(g, 0, 2),
                           P(g, 0, 3),
                           p,
                           jg_const(g, JG_F32, f32_bits(-1.25f)),
                           P(g, 0, 4)};
    for (size_t i = 0; i < NFIELDS; i++)
        op2(g, 0, JG_OP_STORE, JG_VOID, at(g, 0, p, field_list[i].offset), vals[i]);
    JgVal r = k64(g, 0);
    for (size_t i = 0; i < NFIELDS; i++) {
        JgType t = field_list[i].type;
        JgVal v = op1(g, 0, JG_OP_LOAD, t, at(g, 0, p, field_list[i].offset));
        JgVal wide; /* v as an i64 */
        switch (t) {
        case JG_PTR: /* the ALLOCA's own address: only whether it is */
            wide = op1(g, 0, JG_OP_ZEXT, JG_I64, cmp(g, 0, JG_OP_ICMP, JG_EQ, v, p));
            break;
        case JG_F32:
            wide = op1(g, 0, JG_OP_ZEXT, JG_I64, op1(g, 0, JG_OP_BITCAST, JG_I32, v));
            break;
        case JG_F64:
            wide = op1(g, 0, JG_OP_BITCAST, JG_I64, v);
            break;
        case JG_I64:
            wide = v;
            break;
        default:
            wide = op1(g, 0, JG_OP_ZEXT, JG_I64, v);
        }
        r = op2(g, 0, JG_OP_ADD, JG_I64, op2(g, 0, JG_OP_MUL, JG_I64, r, k64(g, 31)), wide);
    }
    /* the first 8 bytes (z, b, h, w) as one i64; the i64 field's low byte,
     * half and word; a byte past the f32 (padding: still zero) */
    JgVal head = op1(g, 0, JG_OP_LOAD, JG_I64, p);
    JgVal q8 = op1(g, 0, JG_OP_LOAD, JG_I8, at(g, 0, p, offsetof(Fields, q)));
    JgVal q16 = op1(g, 0, JG_OP_LOAD, JG_I16, at(g, 0, p, offsetof(Fields, q)));
    JgVal q32 = op1(g, 0, JG_OP_LOAD, JG_I32, at(g, 0, p, offsetof(Fields, q)));
    JgVal pad = op1(g, 0, JG_OP_LOAD, JG_I8, at(g, 0, p, offsetof(Fields, f) + 4));
    JgVal more[] = {head, op1(g, 0, JG_OP_ZEXT, JG_I64, q8), op1(g, 0, JG_OP_ZEXT, JG_I64, q16),
                    op1(g, 0, JG_OP_ZEXT, JG_I64, q32), op1(g, 0, JG_OP_ZEXT, JG_I64, pad)};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        r = op2(g, 0, JG_OP_XOR, JG_I64, op2(g, 0, JG_OP_SHL, JG_I64, r, k64(g, 1)), more[i]);
    jg_set_return(g, 0, r);
    compile(bl, g);
    uint64_t args[5] = {0xab, 0xbeef, 0xdeadbeef, UINT64_C(0x1122334455667788), f64_bits(-0.5)};
    same(bl, g, args);
    uint64_t args2[5] = {0xff, 0x8000, 0x80000000, UINT64_MAX, f64_bits(1e300)};
    same(bl, g, args2);

    /* known bytes: store i64 then i8 over its low byte; i1 from a 0xff byte */
    JgGraph *h = residual("bytes", JG_I64, 0, NULL);
    JgVal m = alloca_op(h, 0, 16);
    op2(h, 0, JG_OP_STORE, JG_VOID, m, k64(h, UINT64_C(0x1122334455667788)));
    op2(h, 0, JG_OP_STORE, JG_VOID, m, jg_const(h, JG_I8, 0xff));
    op2(h, 0, JG_OP_STORE, JG_VOID, at(h, 0, m, 2), jg_const(h, JG_I16, 0));
    JgVal whole = op1(h, 0, JG_OP_LOAD, JG_I64, m);
    JgVal bit = op1(h, 0, JG_OP_LOAD, JG_I1, m);
    JgVal s8 = op1(h, 0, JG_OP_LOAD, JG_I8, m);
    JgVal sum = op2(h, 0, JG_OP_ADD, JG_I64, whole, op1(h, 0, JG_OP_ZEXT, JG_I64, bit));
    sum = op2(h, 0, JG_OP_ADD, JG_I64, sum, op1(h, 0, JG_OP_ZEXT, JG_I64, s8));
    jg_set_return(h, 0, sum);
    compile(bl, h);
    assert_int_equal(same(bl, h, NULL), UINT64_C(0x11223344000077ff) + 1 + 0xff);
    jg_baseline_free(bl);
}

/* An ALLOCA is zero-filled each time it runs: in a loop, what the last
 * iteration stored is gone. */
static void test_alloca_zero_filled(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    /* x -> alloca 64; store x at 8; return p[0] + p[8] + p[56] */
    JgGraph *g = residual("alloca", JG_I64, 1, (JgType[]){JG_I64});
    JgVal p = alloca_op(g, 0, 64);
    op2(g, 0, JG_OP_STORE, JG_VOID, at(g, 0, p, 8), P(g, 0, 0));
    JgVal a = op1(g, 0, JG_OP_LOAD, JG_I64, p);
    JgVal b = op1(g, 0, JG_OP_LOAD, JG_I64, at(g, 0, p, 8));
    JgVal c = op1(g, 0, JG_OP_LOAD, JG_I64, at(g, 0, p, 56));
    jg_set_return(g, 0, op2(g, 0, JG_OP_ADD, JG_I64, a, op2(g, 0, JG_OP_ADD, JG_I64, b, c)));
    compile(bl, g);
    assert_int_equal(same(bl, g, (uint64_t[]){77}), 77);
    assert_int_equal(same(bl, g, (uint64_t[]){78}), 78);

    JgGraph *h = residual("alloca_loop", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t head = jg_block_new(h, 2, (JgType[]){JG_I64, JG_I64});
    uint32_t body = jg_block_new(h, 0, NULL), done = jg_block_new(h, 0, NULL);
    go(h, 0, head, 2, (JgVal[]){k64(h, 0), k64(h, 0)});
    JgVal i = P(h, head, 0), acc = P(h, head, 1);
    jg_set_branch(h, head, cmp(h, head, JG_OP_ICMP, JG_ULT, i, P(h, 0, 0)),
                  jg_link(h, body, 0, NULL), jg_link(h, done, 0, NULL));
    JgVal q = alloca_op(h, body, 16);
    JgVal old = op1(h, body, JG_OP_LOAD, JG_I64, q);
    JgVal i2 = op2(h, body, JG_OP_ADD, JG_I64, i, k64(h, 1));
    op2(h, body, JG_OP_STORE, JG_VOID, q, i2);
    JgVal seen = op1(h, body, JG_OP_LOAD, JG_I64, q);
    JgVal acc2 = op2(h, body, JG_OP_ADD, JG_I64, acc, op2(h, body, JG_OP_ADD, JG_I64, old, seen));
    go(h, body, head, 2, (JgVal[]){i2, acc2});
    jg_set_return(h, done, acc);
    compile(bl, h);
    assert_int_equal(same(bl, h, (uint64_t[]){10}), 55);
    jg_baseline_free(bl);
}

/* An ALLOCA whose address gets a register while nq + 1 other values of
 * the loop body (heavier: used more) take the first ones: for some nq its
 * home is rdi, which the zeroing (rep stosb) advances. Its address must
 * still be right after the zeroing. */
static JgGraph *alloca_pressure_graph(int nq)
{
    JgGraph *g = residual("alloca_pressure", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t head = jg_block_new(g, 5, (JgType[]){JG_I64, JG_I64, JG_I64, JG_I64, JG_I64});
    uint32_t body = jg_block_new(g, 0, NULL), done = jg_block_new(g, 0, NULL);
    go(g, 0, head, 5, (JgVal[]){k64(g, 0), k64(g, 1), k64(g, 2), k64(g, 3), P(g, 0, 0)});
    JgVal i = P(g, head, 0), a = P(g, head, 1), b = P(g, head, 2), c = P(g, head, 3);
    JgVal n = P(g, head, 4);
    jg_set_branch(g, head, cmp(g, head, JG_OP_ICMP, JG_ULT, i, n), jg_link(g, body, 0, NULL),
                  jg_link(g, done, 0, NULL));
    JgVal p = alloca_op(g, body, 32);
    JgVal old = op1(g, body, JG_OP_LOAD, JG_I64, at(g, body, p, 24)); /* 0 */
    JgVal v[4] = {op2(g, body, JG_OP_ADD, JG_I64, old, i),
                  op2(g, body, JG_OP_ADD, JG_I64, old, k64(g, 7)),
                  op2(g, body, JG_OP_XOR, JG_I64, old, k64(g, 5)),
                  op2(g, body, JG_OP_MUL, JG_I64, old, k64(g, 3))};
    JgVal y = i;
    for (int r = 0; r < 4; r++)
        for (int q = 0; q < nq; q++)
            y = op2(g, body, JG_OP_ADD, JG_I64, y, v[q]);
    op2(g, body, JG_OP_STORE, JG_VOID, at(g, body, p, 24), y);
    JgVal a2 = op2(g, body, JG_OP_ADD, JG_I64, a, op2(g, body, JG_OP_ADD, JG_I64, b, c));
    JgVal b2 = op2(g, body, JG_OP_ADD, JG_I64, b, op2(g, body, JG_OP_XOR, JG_I64, a, c));
    JgVal c2 =
        op2(g, body, JG_OP_ADD, JG_I64, c, op1(g, body, JG_OP_LOAD, JG_I64, at(g, body, p, 24)));
    go(g, body, head, 5,
       (JgVal[]){op2(g, body, JG_OP_ADD, JG_I64, i, k64(g, 1)), a2, b2,
                 op2(g, body, JG_OP_ADD, JG_I64, c2, y), n});
    jg_set_return(g, done,
                  op2(g, done, JG_OP_XOR, JG_I64, a, op2(g, done, JG_OP_ADD, JG_I64, b, c)));
    return g;
}

static void test_alloca_under_pressure(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    for (int nq = 1; nq <= 4; nq++) {
        JgGraph *g = alloca_pressure_graph(nq);
        compile(bl, g);
        for (uint64_t n = 0; n < 6; n++)
            same(bl, g, &n);
    }
    jg_baseline_free(bl);
}

static void test_memcpy_memset(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    /* memmove(buf + 1, buf, 5); memset(buf + 6, 0x141 (i32), len (i32)) */
    JgGraph *g = residual("mem", JG_VOID, 2, (JgType[]){JG_PTR, JG_I32});
    JgVal buf = P(g, 0, 0);
    jg_emit(g, 0, JG_OP_MEMCPY, JG_VOID, 3, (JgVal[]){at(g, 0, buf, 1), buf, k64(g, 5)});
    jg_emit(g, 0, JG_OP_MEMSET, JG_VOID, 3,
            (JgVal[]){at(g, 0, buf, 6), jg_const(g, JG_I32, 0x141), P(g, 0, 1)});
    jg_set_return(g, 0, 0);
    compile(bl, g);
    char s[16] = "abcdefghijkl";
    jg_baseline_call(bl, g, (uint64_t[]){addr(s), 3});
    assert_string_equal(s, "aabcdeAAAjkl");
    char t[16] = "abcdefghijkl";
    eval(g, (uint64_t[]){addr(t), 3});
    assert_string_equal(s, t);
    jg_baseline_call(bl, g, (uint64_t[]){addr(s), 0}); /* length 0: no bytes */
    assert_string_equal(s, "aaabcdAAAjkl");

    /* through an ALLOCA: fill, copy the source in, copy out to dst */
    JgGraph *h = residual("mem_alloca", JG_I64, 3, (JgType[]){JG_PTR, JG_PTR, JG_I8});
    JgVal a = alloca_op(h, 0, 32);
    jg_emit(h, 0, JG_OP_MEMSET, JG_VOID, 3, (JgVal[]){a, P(h, 0, 2), k64(h, 32)});
    jg_emit(h, 0, JG_OP_MEMCPY, JG_VOID, 3, (JgVal[]){at(h, 0, a, 4), P(h, 0, 0), k64(h, 8)});
    jg_emit(h, 0, JG_OP_MEMCPY, JG_VOID, 3, (JgVal[]){P(h, 0, 1), a, k64(h, 16)});
    jg_set_return(h, 0, op1(h, 0, JG_OP_LOAD, JG_I64, at(h, 0, a, 8)));
    compile(bl, h);
    char out[17] = {0}, out2[17] = {0};
    uint64_t r = jg_baseline_call(bl, h, (uint64_t[]){addr("01234567"), addr(out), '*'});
    assert_string_equal(out, "****01234567****");
    assert_int_equal(r, eval(h, (uint64_t[]){addr("01234567"), addr(out2), '*'}));
    assert_string_equal(out2, out);

    /* constant byte and length (stores, not a call): 15 bytes of 0x2b
     * (8 + 4 + 2 + 1) at an odd offset, none past them, and 0 bytes */
    JgGraph *k = residual("mem_const", JG_VOID, 1, (JgType[]){JG_PTR});
    jg_emit(k, 0, JG_OP_MEMSET, JG_VOID, 3,
            (JgVal[]){at(k, 0, P(k, 0, 0), 3), jg_const(k, JG_I8, 0x2b), k64(k, 15)});
    jg_emit(k, 0, JG_OP_MEMSET, JG_VOID, 3,
            (JgVal[]){P(k, 0, 0), jg_const(k, JG_I32, 0x141), k64(k, 0)});
    jg_set_return(k, 0, 0);
    compile(bl, k);
    char u[24] = "abcdefghijklmnopqrstuvw";
    jg_baseline_call(bl, k, (uint64_t[]){addr(u)});
    assert_string_equal(u, "abc+++++++++++++++stuvw");
    jg_baseline_free(bl);
}

/* ---- native calls --------------------------------------------------------------- */

static int64_t six(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e, int64_t f)
{
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f;
}

/* Declared with int parameters: it sees the caller's extension of i8 and
 * i16 arguments (sign-extension, as C promotes them). */
static int64_t widened(int a, int b, int c)
{
    return (int64_t)a * 1000000 + (int64_t)b * 1000 + c;
}

static int8_t negate8(int8_t x)
{
    return (int8_t)-x;
}

static int64_t eight(int64_t a, int32_t b, int64_t c, int64_t d, int64_t e, int64_t f, int64_t g,
                     int64_t h)
{
    return a - b + c * 2 - d + e * 3 - f + g * 5 - h;
}

static double lerp(double a, double b, double t)
{
    return a + (b - a) * t;
}

static float halve(float x)
{
    return x / 2;
}

static const JgType mixed_types[] = {JG_I8, JG_I16, JG_I32, JG_I64, JG_PTR, JG_F64, JG_I1, JG_F32};

static JgVal call(JgGraph *g, uint32_t b, JgType ret, void *fn, const char *name, uint32_t n,
                  const JgVal *args)
{
    JgVal all[16];
    all[0] = jg_const_symbol(g, fn, name);
    memcpy(all + 1, args, sizeof *args * n);
    return jg_emit(g, b, JG_OP_CALL, ret, n + 1, all);
}

/* Allocations from a free list the options describe, in baseline code
 * (free_list_fixture.h). */
static void fl_compile(void *bl, JgGraph *g)
{
    compile(bl, g);
}

static uint64_t fl_run(void *bl, JgGraph *g, const uint64_t *args)
{
    return jg_baseline_call(bl, g, args);
}

static void test_free_list_allocation(void **state)
{
    (void)state;
    JgBaseline *bl =
        baseline_with((JgBaselineOptions){.allocators = fl_allocators, .nallocators = 2});
    fl_check(bl, fl_compile, fl_run);
    jg_baseline_free(bl);
}

static void test_native_calls(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    /* labs(x) */
    JgGraph *g = residual("labs", JG_I64, 1, (JgType[]){JG_I64});
    jg_set_return(g, 0, call(g, 0, JG_I64, FN(labs), "labs", 1, (JgVal[]){P(g, 0, 0)}));
    compile(bl, g);
    assert_int_equal(same(bl, g, (uint64_t[]){(uint64_t)-42}), 42);

    /* six integer arguments, in registers (two of them constants) */
    JgGraph *s = residual("six", JG_I64, 4, (JgType[]){JG_I64, JG_I64, JG_I64, JG_PTR});
    JgVal sa[6] = {P(s, 0, 0),
                   k64(s, 10),
                   P(s, 0, 1),
                   P(s, 0, 2),
                   op1(s, 0, JG_OP_PTRTOINT, JG_I64, P(s, 0, 3)),
                   k64(s, (uint64_t)-1)};
    jg_set_return(s, 0, call(s, 0, JG_I64, FN(six), "six", 6, sa));
    compile(bl, s);
    assert_int_equal(same(bl, s, (uint64_t[]){1, 2, 3, 4}), 1 + 20 + 6 + 12 + 20 - 6);

    /* i8 and i16 arguments are sign-extended; an i8 result is masked */
    JgGraph *w = residual("widened", JG_I64, 3, (JgType[]){JG_I8, JG_I16, JG_I32});
    jg_set_return(w, 0,
                  call(w, 0, JG_I64, FN(widened), "widened", 3,
                       (JgVal[]){P(w, 0, 0), P(w, 0, 1), P(w, 0, 2)}));
    compile(bl, w);
    assert_int_equal(same(bl, w, (uint64_t[]){0xfd, 0xfffe, 0xffffffff}),
                     (uint64_t)(-3000000 - 2000 - 1));
    assert_int_equal(same(bl, w, (uint64_t[]){0x7f, 0x7fff, 5}), 127000000 + 32767000 + 5);
    JgGraph *n8 = residual("negate8", JG_I64, 1, (JgType[]){JG_I8});
    JgVal r8 = call(n8, 0, JG_I8, FN(negate8), "negate8", 1, (JgVal[]){P(n8, 0, 0)});
    jg_set_return(n8, 0, op1(n8, 0, JG_OP_ZEXT, JG_I64, r8));
    compile(bl, n8);
    assert_int_equal(same(bl, n8, (uint64_t[]){1}), 0xff);
    assert_int_equal(same(bl, n8, (uint64_t[]){0x80}), 0x80);

    /* more than six arguments (libffi) */
    JgGraph *e = residual("eight", JG_I64, 2, (JgType[]){JG_I64, JG_I32});
    JgVal ea[8] = {P(e, 0, 0), P(e, 0, 1), k64(e, 3), k64(e, 4),
                   k64(e, 5),  k64(e, 6),  k64(e, 7), P(e, 0, 0)};
    jg_set_return(e, 0, call(e, 0, JG_I64, FN(eight), "eight", 8, ea));
    compile(bl, e);
    assert_int_equal(same(bl, e, (uint64_t[]){100, 0xfffffff6}),
                     (uint64_t)eight(100, -10, 3, 4, 5, 6, 7, 100));

    /* double and float arguments and results (libffi) */
    JgGraph *d = residual("lerp", JG_F64, 2, (JgType[]){JG_F64, JG_F32});
    JgVal t = op1(d, 0, JG_OP_FPEXT, JG_F64,
                  call(d, 0, JG_F32, FN(halve), "halve", 1, (JgVal[]){P(d, 0, 1)}));
    jg_set_return(d, 0,
                  call(d, 0, JG_F64, FN(lerp), "lerp", 3,
                       (JgVal[]){P(d, 0, 0), jg_const(d, JG_F64, f64_bits(10.0)), t}));
    compile(bl, d);
    assert_true(bits_f64(same(bl, d, (uint64_t[]){f64_bits(2.0), f32_bits(0.5f)})) == 4.0);

    /* mixed(...) directly and through a function pointer parameter */
    for (int through_pointer = 0; through_pointer < 2; through_pointer++) {
        JgType types[9];
        memcpy(types, mixed_types, sizeof mixed_types);
        types[8] = JG_PTR;
        JgGraph *h = residual("mixed", JG_F64, 9, types);
        JgVal args[9];
        args[0] = through_pointer ? P(h, 0, 8) : jg_const_symbol(h, FN(mixed), "mixed");
        for (uint32_t i = 0; i < 8; i++)
            args[i + 1] = P(h, 0, i);
        jg_set_return(h, 0, jg_emit(h, 0, JG_OP_CALL, JG_F64, 9, args));
        compile(bl, h);
        uint64_t in[9] = {(uint8_t)-3,    (uint16_t)-2,   7, (uint64_t)-1,
                          addr("four"),   f64_bits(0.25), 1, f32_bits(2.0f),
                          addr(FN(mixed))};
        double want = mixed(-3, -2, 7, -1, "four", 0.25, true, 2.0f);
        assert_true(bits_f64(same(bl, h, in)) == want);
    }
    jg_baseline_free(bl);
}

static int64_t add2(int64_t a, int64_t b)
{
    return a + b;
}

static int64_t mul2(int64_t a, int64_t b)
{
    return a * b;
}

/* Calls through computed function pointers: a parameter, a select between
 * two functions, a pointer loaded from memory; in registers and libffi. */
static void test_computed_callees(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *g = residual("indirect", JG_I64, 3, (JgType[]){JG_PTR, JG_I64, JG_I1});
    JgVal x = P(g, 0, 1);
    JgVal r1 = jg_emit(g, 0, JG_OP_CALL, JG_I64, 3, (JgVal[]){P(g, 0, 0), x, k64(g, 3)});
    JgVal f = jg_emit(g, 0, JG_OP_SELECT, JG_PTR, 3,
                      (JgVal[]){P(g, 0, 2), jg_const_symbol(g, FN(add2), "add2"),
                                jg_const_symbol(g, FN(mul2), "mul2")});
    JgVal r2 = jg_emit(g, 0, JG_OP_CALL, JG_I64, 3, (JgVal[]){f, r1, k64(g, 10)});
    /* the function pointer stored in an ALLOCA and loaded back */
    JgVal slot = alloca_op(g, 0, 8);
    op2(g, 0, JG_OP_STORE, JG_VOID, slot, f);
    JgVal loaded = op1(g, 0, JG_OP_LOAD, JG_PTR, slot);
    JgVal r3 = jg_emit(g, 0, JG_OP_CALL, JG_I64, 3, (JgVal[]){loaded, r2, x});
    jg_set_return(g, 0, r3);
    compile(bl, g);
    /* add2: (5 + 3) + 10 + 5; mul2: (5 * 3) * 10 * 5 */
    assert_int_equal(same(bl, g, (uint64_t[]){addr(FN(add2)), 5, 1}), 23);
    assert_int_equal(same(bl, g, (uint64_t[]){addr(FN(mul2)), 5, 0}), 750);
    assert_int_equal(same(bl, g, (uint64_t[]){addr(FN(add2)), 5, 0}), 400);

    /* through a pointer, with double arguments (libffi) */
    JgGraph *h = residual("indirect_ffi", JG_F64, 2, (JgType[]){JG_PTR, JG_F64});
    jg_set_return(h, 0,
                  jg_emit(h, 0, JG_OP_CALL, JG_F64, 4,
                          (JgVal[]){P(h, 0, 0), P(h, 0, 1), jg_const(h, JG_F64, f64_bits(3.0)),
                                    jg_const(h, JG_F64, f64_bits(0.5))}));
    compile(bl, h);
    assert_true(bits_f64(same(bl, h, (uint64_t[]){addr(FN(lerp)), f64_bits(1.0)})) == 2.0);
    jg_baseline_free(bl);
}

/* snprintf into an ALLOCA buffer, copied out (a variadic callee: libffi
 * with the fixed arguments of its declaration). */
static void test_variadic_call(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *decl = jg_graph_new(&arena, "snprintf", JG_I32, 3, (JgType[]){JG_PTR, JG_I64, JG_PTR});
    decl->flags |= JG_FLAG_EXTERNAL;
    decl->variadic = true;
    decl->native = FN(snprintf);
    JgGraph *g = residual("printf", JG_I32, 3, (JgType[]){JG_PTR, JG_I32, JG_F64});
    JgVal buf = alloca_op(g, 0, 32);
    JgVal args[7] = {jg_const_symbol(g, FN(snprintf), "snprintf"),     buf,        k64(g, 32),
                     jg_const_symbol(g, (void *)"%d|%.2f|%s", ".str"), P(g, 0, 1), P(g, 0, 2),
                     jg_const_symbol(g, (void *)"end", ".str2")};
    JgVal n = jg_emit(g, 0, JG_OP_CALL, JG_I32, 7, args);
    jg_last_op(g, 0)->callee = decl;
    jg_emit(g, 0, JG_OP_MEMCPY, JG_VOID, 3, (JgVal[]){P(g, 0, 0), buf, k64(g, 32)});
    jg_set_return(g, 0, n);
    compile(bl, g);
    char out[32], out2[32];
    uint64_t in[3] = {addr(out), (uint32_t)-12, f64_bits(3.14159)};
    assert_int_equal(jg_baseline_call(bl, g, in), 12);
    assert_string_equal(out, "-12|3.14|end");
    in[0] = addr(out2);
    assert_int_equal(eval(g, in), 12);
    assert_string_equal(out2, out);
    jg_baseline_free(bl);
}

/* Writes -1 into every caller-saved register (as any callee may leave
 * them) and returns x + 1. */
static __attribute__((noinline)) int64_t clobber(int64_t x)
{
#if defined(__x86_64__)
    __asm__ volatile("mov $-1, %%rsi\n\t"
                     "mov $-1, %%rdi\n\t"
                     "mov $-1, %%r8\n\t"
                     "mov $-1, %%r9\n\t"
                     "mov $-1, %%r10\n\t"
                     "mov $-1, %%r11\n\t"
                     "mov $-1, %%rcx\n\t"
                     "mov $-1, %%rdx\n\t"
                     :
                     :
                     : "rsi", "rdi", "r8", "r9", "r10", "r11", "rcx", "rdx", "memory");
#endif
    return x + 1;
}

/* Values computed before a call and used after it survive the call: more
 * of them than there are callee-saved registers, across a native call, a
 * libffi call, a helper (udiv), an ALLOCA, a memset, in a loop too. */
enum { NACROSS = 12 };

static void test_values_live_across_calls(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *g = residual("across", JG_I64, 2, (JgType[]){JG_I64, JG_I64});
    JgVal a = P(g, 0, 0), b = P(g, 0, 1), v[NACROSS];
    for (int k = 0; k < NACROSS; k++)
        v[k] =
            op2(g, 0, JG_OP_ADD, JG_I64, op2(g, 0, JG_OP_MUL, JG_I64, a, k64(g, (uint64_t)k)), b);
    JgVal c = call(g, 0, JG_I64, FN(clobber), "clobber", 1, (JgVal[]){v[3]});
    JgVal d = op2(g, 0, JG_OP_UDIV, JG_I64, c, k64(g, 3));
    JgVal e = call(g, 0, JG_I64, FN(eight), "eight", 8,
                   (JgVal[]){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]});
    JgVal buf = alloca_op(g, 0, 24);
    jg_emit(g, 0, JG_OP_MEMSET, JG_VOID, 3, (JgVal[]){buf, jg_const(g, JG_I8, 1), k64(g, 8)});
    JgVal m = op1(g, 0, JG_OP_LOAD, JG_I64, buf);
    JgVal r = op2(g, 0, JG_OP_ADD, JG_I64, c, op2(g, 0, JG_OP_XOR, JG_I64, d, e));
    r = op2(g, 0, JG_OP_ADD, JG_I64, r, m);
    for (int k = 0; k < NACROSS; k++)
        r = op2(g, 0, JG_OP_ADD, JG_I64, r,
                op2(g, 0, JG_OP_MUL, JG_I64, v[k], k64(g, (uint64_t)k + 1)));
    jg_set_return(g, 0, r);
    compile(bl, g);
    for (uint64_t x = 0; x < 5; x++)
        same(bl, g, (uint64_t[]){x * 1000 + 7, x + 3});
    /* known: a = 1, b = 0 */
    int64_t want = (3 + 1) + ((4 / 3) ^ eight(0, 1, 2, 3, 4, 5, 6, 7)) + 0x0101010101010101;
    for (int k = 0; k < NACROSS; k++)
        want += k * (k + 1);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){1, 0}), (uint64_t)want);

    /* in a loop: acc += clobber(i) + x * i, x computed before the loop */
    JgGraph *h = residual("across_loop", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t head = jg_block_new(h, 2, (JgType[]){JG_I64, JG_I64});
    uint32_t body = jg_block_new(h, 0, NULL), done = jg_block_new(h, 0, NULL);
    JgVal x = op2(h, 0, JG_OP_MUL, JG_I64, P(h, 0, 0), k64(h, 7));
    go(h, 0, head, 2, (JgVal[]){k64(h, 0), k64(h, 0)});
    JgVal i = P(h, head, 0), acc = P(h, head, 1);
    jg_set_branch(h, head, cmp(h, head, JG_OP_ICMP, JG_ULT, i, k64(h, 10)),
                  jg_link(h, body, 0, NULL), jg_link(h, done, 0, NULL));
    JgVal cl = call(h, body, JG_I64, FN(clobber), "clobber", 1, (JgVal[]){i});
    JgVal xi = op2(h, body, JG_OP_MUL, JG_I64, x, i);
    go(h, body, head, 2,
       (JgVal[]){op2(h, body, JG_OP_ADD, JG_I64, i, k64(h, 1)),
                 op2(h, body, JG_OP_ADD, JG_I64, acc, op2(h, body, JG_OP_ADD, JG_I64, cl, xi))});
    jg_set_return(h, done, op2(h, done, JG_OP_ADD, JG_I64, acc, x));
    compile(bl, h);
    /* sum (i + 1) + 7n * sum i + 7n = 55 + 315n + 7n */
    assert_int_equal(same(bl, h, (uint64_t[]){2}), 55 + 630 + 14);
    jg_baseline_free(bl);
}

/* Portal calls go through options.portal_call with the arguments in an
 * array, zero-extended from their types; the result is taken at the
 * call's type. */
typedef struct PortalLog {
    int calls;
    uint64_t args[4];
    JgPortalSite *site;
} PortalLog;

static uint64_t portal_call(void *ctx, const uint64_t *args, JgPortalSite *site)
{
    PortalLog *log = ctx;
    assert_true(!log->site || log->site == site); /* one site per op */
    log->site = site;
    log->calls++;
    memcpy(log->args, args, sizeof(uint64_t) * 3);
    return args[0] * 2 + args[2] + (UINT64_C(0xabc) << 32); /* high bits: not an i32's */
}

static void test_portal_call(void **state)
{
    (void)state;
    PortalLog log = {0};
    JgBaseline *bl =
        baseline_with((JgBaselineOptions){.portal_call = portal_call, .portal_ctx = &log});
    JgGraph *portal = jg_graph_new(&arena, "portal", JG_I32, 3, (JgType[]){JG_I32, JG_PTR, JG_I8});
    portal->flags |= JG_FLAG_PORTAL;
    JgGraph *g = residual("calls_portal", JG_I32, 2, (JgType[]){JG_I32, JG_PTR});
    JgVal before = op2(g, 0, JG_OP_ADD, JG_I32, P(g, 0, 0), jg_const(g, JG_I32, 5));
    JgVal r = jg_emit(g, 0, JG_OP_CALL, JG_I32, 4,
                      (JgVal[]){jg_const_symbol(g, FN(portal_call), "portal"), P(g, 0, 0),
                                P(g, 0, 1), jg_const(g, JG_I8, 0xff)});
    jg_last_op(g, 0)->callee = portal;
    r = op2(g, 0, JG_OP_ADD, JG_I32, r, jg_const(g, JG_I32, 1));
    jg_set_return(g, 0, op2(g, 0, JG_OP_ADD, JG_I32, r, before));
    compile(bl, g);
    /* (0x80000000 * 2 + 0xff + 1) + 0x80000005, as an i32 */
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){0x80000000u, 0x1234}), 0x80000105u);
    assert_int_equal(log.calls, 1);
    assert_int_equal(log.args[0], 0x80000000u);
    assert_int_equal(log.args[1], 0x1234);
    assert_int_equal(log.args[2], 0xff);
    /* the site: only the third argument is a constant */
    assert_non_null(log.site);
    assert_int_equal(log.site->constant, 4);
    assert_null(log.site->host);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){1, 2}), (uint32_t)(2 + 0xff + 1 + 6));
    assert_int_equal(log.calls, 2);
    jg_baseline_free(bl);

    /* without options.portal_call, a portal call does not compile */
    JgBaseline *plain = baseline();
    compile_fails(plain, g, "portal_call");
    jg_baseline_free(plain);
}

/* ---- flexswitches: a stand-in for the partial evaluator's miss callback ---- */

/* The paper's Fig. 10: f(n) = for (i = 0; i < n; i++) acc += 10 * (i % 2
 * + 1), i % 2 promoted: the loop ends in a flexswitch; each case is a new
 * method that links back into the loop header (a JG_BLOCK_ENTRY block in
 * the middle of the first method). */
enum { FIG10_BLOCKS = 4 }; /* FIG10_HEAD: residual_build.h */

static JgGraph *fig10_graph(Emu *e, uint64_t modulus)
{
    JgGraph *g = residual("fig10", JG_I64, 1, (JgType[]){JG_I64});
    e->g = g;
    e->build = fig10_case;
    uint32_t head = jg_block_new(g, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    assert_int_equal(head, FIG10_HEAD);
    g->blocks.items[head].flags |= JG_BLOCK_ENTRY;
    uint32_t body = jg_block_new(g, 0, NULL), done = jg_block_new(g, 0, NULL);
    go(g, 0, head, 3, (JgVal[]){P(g, 0, 0), k64(g, 0), k64(g, 0)});
    JgVal n = P(g, head, 0), i = P(g, head, 1), acc = P(g, head, 2);
    jg_set_branch(g, head, cmp(g, head, JG_OP_ICMP, JG_SLT, i, n), jg_link(g, body, 0, NULL),
                  jg_link(g, done, 0, NULL));
    JgVal x = op2(g, body, JG_OP_UREM, JG_I64, i, k64(g, modulus));
    flex(e, body, x, 3, (JgVal[]){n, i, acc});
    jg_set_return(g, done, acc);
    assert_int_equal(g->blocks.count, FIG10_BLOCKS);
    return g;
}

typedef struct GrowLog {
    int begins, ends;
} GrowLog;

static void growing(void *ctx, bool begin)
{
    GrowLog *log = ctx;
    if (begin)
        log->begins++;
    else
        log->ends++;
    assert_true(log->begins - log->ends == (begin ? 1 : 0));
}

static void test_flexswitch(void **state)
{
    (void)state;
    Emu e = {0};
    GrowLog grow = {0};
    JgBaseline *bl = baseline_with((JgBaselineOptions){.growing = growing, .tier_up_ctx = &grow});
    JgGraph *g = fig10_graph(&e, 3);
    compile(bl, g);
    const JgBaselineStats *s = jg_baseline_stats(bl);
    assert_int_equal(s->methods, 1);
    assert_int_equal(jg_baseline_methods(bl, g), 1);
    assert_int_equal(jg_baseline_method_end(bl, g, 0), FIG10_BLOCKS);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){0}), 0);
    assert_int_equal(e.calls, 0);
    assert_int_equal(s->flexswitch_misses, 0);
    /* i = 0: case 0 (a miss), a new method */
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){1}), 10);
    assert_int_equal(e.calls, 1);
    assert_int_equal(s->methods, 2);
    assert_int_equal(s->flexswitch_misses, 1);
    assert_int_equal(jg_baseline_methods(bl, g), 2);
    assert_int_equal(jg_baseline_method_end(bl, g, 0), FIG10_BLOCKS);
    assert_int_equal(jg_baseline_method_end(bl, g, 1), FIG10_BLOCKS + 1);
    /* case 0 again: no miss; then case 1 */
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){1}), 10);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){2}), 30);
    assert_int_equal(e.calls, 2);
    assert_int_equal(e.last, 1);
    assert_int_equal(s->flexswitch_misses, 2);
    /* n = 10: cases 0, 1 and (a miss) 2 */
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){10}), 4 * 10 + 3 * 20 + 3 * 30);
    assert_int_equal(e.calls, 3);
    assert_int_equal(e.last, 2);
    assert_int_equal(s->methods, 4);
    assert_int_equal(s->flexswitch_misses, 3);
    assert_int_equal(s->flexswitch_cases, 3);
    assert_int_equal(jg_baseline_methods(bl, g), 4);
    assert_int_equal(jg_baseline_method_end(bl, g, 3), FIG10_BLOCKS + 3);
    assert_int_equal(jg_baseline_method_end(bl, g, 4), 0);
    /* every value seen: no more misses, however long it runs; each
     * iteration, the flexswitch leaves for a case's method, which leaves
     * for the first method's loop header, until the graph, stable for
     * a few hundred entries, is compiled again as one method where
     * the cases are jumps (consolidation) */
    uint64_t entries = s->method_entries;
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){1001}), eval(g, (uint64_t[]){1001}));
    assert_int_equal(e.calls, 3);
    assert_int_equal(s->flexswitch_misses, 3);
    assert_int_equal(s->consolidations, 1);
    assert_int_equal(s->methods, 5);
    assert_int_equal(jg_baseline_methods(bl, g), 5);
    assert_int_equal(jg_baseline_method_end(bl, g, 4), FIG10_BLOCKS + 3);
    assert_true(s->method_entries - entries < 1001);
    entries = s->method_entries;
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){1001}), eval(g, (uint64_t[]){1001}));
    assert_int_equal(s->method_entries - entries, 1);
    assert_int_equal(s->consolidations, 1);
    assert_int_equal(grow.begins, 4);
    assert_int_equal(grow.ends, 4);
    /* a graph the backend has not seen */
    JgGraph *other = residual("other", JG_I64, 0, NULL);
    assert_int_equal(jg_baseline_methods(bl, other), 0);
    assert_int_equal(jg_baseline_method_end(bl, other, 0), 0);
    jg_baseline_free(bl);
}

/* A graph consolidated, then grown by cases in a later phase of its run:
 * first only the blocks added since are compiled again as one method
 * (cheap, enough when the new phase's loop lies in them); while the
 * activations still cross between the methods (here the loop goes through
 * the old and the new cases), the whole graph follows. */
static void test_consolidation_after_growth(void **state)
{
    (void)state;
    Emu e = {0};
    JgBaseline *bl = baseline();
    JgGraph *g = fig10_graph(&e, 5);
    compile(bl, g);
    const JgBaselineStats *s = jg_baseline_stats(bl);
    /* a first phase that only meets i % 5 in 0..2, until consolidated */
    for (int k = 0; k < 200; k++)
        assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){3}), 60);
    assert_int_equal(s->flexswitch_cases, 3);
    assert_int_equal(s->consolidations, 1);
    /* two more cases, two more methods */
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){5}), 150);
    assert_int_equal(s->flexswitch_cases, 5);
    uint32_t methods = jg_baseline_methods(bl, g);
    /* the loop through all five: the new blocks, then the whole graph */
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){3001}), eval(g, (uint64_t[]){3001}));
    assert_int_equal(s->consolidations, 3);
    assert_int_equal(jg_baseline_methods(bl, g), methods + 2);
    assert_int_equal(jg_baseline_method_end(bl, g, methods + 1), FIG10_BLOCKS + 5);
    uint64_t entries = s->method_entries;
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){3001}), eval(g, (uint64_t[]){3001}));
    assert_int_equal(s->method_entries - entries, 1);
    assert_int_equal(s->flexswitch_misses, 5);
    jg_baseline_free(bl);
}

/* The backend's record of `g` (open addressing on the graph's address). */
static BlGraph *graph_record(JgBaseline *bl, const JgGraph *g)
{
    for (uint32_t i = 0; i < bl->graphs_cap; i++)
        if (bl->graphs[i] && bl->graphs[i]->graph == g)
            return bl->graphs[i];
    fail_msg("graph %s has no record", g->name);
    return NULL;
}

/* A method entered at a block other than the graph's entry clears the
 * frame slots of that block's pointer parameters once it has loaded them
 * (the frame outlives the method, and a conservative collector would keep
 * alive what they point to); integers are left as they are, and so are the
 * arguments of an entry at the graph's first block (its caller holds
 * them). The method is called here the way runtime.c's run_on calls it. */
static void test_entry_clears_pointer_slots(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *g = residual("entry_slots", JG_I64, 2, (JgType[]){JG_PTR, JG_I64});
    uint32_t head = jg_block_new(g, 3, (JgType[]){JG_PTR, JG_I64, JG_PTR});
    g->blocks.items[head].flags |= JG_BLOCK_ENTRY;
    go(g, 0, head, 3, (JgVal[]){P(g, 0, 0), P(g, 0, 1), P(g, 0, 0)});
    /* the second pointer is read, the first is not */
    JgVal word = jg_emit(g, head, JG_OP_LOAD, JG_I64, 1, (JgVal[]){P(g, head, 2)});
    jg_set_return(g, head, op2(g, head, JG_OP_ADD, JG_I64, P(g, head, 1), word));
    compile(bl, g);
    uint64_t cell = 5;
    assert_int_equal(same(bl, g, (uint64_t[]){addr(&cell), 37}), 42);
    BlGraph *bg = graph_record(bl, g);
    uint32_t id = bg->ids[head];
    const BlMethod *me = &bg->methods[BL_BLOCKID_METHOD(id)];
    struct {
        BlFrame f;
        uint64_t slots[3];
    } frame = {.slots = {addr(&cell), 37, addr(&cell)}};
    assert_int_equal(me->fn(BL_BLOCKID_BLOCK(id), &frame.f, NULL), BL_BLOCKID_RETURN);
    assert_int_equal(frame.f.result, 42);
    assert_int_equal(frame.slots[0], 0);
    assert_int_equal(frame.slots[1], 37);
    assert_int_equal(frame.slots[2], 0);
    /* the graph's entry: its arguments stay */
    uint32_t entry = bg->ids[0];
    frame.slots[0] = addr(&cell);
    frame.slots[1] = 37;
    frame.slots[2] = 0;
    const BlMethod *first = &bg->methods[BL_BLOCKID_METHOD(entry)];
    assert_int_equal(first->fn(BL_BLOCKID_BLOCK(entry), &frame.f, NULL), BL_BLOCKID_RETURN);
    assert_int_equal(frame.f.result, 42);
    assert_int_equal(frame.slots[0], addr(&cell));
    assert_int_equal(frame.slots[1], 37);
    jg_baseline_free(bl);
}

static void test_flexswitch_many_cases(void **state)
{
    (void)state;
    Emu e = {0};
    JgBaseline *bl = baseline();
    JgGraph *g = residual("many", JG_I64, 1, (JgType[]){JG_I64});
    e.g = g;
    e.build = many_case;
    uint32_t head = jg_block_new(g, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    g->blocks.items[head].flags |= JG_BLOCK_ENTRY;
    uint32_t body = jg_block_new(g, 0, NULL), done = jg_block_new(g, 0, NULL);
    go(g, 0, head, 3, (JgVal[]){k64(g, 0), k64(g, 0), P(g, 0, 0)});
    JgVal i = P(g, head, 0), acc = P(g, head, 1), n = P(g, head, 2);
    jg_set_branch(g, head, cmp(g, head, JG_OP_ICMP, JG_ULT, i, n), jg_link(g, body, 0, NULL),
                  jg_link(g, done, 0, NULL));
    JgVal x = op2(g, body, JG_OP_UREM, JG_I64, i, k64(g, 50));
    flex(&e, body, x, 3, (JgVal[]){i, acc, n});
    jg_set_return(g, done, acc);
    compile(bl, g);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){200}), 4 * 40425);
    assert_int_equal(e.calls, 50);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){1000}), 20 * 40425);
    assert_int_equal(e.calls, 50);
    assert_int_equal(eval(g, (uint64_t[]){1000}), 20 * 40425);
    const JgBaselineStats *s = jg_baseline_stats(bl);
    /* consolidated once stable: 16 cases compared inline, the others
     * through the cache and the runtime, with the same results */
    assert_int_equal(s->consolidations, 1);
    assert_int_equal(s->methods, 52);
    assert_int_equal(s->flexswitch_misses, 50);
    assert_int_equal(s->flexswitch_cases, 50);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){1000}), 20 * 40425);
    assert_int_equal(s->flexswitch_misses, 50);
    jg_baseline_free(bl);
}

/* Values of every type cross two method boundaries (through the frame's
 * slots): a flexswitch on sel, then one on the i32, whose case stores
 * every value into the Fields at p. */
static const JgType every_types[] = {JG_I1, JG_I8, JG_I16, JG_I32, JG_I64, JG_PTR, JG_F64, JG_F32};

static uint32_t every_store_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    (void)value;
    JgGraph *g = e->g;
    uint32_t nb = case_block(g, fs);
    JgVal base = P(g, nb, 5);
    static const size_t where[8] = {0, 1, 2, 3, 4, 5, 7, 6}; /* field_list index per param */
    for (uint32_t i = 0; i < 8; i++)
        op2(g, nb, JG_OP_STORE, JG_VOID, at(g, nb, base, field_list[where[i]].offset), P(g, nb, i));
    jg_set_return(g, nb, op2(g, nb, JG_OP_ADD, JG_I64, P(g, nb, 4), k64(g, 1)));
    return nb;
}

static uint32_t every_first_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    (void)value;
    JgGraph *g = e->g;
    uint32_t nb = case_block(g, fs);
    JgVal live[8];
    for (uint32_t i = 0; i < 8; i++)
        live[i] = P(g, nb, i);
    e->build = every_store_case;
    flex(e, nb, P(g, nb, 3), 8, live);
    return nb;
}

static void test_every_type_across_methods(void **state)
{
    (void)state;
    Emu e = {0};
    JgBaseline *bl = baseline();
    JgType types[9];
    memcpy(types, every_types, sizeof every_types);
    types[8] = JG_I64;
    JgGraph *g = residual("every", JG_I64, 9, types);
    e.g = g;
    e.build = every_first_case;
    JgVal live[8];
    for (uint32_t i = 0; i < 8; i++)
        live[i] = P(g, 0, i);
    flex(&e, 0, P(g, 0, 8), 8, live);
    compile(bl, g);
    Fields out;
    memset(&out, 0, sizeof out);
    uint64_t in[9] = {
        1,          0xab,           0xcdef,         0x89abcdef, UINT64_C(0xfedcba9876543210),
        addr(&out), f64_bits(-0.1), f32_bits(1.5f), 3};
    assert_int_equal(jg_baseline_call(bl, g, in), UINT64_C(0xfedcba9876543211));
    assert_int_equal(e.calls, 2);
    assert_int_equal(out.z, 1);
    assert_int_equal(out.b, 0xab);
    assert_int_equal(out.h, 0xcdef);
    assert_int_equal(out.w, 0x89abcdef);
    assert_int_equal(out.q, UINT64_C(0xfedcba9876543210));
    assert_ptr_equal(out.p, &out);
    assert_true(out.d == -0.1);
    assert_true(out.f == 1.5f);
    assert_int_equal(jg_baseline_stats(bl)->methods, 3);
    jg_baseline_free(bl);
}

static void test_results_from_cases(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    const JgType types[] = {JG_I1, JG_I8, JG_I16, JG_I32, JG_I64, JG_PTR, JG_F32, JG_F64};
    const uint64_t in[] = {1,          0xfe,           0x8001,          0xfffffffe,
                           UINT64_MAX, 0x7fff12345678, f32_bits(-2.5f), f64_bits(1e300)};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        Emu e = {0};
        JgGraph *g = residual("ret", types[i], 2, (JgType[]){types[i], JG_I32});
        e.g = g;
        e.build = return_live_case;
        flex(&e, 0, P(g, 0, 1), 1, (JgVal[]){P(g, 0, 0)});
        compile(bl, g);
        assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){in[i], 5}), in[i]);
        assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){in[i], 5}), in[i]);
        assert_int_equal(e.calls, 1);
    }
    jg_baseline_free(bl);
}

/* An ALLOCA of a case's method whose address reaches the next case: its
 * memory outlives the method that made it, and the next method's own
 * ALLOCA is elsewhere. */
static uint32_t alloca_reader_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    (void)value;
    JgGraph *g = e->g;
    uint32_t nb = case_block(g, fs);
    JgVal mine = alloca_op(g, nb, 512);
    jg_emit(g, nb, JG_OP_MEMSET, JG_VOID, 3,
            (JgVal[]){mine, jg_const(g, JG_I8, 0xaa), k64(g, 512)});
    JgVal kept = op1(g, nb, JG_OP_LOAD, JG_I64, P(g, nb, 0));
    JgVal scribble = op1(g, nb, JG_OP_LOAD, JG_I64, mine);
    JgVal r =
        op2(g, nb, JG_OP_ADD, JG_I64, kept, op2(g, nb, JG_OP_AND, JG_I64, scribble, k64(g, 1)));
    jg_set_return(g, nb, r);
    return nb;
}

static uint32_t alloca_maker_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    (void)value;
    JgGraph *g = e->g;
    uint32_t nb = case_block(g, fs);
    JgVal p = alloca_op(g, nb, 16);
    op2(g, nb, JG_OP_STORE, JG_VOID, p, k64(g, 4242));
    e->build = alloca_reader_case;
    JgVal sel = op2(g, nb, JG_OP_ADD, JG_I64, P(g, nb, 0), k64(g, 1));
    flex(e, nb, sel, 1, &p);
    return nb;
}

static void test_alloca_outlives_method(void **state)
{
    (void)state;
    Emu e = {0};
    JgBaseline *bl = baseline();
    JgGraph *g = residual("alloca2", JG_I64, 1, (JgType[]){JG_I64});
    e.g = g;
    e.build = alloca_maker_case;
    flex(&e, 0, P(g, 0, 0), 1, (JgVal[]){P(g, 0, 0)});
    compile(bl, g);
    /* 0xaa... & 1 == 0: the reader adds nothing of its own */
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){7}), 4242);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){7}), 4242);
    assert_int_equal(e.calls, 2);
    jg_baseline_free(bl);
}

/* f(n) = n <= 1 ? 1 : n * f(n - 1) + n % 3, where n % 3 is promoted (a
 * flexswitch) and f(n - 1) is a portal call whose handler runs the graph
 * again in baseline code: activations nest, and misses in inner ones grow
 * the graph while outer ones run its older methods. n lives across the
 * portal call. */
typedef struct Reenter {
    JgBaseline *bl;
    JgGraph *g;
    JgGraph *portal;
    int depth, max_depth;
    bool bind; /* binds each site to g at its first call (direct calls) */
    int calls; /* through the host */
} Reenter;

static const uint32_t reenter_reds[1] = {0};

static uint64_t reenter_portal(void *ctx, const uint64_t *args, JgPortalSite *site)
{
    Reenter *r = ctx;
    r->calls++;
    if (r->bind)
        assert_true(jg_baseline_bind_site(r->bl, site, r->g));
    if (++r->depth > r->max_depth)
        r->max_depth = r->depth;
    uint64_t v = jg_baseline_call(r->bl, r->g, args);
    r->depth--;
    return v;
}

static Reenter *reenter_of; /* the test's, for the case builder */

static uint32_t reenter_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    JgGraph *g = e->g;
    uint32_t nb = case_block(g, fs);
    JgVal n = P(g, nb, 0);
    JgVal m = op2(g, nb, JG_OP_SUB, JG_I64, n, k64(g, 1));
    JgVal r = jg_emit(g, nb, JG_OP_CALL, JG_I64, 2,
                      (JgVal[]){jg_const_symbol(g, FN(reenter_portal), "portal"), m});
    jg_last_op(g, nb)->callee = reenter_of->portal;
    JgVal v = op2(g, nb, JG_OP_ADD, JG_I64, op2(g, nb, JG_OP_MUL, JG_I64, n, r), k64(g, value));
    jg_set_return(g, nb, v);
    return nb;
}

static uint64_t reenter_want(uint64_t n)
{
    return n <= 1 ? 1 : n * reenter_want(n - 1) + n % 3;
}

/* f (above) as a graph of a new backend whose portal calls go to
 * reenter_portal, compiled before any case exists. */
static JgGraph *reenter_graph(Reenter *r, Emu *e, const char *name)
{
    reenter_of = r;
    r->bl = baseline_with((JgBaselineOptions){.portal_call = reenter_portal,
                                              .portal_ctx = r,
                                              .portal_red_index = reenter_reds,
                                              .portal_nred = 1});
    r->portal = jg_graph_new(&arena, "portal", JG_I64, 1, (JgType[]){JG_I64});
    r->portal->flags |= JG_FLAG_PORTAL;
    JgGraph *g = residual(name, JG_I64, 1, (JgType[]){JG_I64});
    r->g = e->g = g;
    e->build = reenter_case;
    uint32_t base = jg_block_new(g, 0, NULL), rec = jg_block_new(g, 0, NULL);
    JgVal n = P(g, 0, 0);
    jg_set_branch(g, 0, cmp(g, 0, JG_OP_ICMP, JG_ULE, n, k64(g, 1)), jg_link(g, base, 0, NULL),
                  jg_link(g, rec, 0, NULL));
    jg_set_return(g, base, k64(g, 1));
    flex(e, rec, op2(g, rec, JG_OP_UREM, JG_I64, n, k64(g, 3)), 1, &n);
    compile(r->bl, g);
    return g;
}

static void test_reentrant_portal(void **state)
{
    (void)state;
    Reenter r = {0};
    Emu e = {0};
    JgGraph *g = reenter_graph(&r, &e, "reenter");
    assert_int_equal(jg_baseline_call(r.bl, g, (uint64_t[]){20}), reenter_want(20));
    assert_int_equal(r.max_depth, 19);
    assert_int_equal(e.calls, 3);
    assert_int_equal(jg_baseline_stats(r.bl)->methods, 4);
    assert_int_equal(jg_baseline_call(r.bl, g, (uint64_t[]){25}), reenter_want(25));
    assert_int_equal(e.calls, 3);
    assert_int_equal(r.depth, 0);
    jg_baseline_free(r.bl);
    reenter_of = NULL;
}

/* The same recursion with each site bound to the graph at its first call:
 * later calls from it run the graph without the host (and without
 * nesting the host's frames), with the same results; unbound, they go
 * through the host again. */
static void test_direct_portal_calls(void **state)
{
    (void)state;
    Reenter r = {.bind = true};
    Emu e = {0};
    JgGraph *g = reenter_graph(&r, &e, "direct");
    assert_int_equal(jg_baseline_call(r.bl, g, (uint64_t[]){20}), reenter_want(20));
    assert_int_equal(e.calls, 3);
    /* one host call per site (three cases, one call each), then direct */
    assert_int_equal(r.calls, 3);
    for (uint64_t k = 21; k < 60; k++)
        assert_int_equal(jg_baseline_call(r.bl, g, (uint64_t[]){k}), reenter_want(k));
    int calls = r.calls;
    assert_true(calls <= 6); /* and the sites of a consolidation, if any */
    assert_int_equal(jg_baseline_call(r.bl, g, (uint64_t[]){40}), reenter_want(40));
    assert_int_equal(r.calls, calls);
    /* unbound: every call through the host */
    jg_baseline_unbind(r.bl, g);
    r.bind = false;
    assert_int_equal(jg_baseline_call(r.bl, g, (uint64_t[]){40}), reenter_want(40));
    assert_int_equal(r.calls, calls + 39);
    assert_int_equal(r.depth, 0);
    jg_baseline_free(r.bl);
    reenter_of = NULL;
}

/* A direct call of a callee that needs more slots than the frame its call
 * site builds (BL_DIRECT_SLOTS): it runs in a frame of its own, with the
 * same results. w(n) = n == 0 ? 0 : w(n - 1) + (n + 0) + ... + (n + 39),
 * the forty terms passed to a second block. */
typedef struct Wide {
    JgBaseline *bl;
    JgGraph *g;
    int calls; /* through the host */
} Wide;

static const uint32_t wide_reds[1] = {0};

static uint64_t wide_portal(void *ctx, const uint64_t *args, JgPortalSite *site)
{
    Wide *w = ctx;
    w->calls++;
    assert_true(jg_baseline_bind_site(w->bl, site, w->g));
    return jg_baseline_call(w->bl, w->g, args);
}

static void test_direct_call_wide_callee(void **state)
{
    (void)state;
    enum { TERMS = 40 };
    _Static_assert(TERMS + 1 > BL_DIRECT_SLOTS, "the callee must not fit the site's frame");
    Wide w = {0};
    w.bl = baseline_with((JgBaselineOptions){.portal_call = wide_portal,
                                             .portal_ctx = &w,
                                             .portal_red_index = wide_reds,
                                             .portal_nred = 1});
    JgGraph *portal = jg_graph_new(&arena, "portal", JG_I64, 1, (JgType[]){JG_I64});
    portal->flags |= JG_FLAG_PORTAL;
    JgGraph *g = residual("wide", JG_I64, 1, (JgType[]){JG_I64});
    w.g = g;
    JgType types[TERMS + 1];
    for (uint32_t i = 0; i <= TERMS; i++)
        types[i] = JG_I64;
    uint32_t zero = jg_block_new(g, 0, NULL), terms = jg_block_new(g, 0, NULL),
             sum = jg_block_new(g, TERMS + 1, types);
    JgVal n = P(g, 0, 0);
    jg_set_branch(g, 0, cmp(g, 0, JG_OP_ICMP, JG_EQ, n, k64(g, 0)), jg_link(g, zero, 0, NULL),
                  jg_link(g, terms, 0, NULL));
    jg_set_return(g, zero, k64(g, 0));
    JgVal args[TERMS + 1];
    args[0] = n;
    for (uint32_t i = 0; i < TERMS; i++)
        args[i + 1] = op2(g, terms, JG_OP_ADD, JG_I64, n, k64(g, i));
    jg_set_goto(g, terms, jg_link(g, sum, TERMS + 1, args));
    JgVal m = op2(g, sum, JG_OP_SUB, JG_I64, P(g, sum, 0), k64(g, 1));
    JgVal r = jg_emit(g, sum, JG_OP_CALL, JG_I64, 2,
                      (JgVal[]){jg_const_symbol(g, FN(wide_portal), "portal"), m});
    jg_last_op(g, sum)->callee = portal;
    for (uint32_t i = 1; i <= TERMS; i++)
        r = op2(g, sum, JG_OP_ADD, JG_I64, r, P(g, sum, i));
    jg_set_return(g, sum, r);
    compile(w.bl, g);
    for (uint64_t k = 0; k < 50; k++) {
        uint64_t want = 0;
        for (uint64_t j = 1; j <= k; j++)
            want += TERMS * j + TERMS * (TERMS - 1) / 2;
        assert_int_equal(jg_baseline_call(w.bl, g, (uint64_t[]){k}), want);
    }
    assert_int_equal(w.calls, 1); /* the site, bound at its first call */
    jg_baseline_free(w.bl);
}

/* ---- the tier-up hook -------------------------------------------------------- */

typedef struct TierLog {
    int calls;
    const JgGraph *g;
    uint32_t blocks[16];   /* per call: the block */
    uint64_t slots[16][3]; /* per call: the first slots */
    int take_over_at;      /* 1 + the call that returns true with `result`; 0: none */
    uint64_t result;
    double next;    /* the next look each call asks for ... */
    int stop_after; /* ... until this many calls (then none; 0: no end) */
} TierLog;

static bool tier_up(void *ctx, const JgGraph *g, uint32_t block, const uint64_t *slots,
                    uint64_t *result, double *next_look_ms)
{
    TierLog *log = ctx;
    int k = log->calls++;
    log->g = g;
    if (k < 16) {
        log->blocks[k] = block;
        uint32_t n = block ? g->blocks.items[block].nparams : g->nparams;
        for (uint32_t i = 0; i < n && i < 3; i++)
            log->slots[k][i] = slots[i];
    }
    *next_look_ms = log->stop_after && log->calls >= log->stop_after ? 0 : log->next;
    bool take = log->take_over_at == k + 1;
    if (take)
        *result = log->result;
    return take;
}

/* A baseline whose first look is in `look_ms` (< 0: at once, 0: never). */
static JgBaseline *tiered(TierLog *log, double look_ms)
{
    return baseline_with(
        (JgBaselineOptions){.look_ms = look_ms, .tier_up = tier_up, .tier_up_ctx = log});
}

/* A loop that takes a flexswitch's case every trip is known from its
 * code (the tier-up keeps it in baseline code: in LLVM's, each case is an
 * external jump) once the cases are jumps in one method; sum's loop takes
 * none. */
static void test_loop_takes_cases(void **state)
{
    (void)state;
    Emu e = {0};
    TierLog log = {0};
    JgBaseline *bl = tiered(&log, 1e9); /* looks, none due */
    JgGraph *g = fig10_graph(&e, 3);
    compile(bl, g);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){1001}), eval(g, (uint64_t[]){1001}));
    assert_int_equal(jg_baseline_stats(bl)->consolidations, 1);
    JgBaselineLoop loop = jg_baseline_loop(bl, g, FIG10_HEAD);
    assert_true(loop.bytes > 0);
    assert_true(loop.takes_cases);
    assert_false(jg_baseline_loop(bl, g, 0).takes_cases);
    /* the graph as a whole: asked at another block, its loop still counts */
    assert_true(jg_baseline_loops_take_cases(bl, g));
    JgGraph *sum = sum_graph(true);
    compile(bl, sum);
    loop = jg_baseline_loop(bl, sum, SUM_HEAD);
    assert_true(loop.bytes > 0);
    assert_false(loop.takes_cases);
    assert_false(jg_baseline_loops_take_cases(bl, sum));
    assert_int_equal(log.calls, 0);
    jg_baseline_free(bl);
}

/* Looks at the hook: a call while one is due asks at the graph's entry
 * (block 0, the arguments); a loop's back-edge into a merge point while
 * one is due asks at the header (its parameters). */
static void test_tier_up(void **state)
{
    (void)state;
    /* a look at once, then none: the call asks at the entry */
    TierLog log = {.next = 0};
    JgBaseline *bl = tiered(&log, -1);
    JgGraph *g = sum_graph(true);
    compile(bl, g);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){10}), 55);
    assert_int_equal(log.calls, 1);
    assert_ptr_equal(log.g, g);
    assert_int_equal(log.blocks[0], 0);
    assert_int_equal(log.slots[0][0], 10);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){100}), 5050);
    assert_int_equal(log.calls, 1);
    assert_int_equal(jg_baseline_stats(bl)->tier_ups, 0);
    assert_int_equal(jg_baseline_stats(bl)->looks, 1);
    jg_baseline_free(bl);

    /* the entry asks for another look at once: the first back-edge asks,
     * at i = 2, acc = 1; then no more */
    log = (TierLog){.next = -1, .stop_after = 2};
    bl = tiered(&log, -1);
    g = sum_graph(true);
    compile(bl, g);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){10}), 55);
    assert_int_equal(log.calls, 2);
    assert_int_equal(log.blocks[1], SUM_HEAD);
    assert_int_equal(log.slots[1][0], 2);
    assert_int_equal(log.slots[1][1], 1);
    assert_int_equal(log.slots[1][2], 10);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){10}), 55);
    assert_int_equal(log.calls, 2);
    jg_baseline_free(bl);

    /* a look at once after every one: the entry, then every back-edge,
     * i = 2 .. 11 */
    log = (TierLog){.next = -1};
    bl = tiered(&log, -1);
    g = sum_graph(true);
    compile(bl, g);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){10}), 55);
    assert_int_equal(log.calls, 11);
    for (int k = 1; k < 11; k++) {
        assert_int_equal(log.blocks[k], SUM_HEAD);
        assert_int_equal(log.slots[k][0], 1 + (uint64_t)k);
        assert_int_equal(log.slots[k][1], (uint64_t)k * (1 + (uint64_t)k) / 2);
    }
    jg_baseline_free(bl);

    /* another tier takes over at the loop header: its result is the call's */
    log = (TierLog){.next = -1, .take_over_at = 2, .result = 12345};
    bl = tiered(&log, -1);
    g = sum_graph(true);
    compile(bl, g);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){10}), 12345);
    assert_int_equal(log.calls, 2);
    assert_int_equal(log.blocks[1], SUM_HEAD);
    assert_int_equal(jg_baseline_stats(bl)->tier_ups, 1);
    jg_baseline_free(bl);

    /* ... or at the entry */
    log = (TierLog){.take_over_at = 1, .result = 777};
    bl = tiered(&log, -1);
    g = sum_graph(true);
    compile(bl, g);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){10}), 777);
    assert_int_equal(log.blocks[0], 0);
    assert_int_equal(jg_baseline_stats(bl)->tier_ups, 1);
    jg_baseline_free(bl);

    /* a header that is no merge point has no look: after the entry's, the
     * loop runs to its end; the next call asks at the entry */
    log = (TierLog){.next = -1, .stop_after = 2};
    bl = tiered(&log, -1);
    g = sum_graph(false);
    compile(bl, g);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){100}), 5050);
    assert_int_equal(log.calls, 1);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){7}), 28);
    assert_int_equal(log.calls, 2);
    assert_int_equal(log.blocks[1], 0);
    assert_int_equal(log.slots[1][0], 7);
    jg_baseline_free(bl);

    /* the loop's size, for the tier-up's cost rule: sum's loop is a few
     * instructions; no loop goes back to the entry; without looks, no
     * sites and no sizes */
    bl = tiered(&log, -1);
    g = sum_graph(true);
    compile(bl, g);
    uint32_t bytes = jg_baseline_loop(bl, g, SUM_HEAD).bytes;
    assert_true(bytes > 10 && bytes <= 64);
    assert_int_equal(jg_baseline_loop(bl, g, 0).bytes, 0);
    assert_int_equal(jg_baseline_loop(bl, g, 999).bytes, 0);
    jg_baseline_free(bl);
    bl = tiered(&log, 0);
    g = sum_graph(true);
    compile(bl, g);
    assert_int_equal(jg_baseline_loop(bl, g, SUM_HEAD).bytes, 0);
    jg_baseline_free(bl);

    /* looks 0: never asked */
    log = (TierLog){.take_over_at = 1, .result = 1};
    bl = tiered(&log, 0);
    g = sum_graph(true);
    compile(bl, g);
    assert_int_equal(jg_baseline_call(bl, g, (uint64_t[]){100}), 5050);
    assert_int_equal(log.calls, 0);
    jg_baseline_free(bl);
}

/* A look on the timer (its signal patches the running loop's back-edge):
 * a loop of tens of milliseconds is asked once, after 2 ms, at its header,
 * in the middle of its run; the result stays right. */
static void test_tier_up_on_timer(void **state)
{
    (void)state;
    TierLog log = {.stop_after = 1};
    JgBaseline *bl = tiered(&log, 2);
    JgGraph *g = sum_graph(true);
    compile(bl, g);
    uint64_t n = 50000000;
    assert_int_equal(jg_baseline_call(bl, g, &n), n * (n + 1) / 2);
    assert_int_equal(log.calls, 1);
    assert_int_equal(log.blocks[0], SUM_HEAD);
    assert_true(log.slots[0][0] > 1 && log.slots[0][0] <= n);
    assert_int_equal(log.slots[0][1], (log.slots[0][0] - 1) * log.slots[0][0] / 2);
    assert_int_equal(jg_baseline_stats(bl)->looks, 1);
    jg_baseline_free(bl);
}

/* A hook that declines and asks for a look at once: baseline code leaves
 * for the dispatcher at every back-edge into a loop header (its parameters
 * through the frame's slots, from registers and stack slots) and comes
 * back in at the header. Results must not change. */
static void test_tier_up_every_back_edge(void **state)
{
    (void)state;
    TierLog log = {.next = -1};
    JgBaseline *bl = tiered(&log, -1);
    JgGraph *graphs[6];
    graphs[0] = sum_graph(true);
    graphs[1] = pressure_graph();
    for (int nq = 1; nq <= 4; nq++)
        graphs[1 + nq] = alloca_pressure_graph(nq);
    for (int k = 0; k < 6; k++) {
        graphs[k]->blocks.items[1].flags |= JG_BLOCK_ENTRY; /* the loop header */
        compile(bl, graphs[k]);
    }
    for (uint64_t n = 0; n < 12; n++) {
        same(bl, graphs[0], &n);
        same(bl, graphs[1], (uint64_t[]){n * 5 + 3, n});
        for (int k = 2; k < 6; k++)
            same(bl, graphs[k], &n);
    }
    /* each call: once at the entry, then once per iteration at the header */
    log.calls = 0;
    same(bl, graphs[1], (uint64_t[]){1, 30});
    assert_int_equal(log.calls, 1 + 30);
    assert_int_equal(log.blocks[0], 0);
    for (int k = 1; k < 16; k++)
        assert_int_equal(log.blocks[k], 1);
    assert_int_equal(jg_baseline_stats(bl)->tier_ups, 0);
    jg_baseline_free(bl);
}

/* A loop whose header is the graph's entry block: the hook gets block 0
 * with the loop's current values. */
static void test_tier_up_entry_loop(void **state)
{
    (void)state;
    TierLog log = {.next = -1, .stop_after = 2};
    JgBaseline *bl = tiered(&log, -1);
    /* loop0(i, acc, n): i < n ? loop0(i + 1, acc + i, n) : acc */
    JgGraph *g = residual("loop0", JG_I64, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    uint32_t done = jg_block_new(g, 0, NULL);
    JgVal i = P(g, 0, 0), acc = P(g, 0, 1), n = P(g, 0, 2);
    JgVal next[3] = {op2(g, 0, JG_OP_ADD, JG_I64, i, k64(g, 1)),
                     op2(g, 0, JG_OP_ADD, JG_I64, acc, i), n};
    jg_set_branch(g, 0, cmp(g, 0, JG_OP_ICMP, JG_SLT, i, n), jg_link(g, 0, 3, next),
                  jg_link(g, done, 0, NULL));
    jg_set_return(g, done, acc);
    compile(bl, g);
    assert_int_equal(same(bl, g, (uint64_t[]){0, 0, 10}), 45);
    /* at the call, then at the first back-edge */
    assert_int_equal(log.calls, 2);
    assert_int_equal(log.blocks[1], 0);
    assert_int_equal(log.slots[1][0], 1);
    assert_int_equal(log.slots[1][1], 0);
    assert_int_equal(log.slots[1][2], 10);
    jg_baseline_free(bl);
}

/* The lines of `text` that contain `what`. */
static int count_lines_with(const char *text, const char *what)
{
    int n = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *hit = strstr(line, what);
        n += hit && hit < line + len;
        line = end ? end + 1 : NULL;
    }
    return n;
}

/* An input of a graph and the result it must give. */
typedef struct Expect {
    uint64_t in, want;
} Expect;

/* A baseline that prints its code into a string: *text once *out is closed. */
typedef struct AsmBaseline {
    JgBaseline *bl;
    FILE *out;
    char *text;
    size_t len;
} AsmBaseline;

static void asm_baseline_open(AsmBaseline *a)
{
    a->text = NULL;
    a->len = 0;
    a->out = open_memstream(&a->text, &a->len);
    assert_non_null(a->out);
    a->bl = baseline_with((JgBaselineOptions){.dump_asm = a->out});
}

/* Frees the baseline and returns its code's disassembly (to free). */
static char *asm_baseline_close(AsmBaseline *a)
{
    jg_baseline_free(a->bl);
    fclose(a->out);
    return a->text;
}

/* `g` compiled by a baseline that prints its code: the results for the
 * inputs 0..11 must be the evaluator's, and those of `expect` as given.
 * Returns the disassembly (to free). */
static char *checked_asm(JgGraph *g, const Expect *expect, size_t nexpect)
{
    AsmBaseline a;
    asm_baseline_open(&a);
    compile(a.bl, g);
    for (uint64_t n = 0; n < 12; n++)
        same(a.bl, g, &n);
    for (size_t i = 0; i < nexpect; i++)
        assert_int_equal(same(a.bl, g, &expect[i].in), expect[i].want);
    return asm_baseline_close(&a);
}

/* A division by a variable: operands below 2^32 and not negative divide
 * with the 32-bit div, the others with idiv (method.c, divide_rax_by_rcx);
 * both give the evaluator's results on every pair of samples, which hold
 * the 2^31 and 2^32 boundaries and negative numbers. */
static void test_divide_narrow(void **state)
{
    (void)state;
    AsmBaseline a;
    asm_baseline_open(&a);
    JgGraph *g = residual("divnarrow", JG_I64, 2, (JgType[]){JG_I64, JG_I64});
    JgVal q, r;
    divide_shape(g, JG_I64, P(g, 0, 1), 0, 0, &q, &r);
    check_mix(a.bl, g, JG_I64, JG_OP_SEXT, q, r, 7);
    char *text = asm_baseline_close(&a);
    assert_int_equal(count_lines_with(text, " div ecx"), 1);
    assert_int_equal(count_lines_with(text, "idiv rcx"), 1);
    free(text);
}

/* Loop rotation: sum's back-edge copies the header's test (`cmp i, n`,
 * the only comparison of two registers) and jumps back into the body, so
 * the test is in the code twice; the results stay the evaluator's. */
static void test_loop_rotation(void **state)
{
    (void)state;
    char *text = checked_asm(sum_graph(false), &(Expect){100000, UINT64_C(5000050000)}, 1);
    if (count_lines_with(text, "cmp r") != 2)
        fail_msg("the loop's test is not copied to its back-edge:\n%s", text);
    free(text);
}

/* A back-edge that passes on through several merge points (blocks 2 and 3,
 * which only pass their parameters on, then the header) has one look
 * site, at the first of them. */
static void test_look_site_once(void **state)
{
    (void)state;
    /* sum(n) with the back-edge body -> M1 -> M2 -> head, M1 and M2 before the body */
    JgGraph *g = residual("sum3", JG_I64, 1, (JgType[]){JG_I64});
    JgType t3[] = {JG_I64, JG_I64, JG_I64};
    uint32_t head = jg_block_new(g, 3, t3), m1 = jg_block_new(g, 3, t3),
             m2 = jg_block_new(g, 3, t3);
    uint32_t body = jg_block_new(g, 0, NULL), done = jg_block_new(g, 0, NULL);
    for (uint32_t b = head; b <= m2; b++)
        g->blocks.items[b].flags |= JG_BLOCK_ENTRY;
    go(g, 0, head, 3, (JgVal[]){k64(g, 1), k64(g, 0), P(g, 0, 0)});
    JgVal i = P(g, head, 0), acc = P(g, head, 1), lim = P(g, head, 2);
    jg_set_branch(g, head, cmp(g, head, JG_OP_ICMP, JG_SLE, i, lim), jg_link(g, body, 0, NULL),
                  jg_link(g, done, 0, NULL));
    JgVal next[3] = {op2(g, body, JG_OP_ADD, JG_I64, i, k64(g, 1)),
                     op2(g, body, JG_OP_ADD, JG_I64, acc, i), lim};
    go(g, body, m1, 3, next);
    go(g, m1, m2, 3, (JgVal[]){P(g, m1, 0), P(g, m1, 1), P(g, m1, 2)});
    go(g, m2, head, 3, (JgVal[]){P(g, m2, 0), P(g, m2, 1), P(g, m2, 2)});
    jg_set_return(g, done, acc);

    /* a look at once after the entry's: asked at the first back-edge, at
     * M1 (not at the header), with i = 2 and acc = 1 */
    TierLog log = {.next = -1, .stop_after = 2};
    JgBaseline *bl = tiered(&log, -1);
    compile(bl, g);
    assert_int_equal(same(bl, g, (uint64_t[]){10}), 55);
    assert_int_equal(log.calls, 2);
    assert_int_equal(log.blocks[1], m1);
    assert_int_equal(log.slots[1][0], 2);
    assert_int_equal(log.slots[1][1], 1);
    jg_baseline_free(bl);
}

/* TLC's loops, as partial evaluation leaves them: a block computes a
 * comparison, widens the bool and passes it to the loop header, a merge
 * point that tests it (`icmp ne f, 0`, or `icmp eq f, 0` branching the
 * other way, or the bool itself) and branches.
 *   count(n): T(n, 0, n > 0); T(i, acc, f): f ? body : done;
 *   body: T(i - 1, acc + i, i - 1 > 0); done: return acc */
static JgGraph *countdown_graph(int how)
{
    JgType ft = how == 2 ? JG_I1 : JG_I64;
    JgGraph *g = residual("countdown", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t head = jg_block_new(g, 3, (JgType[]){JG_I64, JG_I64, ft});
    uint32_t body = jg_block_new(g, 0, NULL), done = jg_block_new(g, 0, NULL);
    g->blocks.items[head].flags |= JG_BLOCK_ENTRY;
    JgVal n = P(g, 0, 0), zero = k64(g, 0);
    JgVal f0 = cmp(g, 0, JG_OP_ICMP, JG_SGT, n, zero);
    if (how != 2)
        f0 = op1(g, 0, JG_OP_ZEXT, JG_I64, f0);
    go(g, 0, head, 3, (JgVal[]){n, zero, f0});
    JgVal i = P(g, head, 0), acc = P(g, head, 1), f = P(g, head, 2);
    JgLink to_body = jg_link(g, body, 0, NULL), to_done = jg_link(g, done, 0, NULL);
    if (how == 0)
        jg_set_branch(g, head, cmp(g, head, JG_OP_ICMP, JG_NE, f, zero), to_body, to_done);
    else if (how == 1)
        jg_set_branch(g, head, cmp(g, head, JG_OP_ICMP, JG_EQ, f, zero), to_done, to_body);
    else
        jg_set_branch(g, head, f, to_body, to_done);
    JgVal i2 = op2(g, body, JG_OP_SUB, JG_I64, i, k64(g, 1));
    JgVal acc2 = op2(g, body, JG_OP_ADD, JG_I64, acc, i);
    JgVal f2 = cmp(g, body, JG_OP_ICMP, JG_SGT, i2, zero);
    if (how != 2)
        f2 = op1(g, body, JG_OP_ZEXT, JG_I64, f2);
    go(g, body, head, 3, (JgVal[]){i2, acc2, f2});
    jg_set_return(g, done, acc);
    return g;
}

/* The comparison that decides a merge point's branch jumps there straight
 * from the block computing it, in every form of countdown_graph: no bool
 * is materialized (no setcc in the code). The merge point keeps its code
 * for entries from the dispatcher: a hook declining at every back-edge
 * gets the bool, as the side of the branch had it, in the header's slot. */
static void test_branch_through_merge_point(void **state)
{
    (void)state;
    for (int how = 0; how < 3; how++) {
        char *text = checked_asm(countdown_graph(how), &(Expect){(uint64_t)-3, 0}, 1);
        if (strstr(text, "set"))
            fail_msg("form %d: a bool materialized:\n%s", how, text);
        free(text);

        TierLog log = {.next = -1};
        JgBaseline *bl = tiered(&log, -1);
        JgGraph *g = countdown_graph(how);
        compile(bl, g);
        assert_int_equal(same(bl, g, (uint64_t[]){5}), 15);
        assert_int_equal(log.calls, 1 + 5); /* the entry, then each back-edge */
        for (int k = 1; k <= 5; k++) {
            assert_int_equal(log.blocks[k], 1);
            assert_int_equal(log.slots[k][0], 5 - (uint64_t)k);
            assert_int_equal(log.slots[k][2], k < 5);
        }
        jg_baseline_free(bl);
    }
}

/* f(x) = (x - c) PRED k ? x ^ 7 : x ^ 9, the subtraction read by the
 * comparison only (as `add x, -c` when `as_add`), x read on both sides. */
static JgGraph *fold_graph(JgPred pred, int64_t c, int64_t k, bool as_add)
{
    JgGraph *g = residual("fold", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t yes = jg_block_new(g, 0, NULL), no = jg_block_new(g, 0, NULL);
    JgVal x = P(g, 0, 0);
    JgVal t = as_add ? op2(g, 0, JG_OP_ADD, JG_I64, x, k64(g, (uint64_t)-c))
                     : op2(g, 0, JG_OP_SUB, JG_I64, x, k64(g, (uint64_t)c));
    jg_set_branch(g, 0, cmp(g, 0, JG_OP_ICMP, pred, t, k64(g, (uint64_t)k)),
                  jg_link(g, yes, 0, NULL), jg_link(g, no, 0, NULL));
    jg_set_return(g, yes, op2(g, yes, JG_OP_XOR, JG_I64, x, k64(g, 7)));
    jg_set_return(g, no, op2(g, no, JG_OP_XOR, JG_I64, x, k64(g, 9)));
    return g;
}

/* A comparison of `x - c` with a constant compares x with k + c, the
 * subtraction without code; an order also tests, where the first test
 * fails, whether x - c wrapped around (x near INT64_MIN): the results are
 * the evaluator's at and around every edge. */
static void test_folded_compare(void **state)
{
    (void)state;
    static const JgPred preds[] = {JG_SGT, JG_SGE, JG_SLT, JG_SLE, JG_EQ, JG_NE};
    static const int64_t cs[] = {1, 5}, ks[] = {0, 3, -2};
    Expect edges[] = {{(uint64_t)INT64_MIN, 0},
                      {(uint64_t)INT64_MIN + 1, 0},
                      {(uint64_t)INT64_MIN + 4, 0},
                      {(uint64_t)INT64_MIN + 5, 0},
                      {(uint64_t)INT64_MIN + 6, 0},
                      {(uint64_t)-3, 0},
                      {(uint64_t)-1, 0},
                      {(uint64_t)INT64_MAX - 1, 0},
                      {(uint64_t)INT64_MAX, 0}};
    for (size_t p = 0; p < sizeof preds / sizeof *preds; p++)
        for (size_t ci = 0; ci < 2; ci++)
            for (size_t ki = 0; ki < 3; ki++) {
                JgGraph *g = fold_graph(preds[p], cs[ci], ks[ki], ki == 1);
                JgBaseline *bl = baseline();
                compile(bl, g);
                for (size_t e = 0; e < sizeof edges / sizeof *edges; e++)
                    same(bl, g, &edges[e].in);
                for (int64_t x = -8; x <= 12; x++)
                    same(bl, g, (uint64_t[]){(uint64_t)x});
                jg_baseline_free(bl);
                char *text = checked_asm(fold_graph(preds[p], cs[ci], ks[ki], ki == 1), NULL, 0);
                /* `t >= k` is `t > k - 1`, `t < k` its negation */
                int64_t imm = ks[ki] + cs[ci] - (preds[p] == JG_SGE || preds[p] == JG_SLT);
                char want[64];
                snprintf(want, sizeof want, ", %lld\n", (long long)imm);
                if (imm == 0)
                    snprintf(want, sizeof want, "test r");
                bool ordered = preds[p] != JG_EQ && preds[p] != JG_NE;
                /* no subtraction (the prologue's `sub rsp` aside) */
                if (!strstr(text, want) ||
                    count_lines_with(text, "sub r") != count_lines_with(text, "sub rsp") ||
                    count_lines_with(text, "lea r") != count_lines_with(text, "lea rsp") ||
                    strstr(text, "add r") ||
                    (ordered != (strstr(text, "movabs rax, 0x800000000000000") != NULL)))
                    fail_msg("pred %d, c %lld, k %lld: not folded:\n%s", preds[p],
                             (long long)cs[ci], (long long)ks[ki], text);
                free(text);
            }
}

/* ---- big graphs ----------------------------------------------------------------- */

/* A loop whose body computes more than 4096 values (no coalescing, no
 * registers: every value in its slot). */
static void test_many_values(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    JgGraph *g = residual("big", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t head = jg_block_new(g, 2, (JgType[]){JG_I64, JG_I64});
    uint32_t body = jg_block_new(g, 0, NULL), done = jg_block_new(g, 0, NULL);
    JgVal k = op2(g, 0, JG_OP_MUL, JG_I64, P(g, 0, 0), k64(g, 5));
    go(g, 0, head, 2, (JgVal[]){k64(g, 0), P(g, 0, 0)});
    JgVal i = P(g, head, 0), acc = P(g, head, 1);
    JgVal c = cmp(g, head, JG_OP_ICMP, JG_ULT, i, k64(g, 3));
    jg_set_branch(g, head, c, jg_link(g, body, 0, NULL), jg_link(g, done, 0, NULL));
    JgVal x = acc, y = i;
    for (uint32_t n = 0; n < 2200; n++) {
        JgVal t = op2(g, body, JG_OP_ADD, JG_I64, x, op2(g, body, JG_OP_XOR, JG_I64, y, k64(g, n)));
        y = x;
        x = t;
    }
    x = op2(g, body, JG_OP_ADD, JG_I64, x, k);
    go(g, body, head, 2, (JgVal[]){op2(g, body, JG_OP_ADD, JG_I64, i, k64(g, 1)), x});
    jg_set_return(g, done, op2(g, done, JG_OP_SUB, JG_I64, acc, k));
    assert_true(g->values.count > 4096);
    compile(bl, g);
    for (uint64_t v = 0; v < 4; v++)
        same(bl, g, &v);
    jg_baseline_free(bl);
}

/* ---- errors --------------------------------------------------------------------- */

static void test_compile_errors(void **state)
{
    (void)state;
    JgBaseline *bl = baseline();
    /* a later method using a value of the first (not passed to it) */
    JgGraph *g = residual("undefined", JG_I64, 1, (JgType[]){JG_I64});
    JgVal x = op2(g, 0, JG_OP_ADD, JG_I64, P(g, 0, 0), k64(g, 1));
    jg_set_return(g, 0, x);
    compile(bl, g);
    uint32_t nb = jg_block_new(g, 0, NULL);
    g->blocks.items[nb].flags |= JG_BLOCK_ENTRY;
    jg_set_return(g, nb, op2(g, nb, JG_OP_ADD, JG_I64, x, k64(g, 2)));
    char want[128];
    snprintf(want, sizeof want,
             "v%u (of block 0) is used in block %u but not defined in this method", x, nb);
    compile_fails(bl, g, want);
    /* a link to a block that does not exist */
    JgGraph *h = residual("nowhere", JG_I64, 0, NULL);
    go(h, 0, 99, 0, NULL);
    compile_fails(bl, h, "block 99, which does not exist");
    /* a link passing the wrong number of values */
    JgGraph *k = residual("arity", JG_I64, 0, NULL);
    uint32_t kb = jg_block_new(k, 2, (JgType[]){JG_I64, JG_I64});
    go(k, 0, kb, 1, (JgVal[]){k64(k, 1)});
    jg_set_return(k, kb, P(k, kb, 0));
    compile_fails(bl, k, "passes 1 values to block 1, which has 2 parameters");
    /* a later method linking to a block no method can be entered at */
    Emu e = {0};
    JgGraph *f = fig10_graph(&e, 2);
    compile(bl, f);
    uint32_t fb = jg_block_new(f, 0, NULL);
    f->blocks.items[fb].flags |= JG_BLOCK_ENTRY;
    go(f, fb, 3, 0, NULL); /* block 3 ("done") is not JG_BLOCK_ENTRY */
    compile_fails(bl, f, "no method can be entered at");
    /* a call of a null function */
    JgGraph *n = residual("null_call", JG_I64, 0, NULL);
    jg_set_return(n, 0, jg_emit(n, 0, JG_OP_CALL, JG_I64, 1, (JgVal[]){jg_const(n, JG_PTR, 0)}));
    compile_fails(bl, n, "null function");
    /* a block without a terminator */
    JgGraph *t = residual("open", JG_I64, 0, NULL);
    compile_fails(bl, t, "no terminator");
    jg_baseline_free(bl);
}

/* The fatal handler of the child below: exits with 70 when the message is
 * the expected one, 71 otherwise. */
static void exit_if_uncompiled(void *ctx, const char *message)
{
    (void)ctx;
    _exit(strcmp(message, "jitgen: baseline: graph uncompiled was not compiled") == 0 ? 70 : 71);
}

/* Runs a graph that was never compiled in a child process, with or without
 * a fatal handler; returns the child's wait status. */
static int run_uncompiled(bool with_handler)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr))
            _exit(1);
        jg_set_fatal_handler(with_handler ? exit_if_uncompiled : NULL, NULL);
        JgBaseline *bl = baseline();
        JgGraph *g = residual("uncompiled", JG_I64, 0, NULL);
        jg_set_return(g, 0, k64(g, 1));
        jg_baseline_call(bl, g, NULL);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

/* Running a graph that was never compiled is fatal: the host's handler gets
 * the message (here it exits with 70); without a handler the process
 * aborts. The library itself never exits. */
static void test_uncompiled_is_fatal(void **state)
{
    (void)state;
    int status = run_uncompiled(true);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 70);
    status = run_uncompiled(false);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
}

/* An argument runs only the tests it names (a cmocka filter pattern). */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    if (!jg_baseline_available()) {
        const struct CMUnitTest none[] = {cmocka_unit_test(test_not_available)};
        return cmocka_run_group_tests(none, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_integer_arithmetic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_integer_edge_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_divide_pair, setup, teardown),
        cmocka_unit_test_setup_teardown(test_divide_likely, setup, teardown),
        cmocka_unit_test_setup_teardown(test_divide_narrow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_divide_by_constant_random, setup, teardown),
        cmocka_unit_test_setup_teardown(test_operands_in_slots, setup, teardown),
        cmocka_unit_test_setup_teardown(test_multiply_by_constant, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zero_extension_invariant, setup, teardown),
        cmocka_unit_test_setup_teardown(test_integer_compare, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compare_immediates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_branch_on_booleans, setup, teardown),
        cmocka_unit_test_setup_teardown(test_casts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_conversions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_select, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_arithmetic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_compare, setup, teardown),
        cmocka_unit_test_setup_teardown(test_counting_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_parallel_move_cycles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_register_pressure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dominated_uses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_forwarding_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_switch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_return_every_type, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hints_and_unreachable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loads_and_stores, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alloca_every_width, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alloca_zero_filled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alloca_under_pressure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memcpy_memset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_native_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_free_list_allocation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_computed_callees, setup, teardown),
        cmocka_unit_test_setup_teardown(test_variadic_call, setup, teardown),
        cmocka_unit_test_setup_teardown(test_values_live_across_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_portal_call, setup, teardown),
        cmocka_unit_test_setup_teardown(test_direct_portal_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_direct_call_wide_callee, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flexswitch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_consolidation_after_growth, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flexswitch_many_cases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_entry_clears_pointer_slots, setup, teardown),
        cmocka_unit_test_setup_teardown(test_every_type_across_methods, setup, teardown),
        cmocka_unit_test_setup_teardown(test_results_from_cases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alloca_outlives_method, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reentrant_portal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tier_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loop_takes_cases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tier_up_every_back_edge, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tier_up_on_timer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_branch_through_merge_point, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loop_rotation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_folded_compare, setup, teardown),
        cmocka_unit_test_setup_teardown(test_look_site_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tier_up_entry_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compile_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_uncompiled_is_fatal, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
