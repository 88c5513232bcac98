/* Virtual objects of the partial evaluator (docs/architecture.md, "Partial
 * evaluator"), on small hinted portals (tests/pe_samples/pv_*.c, one bitcode
 * module each). Every case runs natively, under the PE engine (residual
 * graphs evaluated) and under the JIT engine (compiled by LLVM), and the
 * results and the memory the portal leaves behind must be equal. The shape
 * of the residual graph is then checked: allocations, stores, loads and
 * residual calls, counted by walking the graph, and the partial evaluator's
 * statistics. Where clang could have done the work itself, the test also
 * checks that the interpreter's graph still has the loads or stores the
 * partial evaluator is expected to remove, so that a pass means the partial
 * evaluator removed them.
 *
 * Set PV_DUMP=1 to print every residual graph a case inspects. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "jitgen/driver.h"
#include "pe/pe.h"
#include "pv_support.h"

#ifndef PV_BC_DIR
#error PV_BC_DIR must name the folder of the bitcode of the samples
#endif

/* ---- drivers ---- */

typedef struct Driver {
    JgDriver *d;
    char *bitcode;
} Driver;

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    assert_true(size > 0);
    assert_int_equal(fseek(f, 0, SEEK_SET), 0);
    char *data = malloc((size_t)size);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *len = (size_t)size;
    return data;
}

static Driver driver_open(const char *sample, JgEngine engine, bool no_virtuals)
{
    char path[512];
    snprintf(path, sizeof path, "%s/pv_%s.bc", PV_BC_DIR, sample);
    Driver dr;
    size_t len;
    dr.bitcode = read_file(path, &len);
    JgDriverOptions options = {.engine = engine, .no_virtuals = no_virtuals};
    char err[512];
    dr.d = jg_driver_new(dr.bitcode, len, &options, err, sizeof err);
    if (!dr.d)
        fail_msg("driver for %s: %s", sample, err);
    return dr;
}

static void driver_close(Driver *dr)
{
    jg_driver_free(dr->d);
    free(dr->bitcode);
    dr->d = NULL;
    dr->bitcode = NULL;
}

static int64_t call1(const Driver *dr, uint64_t a0)
{
    uint64_t args[1] = {a0};
    return (int64_t)jg_driver_call(dr->d, args);
}

static int64_t call2(const Driver *dr, uint64_t a0, uint64_t a1)
{
    uint64_t args[2] = {a0, a1};
    return (int64_t)jg_driver_call(dr->d, args);
}

static int64_t call3(const Driver *dr, uint64_t a0, uint64_t a1, uint64_t a2)
{
    uint64_t args[3] = {a0, a1, a2};
    return (int64_t)jg_driver_call(dr->d, args);
}

static uint64_t ptr_arg(const void *p)
{
    return (uint64_t)(uintptr_t)p;
}

static const JgPeStats *stats_of(const Driver *dr)
{
    return jg_pe_stats(jg_driver_pe(dr->d));
}

/* The residual graph whose key has `value` in portal parameter `param`
 * (param < 0: the only residual graph). Verified before it is inspected. */
static const JgGraph *residual_graph(const Driver *dr, int param, uint64_t value)
{
    const JgGraph *found = NULL;
    unsigned n = 0;
    for (JgResidual *r = jg_pe_residuals(jg_driver_pe(dr->d)); r; r = r->next) {
        n++;
        if (param < 0 || r->green_args[param] == value)
            found = r->graph;
    }
    if (param < 0)
        assert_int_equal(n, 1);
    assert_non_null(found);
    char err[512];
    if (!jg_verify_graph(found, err, sizeof err))
        fail_msg("invalid residual graph: %s", err);
    const char *dump = getenv("PV_DUMP");
    if (dump && *dump && *dump != '0')
        jg_print_graph(stderr, found, NULL, NULL);
    return found;
}

/* The portal's own (interpreter) graph. */
static const JgGraph *portal_graph(const Driver *dr)
{
    return jg_pe_module(jg_driver_pe(dr->d))->portal;
}

/* ---- walking residual graphs ---- */

/* Splits an address into base + constant byte offset, through PTRADDs and
 * through block parameters whose incoming values all agree (the partial
 * evaluator passes live pointers from block to block as the parameters of
 * merge-point blocks). Values coming around a loop from a parameter being
 * resolved (`visiting`) tell nothing. */
typedef enum Resolved { RESOLVED, RESOLVED_NOTHING, RESOLVED_CONFLICT } Resolved;

