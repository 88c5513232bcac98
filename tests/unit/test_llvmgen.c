/* Unit tests of the LLVM backend (llvmgen/): residual graphs built by hand
 * with the ir.h builders, compiled with LLVM's ORC JIT and run; results are
 * compared with the graph evaluator (frontend/eval.c) on the same graph.
 * Flexswitch misses are served by a test callback that appends blocks to
 * the graph the way the partial evaluator does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "slot_bits.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "frontend/eval.h"
#include "frontend/fatal.h"
#include "frontend/ir.h"
#include "jitgen/driver.h"
#include "llvmgen/internal.h"
#include "llvmgen/llvmgen.h"

#include "residual_build.h"

#include "free_list_fixture.h"

/* ---- helpers ----------------------------------------------------------- */

static JgLlvm *jit_with(JgLlvmOptions o)
{
    char err[512];
    JgLlvm *l = jg_llvm_new(&o, err, sizeof err);
    if (!l)
        fail_msg("jg_llvm_new: %s", err);
    return l;
}

static JgLlvm *jit(int opt)
{
    return jit_with((JgLlvmOptions){.opt_level = opt});
}

static void compile(JgLlvm *l, JgGraph *g)
{
    char err[512];
    if (!jg_llvm_compile(l, g, err, sizeof err))
        fail_msg("compiling %s: %s", g->name, err);
}

/* Compilation must fail with a message containing `want`. */
static void compile_fails(JgLlvm *l, JgGraph *g, const char *want)
{
    char err[512];
    assert_false(jg_llvm_compile(l, g, err, sizeof err));
    if (!strstr(err, want))
        fail_msg("error \"%s\" does not mention \"%s\"", err, want);
}

static uint64_t eval(const JgGraph *g, const uint64_t *args)
{
    JgEvaluator ev = {0};
    verified(g);
    return jg_eval(&ev, g, args);
}

static uint64_t fn_addr(void (*f)(void))
{
    return (uint64_t)(uintptr_t)f;
}

#define FN(f) ((void *)(uintptr_t)fn_addr((void (*)(void))(f)))

/* ---- a stand-in for the partial evaluator's miss callback -------------- */

/* ---- block ids ---------------------------------------------------------- */

static void test_blockid_encoding(void **state)
{
    (void)state;
    assert_int_equal(JG_BLOCKID(0, 0), 0);
    assert_int_equal(JG_BLOCKID(1, 2), 0x10002u);
    assert_int_equal(JG_BLOCKID(0xffff, 0xfffe), 0xfffffffeu);
    assert_int_equal(JG_BLOCKID_METHOD(0xfffffffeu), 0xffff);
    assert_int_equal(JG_BLOCKID_BLOCK(0xfffffffeu), 0xfffe);
    assert_int_equal(JG_BLOCKID_METHOD(JG_BLOCKID(0xfffe, 0xffff)), 0xfffe);
    assert_int_equal(JG_BLOCKID_BLOCK(JG_BLOCKID(0xfffe, 0xffff)), 0xffff);
    /* the one id no block has */
    assert_int_equal(JG_BLOCKID(0xffff, 0xffff), JG_BLOCKID_RETURN);
}

/* ---- arithmetic ---------------------------------------------------------- */

static const JgType int_types[] = {JG_I1, JG_I8, JG_I16, JG_I32, JG_I64};

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
    0x7fffffff,
    0x80000000,
    0xffffffff,
    UINT64_C(0x123456789abcdef0),
    UINT64_C(1) << 63,
    UINT64_MAX - 6,
    UINT64_MAX,
};
#define NSAMPLES (sizeof samples / sizeof samples[0])

static bool is_division(JgOpcode c)
{
    return c == JG_OP_SDIV || c == JG_OP_UDIV || c == JG_OP_SREM || c == JG_OP_UREM;
}

/* Pairs where LLVM's semantics are undefined are not compared. */
static bool defined_pair(JgOpcode c, JgType t, uint64_t a, uint64_t b)
{
    if (!is_division(c))
        return true;
    if (t == JG_I1 || b == 0)
        return false;
    bool is_signed = c == JG_OP_SDIV || c == JG_OP_SREM;
    return !(is_signed && jg_sign_extend(t, b) == -1 &&
             jg_sign_extend(t, a) ==
                 jg_sign_extend(t, jg_truncate_bits(t, UINT64_C(1) << (8 * jg_type_size(t) - 1))));
}

static void check_int_binop(JgLlvm *l, JgOpcode c, JgType t)
{
    JgGraph *g = residual(jg_opcode_name(c), t, 2, (JgType[]){t, t});
    jg_set_return(g, 0, op2(g, 0, c, t, P(g, 0, 0), P(g, 0, 1)));
    compile(l, g);
    for (size_t i = 0; i < NSAMPLES; i++)
        for (size_t j = 0; j < NSAMPLES; j++) {
            uint64_t a = jg_truncate_bits(t, samples[i]), b = jg_truncate_bits(t, samples[j]);
            if (!defined_pair(c, t, a, b))
                continue;
            uint64_t args[2] = {a, b};
            uint64_t want = eval(g, args), got = jg_llvm_call(l, g, args);
            if (want != got)
                fail_msg("%s %s %#llx, %#llx: jit %#llx, eval %#llx", jg_opcode_name(c),
                         jg_type_name(t), (unsigned long long)a, (unsigned long long)b,
                         (unsigned long long)got, (unsigned long long)want);
        }
}

static void test_integer_arithmetic(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    for (int c = JG_OP_ADD; c <= JG_OP_ASHR; c++)
        for (size_t t = 0; t < sizeof int_types / sizeof int_types[0]; t++)
            check_int_binop(l, (JgOpcode)c, int_types[t]);
    jg_llvm_free(l);
}

/* Shift amounts are taken modulo the width, also for constants. */
static void test_shift_amounts(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    JgGraph *g = residual("shifts", JG_I64, 1, (JgType[]){JG_I8});
    JgVal x = P(g, 0, 0);
    JgVal a = op2(g, 0, JG_OP_SHL, JG_I8, x, jg_const(g, JG_I8, 9));
    JgVal b = op2(g, 0, JG_OP_LSHR, JG_I8, x, jg_const(g, JG_I8, 12));
    JgVal c = op2(g, 0, JG_OP_ASHR, JG_I8, x, jg_const(g, JG_I8, 0xff));
    JgVal s = op2(g, 0, JG_OP_SHL, JG_I64, op1(g, 0, JG_OP_ZEXT, JG_I64, a), k64(g, 16));
    s = op2(g, 0, JG_OP_OR, JG_I64, s,
            op2(g, 0, JG_OP_SHL, JG_I64, op1(g, 0, JG_OP_ZEXT, JG_I64, b), k64(g, 8)));
    s = op2(g, 0, JG_OP_OR, JG_I64, s, op1(g, 0, JG_OP_ZEXT, JG_I64, c));
    jg_set_return(g, 0, s);
    compile(l, g);
    for (uint64_t v = 0; v < 256; v += 17) {
        uint64_t args[1] = {v};
        assert_int_equal(jg_llvm_call(l, g, args), eval(g, args));
    }
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){0x81}), 0x0208ff);
    jg_llvm_free(l);
}

static void test_integer_compare(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    for (size_t ti = 0; ti < sizeof int_types / sizeof int_types[0]; ti++)
        for (int p = JG_EQ; p <= JG_SLE; p++) {
            JgType t = int_types[ti];
            JgGraph *g = residual("icmp", JG_I1, 2, (JgType[]){t, t});
            jg_set_return(g, 0, cmp(g, 0, JG_OP_ICMP, (JgPred)p, P(g, 0, 0), P(g, 0, 1)));
            compile(l, g);
            for (size_t i = 0; i < NSAMPLES; i += 2)
                for (size_t j = 0; j < NSAMPLES; j += 3) {
                    uint64_t args[2] = {jg_truncate_bits(t, samples[i]),
                                        jg_truncate_bits(t, samples[j])};
                    assert_int_equal(jg_llvm_call(l, g, args), eval(g, args));
                }
        }
    /* pointers compare as addresses */
    JgGraph *g = residual("pcmp", JG_I1, 2, (JgType[]){JG_PTR, JG_PTR});
    jg_set_return(g, 0, cmp(g, 0, JG_OP_ICMP, JG_ULT, P(g, 0, 0), P(g, 0, 1)));
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){0x1000, 0x2000}), 1);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){0x2000, 0x1000}), 0);
    jg_llvm_free(l);
}

static void test_casts(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    static const JgOpcode codes[] = {JG_OP_ZEXT, JG_OP_SEXT, JG_OP_TRUNC};
    for (size_t c = 0; c < 3; c++)
        for (size_t fi = 0; fi < 5; fi++)
            for (size_t ti = 0; ti < 5; ti++) {
                JgType from = int_types[fi], to = int_types[ti];
                if (codes[c] == JG_OP_TRUNC ? ti >= fi : ti <= fi)
                    continue;
                JgGraph *g = residual("cast", to, 1, (JgType[]){from});
                jg_set_return(g, 0, op1(g, 0, codes[c], to, P(g, 0, 0)));
                compile(l, g);
                for (size_t i = 0; i < NSAMPLES; i++) {
                    uint64_t args[1] = {jg_truncate_bits(from, samples[i])};
                    assert_int_equal(jg_llvm_call(l, g, args), eval(g, args));
                }
            }
    /* pointers and integers */
    JgGraph *g = residual("p2i", JG_I32, 1, (JgType[]){JG_PTR});
    JgVal p = op1(
        g, 0, JG_OP_INTTOPTR, JG_PTR,
        op2(g, 0, JG_OP_ADD, JG_I64, op1(g, 0, JG_OP_PTRTOINT, JG_I64, P(g, 0, 0)), k64(g, 0x10)));
    jg_set_return(g, 0, op1(g, 0, JG_OP_PTRTOINT, JG_I32, p));
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){UINT64_C(0x1234567800001000)}), 0x1010);
    jg_llvm_free(l);
}

static void test_select(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    JgGraph *g = residual("select", JG_I16, 3, (JgType[]){JG_I1, JG_I16, JG_I16});
    jg_set_return(
        g, 0,
        jg_emit(g, 0, JG_OP_SELECT, JG_I16, 3, (JgVal[]){P(g, 0, 0), P(g, 0, 1), P(g, 0, 2)}));
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){1, 7, 9}), 7);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){0, 7, 0xffff}), 0xffff);
    jg_llvm_free(l);
}

