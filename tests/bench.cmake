# The benchmarks (included by tests/CMakeLists.txt; docs/benchmarks.md):
#   e2e_bench          `tlc bench`: its bench.* lines, cached code in later
#                      runs, the run options, bad command lines; the JIT and
#                      the other engines of JITGEN_ENGINES
#   e2e_bench_harness  bench/run.sh with tiny settings and no peers, writing
#                      into the build folder (tests/bench_harness/); normal
#                      build only (it tests the scripts, which the sanitizers
#                      do not check, and is three times slower there)

set(JITGEN_BENCH_ENGINES ${JITGEN_ENGINES})
list(REMOVE_ITEM JITGEN_BENCH_ENGINES jit)
add_test(NAME e2e_bench
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/bench_cli.sh ${JITGEN_TLC}
                 ${CMAKE_SOURCE_DIR}/examples ${JITGEN_BENCH_ENGINES})
set_tests_properties(e2e_bench PROPERTIES TIMEOUT 300)

if(NOT JITGEN_SANITIZE AND NOT CMAKE_CROSSCOMPILING)
  # needs the C baselines (bench/CMakeLists.txt, built by `all`; not in a
  # cross build)
  add_test(NAME e2e_bench_harness
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/bench_harness.sh ${JITGEN_TLC}
                   ${CMAKE_BINARY_DIR}/bench ${CMAKE_CURRENT_BINARY_DIR}/bench_harness)
  set_tests_properties(e2e_bench_harness PROPERTIES TIMEOUT 300)
endif()
