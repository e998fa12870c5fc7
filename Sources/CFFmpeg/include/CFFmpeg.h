#ifndef CFFMPEG_H
#define CFFMPEG_H

#include <stddef.h>
#include <stdint.h>

/// How a call over a clip ended.
typedef enum {
    CFFmpeg_ok = 0,
    /// Not a clip we show: another container, no video, a codec outside the allowed decoders.
    CFFmpeg_refused = 1,
    /// The time limit passed before the work was done (a file crafted to make a demuxer loop, or a
    /// disk that hangs).
    CFFmpeg_timedOut = 2,
    /// A clip we would show, but broken: truncated, corrupt, undecodable.
    CFFmpeg_broken = 3,
} CFFmpeg_Status;

/// Silences FFmpeg's own logging on standard error (the server logs one line per bad clip itself,
/// from the message each call hands back) and caps any single allocation FFmpeg makes at
/// `maxAllocation` bytes, so that a size field in a crafted header cannot ask for gigabytes.
/// Why a shim: av_max_alloc and the log callback are process-wide; one place sets them. Call it
/// before any other function here; calling it again changes nothing.
void CFFmpeg_init(size_t maxAllocation);

/// What the server needs of a clip, read from its container's header without decoding a frame.
typedef struct {
    /// Seconds; 0 when the container does not say.
    double duration;
    /// Size as shown: the stored frame turned by `rotation` and stretched by its pixel aspect.
    int width;
    int height;
    /// Size of the stored (coded) frame.
    int storedWidth;
    int storedHeight;
    /// Clockwise quarter turns the player applies, in degrees (0, 90, 180, 270), from the stream's
    /// display matrix.
    int rotation;
    /// Width of a stored pixel over its height (1 for square pixels).
    double pixelAspect;
    /// The demuxer that read it: "mov" (MP4, MOV, M4V) or "matroska" (Matroska, WebM).
    char container[16];
    /// The video codec's short name: "h264", "hevc", "vp8", "vp9", "av1".
    char videoCodec[16];
    /// The first audio stream's codec ("aac", "opus", …), or empty when the clip has none.
    char audioCodec[16];
    /// 1 when a player can start before the whole file is read: an MP4/MOV whose `moov` comes
    /// before its `mdat` (faststart), or any Matroska/WebM (its header leads).
    int faststart;
    /// The container's creation time as written ("2024-06-01T10:20:30.000000Z"), or empty.
    char creationTime[40];
} CFFmpeg_ClipInfo;

/// Reads `path`'s container header into `info`. Only two demuxers are ever used (mov and matroska,
/// picked by the file's first bytes, never by FFmpeg's probing of every format it knows), only
/// the `file` protocol, and the work stops after `seconds`. Location metadata (QuickTime `©xyz`,
/// udta/meta location) is never read into `info`. Why a shim: the whitelists, the interrupt
/// callback and the display matrix are fields and side data Swift would reach through pointers into
/// FFmpeg's structs. On failure copies one line of why into `error` (NUL-terminated, at most
/// `errorSize` bytes).
CFFmpeg_Status CFFmpeg_probe(const char *path, double seconds, CFFmpeg_ClipInfo *info, char *error, size_t errorSize);

/// A decoded frame as packed RGB, 3 bytes a pixel, rows without padding. Owned by the caller, freed
/// with `CFFmpeg_freePicture`.
typedef struct {
    unsigned char *pixels;
    int width;
    int height;
} CFFmpeg_Picture;

/// Decodes the clip's first displayable frame (the first one its decoder hands back unmarked as
/// corrupt) and converts it to RGB at its stored size, in `seconds` at most and within
/// `maxPackets` packets of the video stream. Only the decoders of the allowed codecs are opened.
/// Why a shim: the decode loop, swscale and the frame's planes are pointer work. On failure copies
/// why into `error`.
CFFmpeg_Status CFFmpeg_firstFrame(const char *path, double seconds, int maxPackets, CFFmpeg_Picture *picture,
    char *error, size_t errorSize);

/// Frees a picture's pixels. Why a shim: they come from av_malloc, which only av_free may free.
void CFFmpeg_freePicture(CFFmpeg_Picture *picture);

/// Bounds of a rendition.
typedef struct {
    /// The largest long and short side of the frame made (1920 and 1080: at most 1080p, whichever
    /// way the clip is held); never enlarged.
    int maxLongSide;
    int maxShortSide;
    /// Seconds of the clip converted from its start; the rest is left out.
    double maxSeconds;
    /// Wall-clock seconds the whole conversion may take.
    double timeLimit;
    /// Threads the decoder and the encoder may each use.
    int threads;
} CFFmpeg_RenditionLimits;

/// Converts `input` into an H.264 MP4 at `output` that every browser plays: the video re-encoded
/// (libx264, else FFmpeg's other H.264 encoder), AAC audio copied as it is (any other audio is
/// left out: MP4 in every browser plays AAC), the display matrix copied (so a held-upright clip
/// stays upright), `moov` moved before `mdat` (faststart), and nothing else of the input's metadata
/// written (no location, no dates). `output` is written in place: the caller writes to a temporary
/// name and renames. Why a shim: the decode, scale, encode and mux loop is pointer work over
/// FFmpeg's structs, and the muxer's options are a dictionary. On failure copies why into `error`.
CFFmpeg_Status CFFmpeg_rendition(const char *input, const char *output, CFFmpeg_RenditionLimits limits,
    char *error, size_t errorSize);

/// The name of the H.264 encoder `CFFmpeg_rendition` uses ("libx264"), or NULL when this FFmpeg has
/// none. Why a shim: the choice is made in one place, and the server reports it at start.
const char *CFFmpeg_h264EncoderName(void);

#endif
