# Tests of the bitcode reader (frontend/bitcode_reader*.c, frontend/module.c).
# Included from tests/CMakeLists.txt.
#
# The sample functions are compiled twice: to bitcode (jitgen_bitcode, the
# interpreter's pipeline) and natively into test_reader, which exports its
# symbols so that the reader resolves every graph to the native function.
# The TLC interpreter is read the same way, its symbols from tlcvm.
set(READER_SAMPLES
  samples/reader_arith.c
  samples/reader_control.c
  samples/reader_memory.c
  samples/reader_hints.c)

jitgen_bitcode(reader_samples_bc
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/reader_samples.bc
  SOURCES ${READER_SAMPLES})
# Unsupported constructs: bitcode only, never compiled natively.
jitgen_bitcode(reader_bad_bc
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/reader_bad.bc
  SOURCES samples/reader_bad.c)
jitgen_bitcode(reader_tlc_bc
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/reader_tlc.bc
  SOURCES
    ${CMAKE_SOURCE_DIR}/tlc/interp.c
    ${CMAKE_SOURCE_DIR}/tlc/ops.c
    ${CMAKE_SOURCE_DIR}/tlc/object.c
    ${CMAKE_SOURCE_DIR}/tlc/values.c
    ${CMAKE_SOURCE_DIR}/tlc/errors.c)

add_executable(test_reader unit/test_reader.c ${READER_SAMPLES})
target_include_directories(test_reader PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/samples)
target_compile_definitions(test_reader PRIVATE
  READER_SAMPLES_BC="${CMAKE_CURRENT_BINARY_DIR}/reader_samples.bc"
  READER_BAD_BC="${CMAKE_CURRENT_BINARY_DIR}/reader_bad.bc"
  READER_TLC_BC="${CMAKE_CURRENT_BINARY_DIR}/reader_tlc.bc")
target_link_libraries(test_reader PRIVATE jitgen_bitcode tlcvm PkgConfig::CMOCKA m)
# dlsym must find the samples and the interpreter in the executable
set_target_properties(test_reader PROPERTIES ENABLE_EXPORTS ON)
add_dependencies(test_reader reader_samples_bc reader_bad_bc reader_tlc_bc)
add_test(NAME test_reader COMMAND test_reader)

# Graph images: written from the same bitcode files, loaded, and compared
# with what the reader builds (the samples again natively, for dlsym).
add_executable(test_image unit/test_image.c ${READER_SAMPLES})
target_include_directories(test_image PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/samples)
target_compile_definitions(test_image PRIVATE
  READER_SAMPLES_BC="${CMAKE_CURRENT_BINARY_DIR}/reader_samples.bc"
  READER_TLC_BC="${CMAKE_CURRENT_BINARY_DIR}/reader_tlc.bc")
target_link_libraries(test_image PRIVATE jitgen_bta jitgen_bitcode tlcvm PkgConfig::CMOCKA m)
set_target_properties(test_image PROPERTIES ENABLE_EXPORTS ON)
# the portal (and what it references), which the test never calls natively
target_link_options(test_image PRIVATE -Wl,--undefined=tlc_eval)
add_dependencies(test_image reader_samples_bc reader_tlc_bc)
add_test(NAME test_image COMMAND test_image)
