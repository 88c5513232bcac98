/* Proofs with Z3 of the integer rewrites the compiler applies
 * (docs/testing.md, "Proofs"): each rule is taken from the table or the
 * pure function the compiler applies it from, and proved over bit-vectors
 * at every width it is applied at. Where the rule is a function of
 * constants (a fold's immediate, a coefficient), the function is called on
 * the edges of its range and on random constants, and the rewrite it
 * answers is proved for every value of the variables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "baseline/fold_rule.h"
#include "pe/cmp_rules.h"
#include "pe/fold.h"
#include "pe/linear.h"
#include "pe/rewrite.h"

#include "z3_semantics.h"

static Z3_context z;
static Z3_solver solver;
static unsigned proved; /* claims proved, for the summary */

static int setup(void **state)
{
    (void)state;
    z = z3_new();
    /* the polynomial normal form first: a solver that checks each claim
     * afresh, much quicker here than the incremental one */
    solver = z3_solver(z, true);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    Z3_solver_dec_ref(z, solver);
    Z3_del_context(z);
    return 0;
}

static void prove(Z3_ast claim, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!z3_proves(z, solver, claim, what))
        fail_msg("not proved: %s", what);
    proved++;
}

static Z3_ast iff(Z3_ast a, Z3_ast b)
{
    return Z3_mk_eq(z, a, b);
}

static Z3_ast and2(Z3_ast a, Z3_ast b)
{
    return Z3_mk_and(z, 2, (Z3_ast[]){a, b});
}

static Z3_ast or2(Z3_ast a, Z3_ast b)
{
    return Z3_mk_or(z, 2, (Z3_ast[]){a, b});
}

static Z3_ast implies(Z3_ast a, Z3_ast b)
{
    return Z3_mk_implies(z, a, b);
}

/* xorshift64*: reproducible random constants */
static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next_random(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1du;
}

/* Constants of a w-bit type worth trying: the edges of the unsigned and
 * signed ranges, small values, and random ones (a quarter as many with
 * Z3_QUICK set: the sanitizer build); returns their count. */
static uint32_t edge_values(unsigned w, uint64_t *out, uint32_t nrandom)
{
    const char *quick = getenv("Z3_QUICK");
    if (quick && *quick)
        nrandom /= 4;
    uint64_t m = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1, sb = UINT64_C(1) << (w - 1);
    uint64_t fixed[] = {0, 1, 2, 3, 7, m, m - 1, sb, sb - 1, sb + 1, 0x5555555555555555u & m};
    uint32_t n = 0;
    for (uint32_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        out[n++] = fixed[i] & m;
    for (uint32_t i = 0; i < nrandom; i++)
        out[n++] = next_random() & m;
    return n;
}

/* ---- constant folding: jg_fold against the model ---- */

static const JgOpcode binary_ops[] = {JG_OP_ADD,  JG_OP_SUB,  JG_OP_MUL, JG_OP_SDIV, JG_OP_UDIV,
                                      JG_OP_SREM, JG_OP_UREM, JG_OP_AND, JG_OP_OR,   JG_OP_XOR,
                                      JG_OP_SHL,  JG_OP_LSHR, JG_OP_ASHR};
#define NBINARY (sizeof binary_ops / sizeof binary_ops[0])

/* jg_fold(op) on constants is what the model computes on them. */
static void check_fold(JgOpcode opcode, JgType type, JgPred pred, uint32_t nargs,
                       const JgType *types, const uint64_t *bits)
{
    Z3_ast x[3];
    for (uint32_t i = 0; i < nargs; i++)
        x[i] = bv(z, jg_type_bits(types[i]), bits[i]);
    Z3_ast model =
        Z3_simplify(z, z3_op(z, opcode, jg_type_bits(type), pred, jg_type_bits(types[0]), x));
    uint64_t want;
    if (!Z3_get_numeral_uint64(z, model, &want))
        fail_msg("the model of op %d did not reduce to a numeral", opcode);
    uint64_t got = jg_fold(opcode, type, pred, nargs, types, bits);
    if (got != want)
        fail_msg("jg_fold(op %d, %s, pred %d, %#llx, %#llx) = %#llx, the model says %#llx", opcode,
                 jg_type_name(type), pred, (unsigned long long)bits[0],
                 (unsigned long long)(nargs > 1 ? bits[1] : 0), (unsigned long long)got,
                 (unsigned long long)want);
    proved++;
}

/* Binary operations and comparisons at i1 on every pair of operands, at
 * wider types on the edges and random values. */
static void fold_binary_and_icmp(void **state)
{
    (void)state;
    uint64_t vals[64];
    for (uint32_t t = 0; t < NTYPES; t++) {
        JgType type = int_types[t];
        unsigned w = jg_type_bits(type);
        uint32_t n = w == 1 ? 2 : edge_values(w, vals, 12);
        JgType types[2] = {type, type};
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++) {
                uint64_t bits[2] = {w == 1 ? i : vals[i], w == 1 ? j : vals[j]};
                for (uint32_t o = 0; o < NBINARY; o++)
                    check_fold(binary_ops[o], type, 0, 2, types, bits);
                for (JgPred p = JG_EQ; p <= JG_SLE; p++)
                    check_fold(JG_OP_ICMP, JG_I1, p, 2, types, bits);
            }
    }
}

