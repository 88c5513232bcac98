/* Translation validation of the rewriting of integer code (docs/testing.md,
 * "Proofs"): random straight-line graphs of integer operations are
 * rewritten operation by operation as the partial evaluator rewrites the
 * residual operations it emits (jg_rewrite_pure: constant folding, the
 * simplified comparisons, floor division as a shift), and Z3 proves that every value of the rewritten
 * graph equals the one of the original for every value of the parameters.
 *
 * Z3_GRAPHS=N sets the number of graphs (default 3000), Z3_SEED the first
 * seed; `make proofs` runs many more. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "frontend/arena.h"
#include "frontend/ir.h"
#include "pe/rewrite.h"

#include "z3_semantics.h"

#define DEFAULT_GRAPHS 3000
#define GRAPHS_PER_CONTEXT 100
#define MAX_OPS 18

static uint64_t rng;

static uint64_t next_random(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1du;
}

static uint32_t below(uint32_t n)
{
    return (uint32_t)(next_random() % n);
}

static const JgType param_types[] = {JG_I64, JG_I64, JG_I32, JG_I16, JG_I8, JG_I1, JG_I1};
#define NPARAMS (sizeof param_types / sizeof param_types[0])

static JgType random_type(void)
{
    static const JgType types[] = {JG_I1, JG_I8, JG_I16, JG_I32, JG_I64, JG_I64, JG_I32, JG_I64};
    return types[below(sizeof types / sizeof types[0])];
}

/* A constant of `type`: mostly small or at an edge of the range, where the
 * comparisons' rewritings decide. */
static JgVal random_const(JgGraph *g, JgType type)
{
    uint64_t sb = UINT64_C(1) << (jg_type_bits(type) - 1);
    uint64_t edges[] = {0, 1, 2, UINT64_MAX, sb, sb - 1, sb + 1, 5, (uint64_t)-2};
    uint64_t bits = below(4) ? edges[below(sizeof edges / sizeof edges[0])] : next_random();
    return jg_const(g, type, bits);
}

/* A value of `type` computed so far (the latest ones more often: they are
 * where the selects and widened bools are), or a constant. */
static JgVal pick(JgGraph *g, JgType type, uint32_t const_percent)
{
    if (below(100) < const_percent)
        return random_const(g, type);
    JgVal found[64];
    uint32_t n = 0;
    for (JgVal v = g->values.count - 1; v > 0 && n < 64; v--)
        if (!jg_is_const(g, v) && jg_value_type(g, v) == type)
            found[n++] = v;
    if (n == 0)
        return random_const(g, type);
    return found[below(2) ? below(n < 4 ? n : 4) : below(n)];
}

static JgVal emit(JgGraph *g, JgOpcode opcode, JgType type, JgPred pred, uint32_t n,
                  const JgVal *args)
{
    JgVal r = jg_emit(g, 0, opcode, type, n, args);
    jg_last_op(g, 0)->pred = (uint8_t)pred;
    return r;
}

/* A small constant of `type` (an interpreter's -1, 0, 1 of a three-way
 * compare, a widened bool's 0 and 1) or an edge one. */
static JgVal small_const(JgGraph *g, JgType type)
{
    static const uint64_t small[] = {0, 1, 2, UINT64_MAX, (uint64_t)-2};
    return below(5) ? jg_const(g, type, small[below(5)]) : random_const(g, type);
}

/* A comparison of the shapes interpreters leave in residual graphs, which
 * the simplified comparisons rewrite: a widened bool, a select (of
 * selects: a three-way compare) or a bool, against a constant. */
static void shaped_compare(JgGraph *g, JgType t)
{
    if (t == JG_I1)
        t = JG_I64;
    JgVal x;
    switch (below(4)) {
    case 0:
        x = emit(g, JG_OP_ZEXT, t, 0, 1, (JgVal[]){pick(g, JG_I1, 5)});
        break;
    case 1:
        x = emit(g, JG_OP_SELECT, t, 0, 3,
                 (JgVal[]){pick(g, JG_I1, 5), small_const(g, t),
                           below(3) ? small_const(g, t) : pick(g, t, 0)});
        break;
    case 2: {
        JgVal inner = emit(g, JG_OP_SELECT, t, 0, 3,
                           (JgVal[]){pick(g, JG_I1, 5), small_const(g, t), small_const(g, t)});
        x = emit(g, JG_OP_SELECT, t, 0, 3, (JgVal[]){pick(g, JG_I1, 5), small_const(g, t), inner});
        break;
    }
    default:
        t = JG_I1;
        x = pick(g, JG_I1, 5);
    }
    JgVal args[2] = {x, small_const(g, t)};
    if (below(5) == 0) {
        args[0] = args[1];
        args[1] = x;
    }
    emit(g, JG_OP_ICMP, JG_I1, (JgPred)below(JG_SLE + 1), 2, args);
}

