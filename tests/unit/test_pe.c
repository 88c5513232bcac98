/* The partial evaluator on the TLC interpreter: results equal the native
 * interpreter's, and the residual graphs have the shape the design promises
 * (no allocation, call or opcode dispatch inside loops; promotion through
 * flexswitches). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gc.h>

#include "pe/pe.h"
#include "tlc/engines.h"
#include "tlc/errors.h"
#include "tlc/loader.h"
#include "tlc/values.h"

#ifndef EXAMPLES_DIR
#error EXAMPLES_DIR must name the examples folder
#endif

typedef struct Run {
    int status;
    char *text;
    uint64_t allocations;
} Run;

static Run run_file(const char *name, int64_t n, TlcEngineFn engine)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", EXAMPLES_DIR, name);
    TlcDiag diag;
    int st;
    TlcProgram *prog = tlc_load_file(path, &diag, &st);
    if (!prog)
        fail_msg("%s", diag.message);
    TlcCode *code = tlc_code_new(prog);
    assert_non_null(code);
    Run r = {0};
    size_t size;
    FILE *mem = open_memstream(&r.text, &size);
    assert_non_null(mem);
    tlc_out = mem;
    uint64_t before = tlc_allocations;
    TlcObject *result = NULL;
    r.status = tlc_execute(code, engine, n, &result);
    r.allocations = tlc_allocations - before;
    if (r.status == 0 && result)
        tlc_print(result);
    tlc_out = NULL;
    fclose(mem);
    tlc_code_free(code);
    tlc_program_free(prog);
    return r;
}

static int setup(void **state)
{
    (void)state;
    JgDriverOptions options = {.engine = JG_ENGINE_PE};
    char err[512];
    if (!tlc_engines_init(&options, err, sizeof err))
        fail_msg("driver: %s", err);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tlc_engines_shutdown();
    return 0;
}

/* Blocks that lie on a cycle of the residual graph (Tarjan's SCCs). */
typedef struct Scc {
    const JgGraph *g;
    uint32_t *index, *low, *stack;
    uint8_t *on_stack, *in_cycle;
    uint32_t counter, top;
} Scc;

static void strongconnect(Scc *s, uint32_t v)
{
    s->index[v] = s->low[v] = ++s->counter;
    s->stack[s->top++] = v;
    s->on_stack[v] = 1;
    const JgTerm *t = &s->g->blocks.items[v].term;
    for (uint32_t i = 0; i < t->nlinks; i++) {
        uint32_t w = t->links[i].target;
        if (w == UINT32_MAX)
            continue;
        if (w == v)
            s->in_cycle[v] = 1;
        if (!s->index[w]) {
            strongconnect(s, w);
            if (s->low[w] < s->low[v])
                s->low[v] = s->low[w];
        } else if (s->on_stack[w] && s->index[w] < s->low[v]) {
            s->low[v] = s->index[w];
        }
    }
    if (s->low[v] == s->index[v]) {
        uint32_t size = 0, w;
        uint32_t start = s->top;
        do {
            w = s->stack[--start];
            size++;
        } while (w != v);
        do {
            w = s->stack[--s->top];
            s->on_stack[w] = 0;
            if (size > 1)
                s->in_cycle[w] = 1;
        } while (w != v);
    }
}

typedef struct LoopCounts {
    unsigned loop_blocks, loop_ops, loop_calls, loop_switches, loop_allocas;
    unsigned flexswitches;
    unsigned loop_variable_divisions; /* sdiv and srem by a divisor not constant */
    unsigned loop_constant_divisions; /* and by a constant */
    unsigned loop_likely_divisions;   /* by a variable, with a likely divisor (its bits
                                         summed in likely_divisor_sum) */
    uint64_t likely_divisor_sum;
} LoopCounts;

