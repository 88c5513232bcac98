/* Fuzz target: the assembler (tlc/asm.c) on `.tlc` text.
 *
 * Whatever the text, assembling never crashes and a rejection is one
 * message naming the file. An accepted program is one the verifier and the
 * bytecode format take: written as `.tlcb` and read back, it is written to
 * the same bytes, and the disassembler lists it. */
#include <gc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlc/asm.h"
#include "tlc/bytecode.h"
#include "tlc/dis.h"

static FILE *sink; /* the disassembler's listings go nowhere */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    GC_INIT();
    sink = fopen("/dev/null", "w");
    if (!sink) {
        fputs("fuzz_asm: cannot open /dev/null\n", stderr);
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an exact copy: the assembler must not read past `size` */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    TlcDiag diag;
    TlcProgram *prog = tlc_assemble(text, size, "fuzz.tlc", &diag);
    free(text);
    if (!prog) {
        if (strncmp(diag.message, "fuzz.tlc", 8) != 0 || !memchr(diag.message, '\0', 512)) {
            fprintf(stderr, "fuzz_asm: a message without the file name: %s\n", diag.message);
            abort();
        }
        return 0;
    }
    size_t len, len2;
    uint8_t *bytes = tlc_bytecode_write(prog, &len, &diag);
    if (bytes) {
        TlcProgram *again = tlc_bytecode_read(bytes, len, &diag);
        if (!again) {
            fprintf(stderr, "fuzz_asm: an assembled program is rejected as bytecode: %s\n",
                    diag.message);
            abort();
        }
        uint8_t *bytes2 = tlc_bytecode_write(again, &len2, &diag);
        if (bytes2 && (len2 != len || memcmp(bytes, bytes2, len) != 0)) {
            fputs("fuzz_asm: an assembled program read back is written differently\n", stderr);
            abort();
        }
        free(bytes2);
        tlc_program_free(again);
        free(bytes);
    }
    tlc_disassemble(prog, sink);
    tlc_program_free(prog);
    return 0;
}