/* ---- floating point ------------------------------------------------------ */

static const double fsamples[] = {0.0, -0.0, 1.5, -2.25, 3.0, 1e10, -1e-3, 123456.789, INFINITY};

static bool is_nan_bits(JgType t, uint64_t b)
{
    if (t == JG_F32) {
        float f;
        uint32_t b32 = (uint32_t)b;
        memcpy(&f, &b32, sizeof f);
        return isnan(f);
    }
    return isnan(bits_f64(b));
}

static void test_float_arithmetic(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    const JgType ft[] = {JG_F32, JG_F64};
    for (size_t k = 0; k < 2; k++)
        for (int c = JG_OP_FADD; c <= JG_OP_FDIV; c++) {
            JgType t = ft[k];
            JgGraph *g = residual("farith", t, 2, (JgType[]){t, t});
            jg_set_return(g, 0, op2(g, 0, (JgOpcode)c, t, P(g, 0, 0), P(g, 0, 1)));
            compile(l, g);
            for (size_t i = 0; i < sizeof fsamples / sizeof *fsamples; i++)
                for (size_t j = 0; j < sizeof fsamples / sizeof *fsamples; j++) {
                    uint64_t args[2] = {fbits(t, fsamples[i]), fbits(t, fsamples[j])};
                    uint64_t want = eval(g, args), got = jg_llvm_call(l, g, args);
                    if (!(is_nan_bits(t, want) && is_nan_bits(t, got)))
                        assert_int_equal(got, want);
                }
        }
    JgGraph *g = residual("fneg", JG_F64, 1, (JgType[]){JG_F64});
    jg_set_return(g, 0, op1(g, 0, JG_OP_FNEG, JG_F64, P(g, 0, 0)));
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){f64_bits(1.5)}), f64_bits(-1.5));
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){f64_bits(0.0)}), f64_bits(-0.0));
    jg_llvm_free(l);
}

static void test_float_compare(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    const double v[] = {1.0, 2.0, -1.0, NAN};
    for (int p = JG_FOEQ; p <= JG_FFALSE; p++) {
        JgGraph *g = residual("fcmp", JG_I1, 2, (JgType[]){JG_F64, JG_F64});
        jg_set_return(g, 0, cmp(g, 0, JG_OP_FCMP, (JgPred)p, P(g, 0, 0), P(g, 0, 1)));
        compile(l, g);
        for (size_t i = 0; i < 4; i++)
            for (size_t j = 0; j < 4; j++) {
                uint64_t args[2] = {f64_bits(v[i]), f64_bits(v[j])};
                assert_int_equal(jg_llvm_call(l, g, args), eval(g, args));
            }
    }
    jg_llvm_free(l);
}

static void test_float_conversions(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    struct {
        JgOpcode code;
        JgType from, to;
        uint64_t in;
    } cases[] = {
        {JG_OP_SITOFP, JG_I32, JG_F64, 0xfffffff9u},
        {JG_OP_UITOFP, JG_I32, JG_F64, 0xfffffff9u},
        {JG_OP_SITOFP, JG_I64, JG_F32, (uint64_t)-5},
        {JG_OP_UITOFP, JG_I8, JG_F32, 200},
        {JG_OP_FPTOSI, JG_F64, JG_I32, f64_bits(-7.9)},
        {JG_OP_FPTOUI, JG_F64, JG_I64, f64_bits(1e18)},
        {JG_OP_FPTOSI, JG_F32, JG_I16, f32_bits(-300.5f)},
        {JG_OP_FPEXT, JG_F32, JG_F64, f32_bits(0.1f)},
        {JG_OP_FPTRUNC, JG_F64, JG_F32, f64_bits(0.1)},
        {JG_OP_BITCAST, JG_F64, JG_I64, f64_bits(2.5)},
        {JG_OP_BITCAST, JG_I64, JG_F64, 0x4004000000000000u},
        {JG_OP_BITCAST, JG_I32, JG_F32, 0x3f800000u},
        {JG_OP_BITCAST, JG_PTR, JG_I64, 0x1234},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        JgGraph *g = residual("fconv", cases[i].to, 1, (JgType[]){cases[i].from});
        jg_set_return(g, 0, op1(g, 0, cases[i].code, cases[i].to, P(g, 0, 0)));
        compile(l, g);
        uint64_t args[1] = {cases[i].in};
        assert_int_equal(jg_llvm_call(l, g, args), eval(g, args));
    }
    jg_llvm_free(l);
}

/* ---- control flow -------------------------------------------------------- */

/* sum(n) = 1 + ... + n: a loop in one method. */
static JgGraph *sum_graph(void)
{
    JgGraph *g = residual("sum", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t head = jg_block_new(g, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    uint32_t body = jg_block_new(g, 0, NULL);
    uint32_t done = jg_block_new(g, 0, NULL);
    JgVal n = P(g, 0, 0);
    go(g, 0, head, 3, (JgVal[]){k64(g, 1), k64(g, 0), n});
    JgVal i = P(g, head, 0), acc = P(g, head, 1), lim = P(g, head, 2);
    JgVal c = cmp(g, head, JG_OP_ICMP, JG_SLE, i, lim);
    jg_set_branch(g, head, c, jg_link(g, body, 0, NULL), jg_link(g, done, 0, NULL));
    /* body and done use the header's values: residual graphs allow it */
    JgVal acc2 = op2(g, body, JG_OP_ADD, JG_I64, acc, i);
    JgVal i2 = op2(g, body, JG_OP_ADD, JG_I64, i, k64(g, 1));
    go(g, body, head, 3, (JgVal[]){i2, acc2, lim});
    jg_set_return(g, done, acc);
    return g;
}

static void test_loop_every_opt_level(void **state)
{
    (void)state;
    for (int opt = 0; opt <= 3; opt++) {
        JgLlvm *l = jit(opt);
        JgGraph *g = sum_graph();
        compile(l, g);
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){100}), 5050);
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){0}), 0);
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){1000000}), UINT64_C(500000500000));
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){77}), eval(g, (uint64_t[]){77}));
        /* the primary is a plain function */
        int64_t (*fn)(int64_t) = (int64_t(*)(int64_t))(uintptr_t)jg_llvm_entry(l, g);
        assert_non_null(fn);
        assert_int_equal(fn(10), 55);
        const JgLlvmStats *s = jg_llvm_stats(l);
        assert_int_equal(s->methods_primary, 1);
        assert_int_equal(s->methods_secondary, 0);
        assert_true(s->code_bytes > 0);
        assert_true(s->llvm_instructions > 0);
        jg_llvm_free(l);
    }
}

/* Block indices out of dominance order: block 1 uses a value of block 2
 * and one of block 0. */
static void test_uses_across_blocks(void **state)
{
    (void)state;
    JgLlvm *l = jit(0);
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
    compile(l, g);
    for (uint64_t v = 0; v < 8; v++)
        assert_int_equal(jg_llvm_call(l, g, &v), eval(g, &v));
    jg_llvm_free(l);
}

/* A switch whose cases share targets with different arguments, and a
 * duplicate case value (the first wins). */
static void test_switch_shared_targets(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    JgGraph *g = residual("switch", JG_I32, 1, (JgType[]){JG_I32});
    uint32_t b1 = jg_block_new(g, 1, (JgType[]){JG_I32}), b2 = jg_block_new(g, 0, NULL);
    JgVal c10 = jg_const(g, JG_I32, 10), c20 = jg_const(g, JG_I32, 20);
    JgLink links[5] = {jg_link(g, b1, 1, (JgVal[]){jg_const(g, JG_I32, 0)}),
                       jg_link(g, b1, 1, &c10), jg_link(g, b1, 1, &c20), jg_link(g, b2, 0, NULL),
                       jg_link(g, b2, 0, NULL)};
    jg_set_switch(g, 0, P(g, 0, 0), 4, (int64_t[]){1, 2, 3, 4}, links);
    jg_set_return(g, b1, P(g, b1, 0));
    jg_set_return(g, b2, jg_const(g, JG_I32, 99));
    compile(l, g);
    for (uint64_t v = 0; v < 6; v++)
        assert_int_equal(jg_llvm_call(l, g, &v), eval(g, &v));
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){2}), 20);

    /* a branch whose two links go to one block */
    JgGraph *h = residual("branch2", JG_I64, 3, (JgType[]){JG_I1, JG_I64, JG_I64});
    uint32_t t = jg_block_new(h, 1, (JgType[]){JG_I64});
    jg_set_branch(h, 0, P(h, 0, 0), jg_link(h, t, 1, (JgVal[]){P(h, 0, 1)}),
                  jg_link(h, t, 1, (JgVal[]){P(h, 0, 2)}));
    jg_set_return(h, t, P(h, t, 0));
    compile(l, h);
    assert_int_equal(jg_llvm_call(l, h, (uint64_t[]){1, 5, 6}), 5);
    assert_int_equal(jg_llvm_call(l, h, (uint64_t[]){0, 5, 6}), 6);
    jg_llvm_free(l);
}

static void test_hints_and_unreachable(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    JgGraph *g = residual("hints", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t dead = jg_block_new(g, 0, NULL), live = jg_block_new(g, 0, NULL);
    JgVal x = op1(g, 0, JG_OP_PROMOTE, JG_I64, P(g, 0, 0));
    x = op1(g, 0, JG_OP_FORGET, JG_I64, op1(g, 0, JG_OP_CONCRETE, JG_I64, x));
    jg_emit(g, 0, JG_OP_MERGE_POINT, JG_VOID, 0, NULL);
    jg_set_branch(g, 0, cmp(g, 0, JG_OP_ICMP, JG_EQ, x, k64(g, 12345)), jg_link(g, dead, 0, NULL),
                  jg_link(g, live, 0, NULL));
    jg_set_unreachable(g, dead);
    jg_set_return(g, live, op2(g, live, JG_OP_ADD, JG_I64, x, x));
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){21}), 42);
    jg_llvm_free(l);
}

/* ---- memory -------------------------------------------------------------- */

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

static JgVal field_addr(JgGraph *g, uint32_t b, JgVal base, size_t i)
{
    return op2(g, b, JG_OP_PTRADD, JG_PTR, base, k64(g, field_list[i].offset));
}