static LoopCounts count_loops(const JgGraph *g)
{
    uint32_t n = g->blocks.count;
    Scc s = {g, calloc(n, 4), calloc(n, 4), calloc(n, 4), calloc(n, 1), calloc(n, 1), 0, 0};
    assert_non_null(s.index);
    for (uint32_t b = 0; b < n; b++)
        if (!s.index[b])
            strongconnect(&s, b);
    LoopCounts c = {0};
    for (uint32_t b = 0; b < n; b++) {
        const JgBlock *blk = &g->blocks.items[b];
        if (blk->term.kind == JG_TERM_FLEXSWITCH)
            c.flexswitches++;
        if (!s.in_cycle[b])
            continue;
        c.loop_blocks++;
        c.loop_ops += blk->ops.count;
        for (uint32_t o = 0; o < blk->ops.count; o++) {
            if (blk->ops.items[o].opcode == JG_OP_CALL)
                c.loop_calls++;
            if (blk->ops.items[o].opcode == JG_OP_ALLOCA)
                c.loop_allocas++;
            const JgOp *op = &blk->ops.items[o];
            if (op->opcode == JG_OP_SDIV || op->opcode == JG_OP_SREM) {
                if (jg_value(g, op->args[1])->kind != JG_VK_CONST)
                    c.loop_variable_divisions++;
                else
                    c.loop_constant_divisions++;
                if (op->likely) {
                    c.loop_likely_divisions++;
                    c.likely_divisor_sum += jg_value(g, op->likely)->bits;
                }
            }
        }
        if (blk->term.kind == JG_TERM_SWITCH || blk->term.kind == JG_TERM_FLEXSWITCH)
            c.loop_switches++;
    }
    free(s.index);
    free(s.low);
    free(s.stack);
    free(s.on_stack);
    free(s.in_cycle);
    return c;
}

/* The residual graph of the program's top-level key (pc 0). */
static const JgResidual *top_residual(void)
{
    JgPe *pe = jg_driver_pe(tlc_engines_driver());
    const JgResidual *found = NULL;
    for (JgResidual *r = jg_pe_residuals(pe); r; r = r->next)
        if (r->green_args[1] == 0)
            found = r;
    assert_non_null(found);
    return found;
}

static const JgGraph *top_graph(void)
{
    return top_residual()->graph;
}

static void check_loop(const char *file, int64_t n)
{
    Run native = run_file(file, n, tlc_eval);
    tlc_engines_shutdown();
    JgDriverOptions options = {.engine = JG_ENGINE_PE};
    char err[512];
    assert_true(tlc_engines_init(&options, err, sizeof err));
    Run pe = run_file(file, n, tlc_eval_driver);
    assert_int_equal(pe.status, native.status);
    assert_string_equal(pe.text, native.text);
    /* allocations do not grow with n: the input box and the result */
    assert_true(pe.allocations <= 5);
    LoopCounts c = count_loops(top_graph());
    assert_true(c.loop_blocks > 0);    /* the TLC loop is a residual loop */
    assert_int_equal(c.loop_calls, 0); /* no allocation, no call */
    assert_int_equal(c.loop_allocas, 0);
    assert_int_equal(c.loop_switches, 0); /* no dispatch on opcodes, no promotion */
    /* the input came as its word, its type in the key (value arguments) */
    assert_non_null(top_residual()->arg_shapes);
    free(native.text);
    free(pe.text);
}

static void test_factorial_loop(void **state)
{
    (void)state;
    check_loop("factorial.tlc", 100000);
}

static void test_fibonacci_loop(void **state)
{
    (void)state;
    check_loop("fibonacci.tlc", 100000);
}

static void test_accumulator_loop(void **state)
{
    (void)state;
    check_loop("accumulator.tlc", 100000);
    check_loop("accumulator.tlc", -100000);
}

/* Tiered execution: the native interpreter runs `threshold` iterations and
 * hands the frame over at the loop's head with its operand stack; the
 * loop specialized from there is as allocation-free as one specialized
 * from the frame's start. Returns the allocations of the run. */