static Resolved resolve_addr(const JgGraph *g, JgVal addr, JgVal *base, int64_t *offset,
                             uint8_t *visiting)
{
    const JgValueInfo *vi = jg_value(g, addr);
    if (vi->kind == JG_VK_OP) {
        const JgOp *op = &g->blocks.items[vi->block].ops.items[vi->index];
        if (op->opcode == JG_OP_PTRADD && jg_is_const(g, op->args[1])) {
            Resolved r = resolve_addr(g, op->args[0], base, offset, visiting);
            if (r == RESOLVED)
                *offset += (int64_t)jg_value(g, op->args[1])->bits;
            return r;
        }
    }
    if (vi->kind != JG_VK_PARAM || vi->block == 0) {
        *base = addr;
        *offset = 0;
        return RESOLVED;
    }
    if (visiting[addr])
        return RESOLVED_NOTHING;
    visiting[addr] = 1;
    Resolved result = RESOLVED_NOTHING;
    for (uint32_t b = 0; b < g->blocks.count && result != RESOLVED_CONFLICT; b++) {
        const JgTerm *t = &g->blocks.items[b].term;
        for (uint32_t l = 0; l < t->nlinks && result != RESOLVED_CONFLICT; l++) {
            if (t->links[l].target != vi->block || vi->index >= t->links[l].nargs)
                continue;
            JgVal ab = 0;
            int64_t ao = 0;
            Resolved r = resolve_addr(g, t->links[l].args[vi->index], &ab, &ao, visiting);
            if (r == RESOLVED_NOTHING)
                continue;
            if (r == RESOLVED_CONFLICT || (result == RESOLVED && (ab != *base || ao != *offset)))
                result = RESOLVED_CONFLICT;
            else {
                result = RESOLVED;
                *base = ab;
                *offset = ao;
            }
        }
    }
    visiting[addr] = 0;
    return result;
}

static void addr_parts(const JgGraph *g, JgVal addr, JgVal *base, int64_t *offset)
{
    uint8_t *visiting = calloc(g->values.count + 1, 1);
    assert_non_null(visiting);
    if (resolve_addr(g, addr, base, offset, visiting) != RESOLVED) {
        *base = addr; /* incoming values disagree: the address itself */
        *offset = 0;
    }
    free(visiting);
}

static bool is_call_of(const JgGraph *g, const JgOp *op, const void *fn)
{
    return op->opcode == JG_OP_CALL && jg_is_const(g, op->args[0]) &&
           jg_value(g, op->args[0])->bits == (uint64_t)(uintptr_t)fn;
}

static bool is_alloc(const JgGraph *g, const JgOp *op)
{
    return is_call_of(g, op, (const void *)pv_alloc);
}

/* Whether block b lies on a cycle of the graph: b is reachable from one of
 * its successors. */
static bool in_cycle(const JgGraph *g, uint32_t b)
{
    uint32_t n = g->blocks.count;
    uint8_t *seen = calloc(n, 1);
    uint32_t *stack = calloc(n + 1, sizeof *stack);
    assert_true(seen && stack);
    uint32_t top = 0;
    bool found = false;
    const JgTerm *t = &g->blocks.items[b].term;
    for (uint32_t i = 0; i < t->nlinks; i++)
        if (t->links[i].target < n && !seen[t->links[i].target]) {
            seen[t->links[i].target] = 1;
            stack[top++] = t->links[i].target;
        }
    while (top && !found) {
        uint32_t v = stack[--top];
        if (v == b) {
            found = true;
            break;
        }
        const JgTerm *tv = &g->blocks.items[v].term;
        for (uint32_t i = 0; i < tv->nlinks; i++) {
            uint32_t w = tv->links[i].target;
            if (w < n && !seen[w]) {
                seen[w] = 1;
                stack[top++] = w;
            }
        }
    }
    free(seen);
    free(stack);
    return found;
}

typedef struct Shape {
    unsigned allocs; /* calls of the allocator */
    unsigned calls;  /* other calls */
    unsigned loads, stores, allocas;
    unsigned others; /* every other operation (arithmetic, PTRADD...) */
    unsigned loop_blocks, loop_allocs, loop_stores, loop_calls;
} Shape;

static Shape shape_of(const JgGraph *g)
{
    Shape s = {0};
    for (uint32_t b = 0; b < g->blocks.count; b++) {
        const JgBlock *blk = &g->blocks.items[b];
        bool loop = in_cycle(g, b);
        s.loop_blocks += loop;
        for (uint32_t o = 0; o < blk->ops.count; o++) {
            const JgOp *op = &blk->ops.items[o];
            if (is_alloc(g, op)) {
                s.allocs++;
                s.loop_allocs += loop;
            } else if (op->opcode == JG_OP_CALL) {
                s.calls++;
                s.loop_calls += loop;
            } else if (op->opcode == JG_OP_LOAD) {
                s.loads++;
            } else if (op->opcode == JG_OP_STORE) {
                s.stores++;
                s.loop_stores += loop;
            } else if (op->opcode == JG_OP_ALLOCA) {
                s.allocas++;
            } else {
                s.others++;
            }
        }
    }
    return s;
}

/* Operations of one opcode in a graph (the interpreter's graphs too). */
static unsigned count_opcode(const JgGraph *g, JgOpcode opcode)
{
    unsigned n = 0;
    for (uint32_t b = 0; b < g->blocks.count; b++)
        for (uint32_t o = 0; o < g->blocks.items[b].ops.count; o++)
            n += g->blocks.items[b].ops.items[o].opcode == opcode;
    return n;
}

/* The results of the allocator calls, in the order of the graph's blocks
 * and operations; returns how many. */
