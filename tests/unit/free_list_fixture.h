/* A free-list allocator described to a backend (jitgen/allocator.h) and the
 * checks both backends' unit tests run on it (test_baseline.c,
 * test_llvmgen.c): objects taken off the list in compiled code, counted and
 * cleared as described; the allocator called when the list is empty or the
 * size is not one it serves; fields stored right after the allocation kept.
 * Needs residual_build.h first. Included once per test program. */
#ifndef JITGEN_TESTS_FREE_LIST_FIXTURE_H
#define JITGEN_TESTS_FREE_LIST_FIXTURE_H

#include <stdint.h>
#include <string.h>

#include "jitgen/allocator.h"

/* The list's empty mark: a head at or below it is a count, as in Boehm GC. */
#define FL_EMPTY_MAX 2
#define FL_OBJECT_BYTES 32

static void *fl_head;     /* the list: objects linked by their first word */
static uint64_t fl_taken; /* the allocator's counter */
static uint64_t fl_calls; /* calls of the allocator itself */
static _Alignas(16) unsigned char fl_pool[3][FL_OBJECT_BYTES];   /* the list's objects */
static _Alignas(16) unsigned char fl_fresh[2 * FL_OBJECT_BYTES]; /* what a call returns */

/* The allocator's slow path: a cleared object of its own. */
static void *fl_alloc(uint64_t size, int64_t site)
{
    (void)site;
    fl_calls++;
    fl_taken++;
    memset(fl_fresh, 0, sizeof fl_fresh);
    return size <= sizeof fl_fresh ? fl_fresh : NULL;
}

/* The same allocator, described as clearing only the link word. */
static void *fl_alloc_link_cleared(uint64_t size, int64_t site)
{
    return fl_alloc(size, site);
}

static void **fl_list(uint64_t size)
{
    return size <= FL_OBJECT_BYTES ? &fl_head : NULL;
}

static const JgFreeListAllocator fl_allocators[2] = {
    {.fn = (const void *)fl_alloc,
     .list = fl_list,
     .empty_max = FL_EMPTY_MAX,
     .clear_all = true,
     .counter = &fl_taken},
    {.fn = (const void *)fl_alloc_link_cleared,
     .list = fl_list,
     .empty_max = FL_EMPTY_MAX,
     .clear_all = false,
     .counter = &fl_taken},
};

/* The list holds the pool's objects, each filled with 0xab past its link,
 * then the count 1. */
static void fl_fill(void)
{
    memset(fl_pool, 0xab, sizeof fl_pool);
    for (int i = 0; i < 3; i++)
        *(void **)fl_pool[i] = i < 2 ? (void *)fl_pool[i + 1] : (void *)(uintptr_t)1;
    fl_head = fl_pool[0];
    fl_taken = fl_calls = 0;
}

/* fn(size, 7) returned. */
static JgGraph *fl_graph_raw(const char *name, const void *fn, uint64_t size)
{
    JgGraph *g = residual(name, JG_PTR, 0, NULL);
    JgVal args[3] = {jg_const_symbol(g, (void *)(uintptr_t)fn, "alloc"), k64(g, size), k64(g, 7)};
    jg_set_return(g, 0, jg_emit(g, 0, JG_OP_CALL, JG_PTR, 3, args));
    verified(g);
    return g;
}

/* fn(16, 7) with its two words stored at once: a, then b at offset 8. */
static JgGraph *fl_graph_stored(const void *fn)
{
    JgGraph *g = residual("fl_stored", JG_PTR, 2, (JgType[]){JG_I64, JG_I64});
    JgVal args[3] = {jg_const_symbol(g, (void *)(uintptr_t)fn, "alloc"), k64(g, 16), k64(g, 7)};
    JgVal p = jg_emit(g, 0, JG_OP_CALL, JG_PTR, 3, args);
    op2(g, 0, JG_OP_STORE, JG_VOID, p, P(g, 0, 0));
    op2(g, 0, JG_OP_STORE, JG_VOID, op2(g, 0, JG_OP_PTRADD, JG_PTR, p, k64(g, 8)), P(g, 0, 1));
    jg_set_return(g, 0, p);
    verified(g);
    return g;
}

