#ifndef CVIPS_H
#define CVIPS_H

#include <vips/vips.h>

/// Starts libvips once per process. Why a shim: VIPS_INIT is a macro. Returns 0 on success.
int CVips_init(const char *programName);

/// Reads the header of an image file and reports its upright size (EXIF orientation applied) without
/// decoding pixels. Why a shim: vips_image_new_from_file is variadic. Returns 0 on success.
int CVips_uprightSize(const char *path, int *width, int *height);

/// Reads what the library needs of an image file without decoding pixels: its upright size (as
/// CVips_uprightSize) and, when its EXIF says, when it was taken, as "YYYY:MM:DD HH:MM:SS" in
/// `taken` (empty when unknown; at most `takenSize` bytes with the NUL). Why a shim:
/// vips_image_new_from_file is variadic, and one header read serves both. Returns 0 on success.
int CVips_photoHeader(const char *path, int *width, int *height, char *taken, size_t takenSize);

/// Writes `input` fitted inside width × height (never enlarged), turned upright by its EXIF
/// orientation, to `output`, as JPEG or WebP by `output`'s suffix (.jpg, .webp). Decodes with shrink-on-load, so a 24 MP original never sits whole
/// in memory. Why a shim: vips_thumbnail and vips_jpegsave are variadic. Returns 0 on success; on
/// failure copies libvips' message into `error` (NUL-terminated, at most `errorSize` bytes).
int CVips_thumbnailToFile(const char *input, const char *output, int width, int height, int quality,
    char *error, size_t errorSize);

/// Writes a width × height JPEG test card (a diagonal gradient, red top-left corner) tagged with
/// the given EXIF orientation (1–8), magenta at the stored top-left corner. For tests and the bench, which must make their own images.
/// Why a shim: the save is variadic. Returns 0 on success.
int CVips_writeTestJPEG(const char *path, int width, int height, int orientation);

/// The same test card in the format `path`'s suffix names (.png, .webp, .jpg), without orientation.
int CVips_writeTestImage(const char *path, int width, int height);

/// As CVips_writeTestJPEG (orientation 1), with `taken` ("YYYY:MM:DD HH:MM:SS") as the EXIF
/// DateTimeOriginal. For tests. Why a shim: the save is variadic. Returns 0 on success.
int CVips_writeTestJPEGTaken(const char *path, int width, int height, const char *taken);

#endif
