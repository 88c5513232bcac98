/* Fuzz target: `.tlcb` bytecode files through the loader (tlc/loader.c),
 * the reader and the verifier (tlc/bytecode.c, tlc/verify.c).
 *
 * Whatever the bytes, reading never crashes; a program it accepts is fit to
 * run (its instruction starts can be computed), is listed by the
 * disassembler, and survives a round trip: written back and read again, it
 * is written to the same bytes. Loading the bytes from a file gives the same
 * verdict as reading them from memory.
 *
 * The header's CRC-32 rejects nearly every mutation of the payload, so each
 * input is read twice: as it is, and with its header's payload length and
 * checksum made to fit its payload (docs/bytecode-format.md), which takes
 * the mutated payload to the parser and the verifier. */
#include <gc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "tlc/bytecode.h"
#include "tlc/dis.h"
#include "tlc/loader.h"
#include "tlc/run.h"

static FILE *sink;     /* the disassembler's listings go nowhere */
static char path[256]; /* the file tlc_load_file reads */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    GC_INIT();
    sink = fopen("/dev/null", "w");
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/fuzz_bytecode.%ld.tlcb", dir ? dir : "/tmp", (long)getpid());
    if (!sink) {
        fputs("fuzz_bytecode: cannot open /dev/null\n", stderr);
        abort();
    }
    return 0;
}

/* Loads the bytes from a file as `tlc run` does; returns whether that
 * accepted them (-1 when the file cannot be written: no verdict). */
static int load_from_file(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int written = fwrite(data, 1, size, f) == size;
    if (fclose(f) != 0 || !written)
        return -1;
    TlcDiag diag;
    int status = 0;
    TlcProgram *prog = tlc_load_file(path, &diag, &status);
    remove(path);
    if (!prog && status != 65) {
        fprintf(stderr, "fuzz_bytecode: a rejected file with status %d: %s\n", status,
                diag.message);
        abort();
    }
    tlc_program_free(prog);
    return prog != NULL;
}

/* Writes an accepted program back and reads it again: the same bytes. */
static void check_round_trip(const TlcProgram *prog)
{
    TlcDiag diag;
    size_t len, len2;
    uint8_t *bytes = tlc_bytecode_write(prog, &len, &diag);
    if (!bytes)
        return; /* out of memory */
    TlcProgram *again = tlc_bytecode_read(bytes, len, &diag);
    if (!again) {
        fprintf(stderr, "fuzz_bytecode: a written program is rejected: %s\n", diag.message);
        abort();
    }
    uint8_t *bytes2 = tlc_bytecode_write(again, &len2, &diag);
    if (bytes2 && (len2 != len || memcmp(bytes, bytes2, len) != 0)) {
        fputs("fuzz_bytecode: a program read back is written differently\n", stderr);
        abort();
    }
    free(bytes2);
    tlc_program_free(again);
    free(bytes);
}

/* Reads one file image and checks what it must hold. */
static void check(const uint8_t *data, size_t size)
{
    TlcDiag diag;
    TlcProgram *prog = tlc_bytecode_read(data, size, &diag);
    int from_file = load_from_file(data, size);
    if (from_file >= 0 && from_file != (prog != NULL)) {
        fputs("fuzz_bytecode: the file loader and the reader disagree\n", stderr);
        abort();
    }
    if (!prog)
        return;
    TlcCode *code = tlc_code_new(prog);
    tlc_code_free(code);
    tlc_disassemble(prog, sink);
    check_round_trip(prog);
    tlc_program_free(prog);
}

#define HEADER_LEN 20 /* magic, u16 version, u16 flags, u32 length, u32 CRC-32 */

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size);
    if (size < HEADER_LEN || size - HEADER_LEN > UINT32_MAX)
        return 0;
    uint8_t *fixed = malloc(size);
    if (!fixed)
        return 0;
    memcpy(fixed, data, size);
    size_t payload = size - HEADER_LEN;
    put_u32(fixed + 12, (uint32_t)payload);
    put_u32(fixed + 16, (uint32_t)crc32(0, fixed + HEADER_LEN, (uInt)payload));
    if (memcmp(fixed, data, HEADER_LEN) != 0)
        check(fixed, size);
    free(fixed);
    return 0;
}