/* select, and the conversions between every two integer widths. */
static void fold_select_and_conversions(void **state)
{
    (void)state;
    uint64_t vals[32];
    for (uint32_t t = 0; t < NTYPES; t++) {
        JgType type = int_types[t];
        uint32_t n = edge_values(jg_type_bits(type), vals, 8);
        for (uint32_t i = 0; i < n; i++)
            for (uint64_t c = 0; c < 2; c++) {
                JgType types[3] = {JG_I1, type, type};
                uint64_t bits[3] = {c, vals[i], vals[(i + 1) % n]};
                check_fold(JG_OP_SELECT, type, 0, 3, types, bits);
            }
        for (uint32_t u = 0; u < NTYPES; u++) {
            JgType to = int_types[u];
            JgOpcode ops[2] = {JG_OP_ZEXT, JG_OP_SEXT};
            for (uint32_t i = 0; i < n; i++) {
                JgType types[1] = {type};
                uint64_t bits[1] = {vals[i]};
                if (u > t)
                    for (uint32_t o = 0; o < 2; o++)
                        check_fold(ops[o], to, 0, 1, types, bits);
                if (u < t)
                    check_fold(JG_OP_TRUNC, to, 0, 1, types, bits);
            }
        }
    }
}

/* ---- the simplified comparisons' facts (pe/cmp_rules.c) ---- */

/* The ordering o of a and b in `sign` (any: proved under both). */
static Z3_ast ordering(unsigned o, bool is_signed, Z3_ast a, Z3_ast b)
{
    if (o == JG_ORDER_EQ)
        return Z3_mk_eq(z, a, b);
    if (o == JG_ORDER_LT)
        return is_signed ? Z3_mk_bvslt(z, a, b) : Z3_mk_bvult(z, a, b);
    return is_signed ? Z3_mk_bvsgt(z, a, b) : Z3_mk_bvugt(z, a, b);
}

/* a and b are in one of the orderings of `set`. */
static Z3_ast in_orderings(unsigned set, bool is_signed, Z3_ast a, Z3_ast b)
{
    Z3_ast any = Z3_mk_false(z);
    for (unsigned o = JG_ORDER_LT; o <= JG_ORDER_GT; o <<= 1)
        if (set & o)
            any = or2(any, ordering(o, is_signed, a, b));
    return any;
}

/* The Z3 bool of a rewritten comparison's form. */
static Z3_ast form_of(JgCmpForm f, Z3_ast a, Z3_ast b)
{
    if (f.kind == JG_CMP_PRED)
        return z3_icmp(z, f.pred, a, b);
    return f.kind == JG_CMP_TRUE ? Z3_mk_true(z) : Z3_mk_false(z);
}

