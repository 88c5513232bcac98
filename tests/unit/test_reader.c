/* Unit tests of the bitcode reader (frontend/bitcode_reader*.c) and module
 * lookups (frontend/module.c). The samples in tests/samples/ are read from
 * bitcode and also linked natively into this (symbol-exporting) executable:
 * every graph must verify, keep the structure of its source, resolve to the
 * native function, and evaluate (frontend/eval.c) to the native result. The
 * TLC interpreter's bitcode is read the same way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "slot_bits.h"

#include <gc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontend/eval.h"
#include "frontend/module.h"
#include "reader_samples.h"
#include "tlc/asm.h"
#include "tlc/interp.h"
#include "tlc/ops.h"
#include "tlc/run.h"
#include "tlc/values.h"

/* ---- helpers ----------------------------------------------------------- */

typedef struct Bitcode {
    char *bytes;
    size_t len;
} Bitcode;

static Bitcode samples_bc, bad_bc, tlc_bc;

static Bitcode load_file(const char *path)
{
    Bitcode b = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    assert_true(n > 0);
    b.bytes = malloc((size_t)n);
    assert_non_null(b.bytes);
    b.len = fread(b.bytes, 1, (size_t)n, f);
    fclose(f);
    assert_int_equal(b.len, (size_t)n);
    return b;
}

static int setup_files(void **state)
{
    (void)state;
    samples_bc = load_file(READER_SAMPLES_BC);
    bad_bc = load_file(READER_BAD_BC);
    tlc_bc = load_file(READER_TLC_BC);
    return 0;
}

static int teardown_files(void **state)
{
    (void)state;
    free(samples_bc.bytes);
    free(bad_bc.bytes);
    free(tlc_bc.bytes);
    return 0;
}

/* Reads `root` from `bc`, verifies every graph and checks the lookups of
 * every graph by name and by address. */
static JgModule *read_ok(const Bitcode *bc, const char *root)
{
    char err[512];
    JgModule *m = jg_module_read_bitcode(bc->bytes, bc->len, root, NULL, NULL, err, sizeof err);
    if (!m)
        fail_msg("reading %s failed: %s", root ? root : "(portal)", err);
    for (unsigned i = 0; i < m->graphs.count; i++) {
        JgGraph *g = m->graphs.items[i];
        if (!jg_verify_graph(g, err, sizeof err))
            fail_msg("graph %s does not verify: %s", g->name, err);
        assert_ptr_equal(jg_module_graph_by_name(m, g->name), g);
        if (g->native)
            assert_ptr_equal(jg_module_graph_by_native(m, g->native), g);
    }
    return m;
}

static JgGraph *graph(const JgModule *m, const char *name)
{
    JgGraph *g = jg_module_graph_by_name(m, name);
    if (!g)
        fail_msg("no graph %s", name);
    return g;
}

static unsigned count_ops(const JgGraph *g, JgOpcode opcode)
{
    unsigned n = 0;
    for (unsigned b = 0; b < g->blocks.count; b++)
        for (unsigned i = 0; i < g->blocks.items[b].ops.count; i++)
            n += g->blocks.items[b].ops.items[i].opcode == opcode;
    return n;
}

/* The first op with this opcode, or NULL; its block in *block. */
static const JgOp *find_op(const JgGraph *g, JgOpcode opcode, uint32_t *block)
{
    for (unsigned b = 0; b < g->blocks.count; b++) {
        for (unsigned i = 0; i < g->blocks.items[b].ops.count; i++) {
            if (g->blocks.items[b].ops.items[i].opcode == opcode) {
                if (block)
                    *block = b;
                return &g->blocks.items[b].ops.items[i];
            }
        }
    }
    return NULL;
}

/* Whether some op `opcode` has a constant operand equal to `value`. */
static bool has_op_with_const(const JgGraph *g, JgOpcode opcode, uint64_t value)
{
    for (unsigned b = 0; b < g->blocks.count; b++) {
        const JgBlock *blk = &g->blocks.items[b];
        for (unsigned i = 0; i < blk->ops.count; i++) {
            const JgOp *op = &blk->ops.items[i];
            if (op->opcode != opcode)
                continue;
            for (uint32_t a = 0; a < op->nargs; a++)
                if (jg_is_const(g, op->args[a]) && jg_value(g, op->args[a])->bits == value)
                    return true;
        }
    }
    return false;
}

static uint64_t eval(const JgModule *m, const char *name, const uint64_t *args)
{
    JgEvaluator ev = {.module = m};
    return jg_eval(&ev, graph(m, name), args);
}

/* ---- structure --------------------------------------------------------- */

/* Every sample resolves to the native function of the same name. */
static void test_native_addresses(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        void *native;
    } samples[] = {
        {"s_arith_i8", (void *)s_arith_i8},
        {"s_arith_i64", (void *)s_arith_i64},
        {"s_compare_i16", (void *)s_compare_i16},
        {"s_convert", (void *)s_convert},
        {"s_minmax", (void *)s_minmax},
        {"s_sum_to", (void *)s_sum_to},
        {"s_switch", (void *)s_switch},
        {"s_fib", (void *)s_fib},
        {"s_apply", (void *)s_apply},
        {"s_get_c", (void *)s_get_c},
        {"s_copy_struct", (void *)s_copy_struct},
        {"s_poly", (void *)s_poly},
        {"s_mini_interp", (void *)s_mini_interp},
        {"s_hint_ptr", (void *)s_hint_ptr},
    };
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        JgModule *m = read_ok(&samples_bc, samples[i].name);
        JgGraph *g = m->graphs.items[0];
        assert_string_equal(g->name, samples[i].name);
        assert_ptr_equal(g->native, samples[i].native);
        assert_ptr_equal(jg_module_graph_by_native(m, samples[i].native), g);
        assert_int_equal(g->flags & JG_FLAG_EXTERNAL, 0);
        assert_true(g->blocks.count >= 1);
        assert_non_null(g->file);
        assert_true(strstr(g->file, "reader_") != NULL);
        assert_true(g->line > 0);
        jg_module_free(m);
    }
}

