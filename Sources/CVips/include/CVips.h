#ifndef CVIPS_H
#define CVIPS_H

#include <vips/vips.h>

/// Starts libvips once per process. Why a shim: VIPS_INIT is a macro. Returns 0 on success.
int CVips_init(const char *programName);

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

#endif
