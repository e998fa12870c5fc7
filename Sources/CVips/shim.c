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

static int CVips_writeTestCard(const char *path, int width, int height, int orientation, const char *taken)
{
    VipsImage *x = NULL, *y = NULL, *red = NULL, *green = NULL, *blue = NULL, *rgb = NULL, *bytes = NULL;
    VipsImage *bands[3];
    int status = -1;
    // Red and blue fade left to right, green grows top to bottom: the corners tell which way is up.
    if (vips_xyz(&x, width, height, NULL) == 0 && vips_extract_band(x, &red, 0, NULL) == 0
        && vips_extract_band(x, &green, 1, NULL) == 0
        && vips_linear1(red, &y, -255.0 / width, 255.0, NULL) == 0
        && vips_linear1(green, &blue, 255.0 / height, 0.0, NULL) == 0) {
        bands[0] = y;
        bands[1] = blue;
        bands[2] = y;
        if (vips_bandjoin(bands, &rgb, 3, NULL) == 0 && vips_cast_uchar(rgb, &bytes, NULL) == 0) {
            vips_image_set_int(bytes, "orientation", orientation);
            if (taken != NULL) {
                // jpegsave writes exif-* fields back into the EXIF block it saves.
                vips_image_set_string(bytes, "exif-ifd2-DateTimeOriginal", taken);
            }
            // The saver follows the path's suffix: .jpg keeps the EXIF fields set above.
            status = vips_image_write_to_file(bytes, path, NULL);
        }
    }
    VipsImage *all[] = {x, y, red, green, blue, rgb, bytes};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (all[i] != NULL) {
            g_object_unref(all[i]);
        }
    }
    if (status != 0) {
        vips_error_clear();
    }
    return status;
}

int CVips_writeTestJPEG(const char *path, int width, int height, int orientation)
{
    return CVips_writeTestCard(path, width, height, orientation, NULL);
}

int CVips_writeTestJPEGTaken(const char *path, int width, int height, const char *taken)
{
    return CVips_writeTestCard(path, width, height, 1, taken);
}

int CVips_writeTestImage(const char *path, int width, int height)
{
    return CVips_writeTestCard(path, width, height, 1, NULL);
}

int CVips_uprightSize(const char *path, int *width, int *height)
{
    return CVips_photoHeader(path, width, height, NULL, 0);
}