/* An interpreter's floor division of x by a constant c: x sdiv c, less
 * one where x and c differ in sign and x srem c != 0 (each test and
 * operand in either order), which the rewriting turns into a shift where
 * c is a positive power of two (pe/rewrite.c, floor_shift). */
static void floor_shape(JgGraph *g, JgType t)
{
    if (t == JG_I1)
        t = JG_I64;
    unsigned w = jg_type_bits(t);
    /* x a parameter: Z3 bit-blasts the division of whatever x is, and the
     * rule itself is proved for every x (test_proofs.c) */
    JgVal x = 0;
    for (JgVal v = 1; v < g->values.count && !x; v++)
        if (jg_value(g, v)->kind == JG_VK_PARAM && jg_value_type(g, v) == t && below(2))
            x = v;
    if (!x)
        x = pick(g, t, 5);
    JgVal c = below(4) ? jg_const(g, t, UINT64_C(1) << (1 + below(w - 1))) : random_const(g, t);
    JgVal zero = jg_const(g, t, 0);
    JgVal q = emit(g, JG_OP_SDIV, t, 0, 2, (JgVal[]){x, c});
    JgVal r = emit(g, JG_OP_SREM, t, 0, 2, (JgVal[]){x, c});
    JgVal inexact = emit(g, JG_OP_ICMP, JG_I1, JG_NE, 2,
                         below(2) ? (JgVal[]){r, zero} : (JgVal[]){zero, r});
    JgVal sign;
    if (below(3)) {
        JgVal differ = emit(g, JG_OP_XOR, t, 0, 2, below(2) ? (JgVal[]){c, x} : (JgVal[]){x, c});
        sign = below(2) ? emit(g, JG_OP_ICMP, JG_I1, JG_SLT, 2, (JgVal[]){differ, zero})
                        : emit(g, JG_OP_ICMP, JG_I1, JG_SGT, 2, (JgVal[]){zero, differ});
    } else {
        sign = emit(g, JG_OP_ICMP, JG_I1, JG_SLT, 2, (JgVal[]){x, zero});
    }
    JgVal both =
        emit(g, JG_OP_AND, JG_I1, 0, 2, below(2) ? (JgVal[]){sign, inexact} : (JgVal[]){inexact, sign});
    JgVal less = emit(g, JG_OP_SEXT, t, 0, 1, (JgVal[]){both});
    emit(g, JG_OP_ADD, t, 0, 2, below(2) ? (JgVal[]){q, less} : (JgVal[]){less, q});
}