static unsigned alloc_results(const JgGraph *g, JgVal *out, unsigned max)
{
    unsigned n = 0;
    for (uint32_t b = 0; b < g->blocks.count; b++)
        for (uint32_t o = 0; o < g->blocks.items[b].ops.count; o++) {
            const JgOp *op = &g->blocks.items[b].ops.items[o];
            if (is_alloc(g, op) && n < max)
                out[n++] = op->result;
        }
    return n;
}

/* The stores into base + offset; the value of the last one in *value. */
static unsigned stores_at(const JgGraph *g, JgVal base, int64_t offset, JgVal *value)
{
    unsigned n = 0;
    for (uint32_t b = 0; b < g->blocks.count; b++)
        for (uint32_t o = 0; o < g->blocks.items[b].ops.count; o++) {
            const JgOp *op = &g->blocks.items[b].ops.items[o];
            if (op->opcode != JG_OP_STORE)
                continue;
            JgVal sb;
            int64_t so;
            addr_parts(g, op->args[0], &sb, &so);
            if (sb == base && so == offset) {
                n++;
                if (value)
                    *value = op->args[1];
            }
        }
    return n;
}

/* The stores of `value` into base + offset. */
static unsigned stores_of(const JgGraph *g, JgVal base, int64_t offset, JgVal value)
{
    unsigned n = 0;
    for (uint32_t b = 0; b < g->blocks.count; b++)
        for (uint32_t o = 0; o < g->blocks.items[b].ops.count; o++) {
            const JgOp *op = &g->blocks.items[b].ops.items[o];
            if (op->opcode != JG_OP_STORE || op->args[1] != value)
                continue;
            JgVal sb;
            int64_t so;
            addr_parts(g, op->args[0], &sb, &so);
            n += sb == base && so == offset;
        }
    return n;
}

/* Stores into any offset of `base`. */
static unsigned stores_into(const JgGraph *g, JgVal base)
{
    unsigned n = 0;
    for (uint32_t b = 0; b < g->blocks.count; b++)
        for (uint32_t o = 0; o < g->blocks.items[b].ops.count; o++) {
            const JgOp *op = &g->blocks.items[b].ops.items[o];
            JgVal sb;
            int64_t so;
            if (op->opcode != JG_OP_STORE)
                continue;
            addr_parts(g, op->args[0], &sb, &so);
            n += sb == base;
        }
    return n;
}

/* The one store of a constant into base + offset: its bits and type. */
static uint64_t stored_const(const JgGraph *g, JgVal base, int64_t offset, JgType type)
{
    JgVal v = 0;
    assert_int_equal(stores_at(g, base, offset, &v), 1);
    assert_true(jg_is_const(g, v));
    assert_int_equal(jg_value_type(g, v), type);
    return jg_value(g, v)->bits;
}

/* The loads from base + offset. */
static unsigned loads_at(const JgGraph *g, JgVal base, int64_t offset)
{
    unsigned n = 0;
    for (uint32_t b = 0; b < g->blocks.count; b++)
        for (uint32_t o = 0; o < g->blocks.items[b].ops.count; o++) {
            const JgOp *op = &g->blocks.items[b].ops.items[o];
            if (op->opcode != JG_OP_LOAD)
                continue;
            JgVal lb;
            int64_t lo;
            addr_parts(g, op->args[0], &lb, &lo);
            n += lb == base && lo == offset;
        }
    return n;
}

/* Parameter i of the residual graph (the portal's red parameters in order). */
static JgVal red_param(const JgGraph *g, uint32_t i)
{
    assert_true(i < g->blocks.items[0].nparams);
    return g->blocks.items[0].params[i];
}

/* ---- comparing what the portals leave in memory ---- */

/* Two object graphs are equal: same fields, links of the same shape (NULL,
 * to the object itself, to its successor's successor... up to `depth`). */
static void assert_obj_equal(const PvObj *want, const PvObj *got, int depth)
{
    if (!want) {
        assert_null(got);
        return;
    }
    assert_non_null(got);
    assert_int_equal(got->a, want->a);
    assert_int_equal(got->b, want->b);
    assert_int_equal(got->c, want->c);
    assert_int_equal(got->next == got, want->next == want);
    assert_int_equal(got->next == NULL, want->next == NULL);
    if (depth > 0 && want->next != want)
        assert_obj_equal(want->next, got->next, depth - 1);
}

static const JgEngine engines[] = {JG_ENGINE_PE, JG_ENGINE_JIT};
#define NENGINES (sizeof engines / sizeof engines[0])

static int teardown_case(void **state)
{
    (void)state;
    pv_free_all();
    return 0;
}

/* ---- case 1: one virtual stored twice into real memory ---- */