static void test_signature_types(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_arith_i8");
    JgGraph *g = graph(m, "s_arith_i8");
    assert_int_equal(g->nparams, 3);
    assert_int_equal(g->param_types[0], JG_I8);
    assert_int_equal(g->param_types[1], JG_I8);
    assert_int_equal(g->param_types[2], JG_I32);
    assert_int_equal(g->ret_type, JG_I8);
    jg_module_free(m);
    m = read_ok(&samples_bc, "s_float_mix");
    g = graph(m, "s_float_mix");
    assert_int_equal(g->param_types[0], JG_F32);
    assert_int_equal(g->param_types[1], JG_I64);
    assert_int_equal(g->param_types[2], JG_F64);
    assert_int_equal(g->ret_type, JG_F32);
    jg_module_free(m);
    m = read_ok(&samples_bc, "s_in_range");
    assert_int_equal(graph(m, "s_in_range")->ret_type, JG_I1);
    jg_module_free(m);
}

/* s_switch keeps its switch: 7 cases, sign-extended. */
static void test_switch_structure(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_switch");
    JgGraph *g = graph(m, "s_switch");
    const JgTerm *sw = NULL;
    for (unsigned b = 0; b < g->blocks.count; b++)
        if (g->blocks.items[b].term.kind == JG_TERM_SWITCH)
            sw = &g->blocks.items[b].term;
    assert_non_null(sw);
    assert_int_equal(sw->nlinks, 8);
    const int64_t expected[] = {-3, 0, 1, 2, 5, 9, 100000};
    for (size_t e = 0; e < sizeof expected / sizeof expected[0]; e++) {
        bool found = false;
        for (uint32_t i = 0; i + 1 < sw->nlinks; i++)
            found |= sw->cases[i] == expected[e];
        if (!found)
            fail_msg("case %lld missing", (long long)expected[e]);
    }
    assert_true(sw->line > 0);
    jg_module_free(m);
}

static bool has_back_link(const JgGraph *g)
{
    for (unsigned b = 0; b < g->blocks.count; b++)
        for (uint32_t l = 0; l < g->blocks.items[b].term.nlinks; l++)
            if (g->blocks.items[b].term.links[l].target <= b)
                return true;
    return false;
}

static void test_loops_have_back_links(void **state)
{
    (void)state;
    const char *loops[] = {"s_sum_to", "s_collatz", "s_array_sum", "s_local_array", "s_poly"};
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
        JgModule *m = read_ok(&samples_bc, loops[i]);
        assert_true(has_back_link(graph(m, loops[i])));
        jg_module_free(m);
    }
    JgModule *m = read_ok(&samples_bc, "s_convert");
    assert_false(has_back_link(graph(m, "s_convert")));
    jg_module_free(m);
}

/* Field offsets come from the data layout and match the C compiler's. */
static void test_struct_offsets(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_get_c");
    JgGraph *g = graph(m, "s_get_c");
    assert_true(has_op_with_const(g, JG_OP_PTRADD, offsetof(SampleStruct, c)));
    const JgOp *load = find_op(g, JG_OP_LOAD, NULL);
    assert_non_null(load);
    assert_int_equal(load->type, JG_I16);
    jg_module_free(m);

    m = read_ok(&samples_bc, "s_struct_sum");
    g = graph(m, "s_struct_sum");
    assert_true(has_op_with_const(g, JG_OP_PTRADD, offsetof(SampleStruct, b)));
    assert_true(has_op_with_const(g, JG_OP_PTRADD, offsetof(SampleStruct, d)));
    assert_true(has_op_with_const(g, JG_OP_PTRADD, offsetof(SampleStruct, arr) + 12));
    jg_module_free(m);

    /* ps[i]: the variable index scaled by the struct size */
    m = read_ok(&samples_bc, "s_struct_array");
    g = graph(m, "s_struct_array");
    assert_true(has_op_with_const(g, JG_OP_MUL, sizeof(SampleStruct)));
    jg_module_free(m);
}

static void test_memory_intrinsics(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_copy_struct");
    JgGraph *g = graph(m, "s_copy_struct");
    assert_int_equal(count_ops(g, JG_OP_MEMCPY), 1);
    assert_true(has_op_with_const(g, JG_OP_MEMCPY, sizeof(SampleStruct)));
    assert_int_equal(count_ops(g, JG_OP_CALL), 0);
    jg_module_free(m);
    m = read_ok(&samples_bc, "s_zero_struct");
    g = graph(m, "s_zero_struct");
    assert_int_equal(count_ops(g, JG_OP_MEMSET), 1);
    assert_true(has_op_with_const(g, JG_OP_MEMSET, sizeof(SampleStruct)));
    jg_module_free(m);
    /* the local array: an ALLOCA of its size in the entry block */
    m = read_ok(&samples_bc, "s_local_array");
    g = graph(m, "s_local_array");
    uint32_t block = 99;
    const JgOp *alloca_op = find_op(g, JG_OP_ALLOCA, &block);
    assert_non_null(alloca_op);
    assert_int_equal(block, 0);
    assert_int_equal(alloca_op->imm, 16 * sizeof(int64_t));
    jg_module_free(m);
}

