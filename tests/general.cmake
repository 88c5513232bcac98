# The general benchmark suite (bench/general/, docs/benchmarks.md "The general
# suite"), included by tests/CMakeLists.txt:
#   e2e_general   every program with an expected file, at its test size, under
#                 each engine setting of JITGEN_GENERAL_ENGINES
#                 (tests/e2e/general_programs.sh names them): stdout, stderr
#                 and exit status as expected
# Only settings under which every program passes are listed. The sanitizer
# build runs the engines that do not start LLVM.

if(JITGEN_SANITIZE)
  set(JITGEN_GENERAL_ENGINES "interp pe baseline")
else()
  set(JITGEN_GENERAL_ENGINES "interp pe baseline default llvm llvm@10 jit0")
endif()
if(NOT JITGEN_BASELINE)
  string(REPLACE "baseline " "" JITGEN_GENERAL_ENGINES "${JITGEN_GENERAL_ENGINES}")
endif()
add_test(NAME e2e_general
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/general_programs.sh ${JITGEN_TLC})
set_tests_properties(e2e_general PROPERTIES TIMEOUT 900
                     ENVIRONMENT "GENERAL_ENGINES=${JITGEN_GENERAL_ENGINES}")

# The held-out programs (bench/unseen/), the same way: e2e_unseen.
add_test(NAME e2e_unseen
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/general_programs.sh ${JITGEN_TLC})
set_tests_properties(e2e_unseen PROPERTIES TIMEOUT 900
                     ENVIRONMENT "GENERAL_ENGINES=${JITGEN_GENERAL_ENGINES};GENERAL_SUITE=${CMAKE_CURRENT_LIST_DIR}/../bench/unseen")

# Grown graphs consolidated under the baseline engine and the tiered
# default, none given up (tests/e2e/consolidation.sh; the baseline tier is
# x86-64's).
if(JITGEN_BASELINE)
  add_test(NAME e2e_consolidation
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/consolidation.sh ${JITGEN_TLC})
endif()

# Straight-line code specialized without a residual block per instruction
# (tests/e2e/merge_points.sh).
add_test(NAME e2e_merge_points
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/merge_points.sh ${JITGEN_TLC})
if(JITGEN_BASELINE)
  set_tests_properties(e2e_merge_points PROPERTIES ENVIRONMENT "MERGE_ENGINES=pe baseline")
endif()

# Stores into an object the interpreter allocated stay pending past loads
# from objects of other kinds (tests/e2e/hand_over_stores.sh).
add_test(NAME e2e_hand_over_stores
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/hand_over_stores.sh ${JITGEN_TLC})

# Integers passed by value in calls between compiled graphs, and boxed again
# under --no-value-args (tests/e2e/value_args.sh).
add_test(NAME e2e_value_args
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/value_args.sh ${JITGEN_TLC})

# What the interpreter hands over is specialized once: no residual graph
# more than --engine=baseline makes, and its saved stack read by shape: no
# flexswitch more (tests/e2e/hand_over_entries.sh).
add_test(NAME e2e_hand_over_entries
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/hand_over_entries.sh ${JITGEN_TLC})

# Late guesses (JITGEN_LATE_GUESSES=1, off by default; docs/architecture.md,
# "Guessing once the loop closes"): both suites under the tiered default and
# a hand-over at threshold 10 straight to LLVM, with them on.
foreach(suite general unseen)
  add_test(NAME e2e_late_guesses_${suite}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/general_programs.sh ${JITGEN_TLC})
  set_tests_properties(e2e_late_guesses_${suite} PROPERTIES TIMEOUT 900
                       ENVIRONMENT "JITGEN_LATE_GUESSES=1;GENERAL_ENGINES=default llvm@10;GENERAL_SUITE=${CMAKE_CURRENT_LIST_DIR}/../bench/${suite}")
endforeach()
