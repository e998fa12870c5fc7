#ifndef CVIPSTEST_H
#define CVIPSTEST_H

/// Images the tests and benchmarks make for themselves, and what they read back. A test-only
/// target: none of this ships in the product.

#include <vips/vips.h>

/// Reads the header of an image file and reports its upright size (EXIF orientation applied) without
/// decoding pixels. Why a shim: vips_image_new_from_file is variadic. Returns 0 on success.
int CVipsTest_uprightSize(const char *path, int *width, int *height);

/// Writes a width × height JPEG test card (a diagonal gradient, red top-left corner) tagged with
/// the given EXIF orientation (1–8), magenta at the stored top-left corner. For tests and the bench, which must make their own images.
/// Why a shim: the save is variadic. Returns 0 on success.
int CVipsTest_writeJPEG(const char *path, int width, int height, int orientation);

/// The same test card in the format `path`'s suffix names (.png, .webp, .jpg), without orientation.
int CVipsTest_writeImage(const char *path, int width, int height);

/// As CVipsTest_writeJPEG (orientation 1), with `taken` ("YYYY:MM:DD HH:MM:SS") as the EXIF
/// DateTimeOriginal. For tests. Why a shim: the save is variadic. Returns 0 on success.
int CVipsTest_writeJPEGTaken(const char *path, int width, int height, const char *taken);

/// The test card as a CMYK JPEG (converted with libvips' built-in CMYK profile, which is embedded),
/// as print shops and some scanners write them. Why a shim: icc_export and the save are variadic.
/// Returns 0 on success.
int CVipsTest_writeCMYK(const char *path, int width, int height);

/// The test card as a 16-bit-per-channel RGB PNG. Why a shim: cast and pngsave are variadic.
/// Returns 0 on success.
int CVipsTest_writePNG16(const char *path, int width, int height);

/// A width × height RGBA PNG whose pixels are black and wholly transparent (a logo's empty
/// background). Returns 0 on success.
int CVipsTest_writeTransparentPNG(const char *path, int width, int height);

/// The mean of every band of the image at `path` (0–255 for 8-bit images), in `mean`. Returns 0 on
/// success.
int CVipsTest_mean(const char *path, double *mean);

/// A width × height GIF of `frames` frames (each a different grey), animated. Why a shim: the
/// operations and gifsave are variadic. Returns 0 on success.
int CVipsTest_writeAnimatedGIF(const char *path, int width, int height, int frames);

/// How many pages (an animation's frames) the image at `path` holds, or -1 when it cannot be read.
int CVipsTest_pages(const char *path);

#endif