static uint64_t run_tiered(const char *file, int64_t n, int64_t threshold, JgEngine engine)
{
    Run native = run_file(file, n, tlc_eval);
    tlc_engines_shutdown();
    JgDriverOptions options = {.engine = engine, .tiered = true};
    char err[512];
    assert_true(tlc_engines_init(&options, err, sizeof err));
    tlc_engines_tier(threshold);
    Run tiered = run_file(file, n, tlc_eval);
    assert_int_equal(tiered.status, native.status);
    assert_string_equal(tiered.text, native.text);
    /* something was handed over */
    assert_true(jg_pe_stats(jg_driver_pe(tlc_engines_driver()))->specializations >= 1);
    tlc_engines_shutdown();
    options = (JgDriverOptions){.engine = JG_ENGINE_PE};
    assert_true(tlc_engines_init(&options, err, sizeof err));
    free(native.text);
    free(tiered.text);
    return tiered.allocations;
}

static void test_tiered_loops_stay_virtual(void **state)
{
    (void)state;
    /* factorial and fibonacci box their numbers in the interpreter (five
     * allocations an iteration there), none once handed over. The
     * accumulator's object was allocated by the interpreter before the
     * hand-over: it is real memory, and the box stored into its attribute
     * every iteration stays virtual as a pending store (pe/pending.c); the
     * allocations do not grow with the number of iterations */
    for (JgEngine e = JG_ENGINE_PE; e <= JG_ENGINE_JIT; e++) {
        assert_true(run_tiered("factorial.tlc", 100000, 10, e) <= 10 * 5 + 5);
        assert_true(run_tiered("fibonacci.tlc", 100000, 10, e) <= 10 * 6 + 5);
        for (int64_t sign = -1; sign <= 1; sign += 2) {
            uint64_t few = run_tiered("accumulator.tlc", sign * 1000, 10, e);
            assert_true(few < 100);
            assert_int_equal(run_tiered("accumulator.tlc", sign * 100000, 10, e), few);
        }
    }
}

/* The loops of the residual graphs of a run of `file` handed over at
 * threshold 10 (their counts summed), `no_guesses` the value of
 * JITGEN_NO_GUESSES, and the partial evaluator's statistics; the output
 * checked against the interpreter's. */
static LoopCounts run_handed_over(const char *file, int64_t n, const char *no_guesses,
                                  JgPeStats *stats)
{
    Run native = run_file(file, n, tlc_eval);
    tlc_engines_shutdown();
    assert_int_equal(setenv("JITGEN_NO_GUESSES", no_guesses, 1), 0);
    JgDriverOptions options = {.engine = JG_ENGINE_PE, .tiered = true};
    char err[512];
    assert_true(tlc_engines_init(&options, err, sizeof err));
    tlc_engines_tier(10);
    Run tiered = run_file(file, n, tlc_eval);
    assert_int_equal(tiered.status, native.status);
    assert_string_equal(tiered.text, native.text);
    JgPe *pe = jg_driver_pe(tlc_engines_driver());
    LoopCounts sum = {0};
    unsigned loops = 0;
    for (JgResidual *r = jg_pe_residuals(pe); r; r = r->next) {
        LoopCounts c = count_loops(r->graph);
        sum.loop_variable_divisions += c.loop_variable_divisions;
        sum.loop_constant_divisions += c.loop_constant_divisions;
        sum.loop_likely_divisions += c.loop_likely_divisions;
        sum.likely_divisor_sum += c.likely_divisor_sum;
        loops += c.loop_blocks > 0;
    }
    assert_true(loops >= 1);
    *stats = *jg_pe_stats(pe);
    tlc_engines_shutdown();
    assert_int_equal(unsetenv("JITGEN_NO_GUESSES"), 0);
    options = (JgDriverOptions){.engine = JG_ENGINE_PE};
    assert_true(tlc_engines_init(&options, err, sizeof err));
    free(native.text);
    free(tiered.text);
    return sum;
}

/* run_handed_over with environment variable `name` set to "1". */
static LoopCounts run_handed_over_with(const char *name, const char *file, int64_t n,
                                       const char *no_guesses, JgPeStats *stats)
{
    assert_int_equal(setenv(name, "1", 1), 0);
    LoopCounts c = run_handed_over(file, n, no_guesses, stats);
    assert_int_equal(unsetenv(name), 0);
    return c;
}

/* Integers pushed before a loop, a modulus and an offset, stay constants
 * once the loop is handed over (pe/guess.c): no division by a variable in
 * the loop, where without guessing the floor modulo divides by one twice.
 * A modulus alone, which the graph only divides by, is not assumed: its
 * divisions are marked with it (likely divisors), one specialization. */