/* min/max/abs and fmuladd are lowered to plain ops; no call remains. */
static void test_intrinsics_lowered(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_minmax");
    JgGraph *g = graph(m, "s_minmax");
    assert_int_equal(count_ops(g, JG_OP_CALL), 0);
    assert_true(count_ops(g, JG_OP_SELECT) >= 5);
    assert_true(count_ops(g, JG_OP_ICMP) >= 5);
    jg_module_free(m);
    m = read_ok(&samples_bc, "s_poly");
    g = graph(m, "s_poly");
    assert_int_equal(count_ops(g, JG_OP_CALL), 0);
    assert_true(count_ops(g, JG_OP_FMUL) >= 1);
    jg_module_free(m);
}

static void test_recursion(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_fib");
    JgGraph *g = graph(m, "s_fib");
    assert_int_equal(m->graphs.count, 1);
    const JgOp *call = find_op(g, JG_OP_CALL, NULL);
    assert_non_null(call);
    assert_ptr_equal(call->callee, g);
    assert_true(jg_is_const(g, call->args[0]));
    assert_int_equal(jg_value(g, call->args[0])->bits, addr((void *)s_fib));
    assert_string_equal(jg_value(g, call->args[0])->symbol, "s_fib");
    jg_module_free(m);
}

/* A table of function pointers: a private constant the module copies, with
 * the native addresses of the exported functions and a token for the
 * internal one; all four functions get graphs. */
static void test_function_table(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_apply");
    const JgGlobal *table = NULL;
    for (unsigned i = 0; i < m->globals.count; i++)
        if (strcmp(m->globals.items[i].name, "s_ops") == 0)
            table = &m->globals.items[i];
    assert_non_null(table);
    assert_true(table->copied);
    assert_true(table->constant);
    assert_int_equal(table->size, 4 * sizeof(void *));
    void *const *entries = table->address;
    assert_ptr_equal(entries[0], (void *)s_op_add);
    assert_ptr_equal(entries[1], (void *)s_op_sub);
    assert_ptr_equal(entries[2], (void *)s_op_mul);
    JgGraph *max = graph(m, "s_op_max");
    assert_null(max->native);
    assert_ptr_equal(jg_module_graph_by_native(m, entries[3]), max);
    assert_ptr_equal(jg_module_global_at(m, (const char *)table->address + 9), table);
    assert_non_null(graph(m, "s_op_add"));
    assert_int_equal(graph(m, "s_op_add")->flags, 0);
    const JgOp *call = find_op(graph(m, "s_apply"), JG_OP_CALL, NULL);
    assert_non_null(call);
    assert_null(call->callee); /* indirect */
    assert_false(jg_is_const(graph(m, "s_apply"), call->args[0]));
    jg_module_free(m);
}

/* String literals and a static table: copies with the right contents. */
static void test_copied_constants(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_greeting");
    bool seen_hello = false, seen_reader = false;
    for (unsigned i = 0; i < m->globals.count; i++) {
        const JgGlobal *gl = &m->globals.items[i];
        assert_true(gl->copied);
        seen_hello |= gl->size == 6 && memcmp(gl->address, "hello", 6) == 0;
        seen_reader |= gl->size == 7 && memcmp(gl->address, "reader", 7) == 0;
        assert_ptr_equal(jg_module_global_at(m, gl->address), gl);
        assert_ptr_equal(jg_module_global_at(m, (const char *)gl->address + gl->size - 1), gl);
    }
    assert_true(seen_hello && seen_reader);
    assert_null(jg_module_global_at(m, (void *)&seen_hello));
    jg_module_free(m);

    m = read_ok(&samples_bc, "s_table");
    assert_int_equal(m->globals.count, 1);
    const JgGlobal *t = &m->globals.items[0];
    assert_true(t->copied);
    assert_int_equal(t->size, 8 * sizeof(int16_t));
    const int16_t expected[8] = {2, 3, 5, 7, 11, 13, 17, -19};
    assert_memory_equal(t->address, expected, sizeof expected);
    jg_module_free(m);
}

/* A libc call: a declaration with libc's address. */
static void test_native_declaration(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_strlen_plus");
    JgGraph *d = graph(m, "strlen");
    assert_true(d->flags & JG_FLAG_EXTERNAL);
    assert_int_equal(d->blocks.count, 0);
    assert_ptr_equal(d->native, jg_resolve_self(NULL, "strlen"));
    assert_non_null(d->native);
    const JgOp *call = find_op(graph(m, "s_strlen_plus"), JG_OP_CALL, NULL);
    assert_ptr_equal(call->callee, d);
    jg_module_free(m);
}

/* The merge point is the first op of its block: the LLVM block is split
 * after the store that precedes it; every hint becomes its op. */
