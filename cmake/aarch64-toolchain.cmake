# Cross build for AArch64 Linux on an x86-64 Debian host (docs/aarch64.md):
# clang-19 --target=aarch64-linux-gnu, linked by lld, against a sysroot of
# arm64 Debian packages unpacked by scripts/install-aarch64-deps.sh. The
# programs the build makes run under qemu-aarch64-static: CMake prefixes
# CMAKE_CROSSCOMPILING_EMULATOR to build steps that run a target of the
# build (the graph image tool) and to the tests.
#
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-toolchain.cmake \
#         -DJITGEN_AARCH64_SYSROOT=$PWD/build-aarch64/sysroot
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

# try_compile projects read this file again: the sysroot goes with them
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES JITGEN_AARCH64_SYSROOT)
if(NOT JITGEN_AARCH64_SYSROOT)
  message(FATAL_ERROR "JITGEN_AARCH64_SYSROOT must name the arm64 sysroot "
                      "(scripts/install-aarch64-deps.sh makes it)")
endif()
set(CMAKE_SYSROOT ${JITGEN_AARCH64_SYSROOT})

set(JITGEN_TARGET_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER clang-19)
set(CMAKE_C_COMPILER_TARGET ${JITGEN_TARGET_TRIPLE})
set(CMAKE_ASM_COMPILER clang-19)
set(CMAKE_ASM_COMPILER_TARGET ${JITGEN_TARGET_TRIPLE})
# the host's GNU ld links x86-64 only
set(CMAKE_EXE_LINKER_FLAGS_INIT -fuse-ld=lld)
set(CMAKE_SHARED_LINKER_FLAGS_INIT -fuse-ld=lld)
set(CMAKE_MODULE_LINKER_FLAGS_INIT -fuse-ld=lld)

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L ${JITGEN_AARCH64_SYSROOT})

# Libraries, headers and pkg-config files come from the sysroot only;
# programs (clang-19, llvm-link-19, llvm-config-19) from the host.
set(CMAKE_FIND_ROOT_PATH ${JITGEN_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${JITGEN_AARCH64_SYSROOT})
set(ENV{PKG_CONFIG_LIBDIR}
    "${JITGEN_AARCH64_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${JITGEN_AARCH64_SYSROOT}/usr/share/pkgconfig")
