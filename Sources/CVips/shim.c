#include "CVips.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/// libvips reports through GLib's "VIPS" log domain; every decoder warning of a bad file would
/// otherwise reach standard error (thousands per request for a truncated PNG).
static void CVips_dropMessage(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data)
{
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

static int CVips_startStatus = -1;

static void CVips_start(void)
{
    if (VIPS_INIT("stackweb") != 0) {
        return;
    }
    // Every conversion is of a different file: the operation cache would only hold memory.
    vips_cache_set_max(0);
    // Only the loaders of the formats the server shows may run, whoever asks (vips_thumbnail picks
    // its loader by the file's bytes): ImageMagick, poppler, librsvg, libtiff, OpenJPEG, libjxl and
    // the rest parse hostile files at a cost of seconds and leave files in /tmp. Every loader is
    // blocked, then the five we show are let through; the untrusted flag covers loaders that modules
    // add later, which the block list set now cannot name.
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoad", TRUE);
    static const char *const shown[] = {
        "VipsForeignLoadJpeg", "VipsForeignLoadPng", "VipsForeignLoadWebp", "VipsForeignLoadNsgif",
        "VipsForeignLoadHeif"};
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
        vips_operation_block_set(shown[i], FALSE);
    }
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, CVips_dropMessage, NULL);
    CVips_startStatus = 0;
}

int CVips_init(void)
{
    // vips_init is not safe to call from two threads at once: the second caller returns before the
    // first has registered libvips' classes, and its first operation aborts the process. The server
    // starts libvips once, but the tests' image helpers start it from whichever test comes first.
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, CVips_start);
    return CVips_startStatus;
}

static void CVips_copyError(char *error, size_t errorSize)
{
    // libvips keeps one error buffer per process: copied and cleared in one step under its lock
    // (vips_error_buffer's pointer would be read while another thread appends to it). With files
    // read side by side the text may be another file's or empty; the status is this call's.
    char *message = vips_error_buffer_copy();
    if (error != NULL && errorSize > 0) {
        // The first line only: the server logs one line per bad file.
        snprintf(error, errorSize, "%s", message != NULL ? message : "");
        char *newline = strchr(error, '\n');
        if (newline != NULL) {
            *newline = '\0';
        }
    }
    g_free(message);
}

const char *CVips_formatOf(const unsigned char *bytes, size_t count)
{
    if (count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) {
        return "jpegload";
    }
    if (count >= 8 && memcmp(bytes, "\x89PNG\r\n\x1a\n", 8) == 0) {
        return "pngload";
    }
    if (count >= 6 && (memcmp(bytes, "GIF87a", 6) == 0 || memcmp(bytes, "GIF89a", 6) == 0)) {
        return "gifload";
    }
    if (count >= 12 && memcmp(bytes, "RIFF", 4) == 0 && memcmp(bytes + 8, "WEBP", 4) == 0) {
        return "webpload";
    }
    // An ISO media file whose major brand is one of HEIF's or AVIF's.
    static const char *const brands[] = {"heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis"};
    if (count >= 12 && memcmp(bytes + 4, "ftyp", 4) == 0) {
        for (size_t i = 0; i < sizeof brands / sizeof brands[0]; i++) {
            if (memcmp(bytes + 8, brands[i], 4) == 0) {
                return "heifload";
            }
        }
    }
    return NULL;
}

const char *CVips_formatOfFile(const char *path)
{
    unsigned char bytes[16] = {0};
    FILE *file = fopen(path, "rbe");
    if (file == NULL) {
        return NULL;
    }
    size_t count = fread(bytes, 1, sizeof bytes, file);
    fclose(file);
    return CVips_formatOf(bytes, count);
}