static void test_hand_over_guesses_invariants(void **state)
{
    (void)state;
    const char *file = "../tests/cases/pe_guess_offset.tlc";
    JgPeStats stats;
    assert_int_equal(run_handed_over(file, 5000, "0", &stats).loop_variable_divisions, 0);
    assert_int_equal(stats.host_guesses, 2);
    assert_true(run_handed_over(file, 5000, "1", &stats).loop_variable_divisions >= 1);
    assert_int_equal(stats.host_guesses, 0);
    LoopCounts alone = run_handed_over("../tests/cases/pe_guess_modulus.tlc", 5000, "0", &stats);
    assert_int_equal(stats.host_guesses, 0);
    assert_int_equal(stats.specializations, 1);
    assert_true(alone.loop_variable_divisions >= 1);
    assert_int_equal(alone.loop_likely_divisions, alone.loop_variable_divisions);
    assert_int_equal(alone.likely_divisor_sum, 10007 * (uint64_t)alone.loop_likely_divisions);
}

/* The same modulus in a loop whose send goes through a flexswitch before
 * the loop closes: the entry assumes nothing; with JITGEN_LATE_GUESSES=1
 * the header is specialized again on the modulus once a case closes the
 * loop (guess_late), and a loop of the graph divides by the constant;
 * without (the default), or without guessing at all, none does. */
static void test_hand_over_guesses_late(void **state)
{
    (void)state;
    const char *file = "../tests/cases/pe_guess_late.tlc";
    JgPeStats stats;
    LoopCounts off = run_handed_over(file, 5000, "0", &stats);
    assert_int_equal(stats.late_guesses, 0);
    assert_int_equal(off.loop_constant_divisions, 0);
    LoopCounts guessed = run_handed_over_with("JITGEN_LATE_GUESSES", file, 5000, "0", &stats);
    assert_int_equal(stats.host_guesses, 0);
    assert_int_equal(stats.late_guesses, 1);
    assert_true(guessed.loop_constant_divisions >= 1);
    LoopCounts plain = run_handed_over_with("JITGEN_LATE_GUESSES", file, 5000, "1", &stats);
    assert_int_equal(stats.late_guesses, 0);
    assert_int_equal(plain.loop_constant_divisions, 0);
    assert_true(plain.loop_variable_divisions >= 1);
}

/* A modulus the hand-over cannot assume (the loop's first trip stops at a
 * flexswitch, the class of an object the interpreter allocated): every
 * division of the graph's loops by it carries the value the first call
 * handed over, 10007, as its likely divisor (guess_divisors); the later
 * calls with other moduli run the same graph (one specialization) with the
 * interpreter's output. None with JITGEN_NO_LIKELY_DIVISORS=1, nor without
 * guessing. */
static void test_hand_over_likely_divisors(void **state)
{
    (void)state;
    const char *file = "../tests/cases/pe_likely_divisor.tlc";
    JgPeStats stats;
    LoopCounts marked = run_handed_over(file, 3000, "0", &stats);
    assert_int_equal(stats.host_guesses, 0);
    assert_int_equal(stats.specializations, 1);
    /* two where the interpreter's remainder is an srem (x86-64), one where
     * its bitcode computes it from the quotient (AArch64: no divrem) */
    assert_true(marked.loop_variable_divisions >= 1);
    assert_int_equal(marked.loop_likely_divisions, marked.loop_variable_divisions);
    assert_int_equal(marked.likely_divisor_sum, 10007 * (uint64_t)marked.loop_likely_divisions);
    assert_true(stats.likely_divisors >= marked.loop_likely_divisions);
    LoopCounts plain = run_handed_over_with("JITGEN_NO_LIKELY_DIVISORS", file, 3000, "0", &stats);
    assert_int_equal(stats.likely_divisors, 0);
    assert_int_equal(plain.loop_likely_divisions, 0);
    assert_int_equal(plain.loop_variable_divisions, marked.loop_variable_divisions);
    run_handed_over(file, 3000, "1", &stats);
    assert_int_equal(stats.likely_divisors, 0);
}