static void test_store_twice(void **state)
{
    (void)state;
    const int64_t xs[] = {5, -9, INT64_MIN};
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("store_twice", engines[e], false);
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
            PvReal want = {0}, got = {0};
            int64_t rn = pv_store_twice(&want, xs[i]);
            uint64_t before = pv_allocations;
            int64_t rj = call2(&dr, ptr_arg(&got), (uint64_t)xs[i]);
            assert_int_equal(rj, rn);
            assert_int_equal(pv_allocations - before, 1);
            assert_non_null(got.first);
            assert_ptr_equal(got.first, got.second); /* the same object twice */
            assert_obj_equal(want.first, got.first, 0);
            assert_int_equal(got.first->a, xs[i]);
            assert_int_equal(got.first->c, 42);
        }
        const JgGraph *g = residual_graph(&dr, -1, 0);
        Shape s = shape_of(g);
        assert_int_equal(s.allocs, 1);
        assert_int_equal(s.calls, 0);
        JgVal obj;
        assert_int_equal(alloc_results(g, &obj, 1), 1);
        /* real->first and real->second: the allocation's result, both */
        JgVal real = red_param(g, 0), v0 = 0, v8 = 0;
        assert_int_equal(stores_at(g, real, offsetof(PvReal, first), &v0), 1);
        assert_int_equal(stores_at(g, real, offsetof(PvReal, second), &v8), 1);
        assert_int_equal(v0, obj);
        assert_int_equal(v8, obj);
        /* the object's two fields, then the two real stores: nothing else */
        assert_int_equal(stores_into(g, obj), 2);
        assert_int_equal(s.stores, 4);
        assert_int_equal(stats_of(&dr)->virtuals, 1);
        assert_int_equal(stats_of(&dr)->materialized, 1);
        driver_close(&dr);
    }
}

/* ---- case 2: constants stored into virtuals that escape ---- */

static void test_const_escape(void **state)
{
    (void)state;
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("const_escape", engines[e], false);
        PvReal want = {0}, got = {0};
        int64_t rn = pv_const_escape(&want, 3);
        uint64_t before = pv_allocations;
        assert_int_equal(call2(&dr, ptr_arg(&got), 3), rn);
        assert_int_equal(pv_allocations - before, 2);
        const PvRecord *rw = want.any, *rg = got.any;
        assert_non_null(rg);
        assert_int_equal(rg->i64, rw->i64);
        assert_int_equal(rg->i64, -5000000000);
        assert_int_equal(rg->i32, -7);
        assert_int_equal(rg->i16, 1234);
        assert_int_equal(rg->i8, -3);
        assert_true(rg->f64 == 2.5);
        assert_ptr_equal(rg->ptr, pv_marker);
        assert_obj_equal(want.first, got.first, 0);
        assert_int_equal(got.first->a, 7);
        assert_int_equal(got.first->b, 0); /* overwritten with zero */
        assert_int_equal(got.first->c, -1);

        const JgGraph *g = residual_graph(&dr, -1, 0);
        Shape s = shape_of(g);
        assert_int_equal(s.allocs, 2);
        assert_int_equal(s.calls, 1); /* pv_barrier */
        assert_int_equal(s.loads, 0);
        JgVal real = red_param(g, 0), rec = 0, obj = 0;
        assert_int_equal(stores_at(g, real, offsetof(PvReal, any), &rec), 1);
        assert_int_equal(stores_at(g, real, offsetof(PvReal, first), &obj), 1);
        /* every field a constant of its own width, stored once */
        assert_int_equal(stores_into(g, rec), 6);
        assert_int_equal(stored_const(g, rec, offsetof(PvRecord, i64), JG_I64),
                         (uint64_t)-5000000000);
        assert_int_equal(stored_const(g, rec, offsetof(PvRecord, i32), JG_I32), 0xfffffff9u);
        assert_int_equal(stored_const(g, rec, offsetof(PvRecord, i16), JG_I16), 1234);
        assert_int_equal(stored_const(g, rec, offsetof(PvRecord, i8), JG_I8), 0xfdu);
        double two_and_a_half = 2.5;
        uint64_t bits;
        memcpy(&bits, &two_and_a_half, sizeof bits);
        assert_int_equal(stored_const(g, rec, offsetof(PvRecord, f64), JG_F64), bits);
        assert_int_equal(stored_const(g, rec, offsetof(PvRecord, ptr), JG_PTR), ptr_arg(pv_marker));
        /* o: a and c; b was 99 at the barrier but the object was virtual
         * then, and zero when it escaped: no store of b at all */
        assert_int_equal(stores_into(g, obj), 2);
        assert_int_equal(stored_const(g, obj, offsetof(PvObj, a), JG_I64), 7);
        assert_int_equal(stored_const(g, obj, offsetof(PvObj, c), JG_I64), (uint64_t)-1);
        assert_int_equal(stores_at(g, obj, offsetof(PvObj, b), NULL), 0);
        assert_int_equal(stats_of(&dr)->materialized, 2);
        driver_close(&dr);
    }
}

/* ---- case 3: fields read back without escape ---- */

static void test_fields_no_escape(void **state)
{
    (void)state;
    const int64_t ks[] = {5, -2};
    const int64_t xs[] = {0, 11, -1000};
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("fields", engines[e], false);
        /* the loads the partial evaluator must remove are in the interpreter's graph */
        assert_true(count_opcode(portal_graph(&dr), JG_OP_LOAD) >= 4);
        for (size_t k = 0; k < 2; k++) {
            for (size_t i = 0; i < 3; i++) {
                uint64_t before = pv_allocations;
                assert_int_equal(call2(&dr, (uint64_t)ks[k], (uint64_t)xs[i]),
                                 pv_fields(ks[k], xs[i]));
                /* the native run allocates once; the residual code never */
                assert_int_equal(pv_allocations - before, 1);
            }
            const JgGraph *g = residual_graph(&dr, 0, (uint64_t)ks[k]);
            Shape s = shape_of(g);
            assert_int_equal(s.allocs, 0);
            assert_int_equal(s.loads, 0);
            assert_int_equal(s.stores, 0);
            assert_int_equal(s.allocas, 0);
            assert_int_equal(s.calls, 1); /* pv_barrier */
            /* what depends on k alone is folded: x * 7 plus a constant */
            assert_true(s.others <= 3);
        }
        assert_int_equal(stats_of(&dr)->virtuals, 2);
        assert_int_equal(stats_of(&dr)->materialized, 0);
        driver_close(&dr);
    }
}

