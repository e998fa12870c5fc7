#ifndef CVIPS_H
#define CVIPS_H

#include <vips/vips.h>

/// Starts libvips once per process, with every loader but those of the formats the server shows
/// (JPEG, PNG, WebP, GIF, HEIF/AVIF) blocked. Why a shim: VIPS_INIT is a macro. Also silences libvips'
/// own warnings on standard error: a truncated PNG makes libpng warn thousands of times per decode,
/// and the server logs one line per bad file itself. Safe to call from any thread, any number of
/// times: the first call starts libvips, every call waits for it. Returns 0 on success.
int CVips_init(void);

/// What the server needs of an image file without decoding its pixels.
typedef struct {
    /// Upright size: orientations 5–8 turn the picture a quarter, so its upright width is the stored height.
    int width;
    int height;
    /// Stored (not upright) size.
    int storedWidth;
    int storedHeight;
    /// 1 for a progressive JPEG or an interlaced PNG: decoded whole whatever size is asked for.
    int interlaced;
    /// 1 for CMYK pixels.
    int cmyk;
    /// The loader that read it, told by the file's first bytes: "jpegload", "pngload", "webpload", …
    char loader[32];
    /// EXIF DateTimeOriginal, "YYYY:MM:DD HH:MM:SS", or empty when the file does not say.
    char taken[32];
    /// EXIF orientation, 1 (upright) to 8.
    int orientation;
    /// Pages (an animation's frames) the file holds; 1 for a still picture.
    int pages;
} CVipsHeader;

/// What `CVips_readHeader` returns for a file of a kind the server does not show.
#define CVIPS_NOT_SHOWN (-2)

/// The loader of the format whose file starts with `bytes` ("jpegload", "pngload", "gifload",
/// "webpload", "heifload"), or NULL for any other kind. Sixteen bytes are enough.
const char *CVips_formatOf(const unsigned char *bytes, size_t count);

/// `CVips_formatOf` of the first bytes of the file at `path` (NULL when it cannot be read). Why a
/// shim: one place in C reads them, for the header read and for the server's early refusal alike.
const char *CVips_formatOfFile(const char *path);

/// Reads `path`'s header into `header`: the format is told by the file's first bytes
/// (`CVips_formatOf`) and that format's loader alone reads it, so no other parser ever sees the
/// file. Why a shim: the loaders are variadic, and one header read serves the library (size, date)
/// and the converter (cost). Returns 0 on success, CVIPS_NOT_SHOWN for a file of another kind (only
/// its first bytes read), -1 for a file its loader cannot read.
int CVips_readHeader(const char *path, CVipsHeader *header);

/// Decodes all of `path` at a small shrink-on-load size with fail_on=error, so that a truncated or
/// corrupt file is found once, before it is ever shown, at a fraction of a full decode. `loader` is
/// the header's (a JPEG is read by jpegload at 1/8 scale, the rest by vips_thumbnail at 64 px); the
/// pixels are pulled on the calling thread, so files may be verified side by side, each thread
/// with its own images. Why a shim: vips_jpegload and vips_thumbnail are variadic. Returns 0 when the
/// file decodes whole; else copies the first line of libvips' message into `error`
/// (NUL-terminated, at most `errorSize` bytes).
int CVips_verify(const char *path, const char *loader, char *error, size_t errorSize);

/// Frees what libvips keeps for the calling thread. Call it when a thread of ours that used
/// libvips is done with it (libvips' own threads do so themselves). Why a shim: one place says which
/// threads call it.
void CVips_threadShutdown(void);

/// Writes `input` fitted inside width × height (never enlarged), turned upright by its EXIF
/// orientation, to `output`, as JPEG or WebP by `output`'s suffix (.jpg, .webp). Decodes with
/// shrink-on-load, so a 24 MP original never sits whole in memory, and with fail_on=error, so a broken
/// file fails instead of being cached grey. A CMYK JPEG is shrunk first and colour-converted at
/// the output size (vips_thumbnail converts at the shrink-on-load size: several times the work).
/// With `allPages`, every page of an animation is kept (each resized, with its frame delays and
/// loop count), for a saver that keeps them (WebP); else only the first.
/// Why a shim: vips_thumbnail and the savers are variadic. Returns 0 on success; on failure copies
/// libvips' message into `error` (NUL-terminated, at most `errorSize` bytes).
int CVips_thumbnailToFile(const char *input, const char *output, int width, int height, int quality,
    int allPages, char *error, size_t errorSize);

/// Writes a decoded video frame (packed RGB, 3 bytes a pixel, rows without padding) to `output`,
/// stretched to square pixels by `pixelAspect` (a stored pixel's width over its height) and turned
/// clockwise by `rotation` degrees (0, 90, 180, 270), as JPEG or WebP by `output`'s suffix, with no
/// metadata. A clip's poster is made this way once, at its full size, and its variants from it as
/// a photo's are. Why a shim: vips_image_new_from_memory, vips_resize, vips_rot and the savers are
/// variadic. Returns 0 on success; on failure copies libvips' message into `error`.
int CVips_rgbToFile(const unsigned char *pixels, int width, int height, int rotation, double pixelAspect,
    const char *output, int quality, char *error, size_t errorSize);

#endif