/* One random operation appended to block 0. */
static void random_op(JgGraph *g)
{
    static const JgOpcode binary[] = {JG_OP_ADD,  JG_OP_SUB,  JG_OP_MUL, JG_OP_SDIV, JG_OP_UDIV,
                                      JG_OP_SREM, JG_OP_UREM, JG_OP_AND, JG_OP_OR,   JG_OP_XOR,
                                      JG_OP_SHL,  JG_OP_LSHR, JG_OP_ASHR};
    JgType t = random_type();
    uint32_t kind = below(100);
    if (kind < 4) {
        floor_shape(g, t);
    } else if (kind < 25) {
        JgOpcode op = binary[below(sizeof binary / sizeof binary[0])];
        JgVal args[2] = {pick(g, t, 10), pick(g, t, 40)};
        if (below(3) == 0) { /* x op 0, 1 or -1, either side: the identities */
            args[1] = small_const(g, t);
            if (below(4) == 0) {
                args[1] = args[0];
                args[0] = small_const(g, t);
            }
        }
        emit(g, op, t, 0, 2, args);
    } else if (kind < 45) {
        shaped_compare(g, t);
    } else if (kind < 60) { /* comparisons, of a constant mostly, either side */
        JgVal a = pick(g, t, 5), b = pick(g, t, 70);
        JgVal args[2] = {a, b};
        if (below(5) == 0) {
            args[0] = b;
            args[1] = a;
        }
        emit(g, JG_OP_ICMP, JG_I1, (JgPred)below(JG_SLE + 1), 2, args);
    } else if (kind < 72) {
        emit(g, JG_OP_SELECT, t, 0, 3,
             (JgVal[]){pick(g, JG_I1, 5), pick(g, t, 40), pick(g, t, 40)});
    } else if (kind < 88) { /* widened bools, and widened values */
        JgType from = below(3) ? JG_I1 : random_type();
        if (from == JG_I64)
            from = JG_I1;
        if (t <= from)
            t = JG_I64;
        emit(g, below(4) ? JG_OP_ZEXT : JG_OP_SEXT, t, 0, 1, (JgVal[]){pick(g, from, 5)});
    } else if (kind < 94) {
        if (t == JG_I64)
            t = JG_I32;
        JgType from = (JgType)(t + 1 + below(JG_I64 - t));
        emit(g, JG_OP_TRUNC, t, 0, 1, (JgVal[]){pick(g, from, 5)});
    } else { /* on constants only: folded */
        JgOpcode op = binary[below(sizeof binary / sizeof binary[0])];
        emit(g, op, t, 0, 2, (JgVal[]){random_const(g, t), random_const(g, t)});
    }
}

/* The Z3 term of every value of g (params: the shared variables). */
static Z3_ast term(Z3_context z, const JgGraph *g, JgVal v, Z3_ast *memo, const Z3_ast *params)
{
    if (memo[v])
        return memo[v];
    const JgValueInfo *info = jg_value(g, v);
    unsigned w = jg_type_bits(info->type);
    if (info->kind == JG_VK_CONST)
        return memo[v] = bv(z, w, info->bits);
    if (info->kind == JG_VK_PARAM)
        return memo[v] = params[info->index];
    const JgOp *op = &g->blocks.items[info->block].ops.items[info->index];
    Z3_ast x[3];
    for (uint32_t i = 0; i < op->nargs; i++)
        x[i] = term(z, g, op->args[i], memo, params);
    Z3_ast r = z3_op(z, (JgOpcode)op->opcode, w, (JgPred)op->pred,
                     jg_type_bits(jg_value_type(g, op->args[0])), x);
    if (!r)
        fail_msg("no model for opcode %d", op->opcode);
    return memo[v] = r;
}

typedef struct Totals {
    uint64_t graphs, ops, emitted, constant, rewritten, solved, shifts;
} Totals;

