/* jitgen-image: the build step that turns an interpreter's bitcode into the
 * graph image embedded in its binary (docs/frontend.md, "Graph images"),
 * with the binding times of its portal (bta/bta_image.c) when it has one.
 *
 *   jitgen-image IN.bc OUT.img [ROOT]
 *
 * Exit status 0 on success, 1 with one message on stderr otherwise. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bta/bta.h"
#include "image.h"
#include "image_format.h"

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

/* The analysis looks at addresses only to find which global a constant
 * points into, so symbol k may stand at a placeholder, 2^32 bytes from the
 * next (the writer's scheme): constants inside a global stay inside it. */
static void *placeholder(void *ctx, const char *name)
{
    (void)name;
    uint64_t *next = ctx;
    return (void *)(uintptr_t)(JG_IMAGE_FAKE_BASE + (*next)++ * JG_IMAGE_FAKE_SPAN);
}

/* Runs the binding-time analysis on the image's graphs and appends it.
 * An image without a portal has nothing to analyse; a portal whose
 * jit_concrete requirements cannot be met is an error of the build. */
static bool add_binding_times(void **image, size_t *image_len, char *err, size_t errsize)
{
    uint64_t next = 0;
    JgModule *m = jg_module_load_image(*image, *image_len, placeholder, &next, err, errsize);
    if (!m)
        return false;
    bool ok = true;
    if (m->portal) {
        JgBta *bta = jg_bta_new(m, err, errsize);
        void *data = NULL;
        size_t len = 0;
        ok = bta != NULL;
        if (ok && !(jg_bta_write(bta, &data, &len) &&
                    jg_image_add_analysis(image, image_len, data, len))) {
            snprintf(err, errsize, "out of memory");
            ok = false;
        }
        free(data);
        jg_bta_free(bta);
    }
    jg_module_free(m);
    return ok;
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
    if (ok && !add_binding_times(&image, &image_len, err, sizeof err)) {
        free(image);
        ok = false;
    }
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