/// The header of `path` read by `loader` itself, never by whichever loader claims the bytes.
static VipsImage *CVips_openWith(const char *loader, const char *path)
{
    VipsImage *image = NULL;
    int status = -1;
    if (strcmp(loader, "jpegload") == 0) {
        status = vips_jpegload(path, &image, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    } else if (strcmp(loader, "pngload") == 0) {
        status = vips_pngload(path, &image, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    } else if (strcmp(loader, "gifload") == 0) {
        status = vips_gifload(path, &image, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    } else if (strcmp(loader, "webpload") == 0) {
        status = vips_webpload(path, &image, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    } else if (strcmp(loader, "heifload") == 0) {
        status = vips_heifload(path, &image, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    }
    return status == 0 ? image : NULL;
}

int CVips_readHeader(const char *path, CVipsHeader *header)
{
    memset(header, 0, sizeof *header);
    const char *loader = CVips_formatOfFile(path);
    if (loader == NULL) {
        return CVIPS_NOT_SHOWN;
    }
    VipsImage *image = CVips_openWith(loader, path);
    if (image == NULL) {
        vips_error_clear();
        return -1;
    }
    header->storedWidth = vips_image_get_width(image);
    header->storedHeight = vips_image_get_height(image);
    header->width = header->storedWidth;
    header->height = header->storedHeight;
    header->orientation = vips_image_get_orientation(image);
    if (vips_image_get_orientation_swap(image)) {
        header->width = header->storedHeight;
        header->height = header->storedWidth;
    }
    header->cmyk = vips_image_get_interpretation(image) == VIPS_INTERPRETATION_CMYK;
    header->pages = vips_image_get_n_pages(image);
    int interlaced = 0;
    if (vips_image_get_typeof(image, "interlaced") != 0 && vips_image_get_int(image, "interlaced", &interlaced) == 0) {
        header->interlaced = interlaced != 0;
    }
    snprintf(header->loader, sizeof header->loader, "%s", loader);
    const char *value = NULL;
    // libvips renders the tag as "2024:07:14 10:22:33 (2024:07:14 10:22:33, ASCII, 20 components,
    // 20 bytes)": the first 19 characters are the value itself.
    value = NULL;
    if (vips_image_get_typeof(image, "exif-ifd2-DateTimeOriginal") != 0
        && vips_image_get_string(image, "exif-ifd2-DateTimeOriginal", &value) == 0 && value != NULL) {
        snprintf(header->taken, sizeof header->taken, "%.19s", value);
    }
    vips_error_clear();
    g_object_unref(image);
    return 0;
}

/// Frees `image` (if made) and turns `status` into the shims' result: 0, or -1 with the error.
static int CVips_finish(VipsImage *image, int status, char *error, size_t errorSize)
{
    if (image != NULL) {
        g_object_unref(image);
    }
    if (status != 0) {
        CVips_copyError(error, errorSize);
        return -1;
    }
    return 0;
}

/// Pulls every pixel of `image` through its pipeline here, on the calling thread: one region over
/// all of it. A sink (vips_avg, a write) would start a libvips threadpool per file instead: with
/// files verified side by side, thousands of short-lived pools a minute, on libvips 8.14 whose
/// threadset has a race at a worker's exit and one in the threadpool's error handling (both fixed in
/// 8.15.5): the likeliest cause of the double free a parallel start-up scan once hit. The pools'
/// hand-offs also cost more than a small decode.
static int CVips_pull(VipsImage *image)
{
    VipsRegion *region = vips_region_new(image);
    VipsRect whole = {0, 0, vips_image_get_width(image), vips_image_get_height(image)};
    int status = vips_region_prepare(region, &whole);
    g_object_unref(region);
    return status;
}

int CVips_verify(const char *path, const char *loader, char *error, size_t errorSize)
{
    VipsImage *image = NULL;
    int status;
    if (loader != NULL && strcmp(loader, "jpegload") == 0) {
        // The cheapest whole read of a JPEG: decoded at 1/8 scale (every entropy-coded byte is
        // still read, so a missing end is noticed), with nothing resized or converted after it:
        // a fifth of what vips_thumbnail costs on a 640×480 photo.
        status = vips_jpegload(path, &image, "shrink", 8, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
            VIPS_FAIL_ON_ERROR, NULL);
    } else {
        // 64 px: WebP and HEIC decode at about the size asked for, PNG and GIF whole.
        status = vips_thumbnail(path, &image, 64, "height", 64, "size", VIPS_SIZE_DOWN, "fail_on",
            VIPS_FAIL_ON_ERROR, NULL);
    }
    if (status == 0) {
        // The image is lazy: nothing is decoded until its pixels are asked for.
        status = CVips_pull(image);
    }
    return CVips_finish(image, status, error, errorSize);
}

void CVips_threadShutdown(void)
{
    vips_thread_shutdown();
}

/// A CMYK JPEG: loaded at the JPEG shrink factor, resized in CMYK, then colour-converted at the
/// output size. The result is `*out`; 0 on success.
static int CVips_cmykThumbnail(const char *input, int width, int height, VipsImage **out)
{
    CVipsHeader header;
    if (CVips_readHeader(input, &header) != 0) {
        return -1;
    }
    double scale = fmin((double)width / header.width, (double)height / header.height);
    if (scale > 1) {
        scale = 1;
    }
    int shrink = 8;
    while (shrink > 1 && (double)header.width / shrink < header.width * scale) {
        shrink /= 2;
    }
    VipsImage *loaded = NULL, *resized = NULL, *srgb = NULL, *upright = NULL;
    int status = -1;
    loaded = vips_image_new_from_file(input, "access", VIPS_ACCESS_SEQUENTIAL, "shrink", shrink, "fail_on",
        VIPS_FAIL_ON_ERROR, NULL);
    if (loaded != NULL) {
        double factor = fmin(1.0, (double)header.storedWidth * scale / vips_image_get_width(loaded));
        if (vips_resize(loaded, &resized, factor, NULL) == 0
            && vips_icc_transform(resized, &srgb, "srgb", "embedded", TRUE, "input_profile", "cmyk", NULL) == 0
            && vips_autorot(srgb, &upright, NULL) == 0) {
            *out = upright;
            upright = NULL;
            status = 0;
        }
    }
    VipsImage *all[] = {loaded, resized, srgb, upright};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (all[i] != NULL) {
            g_object_unref(all[i]);
        }
    }
    return status;
}

/// Replaces `*image` with a copy without its EXIF, XMP and IPTC metadata: a phone's photo says
/// where it was taken, and libvips 8.14's webpsave writes the EXIF it holds whatever `strip` says
/// (a WebP variant of a photo with a GPS position carried that position). The exif-ifdN-* fields
/// go too: a saver builds a new EXIF block from them when exif-data is gone. Returns 0 on success.
static int CVips_dropMetadata(VipsImage **image)
{
    VipsImage *copy = NULL;
    if (vips_copy(*image, &copy, NULL) != 0) {
        return -1;
    }
    char **fields = vips_image_get_fields(copy);
    for (char **field = fields; *field != NULL; field++) {
        if (strncmp(*field, "exif-", 5) == 0 || strcmp(*field, VIPS_META_XMP_NAME) == 0
            || strcmp(*field, VIPS_META_IPTC_NAME) == 0) {
            vips_image_remove(copy, *field);
        }
    }
    g_strfreev(fields);
    g_object_unref(*image);
    *image = copy;
    return 0;
}

int CVips_thumbnailToFile(const char *input, const char *output, int width, int height, int quality,
    int allPages, char *error, size_t errorSize)
{
    VipsImage *thumbnail = NULL;
    CVipsHeader header;
    int status;
    if (CVips_readHeader(input, &header) == 0 && header.cmyk && strcmp(header.loader, "jpegload") == 0) {
        status = CVips_cmykThumbnail(input, width, height, &thumbnail);
    } else if (allPages) {
        // The loader's options ride on the file name: "[n=-1]" loads every page as one tall image
        // (page-height, delays and loop kept as metadata), and vips_thumbnail resizes each page.
        char *everyPage = g_strdup_printf("%s[n=-1]", input);
        status = vips_thumbnail(everyPage, &thumbnail, width, "height", height, "size", VIPS_SIZE_DOWN, "fail_on",
            VIPS_FAIL_ON_ERROR, NULL);
        g_free(everyPage);
    } else {
        status = vips_thumbnail(input, &thumbnail, width, "height", height, "size", VIPS_SIZE_DOWN, "fail_on",
            VIPS_FAIL_ON_ERROR, NULL);
    }
    if (status == 0 && vips_image_hasalpha(thumbnail)) {
        // Transparent areas on the card's paper (white), as the page draws a card: JPEG has no
        // alpha, and jpegsave would flatten them onto black.
        VipsImage *flat = NULL;
        double white = vips_image_get_format(thumbnail) == VIPS_FORMAT_USHORT ? 65535.0 : 255.0;
        VipsArrayDouble *paper = vips_array_double_newv(1, white);
        status = vips_flatten(thumbnail, &flat, "background", paper, NULL);
        vips_area_unref(VIPS_AREA(paper));
        if (status == 0) {
            g_object_unref(thumbnail);
            thumbnail = flat;
        }
    }
    if (status == 0) {
        status = CVips_dropMetadata(&thumbnail);
    }
    if (status == 0) {
        // strip: the pixels are already upright, so the orientation tag (and the rest) must go.
        // The saver (jpegsave, webpsave) is chosen by the output's suffix; both take Q and strip.
        status = vips_image_write_to_file(thumbnail, output, "Q", quality, "strip", TRUE, NULL);
    }
    return CVips_finish(thumbnail, status, error, errorSize);
}

int CVips_rgbToFile(const unsigned char *pixels, int width, int height, int rotation, double pixelAspect,
    const char *output, int quality, char *error, size_t errorSize)
{
    // Wraps the caller's pixels without copying them; they outlive the image, which is freed here.
    VipsImage *image = vips_image_new_from_memory(pixels, (size_t)width * (size_t)height * 3, width, height, 3,
        VIPS_FORMAT_UCHAR);
    int status = image == NULL ? -1 : 0;
    if (status == 0 && fabs(pixelAspect - 1.0) > 0.001) {
        VipsImage *stretched = NULL;
        status = vips_resize(image, &stretched, pixelAspect, "vscale", 1.0, NULL);
        g_object_unref(image);
        image = stretched;
    }
    if (status == 0 && rotation != 0) {
        VipsImage *turned = NULL;
        VipsAngle angle = rotation == 90 ? VIPS_ANGLE_D90 : rotation == 180 ? VIPS_ANGLE_D180 : VIPS_ANGLE_D270;
        status = vips_rot(image, &turned, angle, NULL);
        g_object_unref(image);
        image = turned;
    }
    if (status == 0) {
        status = vips_image_write_to_file(image, output, "Q", quality, "strip", TRUE, NULL);
    }
    return CVips_finish(image, status, error, errorSize);
}