static void predicate_tables(void **state)
{
    (void)state;
    for (uint32_t t = 0; t < NTYPES; t++) {
        unsigned w = jg_type_bits(int_types[t]);
        Z3_ast a = bv_var(z, "a", w), b = bv_var(z, "b", w);
        for (JgPred p = JG_EQ; p <= JG_SLE; p++) {
            Z3_ast holds = z3_icmp(z, p, a, b);
            JgCmpSign sign = jg_pred_sign(p);
            for (int s = 0; s < 2; s++)
                if (sign == JG_SIGN_ANY || (sign == JG_SIGN_SIGNED) == s)
                    prove(iff(holds, in_orderings(jg_pred_orderings(p), s, a, b)),
                          "orderings of pred %d at i%u (signed %d)", p, w, s);
            prove(iff(Z3_mk_not(z, holds), z3_icmp(z, jg_pred_negated(p), a, b)),
                  "negation of pred %d at i%u", p, w);
            prove(iff(holds, z3_icmp(z, jg_pred_swapped(p), b, a)), "swap of pred %d at i%u", p, w);
        }
        for (unsigned set = 0; set <= JG_ORDER_ALL; set++)
            for (JgCmpSign sign = JG_SIGN_ANY; sign <= JG_SIGN_SIGNED; sign++) {
                JgCmpForm f = jg_pred_of_orderings(set, sign);
                if (f.kind == JG_CMP_NONE)
                    continue;
                for (int s = 0; s < 2; s++)
                    if (sign == JG_SIGN_ANY || (sign == JG_SIGN_SIGNED) == s)
                        prove(iff(form_of(f, a, b), in_orderings(set, s, a, b)),
                              "the comparison of orderings %u (sign %d) at i%u", set, sign, w);
            }
        uint32_t combined = 0;
        for (JgPred p = JG_EQ; p <= JG_SLE; p++)
            for (JgPred q = JG_EQ; q <= JG_SLE; q++)
                for (int both = 0; both < 2; both++) {
                    JgCmpForm f = jg_pred_combine(p, q, both);
                    if (f.kind == JG_CMP_NONE)
                        continue;
                    Z3_ast x = z3_icmp(z, p, a, b), y = z3_icmp(z, q, a, b);
                    prove(iff(form_of(f, a, b), both ? and2(x, y) : or2(x, y)),
                          "pred %d %s pred %d at i%u", p, both ? "and" : "or", q, w);
                    combined++;
                }
        /* every pair but an unsigned and a signed order combines */
        assert_int_equal(combined, 2 * (10 * 10 - 2 * 4 * 4));
    }
}

/* icmp pred (zext b), k: the bool, its negation or a constant, at every
 * width and k (i1, i8: all of them). */
static void widened_bool(void **state)
{
    (void)state;
    Z3_ast b = bv_var(z, "b", 1);
    uint64_t vals[32];
    for (uint32_t t = 0; t < NTYPES; t++) {
        JgType type = int_types[t];
        unsigned w = jg_type_bits(type);
        uint32_t n = w <= 8 ? (uint32_t)(UINT64_C(1) << w) : edge_values(w, vals, 8);
        Z3_ast wide = w == 1 ? b : Z3_mk_zero_ext(z, w - 1, b);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t k = w <= 8 ? i : vals[i];
            for (JgPred p = JG_EQ; p <= JG_SLE; p++) {
                JgBoolForm f = jg_widened_compare(p, type, k);
                Z3_ast want = f == JG_BOOL_TRUE    ? Z3_mk_true(z)
                              : f == JG_BOOL_FALSE ? Z3_mk_false(z)
                              : f == JG_BOOL_SAME  ? is_true(z, b)
                                                   : Z3_mk_not(z, is_true(z, b));
                prove(iff(z3_icmp(z, p, wide, bv(z, w, k)), want),
                      "icmp %d (zext i1 to i%u), %#llx", p, w, (unsigned long long)k);
            }
        }
    }
}

/* The structural facts of simplify.c's of_compare and of_bool: a
 * comparison of a select is the select of the comparisons, a bool widened
 * twice is widened once, an i1 that is no comparison is `v != 0`. */
