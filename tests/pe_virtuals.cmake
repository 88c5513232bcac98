# Virtual objects of the partial evaluator (test_pe_virtuals): small hinted
# portals in pe_samples/, one bitcode module each (a module has one portal),
# all of them also compiled natively into the test, which exports their
# symbols so that the frontend resolves them (dlsym). The support functions
# (allocator, residual functions) are native only: the samples see their
# annotated declarations. Included from tests/CMakeLists.txt.
set(PV_CASES store_twice const_escape fields chain cycle real_loads residual_call sink overlap
  list pending pending_alias immutable)
set(PV_SOURCES pe_samples/pv_support.c)
set(PV_BITCODE)
foreach(case ${PV_CASES})
  jitgen_bitcode(pv_${case}_bc OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/pv_${case}.bc
    SOURCES pe_samples/pv_${case}.c)
  list(APPEND PV_SOURCES pe_samples/pv_${case}.c)
  list(APPEND PV_BITCODE pv_${case}_bc)
endforeach()

add_executable(test_pe_virtuals unit/test_pe_virtuals.c ${PV_SOURCES})
target_include_directories(test_pe_virtuals PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/pe_samples)
target_compile_definitions(test_pe_virtuals PRIVATE PV_BC_DIR="${CMAKE_CURRENT_BINARY_DIR}")
target_link_libraries(test_pe_virtuals PRIVATE jitgen PkgConfig::CMOCKA)
set_target_properties(test_pe_virtuals PROPERTIES ENABLE_EXPORTS ON)
add_dependencies(test_pe_virtuals ${PV_BITCODE})
add_test(NAME test_pe_virtuals COMMAND test_pe_virtuals)
jitgen_uses_backend(test_pe_virtuals)
