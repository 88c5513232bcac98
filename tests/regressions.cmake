# Random programs that once broke an engine, each with the generator's
# seed, size, shape and the input that did: every engine agrees with the
# interpreter (tests/e2e/random_programs.sh). Included by
# tests/CMakeLists.txt after e2e.cmake (tlcgen, JITGEN_ENGINES).
#   seed:size:shape:input   what went wrong
#   65:40:retype:-8         pe, baseline, jit at threshold 0: a wrong result; a
#                           shape variable took an object that another slot
#                           kept virtual (two copies of the object)
#   9:40:long:-1            the same
#   2:40:long:-8            jit at threshold 10, LLVM from the hand-over:
#                           status 70, LLVM rejected the IR (an evaluated
#                           secondary entered at a block with outside uses)
#   169:40:retype:-9        the same
set(TLC_REGRESSION_ENGINES ${JITGEN_ENGINES})
if(jit IN_LIST JITGEN_ENGINES)
  list(APPEND TLC_REGRESSION_ENGINES jit@10~0 jit@default)
endif()
foreach(spec 65:40:retype:-8 9:40:long:-1 2:40:long:-8 169:40:retype:-9)
  string(REPLACE ":" ";" parts ${spec})
  list(GET parts 0 seed)
  list(GET parts 1 size)
  list(GET parts 2 shape)
  list(GET parts 3 input)
  add_test(NAME e2e_random_regression_${shape}_${seed}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/e2e/random_programs.sh ${JITGEN_TLC}
                   ${JITGEN_TLCGEN} 1 ${TLC_REGRESSION_ENGINES})
  set_tests_properties(e2e_random_regression_${shape}_${seed} PROPERTIES ENVIRONMENT
                       "TLC_RANDOM_FIRST=${seed};TLC_RANDOM_SIZE=${size};TLC_RANDOM_SHAPE=${shape};TLC_RANDOM_INPUTS=${input}")
endforeach()