static void select_and_widening(void **state)
{
    (void)state;
    Z3_ast c = bv_var(z, "c", 1);
    for (uint32_t t = 0; t < NTYPES; t++) {
        unsigned w = jg_type_bits(int_types[t]);
        Z3_ast x = bv_var(z, "t", w), y = bv_var(z, "f", w), k = bv_var(z, "k", w);
        for (JgPred p = JG_EQ; p <= JG_SLE; p++) {
            Z3_ast sel = Z3_mk_ite(z, is_true(z, c), x, y);
            prove(iff(z3_icmp(z, p, sel, k),
                      or2(and2(is_true(z, c), z3_icmp(z, p, x, k)),
                          and2(Z3_mk_not(z, is_true(z, c)), z3_icmp(z, p, y, k)))),
                  "icmp %d (select c, t, f), k at i%u", p, w);
        }
        for (uint32_t u = t + 1; u < NTYPES; u++) {
            unsigned w2 = jg_type_bits(int_types[u]);
            Z3_ast once = Z3_mk_zero_ext(z, w2 - 1, c);
            Z3_ast twice = Z3_mk_zero_ext(z, w2 - w, w == 1 ? c : Z3_mk_zero_ext(z, w - 1, c));
            prove(Z3_mk_eq(z, once, twice), "zext i1 to i%u through i%u", w2, w);
        }
    }
    prove(iff(z3_icmp(z, JG_NE, c, bv(z, 1, 0)), is_true(z, c)), "an i1 is itself != 0");
}

/* ---- the baseline backend's folded comparisons (baseline/fold_rule.c) ---- */

/* The machine's test of a fold: `cmp x, imm` (imm sign-extended) and, for
 * an order, `x > imm` or `x < wrap` holding where pos. */
static Z3_ast fold_test(const BlFold *f, JgPred pred, Z3_ast x)
{
    Z3_ast imm = bv(z, 64, (uint64_t)(int64_t)f->imm);
    if (!f->ordered)
        return z3_icmp(z, pred, x, imm);
    Z3_ast d = or2(Z3_mk_bvsgt(z, x, imm), Z3_mk_bvslt(z, x, bv(z, 64, (uint64_t)f->wrap)));
    return f->pos ? d : Z3_mk_not(z, d);
}