/* A loop whose whole state is constants and whose current-node slot holds
 * another of five virtual objects every trip (tests/cases/pe_hard_bound.tlc,
 * a random program): specialized from the frame's start, the hard bound of
 * blocks per merge-point key (pe/merge.c) keeps the graph to a few thousand
 * blocks without an exit; before it, every key past its bound made a new
 * block at each arrival until the budgets ended the compilations (14,000
 * blocks, seven exits). */
static void test_pe_hard_bound(void **state)
{
    (void)state;
    const char *file = "../tests/cases/pe_hard_bound.tlc";
    Run native = run_file(file, -2, tlc_eval);
    tlc_engines_shutdown();
    JgDriverOptions options = {.engine = JG_ENGINE_PE};
    char err[512];
    assert_true(tlc_engines_init(&options, err, sizeof err));
    Run start = run_file(file, -2, tlc_eval_driver);
    assert_int_equal(start.status, native.status);
    assert_string_equal(start.text, native.text);
    const JgPeStats *stats = jg_pe_stats(jg_driver_pe(tlc_engines_driver()));
    assert_int_equal(stats->exits, 0);
    assert_true(stats->residual_blocks < 5000);
    free(native.text);
    free(start.text);
}

/* A stack of nodes in an object the interpreter allocated, pushed on some
 * trips of a handed-over loop: the pushed node, kept pending in the
 * object's `top`, grew the loop by one block per node pushed; with the
 * stores of nodes that the block a trip came from did not keep emitted at
 * the header (pending_narrow), the handed-over loop is no larger than the
 * loop compiled from the frame's start. */
static void test_hand_over_pending_links(void **state)
{
    (void)state;
    const char *file = "../tests/cases/pe_pending_links.tlc";
    JgPeStats handed;
    run_handed_over(file, 5000, "0", &handed);
    Run start = run_file(file, 5000, tlc_eval_driver);
    assert_int_equal(start.status, 0);
    free(start.text);
    const JgPeStats *from_start = jg_pe_stats(jg_driver_pe(tlc_engines_driver()));
    assert_true(handed.pending_stores > 0);
    assert_true(handed.residual_ops <= from_start->residual_ops);
    assert_true(handed.flexswitch_cases <= from_start->flexswitch_cases + 1);
}

/* Past the bound of blocks per key a boxed number stored into a handed-over
 * object's attribute stays a pending store (tests/cases/pe_pending_bound.tlc):
 * the allocations do not grow with the trips, handed over or from the
 * frame's start (they were one every fourth trip). */
static void test_hand_over_pending_bound(void **state)
{
    (void)state;
    const char *file = "../tests/cases/pe_pending_bound.tlc";
    for (JgEngine e = JG_ENGINE_PE; e <= JG_ENGINE_JIT; e++) {
        uint64_t few = run_tiered(file, 2000, 10, e);
        assert_true(few < 1000);
        assert_int_equal(run_tiered(file, 40000, 10, e), few);
    }
    Run start = run_file(file, 40000, tlc_eval_driver);
    assert_int_equal(start.status, 0);
    assert_true(start.allocations < 100);
    free(start.text);
}

/* Fig. 1 / Fig. 8 of the paper: abs specializes to one flexswitch on the
 * argument's type, then an unboxed comparison; returning the argument itself
 * allocates nothing. With value arguments the type comes in the key (the
 * host's box travels as its word): no flexswitch, the same comparison. */
