# Exits to the evaluator (pe/exit.c, docs/architecture.md "When the JIT
# cannot go on"): every case and random programs under compiled engines
# whose compilations all end in exits (JITGEN_PE_BUDGET), and the command
# line's view of them. Included by tests/CMakeLists.txt after e2e.cmake.
set(TLC_EXIT_ENGINES)
foreach(engine pe baseline jit@1)
  if(engine IN_LIST JITGEN_ENGINES)
    list(APPEND TLC_EXIT_ENGINES ${engine})
  endif()
endforeach()
# the sanitizer build, four times slower, runs the examples and the error
# programs at one budget
set(TLC_EXIT_CASES ${TLC_E2E_CASES})
set(TLC_EXIT_BUDGETS 5 200)
if(JITGEN_SANITIZE)
  file(GLOB TLC_EXIT_CASES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/cases/ex_*.tlc
       ${CMAKE_CURRENT_LIST_DIR}/cases/err_*.tlc)
  list(SORT TLC_EXIT_CASES)
  set(TLC_EXIT_BUDGETS 5)
endif()
foreach(budget IN LISTS TLC_EXIT_BUDGETS)
  foreach(engine IN LISTS TLC_EXIT_ENGINES)
    add_test(NAME e2e_cases_${engine}_budget${budget}
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/run_cases.sh ${JITGEN_TLC} ${engine}
                     ${TLC_EXIT_CASES})
    set_tests_properties(e2e_cases_${engine}_budget${budget} PROPERTIES ENVIRONMENT
                         JITGEN_PE_BUDGET=${budget})
  endforeach()
endforeach()
if(TLC_EXIT_ENGINES)
  add_test(NAME e2e_random_budget
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/random_programs.sh ${JITGEN_TLC}
                   ${JITGEN_TLCGEN} 20 interp ${TLC_EXIT_ENGINES})
  set_tests_properties(e2e_random_budget PROPERTIES ENVIRONMENT JITGEN_PE_BUDGET=60 TIMEOUT 900)
  add_test(NAME e2e_exits
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/exits.sh ${JITGEN_TLC}
                   ${CMAKE_CURRENT_LIST_DIR}/cases ${TLC_EXIT_ENGINES})
endif()
