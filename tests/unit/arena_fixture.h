/* The arena every graph of a unit test lives in, emptied after each test
 * (cmocka's setup and teardown). */
#ifndef JITGEN_TESTS_ARENA_FIXTURE_H
#define JITGEN_TESTS_ARENA_FIXTURE_H

#include <string.h>

#include "frontend/arena.h"

static JgArena arena;

static int setup(void **state)
{
    (void)state;
    memset(&arena, 0, sizeof arena);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    jg_arena_free(&arena);
    return 0;
}

#endif