/* Ablation: with virtual objects off the allocation and its memory traffic
 * come back (the assertions above can fail). */
static void test_fields_no_virtuals(void **state)
{
    (void)state;
    Driver dr = driver_open("fields", JG_ENGINE_PE, true);
    uint64_t before = pv_allocations;
    assert_int_equal(call2(&dr, 5, 11), pv_fields(5, 11));
    assert_int_equal(pv_allocations - before, 2); /* native and residual */
    Shape s = shape_of(residual_graph(&dr, 0, 5));
    assert_int_equal(s.allocs, 1);
    assert_true(s.stores >= 3);
    assert_true(s.loads >= 4);
    assert_int_equal(stats_of(&dr)->virtuals, 0);
    driver_close(&dr);
}

/* ---- case 4: chains of virtuals ---- */

static void check_chain_escaped(const JgGraph *g)
{
    Shape s = shape_of(g);
    assert_int_equal(s.allocs, 3);
    assert_int_equal(s.loads, 0); /* the result was read while virtual */
    JgVal allocs[3];
    assert_int_equal(alloc_results(g, allocs, 3), 3);
    /* real->first = a; a->next = b; b->next = c; c->next absent (zero) */
    JgVal a = 0, b = 0, c = 0;
    assert_int_equal(stores_at(g, red_param(g, 0), offsetof(PvReal, first), &a), 1);
    assert_int_equal(stores_at(g, a, offsetof(PvObj, next), &b), 1);
    assert_int_equal(stores_at(g, b, offsetof(PvObj, next), &c), 1);
    assert_int_equal(stores_at(g, c, offsetof(PvObj, next), NULL), 0);
    assert_true(a != b && b != c && a != c);
    for (int i = 0; i < 3; i++) /* each one of the three allocations */
        assert_true(allocs[i] == a || allocs[i] == b || allocs[i] == c);
    /* each object's a field, and the two links */
    assert_int_equal(stores_into(g, a) + stores_into(g, b) + stores_into(g, c), 5);
}

static void test_chain(void **state)
{
    (void)state;
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("chain", engines[e], false);
        assert_true(count_opcode(portal_graph(&dr), JG_OP_LOAD) >= 5);
        for (int64_t escape = 0; escape <= 1; escape++) {
            uint64_t virtuals = stats_of(&dr)->virtuals;
            uint64_t materialized = stats_of(&dr)->materialized;
            for (int64_t x = -3; x <= 30; x += 11) {
                PvReal want = {0}, got = {0};
                int64_t rn = pv_chain(&want, x, escape);
                uint64_t before = pv_allocations;
                assert_int_equal(call3(&dr, ptr_arg(&got), (uint64_t)x, (uint64_t)escape), rn);
                assert_int_equal(pv_allocations - before, escape ? 3 : 0);
                assert_obj_equal(want.first, got.first, 3);
                if (escape) {
                    assert_int_equal(got.first->a, x + 2);
                    assert_int_equal(got.first->next->a, x + 1);
                    assert_int_equal(got.first->next->next->a, x);
                    assert_null(got.first->next->next->next);
                }
            }
            /* one specialization per key: three virtuals each */
            assert_int_equal(stats_of(&dr)->virtuals - virtuals, 3);
            assert_int_equal(stats_of(&dr)->materialized - materialized, escape ? 3 : 0);
            const JgGraph *g = residual_graph(&dr, 2, (uint64_t)escape);
            if (escape) {
                check_chain_escaped(g);
            } else {
                Shape s = shape_of(g);
                assert_int_equal(s.allocs, 0);
                assert_int_equal(s.loads, 0);
                assert_int_equal(s.stores, 0);
                assert_int_equal(s.calls, 1); /* pv_barrier */
            }
        }
        driver_close(&dr);
    }
}

/* ---- case 5: cycles ---- */

