/* The graph evaluator's integer semantics (frontend/arith.h) as Z3
 * bit-vector terms, for the proofs of the rewrites (test_proofs.c) and the
 * translation validation (test_translation.c). A value of width w is a
 * bit-vector of w bits (i1: one bit, not a Z3 bool); where LLVM leaves a
 * result undefined the evaluator defines one, and so does this model:
 * division by zero gives 0, INT_MIN / -1 wraps (its remainder is 0), a
 * shift's amount is taken modulo the width. Included once per test program
 * (static definitions). */
#ifndef JITGEN_TESTS_Z3_SEMANTICS_H
#define JITGEN_TESTS_Z3_SEMANTICS_H

#include <stdio.h>
#include <stdlib.h>

#include <z3.h>

#include "frontend/arith.h"
#include "frontend/ir.h"

/* The integer widths the compiler rewrites at. */
static const JgType int_types[] = {JG_I1, JG_I8, JG_I16, JG_I32, JG_I64};
#define NTYPES (sizeof int_types / sizeof int_types[0])

/* A Z3 error is a bug of the test: one message, and the test fails. */
static void z3_error(Z3_context z, Z3_error_code e)
{
    fprintf(stderr, "z3 error: %s\n", Z3_get_error_msg(z, e));
    abort();
}

static Z3_context z3_new(void)
{
    Z3_config cfg = Z3_mk_config();
    Z3_context z = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(z, z3_error);
    return z;
}

static Z3_ast bv(Z3_context z, unsigned w, uint64_t v)
{
    if (w < 64)
        v &= (UINT64_C(1) << w) - 1;
    return Z3_mk_unsigned_int64(z, v, Z3_mk_bv_sort(z, w));
}

static Z3_ast bv_var(Z3_context z, const char *name, unsigned w)
{
    return Z3_mk_const(z, Z3_mk_string_symbol(z, name), Z3_mk_bv_sort(z, w));
}

/* An i1 from a Z3 bool, and back. */
static Z3_ast bit_of(Z3_context z, Z3_ast cond)
{
    return Z3_mk_ite(z, cond, bv(z, 1, 1), bv(z, 1, 0));
}

static Z3_ast is_true(Z3_context z, Z3_ast bit)
{
    return Z3_mk_eq(z, bit, bv(z, 1, 1));
}

/* `a pred b` as a Z3 bool. */
static Z3_ast z3_icmp(Z3_context z, JgPred pred, Z3_ast a, Z3_ast b)
{
    switch (pred) {
    case JG_EQ:
        return Z3_mk_eq(z, a, b);
    case JG_NE:
        return Z3_mk_not(z, Z3_mk_eq(z, a, b));
    case JG_UGT:
        return Z3_mk_bvugt(z, a, b);
    case JG_UGE:
        return Z3_mk_bvuge(z, a, b);
    case JG_ULT:
        return Z3_mk_bvult(z, a, b);
    case JG_ULE:
        return Z3_mk_bvule(z, a, b);
    case JG_SGT:
        return Z3_mk_bvsgt(z, a, b);
    case JG_SGE:
        return Z3_mk_bvsge(z, a, b);
    case JG_SLT:
        return Z3_mk_bvslt(z, a, b);
    default:
        return Z3_mk_bvsle(z, a, b);
    }
}

/* The result of integer operation `opcode` (a pure one of jg_arith) of
 * width `w` on operands `x` (the first of width `w0`); NULL for an
 * operation the model does not cover. */