static void check_abs_shape(bool no_value_args)
{
    tlc_engines_shutdown();
    JgDriverOptions options = {.engine = JG_ENGINE_PE, .no_value_args = no_value_args};
    char err[512];
    assert_true(tlc_engines_init(&options, err, sizeof err));
    Run r = run_file("abs.tlc", 42, tlc_eval_driver);
    assert_string_equal(r.text, "42\n");
    assert_int_equal(r.allocations, 1); /* the input box only */
    const JgGraph *g = top_graph();
    LoopCounts c = count_loops(g);
    assert_int_equal(c.flexswitches, no_value_args ? 1 : 0);
    assert_int_equal(c.loop_blocks, 0);
    /* the compiled case compares the unboxed value: an icmp on an i64 */
    unsigned icmps = 0, calls = 0;
    for (uint32_t b = 0; b < g->blocks.count; b++)
        for (uint32_t o = 0; o < g->blocks.items[b].ops.count; o++) {
            const JgOp *op = &g->blocks.items[b].ops.items[o];
            if (op->opcode == JG_OP_ICMP && jg_value_type(g, op->args[0]) == JG_I64)
                icmps++;
            if (op->opcode == JG_OP_CALL)
                calls++;
        }
    assert_true(icmps >= 1);
    assert_true(calls <= 1); /* only the negative path boxes its result */
    free(r.text);
    Run neg = run_file("abs.tlc", -42, tlc_eval_driver);
    assert_string_equal(neg.text, "42\n");
    free(neg.text);
}

static void test_abs_shape(void **state)
{
    (void)state;
    check_abs_shape(true);
    check_abs_shape(false);
    tlc_engines_shutdown();
    JgDriverOptions options = {.engine = JG_ENGINE_PE};
    char err[512];
    assert_true(tlc_engines_init(&options, err, sizeof err));
}

/* The statistics lines of the driver, as one string. */
static char *driver_stats(void)
{
    char *text = NULL;
    size_t size;
    FILE *mem = open_memstream(&text, &size);
    assert_non_null(mem);
    jg_driver_print_stats(tlc_engines_driver(), mem);
    fclose(mem);
    return text;
}

/* The value of `name: value` in a stats text. */
static double stat_value(const char *text, const char *name)
{
    const char *p = strstr(text, name);
    if (!p)
        fail_msg("no %s in:\n%s", name, text);
    return strtod(p + strlen(name) + 2, NULL);
}

/* Runs `file` with input `n` under a partial evaluator started afresh with
 * `options`, checks its output and status against `native`'s, and reads
 * two of its statistics. */
static void run_pe_stats(JgDriverOptions options, const char *file, int64_t n, const Run *native,
                         const char *name_a, double *a, const char *name_b, double *b)
{
    tlc_engines_shutdown();
    char err[512];
    assert_true(tlc_engines_init(&options, err, sizeof err));
    Run pe = run_file(file, n, tlc_eval_driver);
    assert_int_equal(pe.status, native->status);
    assert_string_equal(pe.text, native->text);
    char *stats = driver_stats();
    *a = stat_value(stats, name_a);
    *b = stat_value(stats, name_b);
    free(stats);
    free(pe.text);
}

/* The paper's "JIT 2": a second run of the same program in the same process
 * reuses the compiled code: no specialization, no LLVM method, no miss. */
static void test_jit_second_run_compiles_nothing(void **state)
{
    (void)state;
    tlc_engines_shutdown();
    JgDriverOptions options = {.engine = JG_ENGINE_JIT};
    char err[512];
    assert_true(tlc_engines_init(&options, err, sizeof err));
    char path[512];
    snprintf(path, sizeof path, "%s/%s", EXAMPLES_DIR, "accumulator.tlc");
    TlcDiag diag;
    int st;
    TlcProgram *prog = tlc_load_file(path, &diag, &st);
    assert_non_null(prog);
    TlcCode *code = tlc_code_new(prog);
    assert_non_null(code);
    TlcObject *result = NULL;
    assert_int_equal(tlc_execute(code, tlc_eval_driver, 1000, &result), 0);
    assert_int_equal(((TlcInt *)result)->value, 500500);
    char *first = driver_stats();
    assert_int_equal(tlc_execute(code, tlc_eval_driver, 2000, &result), 0);
    assert_int_equal(((TlcInt *)result)->value, 2001000);
    char *second = driver_stats();
    const char *unchanged[] = {"pe.specializations",    "pe.flexswitch_cases",
                               "jit.methods.primary",   "jit.methods.secondary",
                               "run.flexswitch_misses", "jit.code_bytes"};
    for (size_t i = 0; i < sizeof unchanged / sizeof unchanged[0]; i++)
        assert_true(stat_value(first, unchanged[i]) == stat_value(second, unchanged[i]));
    assert_true(stat_value(first, "jit.methods.primary") >= 1);
    free(first);
    free(second);
    tlc_code_free(code);
    tlc_program_free(prog);
}