/* One graph: built, rewritten, proved. */
static void validate(Z3_context z, Z3_solver s, uint64_t seed, Totals *totals)
{
    JgArena arena = {0};
    rng = seed * 0x9e3779b97f4a7c15u + 1;
    JgGraph *in = jg_graph_new(&arena, "in", JG_VOID, NPARAMS, param_types);
    JgGraph *out = jg_graph_new(&arena, "out", JG_VOID, NPARAMS, param_types);
    assert_non_null(in);
    assert_non_null(out);
    uint32_t nops = 4 + below(MAX_OPS - 3);
    for (uint32_t i = 0; i < nops; i++)
        random_op(in);
    jg_set_return(in, 0, 0);
    /* the rewriting, operation by operation, as the partial evaluator emits */
    JgVal *map = calloc(in->values.count, sizeof *map);
    assert_non_null(map);
    for (uint32_t p = 0; p < NPARAMS; p++)
        map[in->blocks.items[0].params[p]] = out->blocks.items[0].params[p];
    const JgBlock *bk = &in->blocks.items[0];
    for (uint32_t o = 0; o < bk->ops.count; o++) {
        JgOp op = bk->ops.items[o];
        JgVal args[3];
        for (uint32_t i = 0; i < op.nargs; i++)
            args[i] = jg_is_const(in, op.args[i]) ? jg_const(out, jg_value_type(in, op.args[i]),
                                                             jg_value(in, op.args[i])->bits)
                                                  : map[op.args[i]];
        bool emitted;
        JgVal r = jg_rewrite_pure(out, 0, &op, args, &emitted);
        map[op.result] = r;
        totals->ops++;
        totals->emitted += emitted;
        totals->constant += !emitted && jg_is_const(out, r);
        totals->rewritten += !emitted && !jg_is_const(out, r);
        const JgOp *def = jg_def_in(out, 0, r);
        totals->shifts += op.opcode == JG_OP_ADD && def && def->opcode == JG_OP_ASHR;
    }
    jg_set_return(out, 0, 0);
    char err[256];
    if (!jg_verify_graph(out, err, sizeof err))
        fail_msg("seed %llu: the rewritten graph is invalid: %s", (unsigned long long)seed, err);
    /* every value of the original equals its rewritten value */
    Z3_ast params[NPARAMS];
    for (uint32_t p = 0; p < NPARAMS; p++) {
        char name[8];
        snprintf(name, sizeof name, "p%u", p);
        params[p] = bv_var(z, name, jg_type_bits(param_types[p]));
    }
    Z3_ast *memo_in = calloc(in->values.count, sizeof *memo_in);
    Z3_ast *memo_out = calloc(out->values.count, sizeof *memo_out);
    assert_true(memo_in && memo_out);
    /* value by value, in order: a value whose two terms Z3's rewriting
     * makes one term (Z3 shares equal terms) is equal already, the solver
     * proves the others; then the rewritten value's term is the original's,
     * so that a later value is proved from its own operation (a division
     * of a rewritten value would otherwise be bit-blasted twice) */
    bool solved = false;
    for (uint32_t o = 0; o < bk->ops.count; o++) {
        JgVal v = bk->ops.items[o].result;
        Z3_ast a = term(z, in, v, memo_in, params), b = term(z, out, map[v], memo_out, params);
        Z3_ast sa = Z3_simplify(z, a), sb = Z3_simplify(z, b);
        if (!Z3_is_eq_ast(z, sa, sb)) {
            char what[64];
            snprintf(what, sizeof what, "v%u of seed %llu", v, (unsigned long long)seed);
            solved = true;
            if (!z3_proves(z, s, Z3_mk_eq(z, sa, sb), what)) {
                jg_print_graph(stderr, in, NULL, NULL);
                jg_print_graph(stderr, out, NULL, NULL);
                fail_msg("seed %llu: v%u of the rewritten graph differs from the original",
                         (unsigned long long)seed, v);
            }
        }
        if (!jg_is_const(out, map[v]))
            memo_out[map[v]] = a;
    }
    totals->solved += solved;
    totals->graphs++;
    free(memo_in);
    free(memo_out);
    free(map);
    jg_arena_free(&arena);
}

static uint64_t env_number(const char *name, uint64_t otherwise)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return otherwise;
    char *end;
    unsigned long long n = strtoull(s, &end, 10);
    if (*end)
        fail_msg("%s=%s: not a number", name, s);
    return n;
}

static void random_graphs(void **state)
{
    (void)state;
    uint64_t n = env_number("Z3_GRAPHS", DEFAULT_GRAPHS), first = env_number("Z3_SEED", 1);
    Totals totals = {0};
    Z3_context z = NULL;
    Z3_solver s = NULL;
    for (uint64_t i = 0; i < n; i++) {
        if (i % GRAPHS_PER_CONTEXT == 0) {
            if (z) {
                Z3_solver_dec_ref(z, s);
                Z3_del_context(z);
            }
            z = z3_new();
            s = z3_solver(z, false);
        }
        validate(z, s, first + i, &totals);
    }
    if (z) {
        Z3_solver_dec_ref(z, s);
        Z3_del_context(z);
    }
    printf("%llu graphs (seeds %llu..%llu), %llu operations: %llu emitted as they are, %llu "
           "constants, %llu other values (comparisons, identities, repeats); %llu graphs needed "
           "the solver; %llu floor divisions became shifts\n",
           (unsigned long long)totals.graphs, (unsigned long long)first,
           (unsigned long long)(first + n - 1), (unsigned long long)totals.ops,
           (unsigned long long)totals.emitted, (unsigned long long)totals.constant,
           (unsigned long long)totals.rewritten, (unsigned long long)totals.solved,
           (unsigned long long)totals.shifts);
    assert_int_equal(totals.graphs, n);
    /* the graphs exercise every kind of rewriting */
    if (n >= 100) {
        assert_true(totals.constant > 0);
        assert_true(totals.rewritten > 0);
        assert_true(totals.solved > 0);
        assert_true(totals.shifts > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_graphs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