/* copy(src, dst): every field loaded with its type and stored. */
static void test_loads_and_stores(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    JgGraph *g = residual("copy", JG_VOID, 2, (JgType[]){JG_PTR, JG_PTR});
    for (size_t i = 0; i < NFIELDS; i++) {
        JgVal v = op1(g, 0, JG_OP_LOAD, field_list[i].type, field_addr(g, 0, P(g, 0, 0), i));
        op2(g, 0, JG_OP_STORE, JG_VOID, field_addr(g, 0, P(g, 0, 1), i), v);
    }
    jg_set_return(g, 0, 0);
    compile(l, g);
    Fields src = {.z = 3,
                  .b = 0xfe,
                  .h = 0xbeef,
                  .w = 0xdeadbeef,
                  .q = UINT64_MAX - 1,
                  .p = &src,
                  .f = -1.25f,
                  .d = 6.5e100};
    Fields dst;
    memset(&dst, 0x55, sizeof dst);
    jg_llvm_call(l, g, (uint64_t[]){addr(&src), addr(&dst)});
    assert_int_equal(dst.z, 1); /* an i1 in memory: the low bit of the byte */
    assert_int_equal(dst.b, 0xfe);
    assert_int_equal(dst.h, 0xbeef);
    assert_int_equal(dst.w, 0xdeadbeef);
    assert_int_equal(dst.q, UINT64_MAX - 1);
    assert_ptr_equal(dst.p, &src);
    assert_true(dst.f == -1.25f);
    assert_true(dst.d == 6.5e100);
    jg_llvm_free(l);
}

static void test_alloca_zero_filled(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    /* x -> alloca 64; store x at 8; return p[0] + p[8] + p[56] */
    JgGraph *g = residual("alloca", JG_I64, 1, (JgType[]){JG_I64});
    JgVal p = jg_emit(g, 0, JG_OP_ALLOCA, JG_PTR, 0, NULL);
    jg_last_op(g, 0)->imm = 64;
    op2(g, 0, JG_OP_STORE, JG_VOID, op2(g, 0, JG_OP_PTRADD, JG_PTR, p, k64(g, 8)), P(g, 0, 0));
    JgVal a = op1(g, 0, JG_OP_LOAD, JG_I64, p);
    JgVal b = op1(g, 0, JG_OP_LOAD, JG_I64, op2(g, 0, JG_OP_PTRADD, JG_PTR, p, k64(g, 8)));
    JgVal c = op1(g, 0, JG_OP_LOAD, JG_I64, op2(g, 0, JG_OP_PTRADD, JG_PTR, p, k64(g, 56)));
    jg_set_return(g, 0, op2(g, 0, JG_OP_ADD, JG_I64, a, op2(g, 0, JG_OP_ADD, JG_I64, b, c)));
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){77}), 77);

    /* an ALLOCA inside a loop is zero again on every iteration */
    JgGraph *h = residual("alloca_loop", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t head = jg_block_new(h, 2, (JgType[]){JG_I64, JG_I64});
    uint32_t body = jg_block_new(h, 0, NULL), done = jg_block_new(h, 0, NULL);
    go(h, 0, head, 2, (JgVal[]){k64(h, 0), k64(h, 0)});
    JgVal i = P(h, head, 0), acc = P(h, head, 1);
    jg_set_branch(h, head, cmp(h, head, JG_OP_ICMP, JG_ULT, i, P(h, 0, 0)),
                  jg_link(h, body, 0, NULL), jg_link(h, done, 0, NULL));
    JgVal q = jg_emit(h, body, JG_OP_ALLOCA, JG_PTR, 0, NULL);
    jg_last_op(h, body)->imm = 16;
    JgVal old = op1(h, body, JG_OP_LOAD, JG_I64, q);
    JgVal i2 = op2(h, body, JG_OP_ADD, JG_I64, i, k64(h, 1));
    op2(h, body, JG_OP_STORE, JG_VOID, q, i2);
    JgVal seen = op1(h, body, JG_OP_LOAD, JG_I64, q);
    JgVal acc2 = op2(h, body, JG_OP_ADD, JG_I64, acc, op2(h, body, JG_OP_ADD, JG_I64, old, seen));
    go(h, body, head, 2, (JgVal[]){i2, acc2});
    jg_set_return(h, done, acc);
    compile(l, h);
    assert_int_equal(jg_llvm_call(l, h, (uint64_t[]){10}), 55);
    assert_int_equal(eval(h, (uint64_t[]){10}), 55);
    jg_llvm_free(l);
}

static void test_memcpy_memset(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    /* memmove(buf + 1, buf, 5); memset(buf + 6, 0x141 (i32), len (i32)) */
    JgGraph *g = residual("mem", JG_VOID, 2, (JgType[]){JG_PTR, JG_I32});
    JgVal buf = P(g, 0, 0);
    jg_emit(g, 0, JG_OP_MEMCPY, JG_VOID, 3,
            (JgVal[]){op2(g, 0, JG_OP_PTRADD, JG_PTR, buf, k64(g, 1)), buf, k64(g, 5)});
    jg_emit(g, 0, JG_OP_MEMSET, JG_VOID, 3,
            (JgVal[]){op2(g, 0, JG_OP_PTRADD, JG_PTR, buf, k64(g, 6)), jg_const(g, JG_I32, 0x141),
                      P(g, 0, 1)});
    jg_set_return(g, 0, 0);
    compile(l, g);
    char s[16] = "abcdefghijkl";
    jg_llvm_call(l, g, (uint64_t[]){addr(s), 3});
    assert_string_equal(s, "aabcdeAAAjkl");
    char t[16] = "abcdefghijkl";
    eval(g, (uint64_t[]){addr(t), 3});
    assert_string_equal(s, t);
    jg_llvm_free(l);
}

/* ---- calls --------------------------------------------------------------- */

static const JgType mixed_types[] = {JG_I8, JG_I16, JG_I32, JG_I64, JG_PTR, JG_F64, JG_I1, JG_F32};

/* Allocations from a free list the options describe, in LLVM's code
 * (free_list_fixture.h), unoptimized and at O2. */
static void fl_compile(void *l, JgGraph *g)
{
    compile(l, g);
}

static uint64_t fl_run(void *l, JgGraph *g, const uint64_t *args)
{
    return jg_llvm_call(l, g, args);
}

static void test_free_list_allocation(void **state)
{
    (void)state;
    for (int opt = 0; opt <= 2; opt += 2) {
        JgLlvm *l = jit_with(
            (JgLlvmOptions){.opt_level = opt, .allocators = fl_allocators, .nallocators = 2});
        fl_check(l, fl_compile, fl_run);
        jg_llvm_free(l);
    }
}

static void test_native_calls(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    /* labs(x) */
    JgGraph *g = residual("labs", JG_I64, 1, (JgType[]){JG_I64});
    jg_set_return(g, 0,
                  jg_emit(g, 0, JG_OP_CALL, JG_I64, 2,
                          (JgVal[]){jg_const_symbol(g, FN(labs), "labs"), P(g, 0, 0)}));
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){(uint64_t)-42}), 42);

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
        compile(l, h);
        uint64_t in[9] = {(uint8_t)-3,    (uint16_t)-2,   7, (uint64_t)-1,
                          addr("four"),   f64_bits(0.25), 1, f32_bits(2.0f),
                          addr(FN(mixed))};
        double want = mixed(-3, -2, 7, -1, "four", 0.25, true, 2.0f);
        assert_true(bits_f64(jg_llvm_call(l, h, in)) == want);
        assert_true(bits_f64(eval(h, in)) == want);
    }
    jg_llvm_free(l);
}

static void test_variadic_call(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    JgGraph *decl = jg_graph_new(&arena, "snprintf", JG_I32, 3, (JgType[]){JG_PTR, JG_I64, JG_PTR});
    decl->flags |= JG_FLAG_EXTERNAL;
    decl->variadic = true;
    decl->native = FN(snprintf);
    JgGraph *g = residual("printf", JG_I32, 3, (JgType[]){JG_PTR, JG_I32, JG_F64});
    JgVal args[7] = {jg_const_symbol(g, FN(snprintf), "snprintf"),     P(g, 0, 0), k64(g, 32),
                     jg_const_symbol(g, (void *)"%d|%.2f|%s", ".str"), P(g, 0, 1), P(g, 0, 2),
                     jg_const_symbol(g, (void *)"end", ".str2")};
    jg_set_return(g, 0, jg_emit(g, 0, JG_OP_CALL, JG_I32, 7, args));
    jg_last_op(g, 0)->callee = decl;
    compile(l, g);
    char buf[32];
    jg_llvm_call(l, g, (uint64_t[]){addr(buf), (uint32_t)-12, f64_bits(3.14159)});
    assert_string_equal(buf, "-12|3.14|end");
    jg_llvm_free(l);
}

/* Portal calls go through options.portal_call with widened arguments. */
typedef struct PortalLog {
    int calls;
    uint64_t args[4];
    JgPortalSite *site;
    JgPortalSite last_site; /* a copy: an evaluated method's site lives for one call */
} PortalLog;

static uint64_t portal_call(void *ctx, const uint64_t *args, JgPortalSite *site)
{
    PortalLog *log = ctx;
    log->site = site;
    if (site)
        log->last_site = *site;
    log->calls++;
    memcpy(log->args, args, sizeof(uint64_t) * 3);
    return args[0] * 2 + args[2];
}

static void test_portal_call(void **state)
{
    (void)state;
    PortalLog log = {0};
    JgLlvm *l =
        jit_with((JgLlvmOptions){.opt_level = 2, .portal_call = portal_call, .portal_ctx = &log});
    JgGraph *portal = jg_graph_new(&arena, "portal", JG_I32, 3, (JgType[]){JG_I32, JG_PTR, JG_I8});
    portal->flags |= JG_FLAG_PORTAL;
    JgGraph *g = residual("calls_portal", JG_I32, 2, (JgType[]){JG_I32, JG_PTR});
    JgVal r = jg_emit(g, 0, JG_OP_CALL, JG_I32, 4,
                      (JgVal[]){jg_const_symbol(g, FN(portal_call), "portal"), P(g, 0, 0),
                                P(g, 0, 1), jg_const(g, JG_I8, 0xff)});
    jg_last_op(g, 0)->callee = portal;
    jg_set_return(g, 0, op2(g, 0, JG_OP_ADD, JG_I32, r, jg_const(g, JG_I32, 1)));
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){0x80000000u, 0x1234}), 0x100u);
    assert_int_equal(log.calls, 1);
    assert_int_equal(log.args[0], 0x80000000u); /* zero-extended */
    assert_int_equal(log.args[1], 0x1234);
    assert_int_equal(log.args[2], 0xff);
    /* the site: only the third argument is a constant */
    assert_non_null(log.site);
    assert_int_equal(log.site->constant, 4);
    assert_null(log.site->host);
    jg_llvm_free(l);
}

