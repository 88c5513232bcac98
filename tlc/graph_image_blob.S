/* Embeds the interpreter's graph image (built from its bitcode by
 * jitgen-image, cmake/Bitcode.cmake) in the binary. TLC_GRAPH_IMAGE_PATH is
 * defined by the build. */
    .section .rodata
    .balign 16
    .globl tlc_interp_graphs
tlc_interp_graphs:
    .incbin TLC_GRAPH_IMAGE_PATH
    .globl tlc_interp_graphs_end
tlc_interp_graphs_end:
    .byte 0
    .section .note.GNU-stack,"",@progbits
