# End-to-end tests through the tlc binary (included by tests/CMakeLists.txt):
#   e2e_cases_<engine>    tests/cases/*.tlc, each run from source and as .tlcb
#   e2e_cli               command line, bad and corrupted files, mutants
#   e2e_random            200 random programs from tlcgen, all engines agree
#   e2e_recurrence        recurrence loops from tlcrec at 9 inputs, all engines agree
#   e2e_random_shapes     tlcgen's shapes under seven engine settings (with jit)
# JITGEN_ENGINES lists the engines to test (`tlc run --engine=E`); a parent
# scope may set it (e.g. "interp;jit"), the default is the interpreter only.

if(NOT DEFINED JITGEN_ENGINES)
  set(JITGEN_ENGINES interp)
endif()
if(NOT DEFINED JITGEN_RANDOM_PROGRAMS)
  set(JITGEN_RANDOM_PROGRAMS 200)
endif()
if(NOT DEFINED JITGEN_RECURRENCE_PROGRAMS)
  set(JITGEN_RECURRENCE_PROGRAMS 20)
endif()

# The random TLC program generator, and the generator of recurrence loops.
add_library(tlcgen_generator STATIC ${CMAKE_CURRENT_LIST_DIR}/gen/generator.c)
add_executable(tlcgen ${CMAKE_CURRENT_LIST_DIR}/gen/tlcgen.c)
target_link_libraries(tlcgen PRIVATE tlcgen_generator)
set_target_properties(tlcgen PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
add_executable(tlcrec ${CMAKE_CURRENT_LIST_DIR}/gen/tlcrec.c)
set_target_properties(tlcrec PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
jitgen_command(tlcgen JITGEN_TLCGEN)
jitgen_command(tlcrec JITGEN_TLCREC)

file(GLOB TLC_E2E_CASES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/cases/*.tlc)
list(SORT TLC_E2E_CASES)

foreach(engine IN LISTS JITGEN_ENGINES)
  add_test(NAME e2e_cases_${engine}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/run_cases.sh ${JITGEN_TLC} ${engine}
                   ${TLC_E2E_CASES})
endforeach()

add_test(NAME e2e_cli COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/cli.sh ${JITGEN_TLC})
if(NOT JITGEN_BASELINE)
  set_tests_properties(e2e_cli PROPERTIES ENVIRONMENT TLC_BASELINE=0)
endif()

add_test(NAME e2e_random
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/random_programs.sh ${JITGEN_TLC}
                 ${JITGEN_TLCGEN} ${JITGEN_RANDOM_PROGRAMS} ${JITGEN_ENGINES})

# Recurrence loops (tests/gen/tlcrec.c) the partial evaluator unrolls, at
# trip counts leaving after either half: all the engines agree.
add_test(NAME e2e_recurrence
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/random_programs.sh ${JITGEN_TLC}
                 ${JITGEN_TLCREC} ${JITGEN_RECURRENCE_PROGRAMS} ${JITGEN_ENGINES})

# Random programs that once broke an engine, each with its size and input:
# seed 9177 (size 80, N = -10) made the partial evaluator bind a slot of a
# virtual object that binding an earlier slot had materialized (pe/merge.c,
# bind_params), a crash.
add_test(NAME e2e_random_regressions
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/random_programs.sh ${JITGEN_TLC}
                 ${JITGEN_TLCGEN} 1 ${JITGEN_ENGINES})
set_tests_properties(e2e_random_regressions PROPERTIES ENVIRONMENT
                     "TLC_RANDOM_FIRST=9177;TLC_RANDOM_SIZE=80;TLC_RANDOM_INPUTS=-10")

set_tests_properties(e2e_cli e2e_random e2e_recurrence PROPERTIES TIMEOUT 900)
set_tests_properties(e2e_recurrence PROPERTIES ENVIRONMENT
                     "TLC_RANDOM_SIZE=100;TLC_RANDOM_INPUTS=0 1 2 3 10 11 1000 1001 1002")

# The JIT at every fixed LLVM optimization level (the default, auto, runs
# above on every case and the random programs): the examples, the error
# programs, and a few random programs.
if(jit IN_LIST JITGEN_ENGINES)
  file(GLOB TLC_E2E_OPT_CASES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/cases/ex_*.tlc
       ${CMAKE_CURRENT_LIST_DIR}/cases/err_*.tlc)
  list(SORT TLC_E2E_OPT_CASES)
  foreach(level O0 O1 O2 O3)
    add_test(NAME e2e_cases_jit_${level}
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/run_cases.sh ${JITGEN_TLC}
                     jit:${level} ${TLC_E2E_OPT_CASES})
  endforeach()
  # the ablation without virtual objects (--no-virtuals), partial evaluator
  # and JIT: same results, and loops that promote still close
  foreach(engine pe jit)
    add_test(NAME e2e_cases_${engine}_novirt
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/run_cases.sh ${JITGEN_TLC}
                     ${engine}+novirt ${TLC_E2E_OPT_CASES})
  endforeach()
  # the baseline tier handing every loop over to LLVM at its first back-edge
  # (docs/baseline.md, "Tiers")
  if(JITGEN_BASELINE)
    add_test(NAME e2e_cases_jit_tier_up
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/run_cases.sh ${JITGEN_TLC} jit@1
                     ${TLC_E2E_OPT_CASES})
    set_tests_properties(e2e_cases_jit_tier_up PROPERTIES ENVIRONMENT JITGEN_TIER_UP_NOW=1)
    # and at the first back-edge only: a running loop goes on in LLVM's code
    # from its header (jg_llvm_call_at), graphs without a flexswitch too
    add_test(NAME e2e_cases_jit_tier_up_loops
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/run_cases.sh ${JITGEN_TLC} jit@1
                     ${TLC_E2E_OPT_CASES})
    set_tests_properties(e2e_cases_jit_tier_up_loops PROPERTIES ENVIRONMENT
                         JITGEN_TIER_UP_NOW=loops)
  endif()
  # random programs: the JIT at the other levels and without virtual objects
  # against the interpreter
  add_test(NAME e2e_random_jit_levels
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/random_programs.sh ${JITGEN_TLC}
                   ${JITGEN_TLCGEN} 10 interp jit:O0 jit:O1 jit:O2 jit:O3 pe+novirt
                   jit+novirt jit@3 pe@2)
  set_tests_properties(e2e_random_jit_levels PROPERTIES TIMEOUT 900)
  # programs of tlcgen's shapes (rings of objects of several classes, list and
  # chain walks with the head kept, a slot changing type in a hot loop, errors
  # after many iterations, deep recursion, long loops for the tiers), seeds
  # 1-15 of each, under the interpreter, the partial evaluator, the baseline,
  # the jit engine with its own default threshold and tier-up, LLVM only from
  # the start (--jit-threshold=0 --tier-up=0), LLVM from a hand-over at
  # threshold 10 (--tier-up=0) and at threshold 0; the .tlc only (e2e_random
  # compares it with the .tlcb)
  set(TLC_SHAPE_ENGINES interp pe baseline jit@default jit@0~0 jit@10~0 jit)
  if(NOT JITGEN_BASELINE)
    list(REMOVE_ITEM TLC_SHAPE_ENGINES baseline)
  endif()
  add_test(NAME e2e_random_shapes
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/random_programs.sh ${JITGEN_TLC}
                   ${JITGEN_TLCGEN} 15 ${TLC_SHAPE_ENGINES})
  set_tests_properties(e2e_random_shapes PROPERTIES TIMEOUT 900 ENVIRONMENT
                       "TLC_RANDOM_SHAPE=ring walk retype lateerr deep long;TLC_RANDOM_TLCB=0")
  # the same shapes with late guesses on (off by default; docs/architecture.md,
  # "Guessing once the loop closes"), the settings that hand loops over
  add_test(NAME e2e_random_shapes_late_guesses
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/random_programs.sh ${JITGEN_TLC}
                   ${JITGEN_TLCGEN} 15 interp jit@default jit@10~0)
  set_tests_properties(e2e_random_shapes_late_guesses PROPERTIES TIMEOUT 900 ENVIRONMENT
                       "TLC_RANDOM_SHAPE=ring walk retype lateerr deep long;TLC_RANDOM_TLCB=0;JITGEN_LATE_GUESSES=1")
endif()