/* With the portal's red parameters known (here the first and third), a
 * site the host bound to a callee's primary method calls it directly with
 * those arguments; an unbound one goes through the host. */
static void test_portal_call_direct(void **state)
{
    (void)state;
    PortalLog log = {0};
    static const uint32_t red[2] = {0, 2};
    JgLlvm *l = jit_with((JgLlvmOptions){.opt_level = 2,
                                         .portal_call = portal_call,
                                         .portal_ctx = &log,
                                         .portal_red_index = red,
                                         .portal_nred = 2});
    JgGraph *portal = jg_graph_new(&arena, "portal", JG_I64, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    portal->flags |= JG_FLAG_PORTAL;
    /* the callee: a residual graph of the red parameters, a - b */
    JgGraph *callee = residual("callee", JG_I64, 2, (JgType[]){JG_I64, JG_I64});
    jg_set_return(callee, 0, op2(callee, 0, JG_OP_SUB, JG_I64, P(callee, 0, 0), P(callee, 0, 1)));
    compile(l, callee);
    /* the caller: portal(x, 7, y) + 1 */
    JgGraph *g = residual("calls_direct", JG_I64, 2, (JgType[]){JG_I64, JG_I64});
    JgVal r = jg_emit(g, 0, JG_OP_CALL, JG_I64, 4,
                      (JgVal[]){jg_const_symbol(g, FN(portal_call), "portal"), P(g, 0, 0),
                                jg_const(g, JG_I64, 7), P(g, 0, 1)});
    jg_last_op(g, 0)->callee = portal;
    jg_set_return(g, 0, op2(g, 0, JG_OP_ADD, JG_I64, r, jg_const(g, JG_I64, 1)));
    compile(l, g);
    /* unbound: the host's answer, x * 2 + y */
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){10, 3}), 24);
    assert_int_equal(log.calls, 1);
    assert_non_null(log.site);
    /* bound: the callee's x - y, the host not called */
    log.site->direct = jg_llvm_entry(l, callee);
    assert_non_null(log.site->direct);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){10, 3}), 8);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){5, 9}), (uint64_t)-3);
    assert_int_equal(log.calls, 1);

    /* a portal without a result: the callee stores a - b through a pointer */
    JgGraph *vportal = jg_graph_new(&arena, "vportal", JG_VOID, 3, (JgType[]){JG_PTR, JG_I64, JG_I64});
    vportal->flags |= JG_FLAG_PORTAL;
    JgGraph *vcallee = residual("vcallee", JG_VOID, 2, (JgType[]){JG_PTR, JG_I64});
    jg_emit(vcallee, 0, JG_OP_STORE, JG_VOID, 2,
            (JgVal[]){P(vcallee, 0, 0), op2(vcallee, 0, JG_OP_SUB, JG_I64, P(vcallee, 0, 1),
                                             jg_const(vcallee, JG_I64, 1))});
    jg_set_return(vcallee, 0, 0);
    compile(l, vcallee);
    JgGraph *v = residual("calls_void", JG_I64, 1, (JgType[]){JG_PTR});
    jg_emit(v, 0, JG_OP_CALL, JG_VOID, 4,
            (JgVal[]){jg_const_symbol(v, FN(portal_call), "vportal"), P(v, 0, 0),
                      jg_const(v, JG_I64, 7), jg_const(v, JG_I64, 50)});
    jg_last_op(v, 0)->callee = vportal;
    jg_set_return(v, 0, op1(v, 0, JG_OP_LOAD, JG_I64, P(v, 0, 0)));
    compile(l, v);
    int64_t cell = 0;
    jg_llvm_call(l, v, (uint64_t[]){addr(&cell)}); /* through the host: nothing stored */
    assert_int_equal(log.calls, 2);
    log.site->direct = jg_llvm_entry(l, vcallee);
    assert_int_equal(jg_llvm_call(l, v, (uint64_t[]){addr(&cell)}), 49);
    assert_int_equal(cell, 49);
    assert_int_equal(log.calls, 2);
    jg_llvm_free(l);
}

/* ---- methods: the paper's Fig. 10 -------------------------------------- */

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
    return g;
}

static void check_fig10(int opt)
{
    Emu e = {0};
    JgLlvm *l = jit(opt);
    JgGraph *g = fig10_graph(&e, 2);
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){0}), 0);
    assert_int_equal(e.calls, 0);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){1}), 10);
    assert_int_equal(e.calls, 1);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){10}), 150);
    assert_int_equal(e.calls, 2);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){1001}), 15010);
    assert_int_equal(e.calls, 2);
    assert_int_equal(eval(g, (uint64_t[]){1001}), 15010);
    const JgLlvmStats *s = jg_llvm_stats(l);
    assert_int_equal(s->methods_primary, 1);
    assert_int_equal(s->methods_secondary, 2);
    assert_int_equal(s->flexswitch_misses, 2);
    assert_int_equal(s->flexswitch_cases, 2);
    /* each iteration: flexswitch -> secondary, secondary -> primary */
    assert_true(s->external_jumps >= 2 * 1001);
    jg_llvm_free(l);
}

static void test_fig10_three_methods(void **state)
{
    (void)state;
    for (int opt = 0; opt <= 3; opt++)
        check_fig10(opt);
}

/* A case may target a block compiled before (no new blocks): value 1
 * reuses the secondary made for value 0. */
static uint32_t reuse_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    if (e->join)
        return e->join;
    e->join = fig10_case(e, fs, value);
    return e->join;
}

static void test_case_reuses_compiled_block(void **state)
{
    (void)state;
    Emu e = {0};
    JgLlvm *l = jit(2);
    JgGraph *g = fig10_graph(&e, 2);
    e.build = reuse_case;
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){7}), 70);
    assert_int_equal(e.calls, 2);
    assert_int_equal(jg_llvm_stats(l)->methods_secondary, 1);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){7}), 70);
    assert_int_equal(e.calls, 2);
    jg_llvm_free(l);
}

/* ---- a flexswitch growing to 50 cases ------------------------------------ */

static JgGraph *many_graph(Emu *e)
{
    JgGraph *g = residual("many", JG_I64, 1, (JgType[]){JG_I64});
    e->g = g;
    e->build = many_case;
    uint32_t head = jg_block_new(g, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    g->blocks.items[head].flags |= JG_BLOCK_ENTRY;
    uint32_t body = jg_block_new(g, 0, NULL), done = jg_block_new(g, 0, NULL);
    go(g, 0, head, 3, (JgVal[]){k64(g, 0), k64(g, 0), P(g, 0, 0)});
    JgVal i = P(g, head, 0), acc = P(g, head, 1), n = P(g, head, 2);
    jg_set_branch(g, head, cmp(g, head, JG_OP_ICMP, JG_ULT, i, n), jg_link(g, body, 0, NULL),
                  jg_link(g, done, 0, NULL));
    JgVal x = op2(g, body, JG_OP_UREM, JG_I64, i, k64(g, 50));
    flex(e, body, x, 3, (JgVal[]){i, acc, n});
    jg_set_return(g, done, acc);
    return g;
}

static void test_flexswitch_many_cases(void **state)
{
    (void)state;
    Emu e = {0};
    JgLlvm *l = jit(1);
    JgGraph *g = many_graph(&e);
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){200}), 4 * 40425);
    assert_int_equal(e.calls, 50);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){1000}), 20 * 40425);
    assert_int_equal(e.calls, 50);
    assert_int_equal(eval(g, (uint64_t[]){1000}), 20 * 40425);
    const JgLlvmStats *s = jg_llvm_stats(l);
    assert_int_equal(s->methods_secondary, 50);
    assert_int_equal(s->flexswitch_misses, 50);
    assert_int_equal(s->flexswitch_cases, 50);
    jg_llvm_free(l);
}

/* ---- every type through InputArgs ---------------------------------------- */

/* Primary (a i1, b i8, c i16, d i32, e i64, p ptr, f f64, h f32, sel i64):
 * flexswitch on sel; the case (a secondary) flexswitches on d; that case
 * (another secondary) stores every value into the Fields at p. Values
 * cross two method boundaries. */
static const JgType every_types[] = {JG_I1, JG_I8, JG_I16, JG_I32, JG_I64, JG_PTR, JG_F64, JG_F32};

static uint32_t every_store_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    (void)value;
    JgGraph *g = e->g;
    uint32_t nb = case_block(g, fs);
    JgVal base = P(g, nb, 5);
    static const size_t where[8] = {0, 1, 2, 3, 4, 5, 7, 6}; /* field_list index per param */
    for (uint32_t i = 0; i < 8; i++)
        op2(g, nb, JG_OP_STORE, JG_VOID, field_addr(g, nb, base, where[i]), P(g, nb, i));
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

/* Runs the graph on `l`: the values arrive intact; returns its session's
 * compiled secondaries. */
static uint64_t check_every_type(JgLlvm *l, const char *name)
{
    Emu e = {0};
    JgType types[9];
    memcpy(types, every_types, sizeof every_types);
    types[8] = JG_I64;
    JgGraph *g = residual(name, JG_I64, 9, types);
    e.g = g;
    e.build = every_first_case;
    JgVal live[8];
    for (uint32_t i = 0; i < 8; i++)
        live[i] = P(g, 0, i);
    flex(&e, 0, P(g, 0, 8), 8, live);
    compile(l, g);
    Fields out;
    memset(&out, 0, sizeof out);
    uint64_t in[9] = {
        1,          0xab,           0xcdef,         0x89abcdef, UINT64_C(0xfedcba9876543210),
        addr(&out), f64_bits(-0.1), f32_bits(1.5f), 3};
    assert_int_equal(jg_llvm_call(l, g, in), UINT64_C(0xfedcba9876543211));
    assert_int_equal(e.calls, 2);
    assert_int_equal(out.z, 1);
    assert_int_equal(out.b, 0xab);
    assert_int_equal(out.h, 0xcdef);
    assert_int_equal(out.w, 0x89abcdef);
    assert_int_equal(out.q, UINT64_C(0xfedcba9876543210));
    assert_ptr_equal(out.p, &out);
    assert_true(out.d == -0.1);
    assert_true(out.f == 1.5f);
    return jg_llvm_stats(l)->methods_secondary;
}