static void baseline_folded_compare(void **state)
{
    (void)state;
    Z3_ast x = bv_var(z, "x", 64);
    uint64_t steps[40], ks[48];
    uint32_t nsteps = edge_values(64, steps, 10), nks = edge_values(64, ks, 10);
    /* the steps and constants where the rule's bounds are */
    uint64_t more_steps[] = {(uint64_t)INT32_MAX,
                             (uint64_t)INT32_MAX - 1,
                             (uint64_t)INT32_MAX + 1,
                             (uint64_t)-INT32_MAX,
                             (uint64_t)INT32_MIN,
                             (uint64_t)-1,
                             (uint64_t)-2,
                             100};
    for (uint32_t i = 0; i < sizeof more_steps / sizeof more_steps[0]; i++)
        steps[nsteps++] = more_steps[i];
    int64_t more_ks[] = {INT32_MAX, INT32_MIN,    (int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1,
                         -1,        -100,         INT64_MAX - 99,         INT64_MAX - INT32_MAX,
                         INT64_MIN, INT64_MIN + 1};
    for (uint32_t i = 0; i < sizeof more_ks / sizeof more_ks[0]; i++)
        ks[nks++] = (uint64_t)more_ks[i];
    uint32_t folded = 0;
    JgOpcode ops[2] = {JG_OP_SUB, JG_OP_ADD};
    for (JgPred p = JG_EQ; p <= JG_SLE; p++)
        for (uint32_t o = 0; o < 2; o++)
            for (uint32_t i = 0; i < nsteps; i++)
                for (uint32_t j = 0; j < nks; j++) {
                    /* the step as a small one too: the rule folds steps of 32 bits only */
                    for (int small = 0; small < 2; small++) {
                        int64_t step = small ? (int64_t)(int32_t)steps[i] : (int64_t)steps[i];
                        int64_t k = small ? (int64_t)(int32_t)ks[j] : (int64_t)ks[j];
                        if (small && step == (int64_t)steps[i] && k == (int64_t)ks[j])
                            continue; /* the same as the full constants */
                        BlFold f;
                        if (!bl_fold_compare(p, ops[o], step, k, &f))
                            continue;
                        Z3_ast t =
                            z3_op(z, ops[o], 64, 0, 64, (Z3_ast[]){x, bv(z, 64, (uint64_t)step)});
                        prove(iff(z3_icmp(z, p, t, bv(z, 64, (uint64_t)k)), fold_test(&f, p, x)),
                              "fold of icmp %d (x %s %lld), %lld", p, o ? "+" : "-",
                              (long long)step, (long long)k);
                        folded++;
                    }
                }
    assert_true(folded > 500); /* the rule applies, and at its edges */
    /* no unsigned order folds */
    BlFold f;
    for (JgPred p = JG_UGT; p <= JG_ULE; p++)
        assert_false(bl_fold_compare(p, JG_OP_SUB, 1, 0, &f));
}

/* The baseline's lowering facts (baseline/method.c): a comparison of a
 * narrow type is the one of its operands widened to 64 bits (sign-extended
 * for a signed order, as homes hold values zero-extended), `x - imm` is the
 * lea `x + (-imm)` for imm above INT32_MIN, a scaled add is a shift. */
static void baseline_lowering(void **state)
{
    (void)state;
    for (uint32_t t = 0; t + 1 < NTYPES; t++) {
        unsigned w = jg_type_bits(int_types[t]);
        Z3_ast a = bv_var(z, "a", w), b = bv_var(z, "b", w);
        for (JgPred p = JG_EQ; p <= JG_SLE; p++) {
            bool is_signed = p >= JG_SGT;
            Z3_ast wa = is_signed ? Z3_mk_sign_ext(z, 64 - w, a) : Z3_mk_zero_ext(z, 64 - w, a);
            Z3_ast wb = is_signed ? Z3_mk_sign_ext(z, 64 - w, b) : Z3_mk_zero_ext(z, 64 - w, b);
            prove(iff(z3_icmp(z, p, a, b), z3_icmp(z, p, wa, wb)), "icmp %d at i%u widened", p, w);
        }
    }
    Z3_ast x = bv_var(z, "x", 64), imm = bv_var(z, "imm", 32);
    Z3_ast neg = Z3_mk_sign_ext(z, 32, Z3_mk_bvneg(z, imm));
    prove(
        implies(Z3_mk_not(z, Z3_mk_eq(z, imm, bv(z, 32, (uint64_t)INT32_MIN))),
                Z3_mk_eq(z, Z3_mk_bvsub(z, x, Z3_mk_sign_ext(z, 32, imm)), Z3_mk_bvadd(z, x, neg))),
        "x - imm = lea [x + (-imm)]");
    Z3_ast a = bv_var(z, "a", 64);
    for (uint64_t k = 1; k <= 3; k++)
        prove(Z3_mk_eq(z, Z3_mk_bvadd(z, a, Z3_mk_bvshl(z, x, bv(z, 64, k))),
                       Z3_mk_bvadd(z, a, Z3_mk_bvmul(z, x, bv(z, 64, UINT64_C(1) << k)))),
              "a + (x << %llu) = lea [a + x * %llu]", (unsigned long long)k,
              (unsigned long long)(UINT64_C(1) << k));
}

/* Floor division by a positive power of two is a shift (pe/rewrite.c,
 * floor_shift): for every c jg_floor_shift_rule accepts, at every width,
 * the interpreter's rounding of x sdiv c (less one where x is negative,
 * tested as (x ^ c) < 0 or x < 0, and x srem c != 0) is x ashr k. */
static void floor_division_shift(void **state)
{
    (void)state;
    for (uint32_t t = 1; t < NTYPES; t++) {
        JgType type = int_types[t];
        unsigned w = jg_type_bits(type);
        assert_int_equal(jg_floor_shift_rule(type, 0), 0);
        assert_int_equal(jg_floor_shift_rule(type, 1), 0);
        assert_int_equal(jg_floor_shift_rule(type, 3), 0);
        assert_int_equal(jg_floor_shift_rule(type, UINT64_C(1) << (w - 1)), 0); /* negative */
        Z3_ast x = bv_var(z, "x", w), zero = bv(z, w, 0);
        for (unsigned k = 1; k + 2 <= w; k++) {
            uint64_t c = UINT64_C(1) << k;
            assert_int_equal(jg_floor_shift_rule(type, c), k);
            Z3_ast cz = bv(z, w, c);
            Z3_ast rem = Z3_mk_not(z, Z3_mk_eq(z, Z3_mk_bvsrem(z, x, cz), zero));
            Z3_ast signs[2] = {Z3_mk_bvslt(z, Z3_mk_bvxor(z, x, cz), zero), Z3_mk_bvslt(z, x, zero)};
            for (int s = 0; s < 2; s++) {
                Z3_ast less = Z3_mk_ite(z, and2(signs[s], rem), bv(z, w, ~UINT64_C(0) >> (64 - w)), zero);
                prove(Z3_mk_eq(z, Z3_mk_bvadd(z, Z3_mk_bvsdiv(z, x, cz), less),
                               Z3_mk_bvashr(z, x, bv(z, w, k))),
                      "floor(x / 2^%u) = x ashr %u at i%u (%s)", k, k, w, s ? "x < 0" : "(x ^ c) < 0");
            }
        }
    }
}

/* ---- the recurrence unrolling (pe/unroll.c, pe/linear.c) ---- */

static void unroll_product(void **state)
{
    (void)state;
    for (uint32_t t = 1; t < NTYPES; t++) {
        unsigned w = jg_type_bits(int_types[t]);
        Z3_ast a = bv_var(z, "a", w), x1 = bv_var(z, "x1", w), x2 = bv_var(z, "x2", w);
        prove(Z3_mk_eq(z, Z3_mk_bvmul(z, Z3_mk_bvmul(z, a, x1), x2),
                       Z3_mk_bvmul(z, a, Z3_mk_bvmul(z, x1, x2))),
              "(a * x1) * x2 = a * (x1 * x2) at i%u", w);
        /* a sum's terms are added in any order */
        prove(Z3_mk_eq(z, Z3_mk_bvadd(z, Z3_mk_bvadd(z, a, x1), x2),
                       Z3_mk_bvadd(z, Z3_mk_bvadd(z, a, x2), x1)),
              "(a + x1) + x2 = (a + x2) + x1 at i%u", w);
    }
}

/* coef * (a op b) = c0 * a + c1 * b, as jg_linear_split answers, on every
 * width the unrolling runs at (i8 to i64). */
static void linear_split(void **state)
{
    (void)state;
    uint64_t coefs[32], ks[32];
    uint32_t ncoefs = edge_values(64, coefs, 8);
    for (uint32_t t = 1; t < NTYPES; t++) {
        JgType type = int_types[t];
        unsigned w = jg_type_bits(type);
        uint32_t nks = edge_values(w, ks, 4);
        for (uint64_t s = 0; s < w + 2 && nks < 32; s += 7)
            ks[nks++] = s; /* shift amounts, past the width too */
        Z3_ast a = bv_var(z, "a", w), b = bv_var(z, "b", w);
        JgOpcode ops[4] = {JG_OP_ADD, JG_OP_SUB, JG_OP_MUL, JG_OP_SHL};
        for (uint32_t o = 0; o < 4; o++)
            for (uint32_t i = 0; i < ncoefs; i++)
                for (uint32_t j = 0; j < nks; j++)
                    for (int constant = -1; constant < 2; constant++) {
                        if ((constant < 0) != (ops[o] == JG_OP_ADD || ops[o] == JG_OP_SUB))
                            continue;
                        JgLinear l;
                        uint64_t k = ks[j];
                        if (!jg_linear_split(ops[o], type, coefs[i], constant, k, &l))
                            continue;
                        Z3_ast args[2] = {a, b};
                        if (constant >= 0)
                            args[constant] = bv(z, w, k);
                        Z3_ast op = z3_op(z, ops[o], w, 0, w, args);
                        if (ops[o] == JG_OP_SHL) {
                            /* first the shift as the multiply it is, which the
                             * polynomial normal form then takes */
                            Z3_ast times = Z3_mk_bvmul(z, a, bv(z, w, UINT64_C(1) << k));
                            prove(Z3_mk_eq(z, op, times), "a << %llu = a * 2^%llu at i%u",
                                  (unsigned long long)k, (unsigned long long)k, w);
                            op = times;
                        }
                        Z3_ast whole = Z3_mk_bvmul(z, bv(z, w, coefs[i]), op);
                        Z3_ast split = Z3_mk_bvadd(z, Z3_mk_bvmul(z, bv(z, w, l.coef[0]), args[0]),
                                                   Z3_mk_bvmul(z, bv(z, w, l.coef[1]), args[1]));
                        prove(Z3_mk_eq(z, whole, split), "%#llx * (a op %d b) at i%u, k %#llx",
                              (unsigned long long)coefs[i], ops[o], w, (unsigned long long)k);
                    }
        /* a shift by the width or more is no multiple */
        JgLinear l;
        assert_false(jg_linear_split(JG_OP_SHL, type, 1, 1, w, &l));
    }
}

/* The instruction of a term coef * x (and of sum + coef * x). */
static void coefficient_forms(void **state)
{
    (void)state;
    uint64_t coefs[96];
    for (uint32_t t = 1; t < NTYPES; t++) {
        JgType type = int_types[t];
        unsigned w = jg_type_bits(type);
        uint32_t n = edge_values(w, coefs, 8);
        for (unsigned s = 0; s < w; s++)
            coefs[n++] = UINT64_C(1) << s;
        Z3_ast x = bv_var(z, "x", w), sum = bv_var(z, "sum", w);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t coef = coefs[i];
            if (jg_truncate_bits(type, coef) == 0)
                continue; /* a term of coefficient 0 is left out */
            JgCoefForm f = jg_coef_form(type, coef);
            Z3_ast want = Z3_mk_bvadd(z, sum, Z3_mk_bvmul(z, bv(z, w, coef), x));
            Z3_ast got;
            switch (f.kind) {
            case JG_COEF_ONE:
                got = Z3_mk_bvadd(z, sum, x);
                break;
            case JG_COEF_NEG:
                got = Z3_mk_bvsub(z, sum, x);
                break;
            default:
                got = Z3_mk_bvadd(z, sum,
                                  z3_op(z, f.kind == JG_COEF_SHL ? JG_OP_SHL : JG_OP_MUL, w, 0, w,
                                        (Z3_ast[]){x, bv(z, w, f.amount)}));
            }
            prove(Z3_mk_eq(z, want, got), "sum + %#llx * x at i%u", (unsigned long long)coef, w);
        }
    }
}