/* Without virtual objects every operation of the loop body promotes the type
 * of a value read from memory, so every compilation ends at a flexswitch
 * before its loop closes. The loop must still close across compilations:
 * the compiled cases and the residual blocks do not grow with n. */
static void test_no_virtuals_loop_closes(void **state)
{
    (void)state;
    const char *files[] = {"factorial.tlc", "fibonacci.tlc", "accumulator.tlc"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        double cases[2], blocks[2];
        int64_t ns[2] = {50, 500};
        for (int k = 0; k < 2; k++) {
            Run native = run_file(files[i], ns[k], tlc_eval);
            run_pe_stats((JgDriverOptions){.engine = JG_ENGINE_PE, .no_virtuals = true}, files[i],
                         ns[k], &native, "pe.flexswitch_cases", &cases[k], "pe.residual_blocks",
                         &blocks[k]);
            free(native.text);
        }
        assert_true(cases[0] >= 2); /* promotions inside the loop */
        assert_true(cases[1] == cases[0]);
        assert_true(blocks[1] == blocks[0]);
    }
}

/* pe.cold_paths and pe.residual_ops of `file` under the PE with the
 * ablation variable `var` set to 0 ([0]) and to 1 ([1]), each run checked
 * against `native`. */
static void cold_paths_with_and_without(const char *var, const char *file, int64_t n,
                                        const Run *native, double cold[2], double ops[2])
{
    for (int off = 0; off < 2; off++) {
        assert_int_equal(setenv(var, off ? "1" : "0", 1), 0);
        run_pe_stats((JgDriverOptions){.engine = JG_ENGINE_PE}, file, n, native, "pe.cold_paths",
                     &cold[off], "pe.residual_ops", &ops[off]);
    }
    assert_int_equal(unsetenv(var), 0);
}

/* A branch to an error (here the division's test for zero, with a field
 * to store first) is a flexswitch left for its first run: the results,
 * the error among them, are the interpreter's, and the residual code is
 * smaller than with the error paths specialized at once. */
static void test_cold_paths(void **state)
{
    (void)state;
    const char *file = "../tests/cases/pe_cold_zerodiv.tlc";
    Run native = run_file(file, 300, tlc_eval);
    assert_int_equal(native.status, 1);
    double cold[2], ops[2];
    cold_paths_with_and_without("JITGEN_NO_COLD_PATHS", file, 300, &native, cold, ops);
    assert_true(cold[0] >= 1);
    assert_true(cold[1] == 0);
    assert_true(ops[0] < ops[1]);
    free(native.text);
}

/* A flag tested at every inlined call (the recursion check) is known on
 * the path where a test passed: the later tests fold, each no longer a cold
 * path of its own, and the residual operations are the same. */
static void test_branch_facts(void **state)
{
    (void)state;
    const char *file = "../tests/cases/pe_branch_facts.tlc";
    Run native = run_file(file, 300, tlc_eval);
    assert_int_equal(native.status, 0);
    double cold[2], ops[2];
    cold_paths_with_and_without("JITGEN_NO_BRANCH_FACTS", file, 300, &native, cold, ops);
    assert_true(cold[0] >= 1);           /* the first test of the flag */
    assert_true(cold[1] >= 5 * cold[0]); /* one per send without the facts */
    assert_true(ops[0] == ops[1]);
    free(native.text);
}

/* Whether optimized LLVM IR has a block whose branch goes back to itself:
 * a loop LLVM rotated into one block. */
static bool has_single_block_loop(const char *ir)
{
    char label[64] = "";
    for (const char *line = ir; line && *line;
         line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        size_t len = strcspn(line, "\n");
        const char *colon = memchr(line, ':', len);
        if (line[0] != ' ' && colon && (size_t)(colon - line) < sizeof label - 2) {
            label[0] = '%';
            memcpy(label + 1, line, (size_t)(colon - line));
            label[colon - line + 1] = '\0';
            continue;
        }
        if (label[0] && strncmp(line, "  br ", 5) == 0) {
            const char *at = line;
            while ((at = strstr(at, label)) && at < line + len) {
                char next = at[strlen(label)];
                if (next == ',' || next == '\n')
                    return true;
                at++;
            }
        }
    }
    return false;
}

