# The fuzz targets' smoke test (fuzz/smoke.sh; docs/testing.md, "Fuzzing"):
# builds the fuzz build (clang-19, ASan, UBSan, libFuzzer) in
# JITGEN_FUZZ_BUILD, the directory `make fuzz` uses, and runs each target a
# few seconds from its seeds. Skipped where clang-19 cannot link libFuzzer
# (libclang-rt-19-dev missing). Only in the normal build: the fuzz build has
# the sanitizers already.
set(JITGEN_FUZZ_BUILD ${CMAKE_SOURCE_DIR}/build-fuzz CACHE PATH
    "Where the fuzz_smoke test builds the fuzz targets")
add_test(NAME fuzz_smoke
         COMMAND bash ${CMAKE_SOURCE_DIR}/fuzz/smoke.sh ${CMAKE_SOURCE_DIR} ${JITGEN_FUZZ_BUILD} 3)
set_tests_properties(fuzz_smoke PROPERTIES TIMEOUT 900 SKIP_RETURN_CODE 77)
