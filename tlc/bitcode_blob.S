/* Embeds the interpreter's bitcode (built by cmake/Bitcode.cmake) in the
 * binary. TLC_BITCODE_PATH is defined by the build. */
    .section .rodata
    .balign 16
    .globl tlc_interp_bitcode
tlc_interp_bitcode:
    .incbin TLC_BITCODE_PATH
    .globl tlc_interp_bitcode_end
tlc_interp_bitcode_end:
    .byte 0
    .section .note.GNU-stack,"",@progbits