static void test_every_type_across_methods(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    assert_int_equal(check_every_type(l, "every"), 2);
    jg_llvm_free(l);
}

/* Results of every type, returned by a secondary of `l`. */
static void check_results_of_every_type(JgLlvm *l)
{
    const JgType types[] = {JG_I1, JG_I8, JG_I16, JG_I32, JG_I64, JG_PTR, JG_F32, JG_F64};
    const uint64_t in[] = {1,          0xfe,           0x8001,          0xfffffffe,
                           UINT64_MAX, 0x7fff12345678, f32_bits(-2.5f), f64_bits(1e300)};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        Emu e = {0};
        JgGraph *g = residual("ret", types[i], 2, (JgType[]){types[i], JG_I32});
        e.g = g;
        e.build = return_live_case;
        flex(&e, 0, P(g, 0, 1), 1, (JgVal[]){P(g, 0, 0)});
        compile(l, g);
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){in[i], 5}), in[i]);
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){in[i], 5}), in[i]);
        assert_int_equal(e.calls, 1);
    }
}

static void test_results_from_secondaries(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    check_results_of_every_type(l);
    /* a void graph */
    Emu e = {0};
    JgGraph *g = residual("void", JG_VOID, 2, (JgType[]){JG_I64, JG_I32});
    e.g = g;
    e.build = return_live_case;
    flex(&e, 0, P(g, 0, 1), 1, (JgVal[]){P(g, 0, 0)});
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){1, 2}), 0);
    jg_llvm_free(l);
}

/* An ALLOCA of a secondary whose address reaches the next secondary: its
 * memory must outlive the method that made it. */
static uint32_t alloca_reader_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    (void)value;
    JgGraph *g = e->g;
    uint32_t nb = case_block(g, fs);
    /* a frame of our own, scribbled over */
    JgVal mine = jg_emit(g, nb, JG_OP_ALLOCA, JG_PTR, 0, NULL);
    jg_last_op(g, nb)->imm = 512;
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
    JgVal p = jg_emit(g, nb, JG_OP_ALLOCA, JG_PTR, 0, NULL);
    jg_last_op(g, nb)->imm = 16;
    op2(g, nb, JG_OP_STORE, JG_VOID, p, k64(g, 4242));
    e->build = alloca_reader_case;
    JgVal sel = op2(g, nb, JG_OP_ADD, JG_I64, P(g, nb, 0), k64(g, 1));
    flex(e, nb, sel, 1, &p);
    return nb;
}

static void test_alloca_outlives_secondary(void **state)
{
    (void)state;
    for (int opt = 0; opt <= 2; opt += 2) {
        Emu e = {0};
        JgLlvm *l = jit(opt);
        JgGraph *g = residual("alloca2", JG_I64, 1, (JgType[]){JG_I64});
        e.g = g;
        e.build = alloca_maker_case;
        flex(&e, 0, P(g, 0, 0), 1, (JgVal[]){P(g, 0, 0)});
        compile(l, g);
        /* 0xaa... & 1 == 0: the reader adds nothing of its own */
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){7}), 4242);
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){7}), 4242);
        jg_llvm_free(l);
    }
}

/* Twelve secondaries in a row each keep an ALLOCA's address alive for the
 * next ones: the activation's table of areas grows past its first size,
 * and earlier areas stay where they are. */
enum { CHAIN = 12 };

static uint32_t chain_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    (void)value;
    JgGraph *g = e->g;
    uint32_t nb = case_block(g, fs);
    uint32_t level = fs->nlive - 1; /* pointers so far, then the selector */
    JgVal sel = P(g, nb, level);
    if (level == CHAIN) {
        JgVal sum = k64(g, 0);
        for (uint32_t i = 0; i < level; i++)
            sum = op2(g, nb, JG_OP_ADD, JG_I64, sum, op1(g, nb, JG_OP_LOAD, JG_I64, P(g, nb, i)));
        jg_set_return(g, nb, sum);
        return nb;
    }
    JgVal live[CHAIN + 2];
    for (uint32_t i = 0; i < level; i++)
        live[i] = P(g, nb, i);
    JgVal p = jg_emit(g, nb, JG_OP_ALLOCA, JG_PTR, 0, NULL);
    jg_last_op(g, nb)->imm = 24;
    op2(g, nb, JG_OP_STORE, JG_VOID, p, k64(g, 100 * (uint64_t)level));
    live[level] = p;
    live[level + 1] = op2(g, nb, JG_OP_ADD, JG_I64, sel, k64(g, 1));
    flex(e, nb, live[level + 1], level + 2, live);
    return nb;
}

static void test_alloca_areas_grow(void **state)
{
    (void)state;
    Emu e = {0};
    JgLlvm *l = jit(1);
    JgGraph *g = residual("chain", JG_I64, 1, (JgType[]){JG_I64});
    e.g = g;
    e.build = chain_case;
    flex(&e, 0, P(g, 0, 0), 1, (JgVal[]){P(g, 0, 0)});
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){5}), 6600);
    assert_int_equal(e.calls, CHAIN + 1);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){5}), 6600);
    assert_int_equal(e.calls, CHAIN + 1);
    jg_llvm_free(l);
}

/* ---- evaluated secondaries (lazy_threshold) ------------------------------- */

enum { NEVER_HOT = 1u << 30 };

static JgLlvm *jit_lazy(int opt, uint32_t threshold)
{
    return jit_with((JgLlvmOptions){.opt_level = opt, .lazy_threshold = threshold});
}

/* Fig. 10 with both cases evaluated: the same results, no secondary
 * compiled; with a low threshold both get compiled once hot. */
static void test_lazy_fig10(void **state)
{
    (void)state;
    for (int hot = 0; hot <= 1; hot++) {
        Emu e = {0};
        JgLlvm *l = jit_lazy(2, hot ? 200 : NEVER_HOT);
        JgGraph *g = fig10_graph(&e, 2);
        compile(l, g);
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){10}), 150);
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){1001}), 15010);
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){1001}), 15010);
        assert_int_equal(e.calls, 2);
        const JgLlvmStats *s = jg_llvm_stats(l);
        assert_int_equal(s->methods_evaluated, 2);
        assert_int_equal(s->methods_secondary, hot ? 2 : 0);
        if (hot)
            assert_true(s->evaluated_blocks < 2 * 200);
        else
            assert_int_equal(s->evaluated_blocks, 10 + 2 * 1001);
        jg_llvm_free(l);
    }
}

/* The loop sum of i for i < n after block `from`, which passes n (its
 * parameter 0): its header. */
static uint32_t sum_loop_after(JgGraph *g, uint32_t from)
{
    uint32_t head = jg_block_new(g, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    uint32_t body = jg_block_new(g, 0, NULL), done = jg_block_new(g, 0, NULL);
    go(g, from, head, 3, (JgVal[]){P(g, from, 0), k64(g, 0), k64(g, 0)});
    JgVal n = P(g, head, 0), i = P(g, head, 1), acc = P(g, head, 2);
    jg_set_branch(g, head, cmp(g, head, JG_OP_ICMP, JG_ULT, i, n), jg_link(g, body, 0, NULL),
                  jg_link(g, done, 0, NULL));
    JgVal acc2 = op2(g, body, JG_OP_ADD, JG_I64, acc, i);
    JgVal i2 = op2(g, body, JG_OP_ADD, JG_I64, i, k64(g, 1));
    go(g, body, head, 3, (JgVal[]){n, i2, acc2});
    jg_set_return(g, done, acc);
    return head;
}

/* A case whose secondary holds a loop: sum of i for i < n, with a
 * pre-header and a header the case enters by its own code (not an entry
 * block). */
static uint32_t loop_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    (void)value;
    JgGraph *g = e->g;
    uint32_t nb = case_block(g, fs);
    uint32_t pre = jg_block_new(g, 1, (JgType[]){JG_I64});
    go(g, nb, pre, 1, (JgVal[]){P(g, nb, 0)});
    e->join = sum_loop_after(g, pre);
    return nb;
}

/* The loop gets hot inside the evaluated method: it is compiled, and the
 * run goes on in compiled code entered at the loop's header. */
static void test_lazy_loop_gets_hot(void **state)
{
    (void)state;
    for (int opt = 0; opt <= 2; opt += 2) {
        Emu e = {.build = loop_case};
        JgLlvm *l = jit_lazy(opt, 300);
        JgGraph *g = residual("hotloop", JG_I64, 2, (JgType[]){JG_I64, JG_I64});
        e.g = g;
        flex(&e, 0, P(g, 0, 1), 1, (JgVal[]){P(g, 0, 0)});
        compile(l, g);
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){10, 3}), 45);
        const JgLlvmStats *s = jg_llvm_stats(l);
        assert_int_equal(s->methods_secondary, 0);
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){100000, 3}), UINT64_C(4999950000));
        assert_int_equal(s->methods_secondary, 1);
        /* it left the evaluator within an iteration of getting hot */
        assert_true(s->evaluated_blocks < 300 + 4);
        assert_true(g->blocks.items[e.join].flags == 0); /* the graph is unchanged */
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){100001, 3}), UINT64_C(5000050000));
        assert_int_equal(eval(g, (uint64_t[]){100001, 3}), UINT64_C(5000050000));
        jg_llvm_free(l);
    }
}

/* A graph another tier grew (here: the evaluator) is compiled in the same
 * steps (jg_llvm_compile_to), and a running loop goes on in LLVM's code from
 * its header (jg_llvm_call_at), as the baseline tier hands loops over. */
