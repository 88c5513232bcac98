# Unit tests of the flow-graph printer, verifier and evaluator
# (frontend/print.c, verify.c, eval.c). Included from tests/CMakeLists.txt.
add_executable(test_eval unit/test_eval.c)
target_link_libraries(test_eval PRIVATE jitgen_frontend PkgConfig::CMOCKA)
add_test(NAME test_eval COMMAND test_eval)