static Z3_ast z3_op(Z3_context z, JgOpcode opcode, unsigned w, JgPred pred, unsigned w0,
                    const Z3_ast *x)
{
    Z3_ast zero = bv(z, w, 0);
    switch (opcode) {
    case JG_OP_ADD:
        return Z3_mk_bvadd(z, x[0], x[1]);
    case JG_OP_SUB:
        return Z3_mk_bvsub(z, x[0], x[1]);
    case JG_OP_MUL:
        return Z3_mk_bvmul(z, x[0], x[1]);
    case JG_OP_UDIV:
        return Z3_mk_ite(z, Z3_mk_eq(z, x[1], zero), zero, Z3_mk_bvudiv(z, x[0], x[1]));
    case JG_OP_UREM:
        return Z3_mk_ite(z, Z3_mk_eq(z, x[1], zero), zero, Z3_mk_bvurem(z, x[0], x[1]));
    case JG_OP_SDIV:
    case JG_OP_SREM: {
        bool rem = opcode == JG_OP_SREM;
        Z3_ast minus_one = Z3_mk_eq(z, x[1], bv(z, w, UINT64_MAX));
        Z3_ast q = rem ? Z3_mk_bvsrem(z, x[0], x[1]) : Z3_mk_bvsdiv(z, x[0], x[1]);
        Z3_ast by_minus_one = rem ? zero : Z3_mk_bvneg(z, x[0]);
        return Z3_mk_ite(z, Z3_mk_eq(z, x[1], zero), zero,
                         Z3_mk_ite(z, minus_one, by_minus_one, q));
    }
    case JG_OP_AND:
        return Z3_mk_bvand(z, x[0], x[1]);
    case JG_OP_OR:
        return Z3_mk_bvor(z, x[0], x[1]);
    case JG_OP_XOR:
        return Z3_mk_bvxor(z, x[0], x[1]);
    case JG_OP_SHL:
    case JG_OP_LSHR:
    case JG_OP_ASHR: {
        Z3_ast amount = Z3_mk_bvand(z, x[1], bv(z, w, w - 1));
        if (opcode == JG_OP_SHL)
            return Z3_mk_bvshl(z, x[0], amount);
        if (opcode == JG_OP_LSHR)
            return Z3_mk_bvlshr(z, x[0], amount);
        return Z3_mk_bvashr(z, x[0], amount);
    }
    case JG_OP_ICMP:
        return bit_of(z, z3_icmp(z, pred, x[0], x[1]));
    case JG_OP_SELECT:
        return Z3_mk_ite(z, is_true(z, x[0]), x[1], x[2]);
    case JG_OP_ZEXT:
        return w == w0 ? x[0] : Z3_mk_zero_ext(z, w - w0, x[0]);
    case JG_OP_SEXT:
        return w == w0 ? x[0] : Z3_mk_sign_ext(z, w - w0, x[0]);
    case JG_OP_TRUNC:
        return w == w0 ? x[0] : Z3_mk_extract(z, w - 1, 0, x[0]);
    default:
        return NULL;
    }
}

/* Whether `claim` holds for every value of its free constants; prints a
 * counterexample when it does not. */
static bool z3_proves(Z3_context z, Z3_solver s, Z3_ast claim, const char *what)
{
    Z3_solver_reset(z, s);
    Z3_solver_assert(z, s, Z3_mk_not(z, claim));
    Z3_lbool r = Z3_solver_check(z, s);
    if (r != Z3_L_FALSE) {
        fprintf(stderr, "not proved: %s\n", what);
        if (r == Z3_L_TRUE)
            fprintf(stderr, "counterexample:\n%s\n",
                    Z3_model_to_string(z, Z3_solver_get_model(z, s)));
    }
    return r == Z3_L_FALSE;
}

/* Z3's solver; with `som`, one that first puts polynomials in a normal
 * form (sums of monomials), so that ring identities at 64 bits
 * (distributivity, associativity of multiplication) are proved by
 * rewriting rather than by bit-blasting multipliers. */
static Z3_solver z3_solver(Z3_context z, bool som)
{
    if (!som) {
        Z3_solver s = Z3_mk_solver(z);
        Z3_solver_inc_ref(z, s);
        return s;
    }
    Z3_params p = Z3_mk_params(z);
    Z3_params_inc_ref(z, p);
    Z3_params_set_bool(z, p, Z3_mk_string_symbol(z, "som"), true);
    Z3_tactic simplify = Z3_tactic_using_params(z, Z3_mk_tactic(z, "simplify"), p);
    Z3_tactic_inc_ref(z, simplify);
    Z3_tactic smt = Z3_mk_tactic(z, "smt");
    Z3_tactic_inc_ref(z, smt);
    Z3_tactic both = Z3_tactic_and_then(z, simplify, smt);
    Z3_tactic_inc_ref(z, both);
    Z3_solver s = Z3_mk_solver_from_tactic(z, both);
    Z3_solver_inc_ref(z, s);
    Z3_tactic_dec_ref(z, both);
    Z3_tactic_dec_ref(z, smt);
    Z3_tactic_dec_ref(z, simplify);
    Z3_params_dec_ref(z, p);
    return s;
}

#endif