static void test_start_in_the_middle(void **state)
{
    (void)state;
    for (int opt = 0; opt <= 2; opt += 2) {
        Emu e = {.build = loop_case};
        JgLlvm *l = jit(opt);
        JgGraph *g = residual("startat", JG_I64, 2, (JgType[]){JG_I64, JG_I64});
        e.g = g;
        flex(&e, 0, P(g, 0, 1), 1, (JgVal[]){P(g, 0, 0)});
        uint32_t first = g->blocks.count;
        assert_int_equal(eval(g, (uint64_t[]){10, 3}), 45); /* adds the case */
        g->blocks.items[e.join].flags |= JG_BLOCK_ENTRY;    /* a merge point */
        char err[256];
        assert_false(jg_llvm_compile_to(l, g, g->blocks.count + 1, err, sizeof err));
        assert_non_null(strstr(err, "compiling up to block"));
        assert_true(jg_llvm_compile_to(l, g, first, err, sizeof err));
        assert_false(jg_llvm_can_start_at(l, g, e.join)); /* not compiled yet */
        assert_true(jg_llvm_compile(l, g, err, sizeof err));
        const JgLlvmStats *s = jg_llvm_stats(l);
        assert_int_equal(s->methods_primary, 1);
        assert_int_equal(s->methods_secondary, 1);
        assert_true(jg_llvm_can_start_at(l, g, e.join));
        assert_false(jg_llvm_can_start_at(l, g, e.join + 1)); /* the body: no entry */
        /* n = 10, i = 4, acc = 0 + 1 + 2 + 3 */
        assert_int_equal(jg_llvm_call_at(l, g, e.join, (uint64_t[]){10, 4, 6}), 45);
        assert_int_equal(jg_llvm_call_at(l, g, e.join, (uint64_t[]){5, 5, 7}), 7);
        /* the start is taken once: a normal call runs from the entry */
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){100, 3}), 4950);
        jg_llvm_free(l);
    }
}

/* A host that replays a graph another tier ran sets the lazy threshold to
 * 0 for the secondaries it knows are hot: they are compiled, not
 * evaluated; the session's threshold applies again afterwards. */
static void test_set_lazy_threshold(void **state)
{
    (void)state;
    for (int now = 0; now <= 1; now++) {
        Emu e = {.build = loop_case};
        JgLlvm *l = jit_lazy(2, NEVER_HOT);
        JgGraph *g = residual(now ? "lazy_now" : "lazy_later", JG_I64, 2,
                              (JgType[]){JG_I64, JG_I64});
        e.g = g;
        flex(&e, 0, P(g, 0, 1), 1, (JgVal[]){P(g, 0, 0)});
        uint32_t first = g->blocks.count;
        assert_int_equal(eval(g, (uint64_t[]){10, 3}), 45); /* adds the case */
        char err[256];
        assert_true(jg_llvm_compile_to(l, g, first, err, sizeof err));
        if (now)
            jg_llvm_set_lazy_threshold(l, 0);
        assert_true(jg_llvm_compile(l, g, err, sizeof err));
        const JgLlvmStats *s = jg_llvm_stats(l);
        assert_int_equal(s->methods_secondary, now ? 1 : 0);
        assert_int_equal(s->methods_evaluated, now ? 0 : 1);
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){100, 3}), 4950);
        jg_llvm_free(l);
    }
}

/* A loop without a flexswitch, sum of i for i < n, its header a merge
 * point: the block to start at. */
static JgGraph *plain_loop(const char *name, uint32_t *head_out)
{
    JgGraph *g = residual(name, JG_I64, 1, (JgType[]){JG_I64});
    uint32_t head = sum_loop_after(g, 0);
    g->blocks.items[head].flags |= JG_BLOCK_ENTRY;
    *head_out = head;
    return g;
}

/* A graph without a flexswitch can be started at its loop header where
 * the host asks for it (JgLlvmOptions.startable, the tiered engine), and
 * only there; one without a merge point past its entry stays a plain
 * function either way. */
static void test_start_without_flexswitch(void **state)
{
    (void)state;
    for (int startable = 0; startable <= 1; startable++) {
        JgLlvm *l = jit_with((JgLlvmOptions){.opt_level = 2, .startable = startable});
        uint32_t head;
        JgGraph *g = plain_loop(startable ? "plain_s" : "plain", &head);
        compile(l, g);
        assert_int_equal(jg_llvm_can_start_at(l, g, head), startable);
        assert_false(jg_llvm_can_start_at(l, g, head + 1)); /* the body */
        if (startable) {
            /* n = 10, i = 4, acc = 0 + 1 + 2 + 3 */
            assert_int_equal(jg_llvm_call_at(l, g, head, (uint64_t[]){10, 4, 6}), 45);
            assert_int_equal(jg_llvm_call_at(l, g, head, (uint64_t[]){3, 7, 9}), 9);
        }
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){100}), 4950);
        JgGraph *straight =
            residual(startable ? "straight_s" : "straight", JG_I64, 1, (JgType[]){JG_I64});
        jg_set_return(straight, 0,
                      op2(straight, 0, JG_OP_ADD, JG_I64, P(straight, 0, 0), k64(straight, 1)));
        compile(l, straight);
        assert_false(jg_llvm_can_start_at(l, straight, 0));
        assert_int_equal(jg_llvm_call(l, straight, (uint64_t[]){41}), 42);
        jg_llvm_free(l);
    }
}

/* Values of every type cross evaluated methods; results of every type come
 * back from them. */
static void test_lazy_every_type(void **state)
{
    (void)state;
    JgLlvm *l = jit_lazy(2, NEVER_HOT);
    assert_int_equal(check_every_type(l, "every_lazy"), 0);
    check_results_of_every_type(l);
    assert_int_equal(jg_llvm_stats(l)->methods_secondary, 0);
    jg_llvm_free(l);
}

/* ALLOCAs of evaluated methods live in the activation's areas, like those
 * of compiled ones: an address one method makes is read by the next. */
static void test_lazy_allocas(void **state)
{
    (void)state;
    const uint32_t thresholds[] = {40, NEVER_HOT};
    for (size_t t = 0; t < 2; t++) {
        uint32_t threshold = thresholds[t];
        Emu e = {0};
        JgLlvm *l = jit_lazy(1, threshold);
        JgGraph *g = residual("alloca_lazy", JG_I64, 1, (JgType[]){JG_I64});
        e.g = g;
        e.build = alloca_maker_case;
        flex(&e, 0, P(g, 0, 0), 1, (JgVal[]){P(g, 0, 0)});
        compile(l, g);
        for (int i = 0; i < 20; i++) /* evaluated first, then compiled (40) */
            assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){7}), 4242);
        Emu c = {0};
        JgGraph *cg = residual("chain_lazy", JG_I64, 1, (JgType[]){JG_I64});
        c.g = cg;
        c.build = chain_case;
        flex(&c, 0, P(cg, 0, 0), 1, (JgVal[]){P(cg, 0, 0)});
        compile(l, cg);
        for (int i = 0; i < 10; i++)
            assert_int_equal(jg_llvm_call(l, cg, (uint64_t[]){5}), 6600);
        assert_int_equal(jg_llvm_stats(l)->methods_evaluated, 2 + CHAIN + 1);
        /* compiled once hot, or never */
        assert_true((jg_llvm_stats(l)->methods_secondary > 0) == (threshold != NEVER_HOT));
        jg_llvm_free(l);
    }
}

/* A portal call in an evaluated method goes through options.portal_call;
 * a flexswitch miss in one adds another evaluated method. */
static uint32_t portal_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    JgGraph *g = e->g;
    uint32_t nb = case_block(g, fs);
    JgVal r = jg_emit(g, nb, JG_OP_CALL, JG_I64, 4,
                      (JgVal[]){jg_const_symbol(g, FN(portal_call), "portal"), P(g, nb, 0),
                                k64(g, value), k64(g, 5)});
    jg_last_op(g, nb)->callee = (JgGraph *)(uintptr_t)e->data;
    jg_set_return(g, nb, r);
    return nb;
}

static void test_lazy_portal_and_misses(void **state)
{
    (void)state;
    PortalLog log = {0};
    JgLlvm *l = jit_with((JgLlvmOptions){.opt_level = 2,
                                         .portal_call = portal_call,
                                         .portal_ctx = &log,
                                         .lazy_threshold = NEVER_HOT});
    JgGraph *portal = jg_graph_new(&arena, "portal", JG_I64, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    portal->flags |= JG_FLAG_PORTAL;
    Emu e = {.build = portal_case, .data = (uint64_t)(uintptr_t)portal};
    JgGraph *g = residual("lazy_portal", JG_I64, 2, (JgType[]){JG_I64, JG_I64});
    e.g = g;
    flex(&e, 0, P(g, 0, 1), 1, (JgVal[]){P(g, 0, 0)});
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){21, 1}), 47);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){21, 2}), 47);
    assert_int_equal(log.calls, 2);
    assert_int_equal(log.args[1], 2);
    /* evaluated methods: a site of the one call, which keeps nothing */
    assert_non_null(log.site);
    assert_int_equal(log.last_site.constant, 0);
    assert_null(log.last_site.arg_shapes);
    assert_int_equal(e.calls, 2);
    assert_int_equal(jg_llvm_stats(l)->methods_evaluated, 2);
    assert_int_equal(jg_llvm_stats(l)->methods_secondary, 0);
    jg_llvm_free(l);
}

/* ---- limits and errors ---------------------------------------------------- */

static void test_block_limit(void **state)
{
    (void)state;
    JgLlvm *l = jit(0);
    JgGraph *g = residual("huge", JG_I64, 0, NULL);
    for (uint32_t b = 1; b <= 65535; b++) {
        jg_block_new(g, 0, NULL);
        go(g, b - 1, b, 0, NULL);
    }
    jg_set_return(g, 65535, k64(g, 1));
    assert_int_equal(g->blocks.count, 65536);
    compile_fails(l, g, "65535");
    jg_llvm_free(l);
}

/* Appends a compilation of one block returning `v` (as a miss would). */
static void append_returning(JgGraph *g, uint64_t v)
{
    uint32_t b = jg_block_new(g, 0, NULL);
    g->blocks.items[b].flags |= JG_BLOCK_ENTRY;
    jg_set_return(g, b, k64(g, v));
}

static void test_method_limit(void **state)
{
    (void)state;
    Emu e = {0};
    JgLlvm *l = jit_with((JgLlvmOptions){.opt_level = 0, .max_methods = 3});
    JgGraph *g = fig10_graph(&e, 2);
    compile(l, g);
    append_returning(g, 1);
    compile(l, g);
    append_returning(g, 2);
    compile(l, g);
    append_returning(g, 3);
    compile_fails(l, g, "more than 3 methods");
    assert_int_equal(jg_llvm_stats(l)->methods_secondary, 2);
    jg_llvm_free(l);
}