static void test_cycle(void **state)
{
    (void)state;
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("cycle", engines[e], false);
        assert_true(count_opcode(portal_graph(&dr), JG_OP_LOAD) >= 5);
        for (int64_t x = -4; x <= 4; x += 4) {
            PvReal want = {0}, got = {0};
            int64_t rn = pv_cycle(&want, x);
            uint64_t before = pv_allocations;
            assert_int_equal(call2(&dr, ptr_arg(&got), (uint64_t)x), rn);
            assert_int_equal(pv_allocations - before, 3);
            assert_ptr_equal(got.first->next, got.first);
            assert_int_equal(got.first->a, x);
            assert_true(got.second->next != got.second);
            assert_ptr_equal(got.second->next->next, got.second);
            assert_int_equal(got.second->a, 2 * x);
            assert_int_equal(got.second->next->a, 3 * x);
            assert_obj_equal(want.first, got.first, 2);
            assert_obj_equal(want.second, got.second, 2);
        }
        const JgGraph *g = residual_graph(&dr, -1, 0);
        Shape s = shape_of(g);
        assert_int_equal(s.allocs, 3); /* once each, although reachable twice */
        assert_int_equal(s.loads, 0);  /* the result was read through the cycles while virtual */
        JgVal o = 0, p = 0, q = 0, back = 0, self = 0;
        assert_int_equal(stores_at(g, red_param(g, 0), offsetof(PvReal, first), &o), 1);
        assert_int_equal(stores_at(g, red_param(g, 0), offsetof(PvReal, second), &p), 1);
        assert_int_equal(stores_at(g, o, offsetof(PvObj, next), &self), 1);
        assert_int_equal(self, o);
        assert_int_equal(stores_at(g, p, offsetof(PvObj, next), &q), 1);
        assert_int_equal(stores_at(g, q, offsetof(PvObj, next), &back), 1);
        assert_int_equal(back, p);
        assert_true(q != p && q != o);
        assert_int_equal(stats_of(&dr)->materialized, 3);
        driver_close(&dr);
    }
}

/* ---- case 6: loads from real memory ---- */

static void test_real_loads(void **state)
{
    (void)state;
    const int64_t ks[] = {4, 1, 0};
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("real_loads", engines[e], false);
        for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++) {
            for (int64_t x = -7; x <= 7; x += 7) {
                PvReal want = {.x = x}, got = {.x = x};
                int64_t rn = pv_real_loads(&want, ks[k]);
                assert_int_equal(call2(&dr, ptr_arg(&got), (uint64_t)ks[k]), rn);
                assert_int_equal(got.x, x + 1); /* pv_bump ran */
                assert_int_equal(want.x, got.x);
            }
            const JgGraph *g = residual_graph(&dr, 1, (uint64_t)ks[k]);
            Shape s = shape_of(g);
            assert_int_equal(s.allocs, 0);
            assert_int_equal(s.stores, 0);
            assert_int_equal(s.calls, 1); /* pv_bump */
            /* one load of real->x serves the whole unrolled loop; the call
             * may change it: one more load after it */
            JgVal real = red_param(g, 0);
            assert_int_equal(loads_at(g, real, offsetof(PvReal, x)), ks[k] ? 2 : 1);
            assert_int_equal(s.loads, ks[k] ? 2 : 1);
        }
        /* the interpreter's graph loads real->x inside its loop and after the call */
        assert_true(count_opcode(portal_graph(&dr), JG_OP_LOAD) >= 3);
        driver_close(&dr);
    }
}

/* ---- case 7: a virtual passed to a residual call ---- */

static void test_residual_call(void **state)
{
    (void)state;
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("residual_call", engines[e], false);
        for (int64_t x = -5; x <= 5; x += 5) {
            uint64_t before = pv_allocations;
            int64_t rn = pv_residual_call(x);
            assert_int_equal(call1(&dr, (uint64_t)x), rn);
            assert_int_equal(pv_allocations - before, 2); /* native and residual */
            /* the callee saw a = x, b = 2 and wrote b = x + 100, c = 5 */
            assert_int_equal(rn, (x * 10 + 2) * 1000000 + (x + 100) * 1000 + 5);
        }
        const JgGraph *g = residual_graph(&dr, -1, 0);
        Shape s = shape_of(g);
        assert_int_equal(s.allocs, 1);
        assert_int_equal(s.calls, 1);
        /* in one block: the allocation, the stores of a and b, then the call
         * of pv_callee with the object, then loads of b and c */
        const JgBlock *blk = NULL;
        uint32_t alloc_at = 0, call_at = 0;
        for (uint32_t b = 0; b < g->blocks.count; b++)
            for (uint32_t o = 0; o < g->blocks.items[b].ops.count; o++) {
                const JgOp *op = &g->blocks.items[b].ops.items[o];
                if (is_alloc(g, op)) {
                    blk = &g->blocks.items[b];
                    alloc_at = o;
                }
                if (is_call_of(g, op, (const void *)pv_callee))
                    call_at = o;
            }
        assert_non_null(blk);
        assert_true(alloc_at < call_at && call_at < blk->ops.count);
        const JgOp *call = &blk->ops.items[call_at];
        JgVal obj = blk->ops.items[alloc_at].result;
        assert_int_equal(call->nargs, 2);
        assert_int_equal(call->args[1], obj);
        unsigned stores_before = 0, loads_after = 0;
        for (uint32_t o = 0; o < blk->ops.count; o++) {
            const JgOp *op = &blk->ops.items[o];
            JgVal base;
            int64_t off;
            if (op->opcode == JG_OP_STORE) {
                addr_parts(g, op->args[0], &base, &off);
                assert_int_equal(base, obj);
                assert_true(o < call_at);
                stores_before++;
            }
            if (op->opcode == JG_OP_LOAD) {
                addr_parts(g, op->args[0], &base, &off);
                assert_int_equal(base, obj);
                assert_true(o > call_at);
                assert_true(off == offsetof(PvObj, b) || off == offsetof(PvObj, c));
                loads_after++;
            }
        }
        assert_int_equal(stores_before, 2);
        assert_int_equal(stores_before, s.stores);
        assert_int_equal(loads_after, 2); /* b and c, not the stale 2 and 0 */
        assert_int_equal(loads_after, s.loads);
        assert_int_equal(stored_const(g, obj, offsetof(PvObj, b), JG_I64), 2);
        assert_int_equal(stats_of(&dr)->materialized, 1);
        driver_close(&dr);
    }
}

