# The bounds of a run (included by tests/CMakeLists.txt after e2e.cmake):
#   e2e_recursion_limit   exactly 1000 nested CALL/SEND frames, the next one a
#                         RecursionError, on every engine setting
#   e2e_memory_limits     --max-heap (MemoryError at the allocating
#                         instruction, bad sizes) and --max-jit-memory
# Every engine setting of the JIT (tests/e2e/engine_args.sh): the default
# tiered jit, LLVM only with and without tiering, the baseline tier first
# with a hand-over at the first jump; the sanitizer build runs its own,
# lighter list of engines.
if(JITGEN_SANITIZE)
  set(TLC_LIMIT_ENGINES ${JITGEN_ENGINES})
else()
  set(TLC_LIMIT_ENGINES interp graphs pe baseline jit@default jit jit~0 jit@10~0 jit@1)
endif()
if(NOT JITGEN_BASELINE)
  list(REMOVE_ITEM TLC_LIMIT_ENGINES baseline)
endif()
if(CMAKE_CROSSCOMPILING) # under an emulator: the engines of JITGEN_ENGINES (tests/CMakeLists.txt)
  list(REMOVE_ITEM TLC_LIMIT_ENGINES graphs)
endif()
add_test(NAME e2e_recursion_limit
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/recursion_limit.sh ${JITGEN_TLC}
                 ${TLC_LIMIT_ENGINES})
add_test(NAME e2e_memory_limits
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/memory_limits.sh ${JITGEN_TLC}
                 ${TLC_LIMIT_ENGINES})
