# Writes a linker dynamic list (OUT) of the external symbols, defined or
# referenced, of a bitcode file (BITCODE), using llvm-nm (NM).
# Called by jitgen_export_bitcode_symbols (Bitcode.cmake).
execute_process(COMMAND ${NM} --extern-only --format=just-symbols ${BITCODE}
                OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "llvm-nm failed on ${BITCODE}")
endif()
string(REPLACE "\n" ";" symbols "${symbols}")
set(text "{\n")
foreach(sym ${symbols})
  if(NOT sym STREQUAL "")
    string(APPEND text "  ${sym};\n")
  endif()
endforeach()
string(APPEND text "};\n")
file(WRITE ${OUT} "${text}")