/* The fatal handler of the child below: exits with 70 when the message is
 * a failed flexswitch case, 71 otherwise. */
static void exit_if_failed_case(void *ctx, const char *message)
{
    (void)ctx;
    _exit(strncmp(message, "jitgen: llvm: ", 14) == 0 && strstr(message, "more than 2 methods")
              ? 70
              : 71);
}

/* A miss whose compilation fails is fatal: the host's handler gets the
 * message (here it exits with 70); the library itself never exits. */
static void test_failed_miss_is_fatal(void **state)
{
    (void)state;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        Emu e = {0};
        if (!freopen("/dev/null", "w", stderr))
            _exit(1);
        jg_set_fatal_handler(exit_if_failed_case, NULL);
        JgLlvm *l = jit_with((JgLlvmOptions){.opt_level = 0, .max_methods = 2});
        JgGraph *g = fig10_graph(&e, 2);
        compile(l, g);
        jg_llvm_call(l, g, (uint64_t[]){10});
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 70);
}

static void test_inputargs_capacity(void **state)
{
    (void)state;
    Emu e = {0};
    JgLlvm *l = jit(0);
    JgGraph *g = fig10_graph(&e, 2);
    compile(l, g);
    /* a later compilation whose entry block needs 300 slots */
    uint32_t first = jg_block_new(g, 0, NULL);
    g->blocks.items[first].flags |= JG_BLOCK_ENTRY;
    JgType types[300];
    JgVal args[300];
    for (int i = 0; i < 300; i++)
        types[i] = JG_I64;
    uint32_t wide = jg_block_new(g, 300, types);
    g->blocks.items[wide].flags |= JG_BLOCK_ENTRY;
    for (int i = 0; i < 300; i++)
        args[i] = k64(g, (uint64_t)i);
    go(g, first, wide, 300, args);
    jg_set_return(g, wide, P(g, wide, 299));
    compile_fails(l, g, "InputArgs has 256 slots");
    jg_llvm_free(l);
}

static void test_compile_errors(void **state)
{
    (void)state;
    JgLlvm *l = jit(0);
    /* operand types that do not match the op */
    JgGraph *g = residual("badtype", JG_I64, 2, (JgType[]){JG_I64, JG_I32});
    jg_set_return(g, 0, op2(g, 0, JG_OP_ADD, JG_I64, P(g, 0, 0), P(g, 0, 1)));
    compile_fails(l, g, "operand 1 is a i32");
    /* a value used where its definition does not dominate */
    JgGraph *h = residual("baddom", JG_I64, 2, (JgType[]){JG_I1, JG_I64});
    uint32_t a = jg_block_new(h, 0, NULL), b = jg_block_new(h, 0, NULL);
    uint32_t c = jg_block_new(h, 0, NULL);
    jg_set_branch(h, 0, P(h, 0, 0), jg_link(h, a, 0, NULL), jg_link(h, b, 0, NULL));
    JgVal x = op2(h, a, JG_OP_ADD, JG_I64, P(h, 0, 1), k64(h, 2));
    go(h, a, c, 0, NULL);
    go(h, b, c, 0, NULL);
    jg_set_return(h, c, x);
    char err[512];
    assert_false(jg_llvm_compile(l, h, err, sizeof err));
    assert_true(strstr(err, "dominate") != NULL);
    /* a later method linking to a block no dispatcher can enter */
    Emu e = {0};
    JgGraph *f = fig10_graph(&e, 2);
    compile(l, f);
    uint32_t nb = jg_block_new(f, 0, NULL);
    f->blocks.items[nb].flags |= JG_BLOCK_ENTRY;
    go(f, nb, 3, 0, NULL); /* block 3 ("done") is not JG_BLOCK_ENTRY */
    compile_fails(l, f, "no dispatcher can enter");
    jg_llvm_free(l);
}

/* ---- forwarding blocks ------------------------------------------------------ */

/* sum(n) whose loop header is reached only through a chain of blocks that
 * only pass their parameters on (permuted): from two links of one branch
 * and from the loop's back edge, so the chain's first block has three
 * predecessors and is not simply fused into one. A branch into an empty
 * infinite loop of forwarding blocks is never taken. The chain is
 * bypassed: its blocks never reach LLVM. */
static JgGraph *forwarding_graph(void)
{
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
    return g;
}

/* A memory stream for a session's dumps (JgLlvmOptions.dump_out); it must
 * stay where it is while open (the stream writes through its fields). */
typedef struct DumpText {
    char *text;
    size_t len;
    FILE *out;
} DumpText;

static FILE *dump_open(DumpText *d)
{
    *d = (DumpText){0};
    d->out = open_memstream(&d->text, &d->len);
    assert_non_null(d->out);
    return d->out;
}

/* Closes the stream: its text, for free(). */
static char *dump_close(DumpText *d)
{
    fclose(d->out);
    return d->text;
}

static void test_forwarding_blocks(void **state)
{
    (void)state;
    DumpText dump;
    JgLlvm *l = jit_with(
        (JgLlvmOptions){.opt_level = 2, .dumps = JG_DUMP_LLVM, .dump_out = dump_open(&dump)});
    JgGraph *g = forwarding_graph();
    compile(l, g);
    for (uint64_t v = 0; v < 12; v++)
        assert_int_equal(jg_llvm_call(l, g, &v), eval(g, &v));
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){100}), 5050);
    jg_llvm_free(l);
    char *text = dump_close(&dump);
    /* f1 and f2 (blocks 1 and 2) are bypassed; of the circle c1 -> c2 -> c1
     * (blocks 7 and 8) one block stays */
    assert_null(strstr(text, "\nb1:"));
    assert_null(strstr(text, "\nb2:"));
    assert_non_null(strstr(text, "\nb3:"));
    assert_true((strstr(text, "\nb7:") != NULL) + (strstr(text, "\nb8:") != NULL) == 1);
    free(text);
}

/* fib(n) as a do-while loop whose header, a merge point, is entered with n
 * unguarded: head(i, a, b): i - 1 > 0 ? head(i - 1, b, a + b) : b. Its trip
 * count, n - 1 - smin(0, n - 1), is what LLVM's runtime unroller declines
 * to compute under its default budget (session.c, set_llvm_options). */
static JgGraph *countdown_fib_graph(void)
{
    JgGraph *g = residual("fib", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t head = jg_block_new(g, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
    uint32_t done = jg_block_new(g, 0, NULL);
    g->blocks.items[head].flags |= JG_BLOCK_ENTRY;
    go(g, 0, head, 3, (JgVal[]){P(g, 0, 0), k64(g, 0), k64(g, 1)});
    JgVal i = P(g, head, 0), a = P(g, head, 1), b = P(g, head, 2);
    JgVal i2 = op2(g, head, JG_OP_SUB, JG_I64, i, k64(g, 1));
    JgVal s = op2(g, head, JG_OP_ADD, JG_I64, a, b);
    JgVal c = cmp(g, head, JG_OP_ICMP, JG_SGT, i2, k64(g, 0));
    jg_set_branch(g, head, c, jg_link(g, head, 3, (JgVal[]){i2, b, s}), jg_link(g, done, 0, NULL));
    jg_set_return(g, done, b);
    return g;
}

/* LLVM unrolls that loop on x86-64 (more than four `add i64` in the
 * optimized IR: the loop's one, the count's, and copies), and the results
 * stay the evaluator's for counts around every multiple of the unroll
 * factor. Whether to unroll is the target's choice: AArch64's cost model
 * keeps this loop rolled, and there only the results are checked. */
static void test_unguarded_loop_unrolled(void **state)
{
    (void)state;
    DumpText dump;
    JgLlvm *l = jit_with(
        (JgLlvmOptions){.opt_level = 2, .dumps = JG_DUMP_LLVM_OPT, .dump_out = dump_open(&dump)});
    JgGraph *g = countdown_fib_graph();
    compile(l, g);
    for (uint64_t n = 0; n < 40; n++)
        assert_int_equal(jg_llvm_call(l, g, &n), eval(g, &n));
    for (int64_t n = -3; n < 0; n++)
        assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){(uint64_t)n}), 1);
    for (uint64_t n = 1000; n < 1010; n++)
        assert_int_equal(jg_llvm_call(l, g, &n), eval(g, &n));
    jg_llvm_free(l);
    char *text = dump_close(&dump);
    int adds = 0;
    for (const char *p = strstr(text, "add i64"); p; p = strstr(p + 1, "add i64"))
        adds++;
#if defined(__x86_64__)
    if (adds <= 4)
        fail_msg("the loop is not unrolled (%d adds):\n%s", adds, text);
#else
    assert_true(adds >= 1);
#endif
    free(text);
}

/* A loop whose body is `steps` steps of modular arithmetic on four
 * variables and the loop counter i, each `v = (v + w * k + i * k') mod M`
 * written x - floor(x / M) * M, the shape of the general suite's big_body
 * (whose loop strength reduction took seconds at a few dozen steps;
 * session.c, reduce_strength). Returns the sum of the four variables after
 * n trips. */