static void test_hints(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_mini_interp");
    JgGraph *g = graph(m, "s_mini_interp");
    assert_int_equal(m->graphs.count, 1); /* hints are not functions */
    assert_int_equal(count_ops(g, JG_OP_MERGE_POINT), 1);
    uint32_t mp = 0;
    find_op(g, JG_OP_MERGE_POINT, &mp);
    assert_int_equal(g->blocks.items[mp].ops.items[0].opcode, JG_OP_MERGE_POINT);
    assert_true(g->blocks.items[mp].ops.items[0].line > 0);
    /* the split-off head: ends with a goto to the merge point's block and
     * holds the store */
    bool split = false;
    for (unsigned b = 0; b < g->blocks.count; b++) {
        const JgBlock *blk = &g->blocks.items[b];
        if (blk->term.kind == JG_TERM_GOTO && blk->term.links[0].target == mp && blk->ops.count &&
            blk->ops.items[blk->ops.count - 1].opcode == JG_OP_STORE)
            split = true;
    }
    assert_true(split);
    assert_int_equal(count_ops(g, JG_OP_CONCRETE), 1);
    assert_int_equal(count_ops(g, JG_OP_PROMOTE), 1);
    assert_int_equal(count_ops(g, JG_OP_FORGET), 1);
    assert_int_equal(count_ops(g, JG_OP_DEEPFREEZE), 1);
    assert_int_equal(find_op(g, JG_OP_PROMOTE, NULL)->type, JG_I64);
    assert_int_equal(find_op(g, JG_OP_DEEPFREEZE, NULL)->type, JG_PTR);
    assert_int_equal(count_ops(g, JG_OP_CALL), 0);
    jg_module_free(m);

    m = read_ok(&samples_bc, "s_hint_ptr");
    g = graph(m, "s_hint_ptr");
    assert_int_equal(find_op(g, JG_OP_PROMOTE, NULL)->type, JG_PTR);
    assert_int_equal(find_op(g, JG_OP_FORGET, NULL)->type, JG_PTR);
    assert_int_equal(find_op(g, JG_OP_CONCRETE, NULL)->type, JG_PTR);
    jg_module_free(m);
}

/* Block-local SSA, checked independently of the verifier: every non-constant
 * operand belongs to the block that uses it. */
static void test_block_local(void **state)
{
    (void)state;
    JgModule *m = read_ok(&tlc_bc, "tlc_eval");
    for (unsigned i = 0; i < m->graphs.count; i++) {
        const JgGraph *g = m->graphs.items[i];
        for (unsigned b = 0; b < g->blocks.count; b++) {
            const JgBlock *blk = &g->blocks.items[b];
            for (unsigned k = 0; k < blk->ops.count; k++)
                for (uint32_t a = 0; a < blk->ops.items[k].nargs; a++) {
                    const JgValueInfo *vi = jg_value(g, blk->ops.items[k].args[a]);
                    assert_true(vi->kind == JG_VK_CONST || vi->block == b);
                }
            for (uint32_t l = 0; l < blk->term.nlinks; l++)
                for (uint32_t a = 0; a < blk->term.links[l].nargs; a++) {
                    const JgValueInfo *vi = jg_value(g, blk->term.links[l].args[a]);
                    assert_true(vi->kind == JG_VK_CONST || vi->block == b);
                }
        }
    }
    jg_module_free(m);
}

/* ---- evaluation against the native functions --------------------------- */

static const int64_t inputs[] = {0,
                                 1,
                                 -1,
                                 2,
                                 7,
                                 -37,
                                 100,
                                 127,
                                 -128,
                                 255,
                                 32767,
                                 -32768,
                                 65535,
                                 2147483647,
                                 -2147483647 - 1,
                                 4294967295,
                                 INT64_MAX,
                                 INT64_MIN,
                                 0x123456789abcdefLL};
#define NINPUTS (sizeof inputs / sizeof inputs[0])

static void test_eval_arith(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_arith_i8");
    JgModule *m16 = read_ok(&samples_bc, "s_arith_i16");
    JgModule *m32 = read_ok(&samples_bc, "s_arith_i32");
    JgModule *m64 = read_ok(&samples_bc, "s_arith_i64");
    for (size_t i = 0; i < NINPUTS; i++) {
        for (size_t j = 0; j < NINPUTS; j++) {
            int64_t a = inputs[i], b = inputs[j];
            for (int op = 0; op <= 13; op++) {
                uint64_t a8[3] = {(uint8_t)a, (uint8_t)b, (uint32_t)op};
                assert_int_equal((int8_t)eval(m, "s_arith_i8", a8),
                                 s_arith_i8((int8_t)a, (int8_t)b, op));
                uint64_t a16[3] = {(uint16_t)a, (uint16_t)b, (uint32_t)op};
                assert_int_equal((int16_t)eval(m16, "s_arith_i16", a16),
                                 s_arith_i16((int16_t)a, (int16_t)b, op));
                uint64_t a32[3] = {(uint32_t)a, (uint32_t)b, (uint32_t)op};
                assert_int_equal((int32_t)eval(m32, "s_arith_i32", a32),
                                 s_arith_i32((int32_t)a, (int32_t)b, op));
                uint64_t a64[3] = {(uint64_t)a, (uint64_t)b, (uint32_t)op};
                assert_int_equal((int64_t)eval(m64, "s_arith_i64", a64), s_arith_i64(a, b, op));
            }
        }
    }
    jg_module_free(m);
    jg_module_free(m16);
    jg_module_free(m32);
    jg_module_free(m64);
}