/* ---- the partial evaluator's pointer offsets (pe/specialize.c, pe/emit.c) ---- */

static void pointer_offsets(void **state)
{
    (void)state;
    Z3_ast p = bv_var(z, "p", 64), a = bv_var(z, "a", 64), b = bv_var(z, "b", 64);
    prove(Z3_mk_eq(z, Z3_mk_bvadd(z, Z3_mk_bvadd(z, p, a), b),
                   Z3_mk_bvadd(z, p, Z3_mk_bvadd(z, a, b))),
          "(p + a) + b = p + (a + b)");
    prove(Z3_mk_eq(z, Z3_mk_bvadd(z, p, bv(z, 64, 0)), p), "p + 0 = p");
}

static void summary(void **state)
{
    (void)state;
    printf("proved %u claims\n", proved);
    assert_true(proved > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fold_binary_and_icmp), cmocka_unit_test(fold_select_and_conversions),
        cmocka_unit_test(predicate_tables),     cmocka_unit_test(widened_bool),
        cmocka_unit_test(select_and_widening),  cmocka_unit_test(baseline_folded_compare),
        cmocka_unit_test(baseline_lowering),    cmocka_unit_test(floor_division_shift),
        cmocka_unit_test(unroll_product),
        cmocka_unit_test(linear_split),         cmocka_unit_test(coefficient_forms),
        cmocka_unit_test(pointer_offsets),      cmocka_unit_test(summary),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
