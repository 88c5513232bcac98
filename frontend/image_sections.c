/* The analysis section of a graph image (docs/frontend.md, "Graph images"):
 * its length is the header's last field, its bytes the image's last ones.
 * The frontend only stores them; their format belongs to their writer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "image_format.h"

/* The header's analysis length, or false when `image` is no version this
 * code reads. */
static bool analysis_len(const void *image, size_t len, uint32_t *out)
{
    uint32_t version;
    if (!jg_is_graph_image(image, len) || len < JG_IMAGE_HEADER_LEN)
        return false;
    memcpy(&version, (const uint8_t *)image + JG_IMAGE_MAGIC_LEN, 4);
    if (version != JG_IMAGE_VERSION)
        return false;
    memcpy(out, (const uint8_t *)image + JG_IMAGE_ANALYSIS_FIELD, 4);
    return true;
}

bool jg_image_analysis(const void *image, size_t len, const void **data, size_t *data_len)
{
    uint32_t n;
    if (!analysis_len(image, len, &n) || n == 0 || n > len - JG_IMAGE_HEADER_LEN)
        return false;
    *data = (const uint8_t *)image + len - n;
    *data_len = n;
    return true;
}

bool jg_image_add_analysis(void **image, size_t *image_len, const void *data, size_t data_len)
{
    uint32_t n;
    if (!analysis_len(*image, *image_len, &n) || n != 0 || data_len > UINT32_MAX ||
        data_len > SIZE_MAX - *image_len)
        return false;
    uint8_t *grown = realloc(*image, *image_len + data_len);
    if (!grown)
        return false;
    memcpy(grown + *image_len, data, data_len);
    uint32_t len32 = (uint32_t)data_len;
    memcpy(grown + JG_IMAGE_ANALYSIS_FIELD, &len32, 4);
    *image = grown;
    *image_len += data_len;
    return true;
}