static void test_eval_compare_convert(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_compare_i8");
    JgModule *m16 = read_ok(&samples_bc, "s_compare_i16");
    JgModule *m32 = read_ok(&samples_bc, "s_compare_i32");
    JgModule *m64 = read_ok(&samples_bc, "s_compare_i64");
    JgModule *mc = read_ok(&samples_bc, "s_convert");
    JgModule *mr = read_ok(&samples_bc, "s_in_range");
    JgModule *mm = read_ok(&samples_bc, "s_minmax");
    for (size_t i = 0; i < NINPUTS; i++) {
        int64_t a = inputs[i];
        uint64_t x[1] = {(uint64_t)a};
        assert_int_equal((int64_t)eval(mc, "s_convert", x), s_convert(a));
        for (size_t j = 0; j < NINPUTS; j++) {
            int64_t b = inputs[j];
            uint64_t p8[2] = {(uint8_t)a, (uint8_t)b};
            uint64_t p16[2] = {(uint16_t)a, (uint16_t)b};
            uint64_t p32[2] = {(uint32_t)a, (uint32_t)b};
            uint64_t p64[2] = {(uint64_t)a, (uint64_t)b};
            assert_int_equal((int32_t)eval(m, "s_compare_i8", p8),
                             s_compare_i8((int8_t)a, (int8_t)b));
            assert_int_equal((int32_t)eval(m16, "s_compare_i16", p16),
                             s_compare_i16((int16_t)a, (int16_t)b));
            assert_int_equal((int32_t)eval(m32, "s_compare_i32", p32),
                             s_compare_i32((int32_t)a, (int32_t)b));
            assert_int_equal((int32_t)eval(m64, "s_compare_i64", p64), s_compare_i64(a, b));
            int64_t hi = b > INT64_MAX - 50 ? INT64_MAX : b + 50;
            uint64_t r[3] = {(uint64_t)a, (uint64_t)b, (uint64_t)hi};
            assert_int_equal(eval(mr, "s_in_range", r) & 1, s_in_range(a, b, hi));
            uint64_t mmx[4] = {(uint64_t)a, (uint64_t)b, (uint32_t)a, (uint32_t)b};
            assert_int_equal((int64_t)eval(mm, "s_minmax", mmx),
                             s_minmax(a, b, (uint32_t)a, (uint32_t)b));
        }
    }
    uint64_t r42[3] = {42, 0, 100};
    assert_int_equal(eval(mr, "s_in_range", r42) & 1, s_in_range(42, 0, 100));
    jg_module_free(m);
    jg_module_free(m16);
    jg_module_free(m32);
    jg_module_free(m64);
    jg_module_free(mc);
    jg_module_free(mr);
    jg_module_free(mm);
}

static void test_eval_control(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_sum_to");
    JgModule *mc = read_ok(&samples_bc, "s_collatz");
    JgModule *ms = read_ok(&samples_bc, "s_switch");
    JgModule *mf = read_ok(&samples_bc, "s_fib");
    JgModule *mt = read_ok(&samples_bc, "s_table");
    const int64_t ns[] = {-5, 0, 1, 2, 3, 7, 9, 27, 97, 100, 1000, 100000, -3};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        uint64_t x[1] = {(uint64_t)ns[i]};
        assert_int_equal((int64_t)eval(m, "s_sum_to", x), s_sum_to(ns[i]));
        assert_int_equal((int64_t)eval(mc, "s_collatz", x), s_collatz(ns[i]));
        assert_int_equal((int64_t)eval(ms, "s_switch", x), s_switch(ns[i]));
        assert_int_equal((int64_t)eval(mt, "s_table", x), s_table(ns[i]));
    }
    for (int64_t n = 0; n <= 15; n++) {
        uint64_t x[1] = {(uint64_t)n};
        assert_int_equal((int64_t)eval(mf, "s_fib", x), s_fib(n));
    }
    jg_module_free(m);
    jg_module_free(mc);
    jg_module_free(ms);
    jg_module_free(mf);
    jg_module_free(mt);
}

static void test_eval_calls(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_apply");
    for (int64_t op = 0; op < 6; op++) {
        for (size_t i = 0; i < NINPUTS; i += 3) {
            uint64_t x[3] = {(uint64_t)op, (uint64_t)inputs[i], (uint64_t)inputs[NINPUTS - 1 - i]};
            assert_int_equal((int64_t)eval(m, "s_apply", x),
                             s_apply(op, inputs[i], inputs[NINPUTS - 1 - i]));
        }
    }
    jg_module_free(m);
    m = read_ok(&samples_bc, "s_strlen_plus");
    uint64_t x[2] = {addr("four"), 38};
    assert_int_equal(eval(m, "s_strlen_plus", x), 42);
    jg_module_free(m);
    m = read_ok(&samples_bc, "s_greeting");
    for (int64_t i = 0; i < 3; i++) {
        uint64_t y[1] = {(uint64_t)i};
        const char *s = (const char *)(uintptr_t)eval(m, "s_greeting", y);
        assert_string_equal(s, s_greeting(i));
    }
    jg_module_free(m);
}

static SampleStruct sample_struct(int k)
{
    SampleStruct s = {.a = (char)(3 + k),
                      .b = -77 * k,
                      .c = (short)(-1234 + k),
                      .d = 2.5 * k,
                      .arr = {k, -2 * k, 3, 1000 * k}};
    return s;
}

