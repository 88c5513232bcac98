/* Fuzz target: graph images (frontend/image_load.c) and the binding-time
 * analysis they carry (bta/bta_image.c), the way the driver loads the
 * interpreter's embedded image: symbols resolved in this process (it
 * exports the TLC interpreter's, like the tlc binary).
 *
 * Whatever the bytes, loading never crashes: a damaged image or analysis is
 * a NULL with a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bta/bta.h"
#include "frontend/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    JgModule *m = jg_module_load_image(data, size, NULL, NULL, err, sizeof err);
    if (!m)
        return 0;
    const void *analysis;
    size_t analysis_len;
    if (jg_image_analysis(data, size, &analysis, &analysis_len)) {
        JgBta *bta = jg_bta_load(m, analysis, analysis_len, err, sizeof err);
        jg_bta_free(bta);
    }
    jg_module_free(m);
    return 0;
}