/* ---- case 8: work sunk below a late escape ---- */

static void run_sink(const Driver *dr, int64_t expected_allocations)
{
    const int64_t ns[] = {0, 1, 7, 100};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        PvReal want = {.x = 3}, got = {.x = 3};
        int64_t rn = pv_sink(&want, ns[i]);
        uint64_t before = pv_allocations;
        assert_int_equal(call2(dr, ptr_arg(&got), (uint64_t)ns[i]), rn);
        assert_int_equal(pv_allocations - before, expected_allocations);
        assert_obj_equal(want.first, got.first, 0);
        pv_free_all();
    }
}

static void test_sink(void **state)
{
    (void)state;
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("sink", engines[e], false);
        /* the interpreter's loop stores into the object's two fields */
        assert_true(count_opcode(portal_graph(&dr), JG_OP_STORE) >= 3);
        run_sink(&dr, 1);
        const JgGraph *g = residual_graph(&dr, -1, 0);
        Shape s = shape_of(g);
        assert_true(s.loop_blocks > 0); /* the loop is a residual loop */
        assert_int_equal(s.loop_allocs, 0);
        assert_int_equal(s.loop_stores, 0);
        assert_int_equal(s.loop_calls, 0);
        /* allocated where it escapes, once per path reaching the escape
         * (the loop taken or not); every store is real->first or a field
         * of the object just allocated */
        assert_true(s.allocs >= 1);
        JgVal objs[16];
        unsigned n = alloc_results(g, objs, 16);
        assert_int_equal(n, s.allocs);
        unsigned field_stores = 0;
        for (unsigned i = 0; i < n; i++) {
            field_stores += stores_into(g, objs[i]);
            assert_true(stores_into(g, objs[i]) <= 2); /* a and b, nothing else */
            /* real->first = this object, once (each path has its own) */
            assert_int_equal(stores_of(g, red_param(g, 0), offsetof(PvReal, first), objs[i]), 1);
        }
        assert_int_equal(stores_into(g, red_param(g, 0)), n);
        assert_int_equal(s.stores, n + field_stores);
        driver_close(&dr);
    }
}

/* Ablation: with virtual objects off the loop stores into the object. */
static void test_sink_no_virtuals(void **state)
{
    (void)state;
    Driver dr = driver_open("sink", JG_ENGINE_PE, true);
    run_sink(&dr, 1);
    Shape s = shape_of(residual_graph(&dr, -1, 0));
    assert_true(s.loop_blocks > 0);
    assert_true(s.loop_stores >= 2);
    driver_close(&dr);
}

/* ---- accesses of different widths to the same bytes ---- */

/* A byte read inside a word field is not zero (no field starts at its
 * offset), and a byte store does not replace the whole word field: the
 * objects are materialized and both accesses done on memory. */
static void test_overlap(void **state)
{
    (void)state;
    const int64_t xs[] = {0x0102030405060708, -1, 0x1234};
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("overlap", engines[e], false);
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
            int64_t rn = pv_overlap(xs[i]);
            uint64_t before = pv_allocations;
            assert_int_equal(call1(&dr, (uint64_t)xs[i]), rn);
            assert_int_equal(pv_allocations - before, 2);
        }
        const JgGraph *g = residual_graph(&dr, -1, 0);
        Shape s = shape_of(g);
        assert_int_equal(s.allocs, 2);
        JgVal objs[2];
        assert_int_equal(alloc_results(g, objs, 2), 2);
        /* u: the word stored when the byte read materializes it, read at
         * byte 1, its byte 0 stored and the word read back from memory */
        JgVal u = objs[0], v = objs[1];
        assert_int_equal(loads_at(g, u, 1), 1);
        assert_int_equal(stores_at(g, u, 0, NULL), 2);
        assert_int_equal(loads_at(g, u, 0), 1);
        /* v: its byte 3 stored, the word read from memory */
        assert_int_equal(stores_at(g, v, 3, NULL), 1);
        assert_int_equal(loads_at(g, v, 0), 1);
        assert_int_equal(stats_of(&dr)->materialized, 2);
        driver_close(&dr);
    }
}

/* ---- a list grown around a red loop ---- */