static void test_eval_memory(void **state)
{
    (void)state;
    SampleStruct ss[3] = {sample_struct(1), sample_struct(2), sample_struct(-7)};
    JgModule *m = read_ok(&samples_bc, "s_get_c");
    JgModule *msum = read_ok(&samples_bc, "s_struct_sum");
    JgModule *marr = read_ok(&samples_bc, "s_struct_array");
    for (int i = 0; i < 3; i++) {
        uint64_t p[1] = {addr(&ss[i])};
        assert_int_equal((int64_t)eval(m, "s_get_c", p), s_get_c(&ss[i]));
        assert_true(bits_f64(eval(msum, "s_struct_sum", p)) == s_struct_sum(&ss[i]));
        for (int64_t j = 0; j < 5; j++) {
            uint64_t q[3] = {addr(ss), (uint64_t)i, (uint64_t)j};
            assert_true(bits_f64(eval(marr, "s_struct_array", q)) == s_struct_array(ss, i, j));
        }
    }
    jg_module_free(m);
    jg_module_free(msum);
    jg_module_free(marr);

    m = read_ok(&samples_bc, "s_copy_struct");
    SampleStruct dst;
    memset(&dst, 0x5a, sizeof dst);
    uint64_t c[2] = {addr(&dst), addr(&ss[2])};
    eval(m, "s_copy_struct", c);
    assert_memory_equal(&dst, &ss[2], sizeof dst);
    jg_module_free(m);
    m = read_ok(&samples_bc, "s_zero_struct");
    uint64_t z[1] = {addr(&dst)};
    eval(m, "s_zero_struct", z);
    SampleStruct zero;
    memset(&zero, 0, sizeof zero);
    assert_memory_equal(&dst, &zero, sizeof dst);
    jg_module_free(m);

    int32_t values[] = {5, -9, 1000000, 42, -2147483647 - 1, 7};
    m = read_ok(&samples_bc, "s_array_sum");
    JgModule *ml = read_ok(&samples_bc, "s_local_array");
    for (int64_t n = 0; n <= 6; n++) {
        uint64_t a[2] = {addr(values), (uint64_t)n};
        assert_int_equal((int64_t)eval(m, "s_array_sum", a), s_array_sum(values, n));
    }
    for (int64_t n = -1; n <= 20; n++) {
        uint64_t a[1] = {(uint64_t)n};
        assert_int_equal((int64_t)eval(ml, "s_local_array", a), s_local_array(n));
    }
    jg_module_free(m);
    jg_module_free(ml);
}

static void test_eval_float(void **state)
{
    (void)state;
    JgModule *mp = read_ok(&samples_bc, "s_poly");
    JgModule *mm = read_ok(&samples_bc, "s_float_mix");
    JgModule *mc = read_ok(&samples_bc, "s_float_compare");
    const double ds[] = {0.0, -0.0, 1.0, -2.5, 3.75, 1e10, -1e-3, 123456.789, NAN, INFINITY};
    const size_t nd = sizeof ds / sizeof ds[0];
    for (size_t i = 0; i < nd; i++) {
        for (int32_t n = 0; n < 5; n++) {
            uint64_t a[2] = {f64_bits(ds[i]), (uint32_t)n};
            double got = bits_f64(eval(mp, "s_poly", a)), want = s_poly(ds[i], n);
            assert_true(got == want || (isnan(got) && isnan(want)));
        }
        for (size_t j = 0; j < nd; j++) {
            uint64_t a[2] = {f64_bits(ds[i]), f64_bits(ds[j])};
            assert_int_equal((int64_t)eval(mc, "s_float_compare", a),
                             s_float_compare(ds[i], ds[j]));
            float f = (float)ds[j];
            if (isnan(f) || isinf(f) || fabsf(f) > 1e6f)
                continue; /* float -> int32 conversion would overflow */
            uint64_t b[3] = {f32_bits(f), (uint64_t)(int64_t)(i * 7), f64_bits(ds[i])};
            float gf = bits_f32(eval(mm, "s_float_mix", b));
            float wf = s_float_mix(f, (int64_t)(i * 7), ds[i]);
            assert_true(gf == wf || (isnan(gf) && isnan(wf)));
        }
    }
    jg_module_free(mp);
    jg_module_free(mm);
    jg_module_free(mc);
}

static void test_eval_hints(void **state)
{
    (void)state;
    JgModule *m = read_ok(&samples_bc, "s_mini_interp");
    const uint8_t code[] = {1, 0, 2, 5, 1, 0, 0, 2, 3};
    for (int64_t len = 0; len <= (int64_t)sizeof code; len++) {
        int64_t steps_graph = 0, steps_native = 0;
        uint64_t a[4] = {addr(code), (uint64_t)len, 11, addr(&steps_graph)};
        int64_t got = (int64_t)eval(m, "s_mini_interp", a);
        assert_int_equal(got, s_mini_interp(code, len, 11, &steps_native));
        assert_int_equal(steps_graph, steps_native);
    }
    jg_module_free(m);
    m = read_ok(&samples_bc, "s_hint_ptr");
    int64_t v = 21;
    uint64_t p[1] = {addr(&v)};
    assert_int_equal(eval(m, "s_hint_ptr", p), 42);
    jg_module_free(m);
}

/* ---- errors ------------------------------------------------------------ */

/* Resolves what the process has, and everything else to a dummy address,
 * except the names the error tests need unresolved. */
static void *dummy_resolver(void *ctx, const char *name)
{
    (void)ctx;
    if (strcmp(name, "s_missing") == 0 || strchr(name, '.'))
        return NULL;
    void *p = jg_resolve_self(NULL, name);
    return p ? p : (void *)&dummy_resolver;
}

static void expect_error(const Bitcode *bc, const char *root, const char *prefix, const char *part)
{
    char err[512];
    JgModule *m =
        jg_module_read_bitcode(bc->bytes, bc->len, root, dummy_resolver, NULL, err, sizeof err);
    if (m)
        fail_msg("reading %s succeeded; expected an error", root);
    if (strncmp(err, prefix, strlen(prefix)) != 0 || !strstr(err, part))
        fail_msg("reading %s: error \"%s\", expected \"%s...%s...\"", root, err, prefix, part);
}

