#include "CVips.h"

int CVips_init(const char *programName)
{
    if (VIPS_INIT(programName) != 0) {
        return -1;
    }
    // Every conversion is of a different file: the operation cache would only hold memory.
    vips_cache_set_max(0);
    return 0;
}

int CVips_thumbnailToFile(const char *input, const char *output, int width, int height, int quality,
    char *error, size_t errorSize)
{
    VipsImage *thumbnail = NULL;
    int status = vips_thumbnail(input, &thumbnail, width, "height", height, "size", VIPS_SIZE_DOWN, NULL);
    if (status == 0) {
        // strip: the pixels are already upright, so the orientation tag (and the rest) must go.
        // The saver (jpegsave, webpsave) is chosen by the output's suffix; both take Q and strip.
        status = vips_image_write_to_file(thumbnail, output, "Q", quality, "strip", TRUE, NULL);
    }
    if (thumbnail != NULL) {
        g_object_unref(thumbnail);
    }
    if (status != 0) {
        if (error != NULL && errorSize > 0) {
            snprintf(error, errorSize, "%s", vips_error_buffer());
        }
        vips_error_clear();
        return -1;
    }
    return 0;
}

int CVips_photoHeader(const char *path, int *width, int *height, char *taken, size_t takenSize)
{
    VipsImage *image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (image == NULL) {
        vips_error_clear();
        return -1;
    }
    int w = vips_image_get_width(image);
    int h = vips_image_get_height(image);
    // Orientations 5–8 turn the picture a quarter, so its upright width is the stored height.
    if (vips_image_get_orientation_swap(image)) {
        int t = w; w = h; h = t;
    }
    *width = w;
    *height = h;
    if (taken != NULL && takenSize > 0) {
        taken[0] = '\0';
        const char *value = NULL;
        // libvips renders the tag as "2024:07:14 10:22:33 (2024:07:14 10:22:33, ASCII, 20 components,
        // 20 bytes)": the first 19 characters are the value itself.
        if (vips_image_get_typeof(image, "exif-ifd2-DateTimeOriginal") != 0
            && vips_image_get_string(image, "exif-ifd2-DateTimeOriginal", &value) == 0 && value != NULL) {
            snprintf(taken, takenSize, "%.19s", value);
        }
        vips_error_clear();
    }
    g_object_unref(image);
    return 0;
}
