#ifndef CVIPS_H
#define CVIPS_H

#include <vips/vips.h>

/// Starts libvips once per process. Why a shim: VIPS_INIT is a macro. Returns 0 on success.
int CVips_init(const char *programName);

/// Reads the header of an image file and reports its upright size (EXIF orientation applied) without
/// decoding pixels. Why a shim: vips_image_new_from_file is variadic. Returns 0 on success.
int CVips_uprightSize(const char *path, int *width, int *height);

#endif
