/* Private to the image code (image_*.c): the layout of a graph image
 * (docs/frontend.md, "Graph images"). All numbers are little-endian and
 * fixed-width; strings are offsets into one string table (0: none). */
#ifndef JITGEN_IMAGE_FORMAT_H
#define JITGEN_IMAGE_FORMAT_H

#include <stdint.h>

#define JG_IMAGE_MAGIC "JGIMAGE"
#define JG_IMAGE_MAGIC_LEN 8 /* with its NUL */
#define JG_IMAGE_VERSION 2u
/* Byte offset of the header's last field, the length of the analysis
 * section that follows the graphs (0: none). */
#define JG_IMAGE_ANALYSIS_FIELD 32u
#define JG_IMAGE_HEADER_LEN 36u

/* The writer's placeholder addresses: symbol k at BASE + k * SPAN,
 * non-canonical on x86-64 and AArch64, so no real pointer is ever there. */
#define JG_IMAGE_FAKE_BASE 0xfa00000000000000ull
#define JG_IMAGE_FAKE_SPAN (1ull << 32)

/* What an address constant is relative to; the 64-bit field beside it holds
 * the raw bits (NONE) or the addend. */
enum JgImageReloc {
    JG_RELOC_NONE,
    JG_RELOC_SYMBOL, /* index into the symbol table: resolved on loading */
    JG_RELOC_GRAPH,  /* a graph of the image (an internal function's token) */
    JG_RELOC_GLOBAL, /* a global of the image: a copied constant */
};

#endif
