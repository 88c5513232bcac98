# jitgen_bitcode(NAME OUTPUT file.bc SOURCES a.c b.c [DEFINES X Y])
#
# Compiles C sources a second time with clang-19 to LLVM bitcode for the JIT
# generator's frontend and links them into one module. The pipeline is fixed
# so that the graphs keep the interpreter's structure (docs/architecture.md,
# "Translation time"):
#   -O1                      SSA form (mem2reg), simplified CFG, constant folding,
#                            small inlining: the shape the partial evaluator reads
#   -fno-unroll-loops        loops of the interpreter stay loops
#   -disable-loop-idiom-memcpy  and copying loops are not turned into memcpy:
#                            a loop with a green bound unrolls into one virtual
#                            field per element, a memcpy from real memory into
#                            a virtual object would materialize it
#   -fno-vectorize, -fno-slp-vectorize
#                            no vector types in the graphs
#   -gline-tables-only       source lines for messages and dumps
#   -DJITGEN_ANALYSIS        hints become calls the frontend recognizes
set(JITGEN_BITCODE_FLAGS
  -std=c17 -O1 -fno-unroll-loops -mllvm -disable-loop-idiom-memcpy -fno-vectorize
  -fno-slp-vectorize
  -gline-tables-only -DJITGEN_ANALYSIS -D_GNU_SOURCE
  -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR})
# A cross build's bitcode is the target's (its data layout, its headers):
# the graphs describe the code that runs there.
if(CMAKE_CROSSCOMPILING)
  list(APPEND JITGEN_BITCODE_FLAGS --target=${CMAKE_C_COMPILER_TARGET} --sysroot=${CMAKE_SYSROOT})
endif()

function(jitgen_bitcode name)
  cmake_parse_arguments(BC "" "OUTPUT" "SOURCES;DEFINES" ${ARGN})
  set(objects)
  foreach(src ${BC_SOURCES})
    get_filename_component(base ${src} NAME_WE)
    get_filename_component(abs ${src} ABSOLUTE)
    set(bc ${CMAKE_CURRENT_BINARY_DIR}/${name}.${base}.bc)
    set(defs)
    foreach(d ${BC_DEFINES})
      list(APPEND defs -D${d})
    endforeach()
    add_custom_command(
      OUTPUT ${bc}
      COMMAND ${CLANG19} ${JITGEN_BITCODE_FLAGS} ${defs} -emit-llvm -c ${abs} -o ${bc}
      DEPENDS ${abs}
      IMPLICIT_DEPENDS C ${abs}
      COMMENT "Bitcode ${src}"
      VERBATIM)
    list(APPEND objects ${bc})
  endforeach()
  # Use-list orders are not kept: the frontend never walks uses, and reading
  # them back costs time at every start.
  add_custom_command(
    OUTPUT ${BC_OUTPUT}
    COMMAND ${LLVM_LINK} --preserve-bc-uselistorder=false ${objects} -o ${BC_OUTPUT}
    DEPENDS ${objects}
    COMMENT "Linking bitcode ${name}"
    VERBATIM)
  add_custom_target(${name} DEPENDS ${BC_OUTPUT})
endfunction()

# jitgen_export_bitcode_symbols(TARGET BITCODE_TARGET BITCODE_FILE)
#
# The frontend finds the native address of every function and global of the
# bitcode with dlsym: TARGET's dynamic symbol table must hold them. Exporting
# everything (-rdynamic) would also export the ~36,000 symbols of LLVM and
# cost milliseconds at every start; this exports exactly the bitcode's
# external symbols (defined and referenced), listed by llvm-nm.
function(jitgen_export_bitcode_symbols target bc_target bc_file)
  set(list ${CMAKE_CURRENT_BINARY_DIR}/${target}.exports)
  add_custom_command(
    OUTPUT ${list}
    COMMAND ${CMAKE_COMMAND} -DNM=${LLVM_NM} -DBITCODE=${bc_file} -DOUT=${list}
            -P ${CMAKE_SOURCE_DIR}/cmake/ExportList.cmake
    DEPENDS ${bc_file} ${bc_target} ${CMAKE_SOURCE_DIR}/cmake/ExportList.cmake
    COMMENT "Exported symbols of ${target}"
    VERBATIM)
  add_custom_target(${target}_exports DEPENDS ${list})
  add_dependencies(${target} ${target}_exports)
  target_link_options(${target} PRIVATE -Wl,--dynamic-list=${list})
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${list})
endfunction()

# jitgen_graph_image(NAME OUTPUT file.img BITCODE file.bc BITCODE_TARGET target)
#
# Translates bitcode into flow graphs at build time and writes them as a
# graph image (docs/frontend.md, "Graph images"): the binary that embeds the
# image loads its graphs in about a millisecond instead of parsing bitcode
# at every start.
function(jitgen_graph_image name)
  cmake_parse_arguments(IMG "" "OUTPUT;BITCODE;BITCODE_TARGET" "" ${ARGN})
  add_custom_command(
    OUTPUT ${IMG_OUTPUT}
    COMMAND jitgen-image ${IMG_BITCODE} ${IMG_OUTPUT}
    DEPENDS ${IMG_BITCODE} ${IMG_BITCODE_TARGET} jitgen-image
    COMMENT "Graph image ${name}"
    VERBATIM)
  add_custom_target(${name} DEPENDS ${IMG_OUTPUT})
endfunction()