static void test_unsupported_constructs(void **state)
{
    (void)state;
    expect_error(&bad_bc, "s_bad_i128", "s_bad_i128:18: ", "128-bit integer");
    expect_error(&bad_bc, "s_bad_vector", "s_bad_vector:23: ", "vector type <4 x i32>");
    expect_error(&bad_bc, "s_bad_volatile", "s_bad_volatile:39: ", "volatile load");
    expect_error(&bad_bc, "s_bad_atomic", "s_bad_atomic:44: ", "atomicrmw");
    expect_error(&bad_bc, "s_bad_intrinsic", "s_bad_intrinsic:54: ", "intrinsic 'llvm.fabs.f64'");
    expect_error(&bad_bc, "s_bad_vla", "s_bad_vla:59: ", "alloca");
#if defined(__x86_64__)
    /* x86-64 passes a struct of 64 bytes as a byval copy on the stack */
    expect_error(&bad_bc, "s_bad_byval", "s_bad_byval:", "byval parameter");
    expect_error(&bad_bc, "s_bad_long_double", "s_bad_long_double:", "x86_fp80");
#else
    /* AArch64 passes it as a pointer to the caller's copy (AAPCS64): an
       ordinary pointer parameter, read through */
    char err[512];
    JgModule *m = jg_module_read_bitcode(bad_bc.bytes, bad_bc.len, "s_bad_byval", dummy_resolver,
                                         NULL, err, sizeof err);
    if (!m)
        fail_msg("reading s_bad_byval: %s", err);
    int64_t big[8] = {10, 11, 12, 13, 14, 15, 16, 17};
    uint64_t a[1] = {addr(big)};
    assert_int_equal(eval(m, "s_bad_byval", a), 13);
    jg_module_free(m);
    /* and its long double is IEEE quadruple precision */
    expect_error(&bad_bc, "s_bad_long_double", "s_bad_long_double:", "fp128");
#endif
    /* found through a table of function pointers */
    expect_error(&bad_bc, "s_bad_through_table", "s_bad_i128:18: ", "128-bit integer");
}

static void test_unresolved(void **state)
{
    (void)state;
    expect_error(&bad_bc, "s_bad_unresolved", "unresolved symbol 's_missing'", "declaration");
    expect_error(&bad_bc, "s_bad_static_counter", "internal global 's_bad_static_counter.counter'",
                 "not constant");
    /* the default resolver: the bad samples are not in this binary */
    char err[256];
    assert_null(jg_module_read_bitcode(bad_bc.bytes, bad_bc.len, "s_good_add", NULL, NULL, err,
                                       sizeof err));
    assert_non_null(strstr(err, "'s_good_add'"));
    expect_error(&bad_bc, "no_such_root", "root function 'no_such_root' not found", "");
    expect_error(&bad_bc, "s_missing", "root function 's_missing' has no body", "");
    expect_error(&bad_bc, NULL, "no root given and no function annotated jitgen.portal", "");
}

static void test_bad_bitcode(void **state)
{
    (void)state;
    char err[256];
    assert_null(jg_module_read_bitcode(NULL, 0, "x", NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "no bitcode"));
    const char garbage[] = "this is not bitcode at all, just text";
    assert_null(jg_module_read_bitcode(garbage, sizeof garbage, "x", NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "cannot read bitcode"));
    /* truncated real bitcode, and bitcode with damaged bytes */
    size_t cuts[] = {4, 8, 32, 100, 1000, samples_bc.len / 2, samples_bc.len - 3};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        assert_null(jg_module_read_bitcode(samples_bc.bytes, cuts[i], "s_fib", NULL, NULL, err,
                                           sizeof err));
        assert_true(strlen(err) > 0);
    }
    char *copy = malloc(samples_bc.len);
    assert_non_null(copy);
    memcpy(copy, samples_bc.bytes, samples_bc.len);
    memset(copy + 20, 0xff, 16); /* the header: no valid module */
    assert_null(jg_module_read_bitcode(copy, samples_bc.len, "s_fib", NULL, NULL, err, sizeof err));
    assert_true(strlen(err) > 0);
    free(copy);
    /* a tiny error buffer is respected */
    char tiny[8];
    assert_null(
        jg_module_read_bitcode(garbage, sizeof garbage, "x", NULL, NULL, tiny, sizeof tiny));
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
}

/* ---- the TLC interpreter ----------------------------------------------- */

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static const JgTerm *opcode_switch(const JgGraph *g)
{
    const JgTerm *best = NULL;
    for (unsigned b = 0; b < g->blocks.count; b++) {
        const JgTerm *t = &g->blocks.items[b].term;
        if (t->kind == JG_TERM_SWITCH && (!best || t->nlinks > best->nlinks))
            best = t;
    }
    return best;
}

