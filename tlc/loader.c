#include "loader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "bytecode.h"

char *tlc_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t size = 0, capacity = 4096;
    char *buf = malloc(capacity);
    while (buf) {
        size_t got = fread(buf + size, 1, capacity - size - 1, f);
        size += got;
        if (got == 0)
            break;
        if (size + 1 == capacity) {
            char *grown = capacity > SIZE_MAX / 2 ? NULL : realloc(buf, capacity * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                errno = ENOMEM;
                break;
            }
            buf = grown;
            capacity *= 2;
        }
    }
    if (buf && ferror(f)) {
        int saved = errno;
        free(buf);
        buf = NULL;
        errno = saved ? saved : EIO;
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[size] = '\0';
    *len = size;
    return buf;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

TlcProgram *tlc_load_file(const char *path, TlcDiag *diag, int *status)
{
    size_t len = 0;
    char *data = tlc_read_file(path, &len);
    if (!data) {
        snprintf(diag->message, sizeof diag->message, "%s: cannot read: %s", path, strerror(errno));
        *status = errno == ENOMEM ? 65 : 66;
        return NULL;
    }
    TlcProgram *prog;
    if (has_suffix(path, ".tlc")) {
        prog = tlc_assemble(data, len, path, diag);
    } else {
        TlcDiag inner;
        prog = tlc_bytecode_read((const uint8_t *)data, len, &inner);
        if (!prog)
            snprintf(diag->message, sizeof diag->message, "%s: %s", path, inner.message);
    }
    free(data);
    if (!prog)
        *status = 65;
    return prog;
}
