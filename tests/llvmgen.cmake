# Unit tests of the LLVM backend (llvmgen/): residual graphs built by hand,
# compiled with LLVM's ORC JIT and run. Included from tests/CMakeLists.txt.
add_executable(test_llvmgen ${CMAKE_CURRENT_LIST_DIR}/unit/test_llvmgen.c)
target_link_libraries(test_llvmgen PRIVATE jitgen_llvmgen PkgConfig::CMOCKA)
add_test(NAME test_llvmgen COMMAND test_llvmgen)