static void test_tlc(void **state)
{
    (void)state;
    double best = 1e9;
    for (int i = 0; i < 5; i++) { /* the first read pays for page faults and LLVM start-up */
        double t0 = now_ms();
        JgModule *m = read_ok(&tlc_bc, "tlc_eval");
        double t1 = now_ms();
        best = t1 - t0 < best ? t1 - t0 : best;
        jg_module_free(m);
    }
    print_message("reading and translating the TLC bitcode (%zu bytes): best of 5 %.2f ms\n",
                  tlc_bc.len, best);

    JgModule *m = read_ok(&tlc_bc, "tlc_resume");
    JgGraph *portal = graph(m, "tlc_resume");
    assert_ptr_equal(m->portal, portal);
    assert_ptr_equal(m->graphs.items[0], portal);
    assert_true(portal->flags & JG_FLAG_PORTAL);
    assert_ptr_equal(portal->native, (void *)tlc_resume);

    JgGraph *add = graph(m, "tlc_int_add");
    assert_ptr_equal(add->native, (void *)tlc_int_add);
    assert_int_equal(add->flags & JG_FLAG_EXTERNAL, 0);
    assert_true(add->blocks.count > 0);

    JgGraph *alloc = graph(m, "tlc_alloc");
    assert_int_equal(alloc->flags & (JG_FLAG_EXTERNAL | JG_FLAG_ALLOCATOR),
                     JG_FLAG_EXTERNAL | JG_FLAG_ALLOCATOR);
    assert_ptr_equal(alloc->native, (void *)tlc_alloc);
    JgGraph *attr = graph(m, "tlc_class_attr_index");
    assert_int_equal(attr->flags & (JG_FLAG_EXTERNAL | JG_FLAG_ELIDABLE),
                     JG_FLAG_EXTERNAL | JG_FLAG_ELIDABLE);
    JgGraph *raise = graph(m, "tlc_raise");
    assert_int_equal(raise->flags &
                         (JG_FLAG_EXTERNAL | JG_FLAG_NORETURN | JG_FLAG_DONT_LOOK_INSIDE),
                     JG_FLAG_EXTERNAL | JG_FLAG_NORETURN | JG_FLAG_DONT_LOOK_INSIDE);
    assert_true(graph(m, "tlc_print")->flags & JG_FLAG_DONT_LOOK_INSIDE);

    assert_int_equal(count_ops(portal, JG_OP_MERGE_POINT), 1);
    uint32_t mp = 0;
    find_op(portal, JG_OP_MERGE_POINT, &mp);
    assert_int_equal(portal->blocks.items[mp].ops.items[0].opcode, JG_OP_MERGE_POINT);
    const JgTerm *sw = opcode_switch(portal);
    assert_non_null(sw);
    assert_true(sw->nlinks - 1 >= 30);
    /* the opcode, the argument count and the depth of a saved stack */
    assert_int_equal(count_ops(portal, JG_OP_CONCRETE), 3);
    assert_true(count_ops(portal, JG_OP_PROMOTE) >= 1);
    assert_true(count_ops(portal, JG_OP_DEEPFREEZE) >= 1);

    /* the type tables are native constants the partial evaluator can fold */
    const JgGlobal *type = jg_module_global_at(m, &tlc_int_type);
    assert_non_null(type);
    assert_string_equal(type->name, "tlc_int_type");
    assert_true(type->constant && !type->copied);
    assert_int_equal(type->size, sizeof tlc_int_type);
    assert_ptr_equal(jg_module_global_at(m, &tlc_int_ops.add),
                     jg_module_global_at(m, &tlc_int_ops));
    jg_module_free(m);

    /* the portal found by its annotation */
    m = read_ok(&tlc_bc, NULL);
    assert_string_equal(m->portal->name, "tlc_resume");
    jg_module_free(m);
}

/* The interpreter's own graphs run a TLC program like the native
 * interpreter (the frontend's acceptance test, in small). */
static void test_tlc_eval_graphs(void **state)
{
    (void)state;
    JgModule *m = read_ok(&tlc_bc, "tlc_eval");
    static const char src[] = "main:\n PUSHARG\n PUSH 1\nloop:\n PICK 1\n PUSH 0\n GT\n"
                              " BR_COND body\n SWAP\n POP\n RETURN\nbody:\n PICK 1\n MUL\n"
                              " SWAP\n PUSH 1\n SUB\n SWAP\n BR loop\n";
    TlcDiag diag;
    TlcProgram *prog = tlc_assemble(src, sizeof src - 1, "fact.tlc", &diag);
    if (!prog)
        fail_msg("assembly failed: %s", diag.message);
    TlcCode *code = tlc_code_new(prog);
    assert_non_null(code);
    for (int64_t n = 0; n <= 12; n += 3) {
        TlcObject *args[1] = {tlc_int_new(n, 0)};
        uint64_t a[5] = {addr(code), 0, addr(args), 1, 1};
        TlcObject *got = (TlcObject *)(uintptr_t)eval(m, "tlc_eval", a);
        TlcObject *want = tlc_eval(code, 0, args, 1, 1);
        assert_int_equal(tlc_int_value(got), tlc_int_value(want));
    }
    /* an op graph on its own: boxed addition */
    uint64_t a[4] = {addr(tlc_int_new(40, 0)), addr(tlc_int_new(2, 0)), 8, 0};
    TlcObject *sum = (TlcObject *)(uintptr_t)eval(m, "tlc_int_add", a);
    assert_int_equal(tlc_int_value(sum), 42);
    tlc_code_free(code);
    tlc_program_free(prog);
    jg_module_free(m);
}

int main(void)
{
    GC_INIT();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_native_addresses),
        cmocka_unit_test(test_signature_types),
        cmocka_unit_test(test_switch_structure),
        cmocka_unit_test(test_loops_have_back_links),
        cmocka_unit_test(test_struct_offsets),
        cmocka_unit_test(test_memory_intrinsics),
        cmocka_unit_test(test_intrinsics_lowered),
        cmocka_unit_test(test_recursion),
        cmocka_unit_test(test_function_table),
        cmocka_unit_test(test_copied_constants),
        cmocka_unit_test(test_native_declaration),
        cmocka_unit_test(test_hints),
        cmocka_unit_test(test_block_local),
        cmocka_unit_test(test_eval_arith),
        cmocka_unit_test(test_eval_compare_convert),
        cmocka_unit_test(test_eval_control),
        cmocka_unit_test(test_eval_calls),
        cmocka_unit_test(test_eval_memory),
        cmocka_unit_test(test_eval_float),
        cmocka_unit_test(test_eval_hints),
        cmocka_unit_test(test_unsupported_constructs),
        cmocka_unit_test(test_unresolved),
        cmocka_unit_test(test_bad_bitcode),
        cmocka_unit_test(test_tlc),
        cmocka_unit_test(test_tlc_eval_graphs),
    };
    return cmocka_run_group_tests(tests, setup_files, teardown_files);
}
