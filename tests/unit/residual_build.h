/* Residual graphs built by hand for the backends' unit tests
 * (test_llvmgen.c, test_baseline.c): the ir.h builders in short, and an
 * emulated compiler whose flexswitch misses append blocks to the graph the
 * way the partial evaluator does, with the case builders both tests use.
 * Included once per test program (static definitions). */
#ifndef JITGEN_TESTS_RESIDUAL_BUILD_H
#define JITGEN_TESTS_RESIDUAL_BUILD_H

#include <string.h>

#include "flexswitch/flexswitch.h"
#include "frontend/ir.h"

#include "arena_fixture.h"

static void verified(const JgGraph *g)
{
    char err[256];
    if (!jg_verify_graph(g, err, sizeof err))
        fail_msg("verifier rejected %s: %s", g->name, err);
}

/* A residual graph: block 0 is an entry block. */
static JgGraph *residual(const char *name, JgType ret, uint32_t n, const JgType *types)
{
    JgGraph *g = jg_graph_new(&arena, name, ret, n, types);
    g->flags |= JG_FLAG_RESIDUAL;
    g->blocks.items[0].flags |= JG_BLOCK_ENTRY;
    return g;
}

static JgVal P(const JgGraph *g, uint32_t block, uint32_t i)
{
    return g->blocks.items[block].params[i];
}

static JgVal op1(JgGraph *g, uint32_t b, JgOpcode c, JgType t, JgVal x)
{
    return jg_emit(g, b, c, t, 1, (JgVal[]){x});
}

static JgVal op2(JgGraph *g, uint32_t b, JgOpcode c, JgType t, JgVal x, JgVal y)
{
    return jg_emit(g, b, c, t, 2, (JgVal[]){x, y});
}

static JgVal cmp(JgGraph *g, uint32_t b, JgOpcode c, JgPred p, JgVal x, JgVal y)
{
    JgVal r = op2(g, b, c, JG_I1, x, y);
    jg_last_op(g, b)->pred = (uint8_t)p;
    return r;
}

static JgVal k64(JgGraph *g, uint64_t v)
{
    return jg_const(g, JG_I64, v);
}

static void go(JgGraph *g, uint32_t from, uint32_t to, uint32_t n, const JgVal *args)
{
    jg_set_goto(g, from, jg_link(g, to, n, args));
}

static uint64_t fbits(JgType t, double d)
{
    return t == JG_F32 ? f32_bits((float)d) : f64_bits(d);
}

static double mixed(int8_t a, int16_t b, int32_t c, int64_t d, const char *p, double e, bool f,
                    float g)
{
    return (double)a + 10.0 * b + 100.0 * c + 1000.0 * (double)d + (double)strlen(p) + e +
           (f ? 0.5 : 0.0) + (double)g;
}

typedef struct Emu Emu;
/* Appends the blocks of the case for `value`; returns the first one. */
typedef uint32_t (*CaseBuilder)(Emu *e, JgFlexswitch *fs, uint64_t value);

struct Emu {
    JgGraph *g;
    CaseBuilder build;
    int calls;
    uint32_t join; /* a block shared by later cases (0: none yet) */
    uint64_t data; /* per test */
    uint64_t last; /* the last value missed */
};

static uint32_t emu_miss(void *compiler, JgFlexswitch *fs, uint64_t value)
{
    Emu *e = compiler;
    e->calls++;
    e->last = value;
    uint32_t nb = e->build(e, fs, value);
    if (nb != UINT32_MAX)
        jg_flexswitch_add_case(fs, value, nb);
    return nb;
}

static JgFlexswitch *flex(Emu *e, uint32_t block, JgVal v, uint32_t n, const JgVal *live)
{
    JgFlexswitch *fs = jg_flexswitch_new(e->g, block, v, n, live);
    fs->miss = emu_miss;
    fs->compiler = e;
    return fs;
}

/* The first block of a case: an entry block whose parameters receive the
 * flexswitch's live values. */
static uint32_t case_block(JgGraph *g, const JgFlexswitch *fs)
{
    JgType types[fs->nlive + 1];
    for (uint32_t i = 0; i < fs->nlive; i++)
        types[i] = jg_value_type(g, fs->live[i]);
    uint32_t nb = jg_block_new(g, fs->nlive, types);
    g->blocks.items[nb].flags |= JG_BLOCK_ENTRY;
    return nb;
}

/* f(n): for (i = 0; i < n; i++) acc += 10 * (i % 2 + 1), where i % 2 is
 * promoted: the primary loops to a flexswitch; each case is a secondary
 * that jumps back into the loop header, a JG_BLOCK_ENTRY block in the
 * middle of the primary. */
enum { FIG10_HEAD = 1 };

static uint32_t fig10_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    JgGraph *g = e->g;
    uint32_t nb = case_block(g, fs);
    JgVal n = P(g, nb, 0), i = P(g, nb, 1), acc = P(g, nb, 2);
    JgVal acc2 = op2(g, nb, JG_OP_ADD, JG_I64, acc, k64(g, 10 * (value + 1)));
    JgVal i2 = op2(g, nb, JG_OP_ADD, JG_I64, i, k64(g, 1));
    go(g, nb, FIG10_HEAD, 3, (JgVal[]){n, i2, acc2});
    return nb;
}

/* sum over i < n of (i % 50)^2: each case is a secondary; the first one
 * also holds a join block (JG_BLOCK_ENTRY) that every later case enters
 * by an external link into another secondary, and that links back into
 * the primary. */
static uint32_t many_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    JgGraph *g = e->g;
    uint32_t nb = case_block(g, fs);
    JgVal i = P(g, nb, 0), acc = P(g, nb, 1), n = P(g, nb, 2);
    JgVal acc2 = op2(g, nb, JG_OP_ADD, JG_I64, acc, k64(g, value * value));
    if (!e->join) {
        e->join = jg_block_new(g, 3, (JgType[]){JG_I64, JG_I64, JG_I64});
        g->blocks.items[e->join].flags |= JG_BLOCK_ENTRY;
        uint32_t j = e->join;
        JgVal i2 = op2(g, j, JG_OP_ADD, JG_I64, P(g, j, 0), k64(g, 1));
        go(g, j, FIG10_HEAD, 3, (JgVal[]){i2, P(g, j, 1), P(g, j, 2)});
    }
    go(g, nb, e->join, 3, (JgVal[]){i, acc2, n});
    return nb;
}

/* The graph's result of every type, returned from a secondary. */
static uint32_t return_live_case(Emu *e, JgFlexswitch *fs, uint64_t value)
{
    (void)value;
    uint32_t nb = case_block(e->g, fs);
    jg_set_return(e->g, nb, e->g->ret_type == JG_VOID ? 0 : P(e->g, nb, 0));
    return nb;
}

#endif