/* Eight values live across fn(16, 7), summed after it: a * 36. */
static JgGraph *fl_graph_live(const void *fn)
{
    JgGraph *g = residual("fl_live", JG_I64, 1, (JgType[]){JG_I64});
    JgVal v[8];
    for (uint32_t i = 0; i < 8; i++)
        v[i] = op2(g, 0, JG_OP_MUL, JG_I64, P(g, 0, 0), k64(g, i + 1));
    JgVal args[3] = {jg_const_symbol(g, (void *)(uintptr_t)fn, "alloc"), k64(g, 16), k64(g, 7)};
    JgVal p = jg_emit(g, 0, JG_OP_CALL, JG_PTR, 3, args);
    op2(g, 0, JG_OP_STORE, JG_VOID, p, v[0]);
    JgVal sum = v[0];
    for (uint32_t i = 1; i < 8; i++)
        sum = op2(g, 0, JG_OP_ADD, JG_I64, sum, v[i]);
    jg_set_return(g, 0, sum);
    verified(g);
    return g;
}

typedef uint64_t (*FlRun)(void *backend, JgGraph *g, const uint64_t *args);
typedef void (*FlCompile)(void *backend, JgGraph *g);

static bool fl_all(const unsigned char *p, size_t from, size_t to, unsigned char byte)
{
    for (size_t i = from; i < to; i++)
        if (p[i] != byte)
            return false;
    return true;
}

/* The checks: `backend` was made with fl_allocators. */
static void fl_check(void *backend, FlCompile compile_graph, FlRun run)
{
    JgGraph *whole = fl_graph_raw("fl_whole", (const void *)fl_alloc, 24);
    JgGraph *link = fl_graph_raw("fl_link", (const void *)fl_alloc_link_cleared, 24);
    JgGraph *big = fl_graph_raw("fl_big", (const void *)fl_alloc, FL_OBJECT_BYTES + 8);
    JgGraph *stored = fl_graph_stored((const void *)fl_alloc);
    compile_graph(backend, whole);
    compile_graph(backend, link);
    compile_graph(backend, big);
    compile_graph(backend, stored);
    JgGraph *live = fl_graph_live((const void *)fl_alloc);
    compile_graph(backend, live);

    fl_fill();
    /* taken off the list, counted, its 24 bytes cleared and no more */
    assert_ptr_equal((void *)(uintptr_t)run(backend, whole, NULL), fl_pool[0]);
    assert_ptr_equal(fl_head, fl_pool[1]);
    assert_int_equal(fl_taken, 1);
    assert_int_equal(fl_calls, 0);
    assert_true(fl_all(fl_pool[0], 0, 24, 0));
    assert_true(fl_all(fl_pool[0], 24, FL_OBJECT_BYTES, 0xab));
    /* only the link word cleared */
    assert_ptr_equal((void *)(uintptr_t)run(backend, link, NULL), fl_pool[1]);
    assert_true(fl_all(fl_pool[1], 0, 8, 0));
    assert_true(fl_all(fl_pool[1], 8, FL_OBJECT_BYTES, 0xab));
    /* a size the list does not serve: the call, the list untouched */
    assert_ptr_equal((void *)(uintptr_t)run(backend, big, NULL), fl_fresh);
    assert_int_equal(fl_calls, 1);
    assert_ptr_equal(fl_head, fl_pool[2]);
    /* fields stored at once */
    unsigned char *o = (void *)(uintptr_t)run(backend, stored, (uint64_t[]){11, 22});
    assert_ptr_equal(o, fl_pool[2]);
    assert_int_equal(((uint64_t *)o)[0], 11);
    assert_int_equal(((uint64_t *)o)[1], 22);
    assert_true(fl_all(o, 16, FL_OBJECT_BYTES, 0xab));
    assert_ptr_equal(fl_head, (void *)(uintptr_t)1);
    assert_int_equal(fl_taken, 4);
    /* the list empty (its count is no object): the allocator */
    assert_ptr_equal((void *)(uintptr_t)run(backend, whole, NULL), fl_fresh);
    assert_int_equal(fl_calls, 2);
    assert_int_equal(fl_taken, 5);
    assert_ptr_equal(fl_head, (void *)(uintptr_t)1);
    /* values live across the allocation, on the allocator's path, then on
     * the list's */
    assert_int_equal(run(backend, live, (uint64_t[]){1000003}), 36 * 1000003);
    assert_int_equal(fl_calls, 3);
    fl_fill();
    assert_int_equal(run(backend, live, (uint64_t[]){7}), 36 * 7);
    assert_int_equal(fl_calls, 0);
}

#endif