/* The hot loops reach LLVM with one header, although later compilations may
 * enter them elsewhere (forwarding blocks and cold landings in llvmgen):
 * LLVM rotates them into one block, and the results stay right.
 * (Factorial's and fibonacci's loops are unrolled before, pe/unroll.c: two
 * trips per pass, two exits, test below.) */
static void test_jit_loops_are_rotated(void **state)
{
    (void)state;
    const char *files[] = {"accumulator.tlc"};
    const char *expect[] = {"55\n"};
    for (size_t i = 0; i < 1; i++) {
        char *ir = NULL;
        size_t size;
        FILE *mem = open_memstream(&ir, &size);
        assert_non_null(mem);
        tlc_engines_shutdown();
        /* a boxed input: with its word, LLVM computes the loop in closed form */
        JgDriverOptions options = {.engine = JG_ENGINE_JIT,
                                   .dumps = JG_DUMP_LLVM_OPT,
                                   .dump_out = mem,
                                   .no_value_args = true};
        char err[512];
        assert_true(tlc_engines_init(&options, err, sizeof err));
        Run jit = run_file(files[i], 10, tlc_eval_driver);
        tlc_engines_shutdown();
        fclose(mem);
        assert_string_equal(jit.text, expect[i]);
        if (!has_single_block_loop(ir))
            fail_msg("%s: no single-block loop in:\n%s", files[i], ir);
        free(ir);
        free(jit.text);
    }
    JgDriverOptions options = {.engine = JG_ENGINE_PE};
    char err[512];
    assert_true(tlc_engines_init(&options, err, sizeof err));
}

/* Factorial's product loop and fibonacci's sum loop are unrolled
 * (pe/unroll.c) and compute what the interpreter computes for every trip
 * count: even and odd, leaving after either copy, wrapping (past 20!, past
 * fib(92)), and 0 from 66! on. */
static void test_recurrence_loops_unrolled(void **state)
{
    (void)state;
    const char *files[] = {"factorial.tlc", "fibonacci.tlc"};
    const int64_t ns[] = {0, 1, 2, 3, 4, 7, 20, 21, 22, 25, 65, 66, 91, 92, 93, 94, 1000, 1001};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            Run native = run_file(files[f], ns[k], tlc_eval);
            tlc_engines_shutdown();
            JgDriverOptions options = {.engine = JG_ENGINE_PE};
            char err[512];
            assert_true(tlc_engines_init(&options, err, sizeof err));
            Run pe = run_file(files[f], ns[k], tlc_eval_driver);
            assert_string_equal(pe.text, native.text);
            assert_int_equal(jg_pe_stats(jg_driver_pe(tlc_engines_driver()))->unrolled_loops, 1);
            free(native.text);
            free(pe.text);
        }
}

int main(void)
{
    GC_INIT();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_factorial_loop),
        cmocka_unit_test(test_fibonacci_loop),
        cmocka_unit_test(test_accumulator_loop),
        cmocka_unit_test(test_tiered_loops_stay_virtual),
        cmocka_unit_test(test_hand_over_guesses_invariants),
        cmocka_unit_test(test_hand_over_guesses_late),
        cmocka_unit_test(test_hand_over_likely_divisors),
        cmocka_unit_test(test_pe_hard_bound),
        cmocka_unit_test(test_hand_over_pending_links),
        cmocka_unit_test(test_hand_over_pending_bound),
        cmocka_unit_test(test_abs_shape),
        cmocka_unit_test(test_cold_paths),
        cmocka_unit_test(test_branch_facts),
        cmocka_unit_test(test_jit_second_run_compiles_nothing),
        cmocka_unit_test(test_no_virtuals_loop_closes),
        cmocka_unit_test(test_jit_loops_are_rotated),
        cmocka_unit_test(test_recurrence_loops_unrolled),
    };
    int failed = cmocka_run_group_tests(tests, setup, teardown);
    tlc_classes_free();
    return failed;
}