static JgGraph *long_body_graph(int steps)
{
    JgGraph *g = residual("long_body", JG_I64, 1, (JgType[]){JG_I64});
    JgType t6[6] = {JG_I64, JG_I64, JG_I64, JG_I64, JG_I64, JG_I64};
    uint32_t head = jg_block_new(g, 6, t6);
    uint32_t body = jg_block_new(g, 0, NULL);
    uint32_t done = jg_block_new(g, 0, NULL);
    go(g, 0, head, 6, (JgVal[]){k64(g, 0), P(g, 0, 0), k64(g, 1), k64(g, 2), k64(g, 3), k64(g, 4)});
    JgVal i = P(g, head, 0), n = P(g, head, 1);
    JgVal v[4] = {P(g, head, 2), P(g, head, 3), P(g, head, 4), P(g, head, 5)};
    JgVal more = cmp(g, head, JG_OP_ICMP, JG_SLT, i, n);
    jg_set_branch(g, head, more, jg_link(g, body, 0, NULL), jg_link(g, done, 0, NULL));
    JgVal m = k64(g, 1000003);
    for (int k = 0; k < steps; k++) {
        int t = k % 4, w = (k * 7 + 1) % 4 == t ? (t + 1) % 4 : (k * 7 + 1) % 4;
        JgVal x = op2(g, body, JG_OP_MUL, JG_I64, v[w], k64(g, 2 + (uint64_t)k * 5 % 90));
        x = op2(g, body, JG_OP_ADD, JG_I64, v[t], x);
        JgVal ik = op2(g, body, JG_OP_MUL, JG_I64, i, k64(g, 3 + (uint64_t)k * 11 % 80));
        x = op2(g, body, JG_OP_ADD, JG_I64, x, ik);
        /* floor division: the quotient less one where the remainder is
         * not 0 and x is negative */
        JgVal r = op2(g, body, JG_OP_SREM, JG_I64, x, m);
        JgVal down = op2(g, body, JG_OP_AND, JG_I1, cmp(g, body, JG_OP_ICMP, JG_NE, r, k64(g, 0)),
                         cmp(g, body, JG_OP_ICMP, JG_SLT, x, k64(g, 0)));
        JgVal q = op2(g, body, JG_OP_ADD, JG_I64, op2(g, body, JG_OP_SDIV, JG_I64, x, m),
                      op1(g, body, JG_OP_SEXT, JG_I64, down));
        v[t] = op2(g, body, JG_OP_SUB, JG_I64, x, op2(g, body, JG_OP_MUL, JG_I64, q, m));
    }
    JgVal i2 = op2(g, body, JG_OP_ADD, JG_I64, i, k64(g, 1));
    go(g, body, head, 6, (JgVal[]){i2, n, v[0], v[1], v[2], v[3]});
    JgVal sum = op2(g, done, JG_OP_ADD, JG_I64, P(g, head, 2), P(g, head, 3));
    sum = op2(g, done, JG_OP_ADD, JG_I64, sum, P(g, head, 4));
    jg_set_return(g, done, op2(g, done, JG_OP_ADD, JG_I64, sum, P(g, head, 5)));
    return g;
}

/* Loop strength reduction runs on small methods only: a tight loop keeps
 * it, a long body goes without, and both compute the evaluator's
 * results. */
static void test_strength_reduction_small_methods_only(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    JgGraph *small = sum_graph();
    compile(l, small);
    assert_int_equal(jg_llvm_call(l, small, (uint64_t[]){100}), 5050);
    assert_int_equal(jg_llvm_stats(l)->lsr_skipped, 0);
    JgGraph *big = long_body_graph(48);
    compile(l, big);
    assert_int_equal(jg_llvm_stats(l)->lsr_skipped, 1);
    for (uint64_t n = 0; n < 50; n += 7)
        assert_int_equal(jg_llvm_call(l, big, &n), eval(big, &n));
    jg_llvm_free(l);
}

/* The adaptive level optimizes a method with loops up to LG_OPTIMIZE_MAX_OPS
 * residual operations and leaves a larger one unoptimized, with the
 * evaluator's results either way. */
static void test_huge_methods_unoptimized(void **state)
{
    (void)state;
    JgLlvm *l = jit_with((JgLlvmOptions){.opt_level = 2, .adaptive = true});
    JgGraph *loop = long_body_graph(48);
    compile(l, loop);
    assert_int_equal(jg_llvm_stats(l)->huge_unoptimized, 0);
    JgGraph *huge = long_body_graph(700); /* about 8,400 operations */
    compile(l, huge);
    assert_int_equal(jg_llvm_stats(l)->huge_unoptimized, 1);
    for (uint64_t n = 0; n < 30; n += 7) {
        assert_int_equal(jg_llvm_call(l, loop, &n), eval(loop, &n));
        assert_int_equal(jg_llvm_call(l, huge, &n), eval(huge, &n));
    }
    jg_llvm_free(l);
}

/* ---- dumps ----------------------------------------------------------------- */

static char *dump_of(const char *triple, unsigned dumps)
{
    DumpText dump;
    JgLlvm *l = jit_with((JgLlvmOptions){
        .opt_level = 2, .dumps = dumps, .dump_out = dump_open(&dump), .target_triple = triple});
    JgGraph *g = sum_graph();
    compile(l, g);
    assert_int_equal(jg_llvm_call(l, g, (uint64_t[]){10}), 55);
    jg_llvm_free(l);
    return dump_close(&dump);
}

static void test_dumps(void **state)
{
    (void)state;
    char *ir = dump_of(NULL, JG_DUMP_LLVM | JG_DUMP_LLVM_OPT);
    assert_non_null(strstr(ir, "; ---- llvm: sum.g0.m0"));
    assert_non_null(strstr(ir, "; ---- llvm-opt: sum.g0.m0"));
    assert_non_null(strstr(ir, "define i64 @sum.g0.m0(i64"));
    assert_null(strstr(ir, "; ---- asm"));
    free(ir);
    char *host = dump_of(NULL, JG_DUMP_ASM);
    assert_non_null(strstr(host, "; ---- asm"));
    assert_non_null(strstr(host, "ret"));
    assert_null(strstr(host, "define"));
    free(host);
    char *arm = dump_of("aarch64-linux-gnu", JG_DUMP_ASM);
    assert_non_null(strstr(arm, "; ---- asm (aarch64"));
    assert_non_null(strstr(arm, "\tret"));
    assert_non_null(strstr(arm, "x0"));
    free(arm);
}

/* ---- speed --------------------------------------------------------------- */

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void test_compile_time(void **state)
{
    (void)state;
    JgLlvm *l = jit(2);
    compile(l, sum_graph()); /* warm up */
    const JgLlvmStats *s = jg_llvm_stats(l);
    double ir = s->ir_ms, opt = s->opt_ms, cg = s->codegen_ms, cpu = cpu_ms();
    enum { N = 40 };
    for (int i = 0; i < N; i++)
        compile(l, sum_graph());
    cpu = (cpu_ms() - cpu) / N;
    double per = (s->ir_ms - ir + s->opt_ms - opt + s->codegen_ms - cg) / N;
    printf("# small graph at O2: %.3f ms per compilation (ir %.3f, opt %.3f, codegen %.3f; "
           "cpu %.3f)\n",
           per, (s->ir_ms - ir) / N, (s->opt_ms - opt) / N, (s->codegen_ms - cg) / N, cpu);
    assert_true(per < 1000.0); /* loose: sanitizers and loaded machines are slow */
    jg_llvm_free(l);
}

/* ---- landings the dispatcher was not built for (landing.c) ----------- */

/* A loop header whose parameters carry every value is a safe landing; the
 * branch successor that uses the header's values without parameters of its
 * own is not, nor a block that reaches such a use, nor one outside the
 * method. Entering the evaluated secondary there once made LLVM reject the
 * IR ("Instruction does not dominate all uses"). */
static void test_safe_landing(void **state)
{
    (void)state;
    JgGraph *g = residual("landing", JG_I64, 1, (JgType[]){JG_I64});
    uint32_t head = jg_block_new(g, 2, (JgType[]){JG_I64, JG_I64});
    uint32_t body = jg_block_new(g, 0, NULL);
    uint32_t done = jg_block_new(g, 0, NULL);
    uint32_t tail = jg_block_new(g, 1, (JgType[]){JG_I64});
    go(g, 0, head, 2, (JgVal[]){P(g, 0, 0), k64(g, 0)});
    JgVal more = cmp(g, head, JG_OP_ICMP, JG_SGT, P(g, head, 0), k64(g, 0));
    jg_set_branch(g, head, more, jg_link(g, body, 0, NULL), jg_link(g, done, 0, NULL));
    JgVal n1 = op2(g, body, JG_OP_SUB, JG_I64, P(g, head, 0), k64(g, 1));
    JgVal acc = op2(g, body, JG_OP_ADD, JG_I64, P(g, head, 1), P(g, head, 0));
    go(g, body, head, 2, (JgVal[]){n1, acc});
    go(g, done, tail, 1, (JgVal[]){P(g, head, 1)});
    jg_set_return(g, tail, P(g, tail, 0));
    verified(g);
    uint32_t hi = g->blocks.count;
    assert_true(lg_safe_landing(g, 0, hi, head));
    assert_true(lg_safe_landing(g, 0, hi, tail));
    assert_true(lg_safe_landing(g, 0, hi, 0));
    assert_false(lg_safe_landing(g, 0, hi, body));
    assert_false(lg_safe_landing(g, 0, hi, done));
    assert_false(lg_safe_landing(g, head, hi, 0));
    /* the tail as a method of its own: its parameter is all it needs */
    assert_true(lg_safe_landing(g, tail, hi, tail));
    uint64_t args[1] = {10};
    assert_int_equal(eval(g, args), 55);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_blockid_encoding, setup, teardown),
        cmocka_unit_test_setup_teardown(test_integer_arithmetic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shift_amounts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_integer_compare, setup, teardown),
        cmocka_unit_test_setup_teardown(test_casts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_select, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_arithmetic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_compare, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_conversions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loop_every_opt_level, setup, teardown),
        cmocka_unit_test_setup_teardown(test_uses_across_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_switch_shared_targets, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hints_and_unreachable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loads_and_stores, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alloca_zero_filled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memcpy_memset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_native_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_free_list_allocation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_variadic_call, setup, teardown),
        cmocka_unit_test_setup_teardown(test_portal_call, setup, teardown),
        cmocka_unit_test_setup_teardown(test_portal_call_direct, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fig10_three_methods, setup, teardown),
        cmocka_unit_test_setup_teardown(test_case_reuses_compiled_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flexswitch_many_cases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_every_type_across_methods, setup, teardown),
        cmocka_unit_test_setup_teardown(test_results_from_secondaries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alloca_outlives_secondary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alloca_areas_grow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_forwarding_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unguarded_loop_unrolled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_strength_reduction_small_methods_only, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_huge_methods_unoptimized, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lazy_fig10, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lazy_loop_gets_hot, setup, teardown),
        cmocka_unit_test_setup_teardown(test_start_in_the_middle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_start_without_flexswitch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_lazy_threshold, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lazy_every_type, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lazy_allocas, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lazy_portal_and_misses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_block_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_method_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_miss_is_fatal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inputargs_capacity, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compile_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dumps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compile_time, setup, teardown),
        cmocka_unit_test_setup_teardown(test_safe_landing, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
