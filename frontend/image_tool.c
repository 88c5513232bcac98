/* jitgen-image: the build step that turns an interpreter's bitcode into the
 * graph image embedded in its binary (docs/frontend.md, "Graph images").
 *
 *   jitgen-image IN.bc OUT.img [ROOT]
 *
 * Exit status 0 on success, 1 with one message on stderr otherwise. */
#include <stdio.h>
#include <stdlib.h>

#include "image.h"

/* The whole file in a malloc'ed buffer, or NULL with a message. */
static void *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    char *data = NULL;
    size_t size = 0, capacity = 0;
    for (;;) {
        if (size == capacity) {
            capacity = capacity ? 2 * capacity : 1 << 16;
            char *grown = realloc(data, capacity);
            if (!grown) {
                fprintf(stderr, "jitgen-image: out of memory\n");
                free(data);
                fclose(f);
                return NULL;
            }
            data = grown;
        }
        size_t n = fread(data + size, 1, capacity - size, f);
        size += n;
        if (n == 0)
            break;
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        perror(path);
        free(data);
        return NULL;
    }
    *len = size;
    return data;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: jitgen-image IN.bc OUT.img [ROOT]\n");
        return 1;
    }
    size_t len = 0;
    void *bitcode = read_file(argv[1], &len);
    if (!bitcode)
        return 1;
    char err[512];
    void *image = NULL;
    size_t image_len = 0;
    bool ok = jg_image_from_bitcode(bitcode, len, argc == 4 ? argv[3] : NULL, &image, &image_len,
                                    err, sizeof err);
    free(bitcode);
    if (!ok) {
        fprintf(stderr, "jitgen-image: %s: %s\n", argv[1], err);
        return 1;
    }
    FILE *out = fopen(argv[2], "wb");
    bool written = out && fwrite(image, 1, image_len, out) == image_len;
    if (out && fclose(out) != 0)
        written = false;
    free(image);
    if (!written) {
        perror(argv[2]);
        remove(argv[2]);
        return 1;
    }
    return 0;
}