static void test_list(void **state)
{
    (void)state;
    const int64_t ns[] = {0, 1, 2, 3, 5, 40};
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("list", engines[e], false);
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            PvReal want = {0}, got = {0};
            int64_t rn = pv_list(&want, ns[i]);
            uint64_t before = pv_allocations;
            assert_int_equal(call2(&dr, ptr_arg(&got), (uint64_t)ns[i]), rn);
            assert_int_equal(pv_allocations - before, ns[i]); /* each node once */
            int64_t len = 0;
            const PvObj *w = want.first, *g = got.first;
            for (; w && g; w = w->next, g = g->next, len++) {
                assert_int_equal(g->a, w->a);
                assert_int_equal(g->b, w->b);
                assert_int_equal(g->c, 0);
            }
            assert_null(w);
            assert_null(g);
            assert_int_equal(len, ns[i]);
            pv_free_all();
        }
        Shape s = shape_of(residual_graph(&dr, -1, 0));
        assert_true(s.loop_blocks > 0);
        driver_close(&dr);
    }
}

/* ---- case 11: a virtual stored into real memory around a loop ---- */

static void test_pending(void **state)
{
    (void)state;
    const int64_t ns[] = {0, 1, 2, 7, 100};
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("pending", engines[e], false);
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            PvObj first_want = {.a = 5, .b = 9}, first_got = first_want;
            PvReal want = {.first = &first_want}, got = {.first = &first_got};
            int64_t rn = pv_pending(&want, ns[i]);
            uint64_t before = pv_allocations;
            assert_int_equal(call2(&dr, ptr_arg(&got), (uint64_t)ns[i]), rn);
            /* the last object only: the others never leave the loop */
            assert_int_equal(pv_allocations - before, ns[i] ? 1 : 0);
            assert_obj_equal(want.first, got.first, 0);
            assert_true((got.first == &first_got) == (ns[i] == 0));
            pv_free_all();
        }
        const JgGraph *g = residual_graph(&dr, -1, 0);
        Shape s = shape_of(g);
        assert_true(s.loop_blocks > 0);
        assert_int_equal(s.loop_allocs, 0);
        assert_int_equal(s.loop_stores, 0);
        assert_int_equal(s.loop_calls, 0);
        assert_true(stats_of(&dr)->pending_stores > 0);
        /* the interpreter's loop allocates and stores */
        assert_true(count_opcode(portal_graph(&dr), JG_OP_STORE) >= 3);
        driver_close(&dr);
    }
}

/* ---- case 12: pending stores done before what may observe them ---- */

static void test_pending_alias(void **state)
{
    (void)state;
    const int64_t ns[] = {0, 1, 3, 10};
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("pending_alias", engines[e], false);
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            for (int same = 0; same < 2; same++) {
                PvObj seen_want = {.a = 100}, seen_got = seen_want;
                PvReal want = {.first = &seen_want}, got = {.first = &seen_got};
                PvReal other_want = {.first = &seen_want}, other_got = {.first = &seen_got};
                PvReal *ow = same ? &want : &other_want, *og = same ? &got : &other_got;
                int64_t rn = pv_pending_alias(&want, ow, ns[i]);
                assert_int_equal(call3(&dr, ptr_arg(&got), ptr_arg(og), (uint64_t)ns[i]), rn);
                assert_obj_equal(want.first, got.first, 0);
                assert_obj_equal(want.second, got.second, 0);
                pv_free_all();
            }
        driver_close(&dr);
    }
}

/* ---- case 13: immutable words ---- */

static void test_immutable(void **state)
{
    (void)state;
    for (size_t e = 0; e < NENGINES; e++) {
        Driver dr = driver_open("immutable", engines[e], false);
        int marker;
        PvReal want = {.x = 5, .any = &marker}, got = {.x = 5, .any = &marker};
        PvReal want_other = {.any = &marker}, got_other = {.any = &marker};
        int64_t rn = pv_immutable(&want, &want_other);
        assert_int_equal(rn, 1);
        assert_int_equal(call2(&dr, ptr_arg(&got), ptr_arg(&got_other)), rn);
        assert_int_equal(got.x, 6);
        assert_null(got_other.any);
        const JgGraph *g = residual_graph(&dr, -1, 0);
        JgVal real = red_param(g, 0);
        /* real->any once, the call and the store notwithstanding; real->x
         * again after the call */
        assert_int_equal(loads_at(g, real, offsetof(PvReal, any)), 1);
        assert_int_equal(loads_at(g, real, offsetof(PvReal, x)), 2);
        driver_close(&dr);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_store_twice, teardown_case),
        cmocka_unit_test_teardown(test_const_escape, teardown_case),
        cmocka_unit_test_teardown(test_fields_no_escape, teardown_case),
        cmocka_unit_test_teardown(test_fields_no_virtuals, teardown_case),
        cmocka_unit_test_teardown(test_chain, teardown_case),
        cmocka_unit_test_teardown(test_cycle, teardown_case),
        cmocka_unit_test_teardown(test_real_loads, teardown_case),
        cmocka_unit_test_teardown(test_residual_call, teardown_case),
        cmocka_unit_test_teardown(test_sink, teardown_case),
        cmocka_unit_test_teardown(test_sink_no_virtuals, teardown_case),
        cmocka_unit_test_teardown(test_overlap, teardown_case),
        cmocka_unit_test_teardown(test_list, teardown_case),
        cmocka_unit_test_teardown(test_pending, teardown_case),
        cmocka_unit_test_teardown(test_pending_alias, teardown_case),
        cmocka_unit_test_teardown(test_immutable, teardown_case),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
