#include "CVipsTest.h"

#include <unistd.h>

/// The server's own start of libvips (Sources/CVips), safe from any thread: tests make their images
/// side by side, and whichever comes first starts libvips for the whole process.
int CVips_init(void);


static int writeTestCard(const char *path, int width, int height, int orientation, const char *taken)
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

int CVipsTest_writeJPEG(const char *path, int width, int height, int orientation)
{
    if (CVips_init() != 0) {
        return -1;
    }
    return writeTestCard(path, width, height, orientation, NULL);
}

int CVipsTest_writeJPEGTaken(const char *path, int width, int height, const char *taken)
{
    if (CVips_init() != 0) {
        return -1;
    }
    return writeTestCard(path, width, height, 1, taken);
}

int CVipsTest_writeImage(const char *path, int width, int height)
{
    if (CVips_init() != 0) {
        return -1;
    }
    return writeTestCard(path, width, height, 1, NULL);
}

int CVipsTest_uprightSize(const char *path, int *width, int *height)
{
    if (CVips_init() != 0) {
        return -1;
    }
    VipsImage *image = vips_image_new_from_file(path, NULL);
    if (image == NULL) {
        vips_error_clear();
        return -1;
    }
    VipsImage *upright = NULL;
    int status = vips_autorot(image, &upright, NULL);
    if (status == 0) {
        *width = vips_image_get_width(upright);
        *height = vips_image_get_height(upright);
        g_object_unref(upright);
    } else {
        vips_error_clear();
    }
    g_object_unref(image);
    return status;
}

/// The test card, in memory (the caller unrefs it); NULL on failure.
/// Lets go of `images` (NULL ones skipped), clears libvips' error after a failure, answers `status`.
static int finish(VipsImage **images, size_t count, int status)
{
    for (size_t i = 0; i < count; i++) {
        if (images[i] != NULL) {
            g_object_unref(images[i]);
        }
    }
    if (status != 0) {
        vips_error_clear();
    }
    return status;
}

static VipsImage *testCard(int width, int height)
{
    VipsImage *card = NULL;
    char path[64];
    // Made through a temporary PNG so the card's code stays in one place (lossless, and read by a
    // loader libvips lets run: the server's start blocks the others, vipsload among them).
    snprintf(path, sizeof path, "/tmp/cvipstest-%d-%p.png", (int)getpid(), (void *)&card);
    if (writeTestCard(path, width, height, 1, NULL) == 0) {
        VipsImage *file = vips_image_new_from_file(path, NULL);
        if (file != NULL) {
            // Copied into memory, so the temporary file can go at once.
            card = vips_image_copy_memory(file);
            g_object_unref(file);
        }
    }
    unlink(path);
    if (card == NULL) {
        vips_error_clear();
    }
    return card;
}

int CVipsTest_writeCMYK(const char *path, int width, int height)
{
    if (CVips_init() != 0) {
        return -1;
    }
    VipsImage *card = testCard(width, height);
    VipsImage *cmyk = NULL;
    int status = -1;
    if (card != NULL && vips_icc_export(card, &cmyk, "output_profile", "cmyk", NULL) == 0) {
        status = vips_image_write_to_file(cmyk, path, NULL);
    }
    VipsImage *all[] = {card, cmyk};
    return finish(all, sizeof all / sizeof all[0], status);
}

int CVipsTest_writePNG16(const char *path, int width, int height)
{
    if (CVips_init() != 0) {
        return -1;
    }
    VipsImage *card = testCard(width, height);
    VipsImage *scaled = NULL, *wide = NULL, *tagged = NULL;
    int status = -1;
    if (card != NULL && vips_linear1(card, &scaled, 257.0, 0.0, NULL) == 0
        && vips_cast_ushort(scaled, &wide, NULL) == 0
        && vips_copy(wide, &tagged, "interpretation", VIPS_INTERPRETATION_RGB16, NULL) == 0) {
        status = vips_image_write_to_file(tagged, path, NULL);
    }
    VipsImage *all[] = {card, scaled, wide, tagged};
    return finish(all, sizeof all / sizeof all[0], status);
}

int CVipsTest_writeTransparentPNG(const char *path, int width, int height)
{
    if (CVips_init() != 0) {
        return -1;
    }
    VipsImage *black = NULL, *tagged = NULL;
    int status = -1;
    if (vips_black(&black, width, height, "bands", 4, NULL) == 0
        && vips_copy(black, &tagged, "interpretation", VIPS_INTERPRETATION_sRGB, NULL) == 0) {
        status = vips_image_write_to_file(tagged, path, NULL);
    }
    VipsImage *all[] = {black, tagged};
    return finish(all, sizeof all / sizeof all[0], status);
}

int CVipsTest_mean(const char *path, double *mean)
{
    if (CVips_init() != 0) {
        return -1;
    }
    VipsImage *image = vips_image_new_from_file(path, NULL);
    int status = image != NULL ? vips_avg(image, mean, NULL) : -1;
    if (image != NULL) {
        g_object_unref(image);
    }
    if (status != 0) {
        vips_error_clear();
    }
    return status;
}

int CVipsTest_writeAnimatedGIF(const char *path, int width, int height, int frames)
{
    if (CVips_init() != 0) {
        return -1;
    }
    // One tall picture, frame under frame, each a grey a little lighter than the last; its
    // page-height makes gifsave write the frames as an animation.
    VipsImage *ramp = NULL, *grey = NULL, *rgb = NULL, *tagged = NULL;
    int status = -1;
    if (vips_xyz(&ramp, width, height * frames, NULL) == 0 && vips_extract_band(ramp, &grey, 1, NULL) == 0) {
        VipsImage *level = NULL;
        if (vips_linear1(grey, &level, 200.0 / (height * frames), 20.0, NULL) == 0) {
            VipsImage *bands[3] = {level, level, level};
            VipsImage *joined = NULL, *bytes = NULL;
            if (vips_bandjoin(bands, &joined, 3, NULL) == 0 && vips_cast_uchar(joined, &bytes, NULL) == 0
                && vips_copy(bytes, &tagged, "interpretation", VIPS_INTERPRETATION_sRGB, NULL) == 0) {
                vips_image_set_int(tagged, "page-height", height);
                status = vips_image_write_to_file(tagged, path, NULL);
            }
            VipsImage *made[] = {level, joined, bytes};
            finish(made, sizeof made / sizeof made[0], 0);
        }
    }
    VipsImage *all[] = {ramp, grey, rgb, tagged};
    return finish(all, sizeof all / sizeof all[0], status);
}

int CVipsTest_pages(const char *path)
{
    if (CVips_init() != 0) {
        return -1;
    }
    VipsImage *image = vips_image_new_from_file(path, NULL);
    if (image == NULL) {
        vips_error_clear();
        return -1;
    }
    int pages = vips_image_get_n_pages(image);
    g_object_unref(image);
    return pages;
}
