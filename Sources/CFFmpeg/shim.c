#include "CFFmpeg.h"

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/time.h>
#include <libswscale/swscale.h>

/// The demuxers any clip is read with (their FFmpeg names): MP4/MOV/M4V and Matroska/WebM.
static const char *const CFFmpeg_demuxers = "mov,matroska";
/// The decoders any clip's video is decoded with. libdav1d is Debian's AV1 decoder; FFmpeg's own
/// `av1` decodes only through a hardware accelerator.
static const char *const CFFmpeg_decoders = "h264,hevc,vp8,vp9,libdav1d,av1";
/// The largest frame, in pixels, a decoder is asked to make: an 8K clip (7680 × 4320).
static const int64_t CFFmpeg_maxPixels = 7680LL * 4320LL;

// MARK: - Messages

/// FFmpeg says why a file is broken in its log ("moov atom not found"), not in the status it
/// returns (AVERROR_INVALIDDATA for nearly everything): the last error line logged on this thread,
/// kept to be handed back with the status.
static __thread char CFFmpeg_lastLog[256];

static void CFFmpeg_logged(void *object, int level, const char *format, va_list arguments)
{
    (void)object;
    if (level > AV_LOG_ERROR) {
        return;
    }
    vsnprintf(CFFmpeg_lastLog, sizeof CFFmpeg_lastLog, format, arguments);
    char *newline = strchr(CFFmpeg_lastLog, '\n');
    if (newline != NULL) {
        *newline = '\0';
    }
}

static size_t CFFmpeg_maxAllocation;

static void CFFmpeg_start(void)
{
    av_log_set_callback(CFFmpeg_logged);
    av_max_alloc(CFFmpeg_maxAllocation);
}

void CFFmpeg_init(size_t maxAllocation)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    CFFmpeg_maxAllocation = maxAllocation;
    pthread_once(&once, CFFmpeg_start);
}

/// Writes `status` and the message for it (the text given, or FFmpeg's for `code` with the last
/// line it logged) into `error`, and returns `status`.
static CFFmpeg_Status CFFmpeg_fail(CFFmpeg_Status status, int code, const char *text, char *error, size_t errorSize)
{
    if (error == NULL || errorSize == 0) {
        return status;
    }
    if (text != NULL) {
        snprintf(error, errorSize, "%s", text);
    } else {
        char reason[128];
        av_strerror(code, reason, sizeof reason);
        if (CFFmpeg_lastLog[0] != '\0') {
            snprintf(error, errorSize, "%s (%s)", reason, CFFmpeg_lastLog);
        } else {
            snprintf(error, errorSize, "%s", reason);
        }
    }
    return status;
}

// MARK: - Opening a clip

/// The monotonic time past which the interrupt callback stops FFmpeg's work.
typedef struct {
    int64_t deadline;
    int expired;
} CFFmpeg_Deadline;

static int CFFmpeg_interrupted(void *opaque)
{
    CFFmpeg_Deadline *deadline = opaque;
    if (av_gettime_relative() > deadline->deadline) {
        deadline->expired = 1;
    }
    return deadline->expired;
}

static void CFFmpeg_startDeadline(CFFmpeg_Deadline *deadline, double seconds)
{
    deadline->deadline = av_gettime_relative() + (int64_t)(seconds * 1e6);
    deadline->expired = 0;
}

/// The demuxer for a file by its first bytes: "mov" when an ISO/QuickTime box type sits at offset
/// 4, "matroska" for the EBML magic; NULL for anything else. FFmpeg's own probing would score the
/// bytes against every demuxer it has, which is what the whitelist is there to prevent.
static const char *CFFmpeg_sniff(const unsigned char *head, ssize_t length)
{
    if (length >= 4 && head[0] == 0x1A && head[1] == 0x45 && head[2] == 0xDF && head[3] == 0xA3) {
        return "matroska";
    }
    static const char *const boxes[] = {"ftyp", "moov", "mdat", "free", "skip", "wide", "pnot"};
    if (length >= 8) {
        for (size_t index = 0; index < sizeof boxes / sizeof boxes[0]; index++) {
            if (memcmp(head + 4, boxes[index], 4) == 0) {
                return "mov";
            }
        }
    }
    return NULL;
}

static uint64_t CFFmpeg_bigEndian(const unsigned char *bytes, int count)
{
    uint64_t value = 0;
    for (int index = 0; index < count; index++) {
        value = value << 8 | bytes[index];
    }
    return value;
}

/// Whether an MP4/MOV's `moov` comes before its `mdat`, from its top-level boxes: 1 if so, 0 if
/// `mdat` comes first (or neither is found within the first 4096 boxes).
static int CFFmpeg_moovFirst(int descriptor, int64_t size)
{
    int64_t offset = 0;
    for (int count = 0; count < 4096 && offset + 8 <= size; count++) {
        unsigned char header[16];
        if (pread(descriptor, header, sizeof header, offset) < 8) {
            return 0;
        }
        uint64_t length = CFFmpeg_bigEndian(header, 4);
        if (length == 1) {
            length = CFFmpeg_bigEndian(header + 8, 8);
        } else if (length == 0) {
            length = (uint64_t)(size - offset);
        }
        if (memcmp(header + 4, "moov", 4) == 0) {
            return 1;
        }
        if (memcmp(header + 4, "mdat", 4) == 0 || length < 8 || length > (uint64_t)(size - offset)) {
            return 0;
        }
        offset += (int64_t)length;
    }
    return 0;
}

/// Opens `path` with the sniffed demuxer, the whitelists and the deadline's interrupt callback.
static CFFmpeg_Status CFFmpeg_open(const char *path, CFFmpeg_Deadline *deadline, AVFormatContext **opened,
    char *error, size_t errorSize)
{
    CFFmpeg_lastLog[0] = '\0';
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) {
        return CFFmpeg_fail(CFFmpeg_broken, 0, "cannot open the file", error, errorSize);
    }
    unsigned char head[12];
    ssize_t length = pread(descriptor, head, sizeof head, 0);
    close(descriptor);
    const char *demuxer = CFFmpeg_sniff(head, length);
    if (demuxer == NULL) {
        return CFFmpeg_fail(CFFmpeg_refused, 0, "not a clip: neither MP4/QuickTime nor Matroska/WebM", error,
            errorSize);
    }
    AVFormatContext *context = avformat_alloc_context();
    if (context == NULL) {
        return CFFmpeg_fail(CFFmpeg_broken, AVERROR(ENOMEM), NULL, error, errorSize);
    }
    context->interrupt_callback.callback = CFFmpeg_interrupted;
    context->interrupt_callback.opaque = deadline;
    context->format_whitelist = av_strdup(CFFmpeg_demuxers);
    context->codec_whitelist = av_strdup(CFFmpeg_decoders);
    context->protocol_whitelist = av_strdup("file");
    // avformat_open_input frees the context when it fails.
    int status = avformat_open_input(&context, path, av_find_input_format(demuxer), NULL);
    if (status < 0) {
        if (deadline->expired) {
            return CFFmpeg_fail(CFFmpeg_timedOut, 0, "reading its header took longer than the time limit", error,
                errorSize);
        }
        return CFFmpeg_fail(CFFmpeg_broken, status, NULL, error, errorSize);
    }
    *opened = context;
    return CFFmpeg_ok;
}

/// The clip's video stream: the first one that is not a cover picture; -1 when it has none.
static int CFFmpeg_videoStream(AVFormatContext *context)
{
    for (unsigned index = 0; index < context->nb_streams; index++) {
        AVStream *stream = context->streams[index];
        if (stream->codecpar->codec_type == AVMEDIA_TYPE_VIDEO &&
            !(stream->disposition & AV_DISPOSITION_ATTACHED_PIC)) {
            return (int)index;
        }
    }
    return -1;
}

/// The decoder for `id` when it is one of the allowed codecs; NULL otherwise.
static const AVCodec *CFFmpeg_decoder(enum AVCodecID id)
{
    switch (id) {
    case AV_CODEC_ID_H264: return avcodec_find_decoder_by_name("h264");
    case AV_CODEC_ID_HEVC: return avcodec_find_decoder_by_name("hevc");
    case AV_CODEC_ID_VP8: return avcodec_find_decoder_by_name("vp8");
    case AV_CODEC_ID_VP9: return avcodec_find_decoder_by_name("vp9");
    case AV_CODEC_ID_AV1: {
        const AVCodec *dav1d = avcodec_find_decoder_by_name("libdav1d");
        return dav1d != NULL ? dav1d : avcodec_find_decoder_by_name("av1");
    }
    default: return NULL;
    }
}

/// Finds the video stream and checks its codec against the allowed ones.
static CFFmpeg_Status CFFmpeg_findVideo(AVFormatContext *context, int *streamIndex, char *error, size_t errorSize)
{
    int index = CFFmpeg_videoStream(context);
    if (index < 0) {
        return CFFmpeg_fail(CFFmpeg_refused, 0, "not a clip: it has no video stream", error, errorSize);
    }
    AVCodecParameters *parameters = context->streams[index]->codecpar;
    if (CFFmpeg_decoder(parameters->codec_id) == NULL) {
        char text[96];
        snprintf(text, sizeof text, "its video codec (%s) is not one we show", avcodec_get_name(parameters->codec_id));
        return CFFmpeg_fail(CFFmpeg_refused, 0, text, error, errorSize);
    }
    if (parameters->width <= 0 || parameters->height <= 0 ||
        (int64_t)parameters->width * parameters->height > CFFmpeg_maxPixels) {
        return CFFmpeg_fail(CFFmpeg_refused, 0, "its frame size is missing or larger than 8K", error, errorSize);
    }
    *streamIndex = index;
    return CFFmpeg_ok;
}

/// An opened decoder for the stream, limited to the allowed decoders and to `CFFmpeg_maxPixels`.
static CFFmpeg_Status CFFmpeg_openDecoder(AVStream *stream, int threads, AVCodecContext **opened, char *error,
    size_t errorSize)
{
    const AVCodec *codec = CFFmpeg_decoder(stream->codecpar->codec_id);
    AVCodecContext *decoder = avcodec_alloc_context3(codec);
    if (decoder == NULL) {
        return CFFmpeg_fail(CFFmpeg_broken, AVERROR(ENOMEM), NULL, error, errorSize);
    }
    int status = avcodec_parameters_to_context(decoder, stream->codecpar);
    if (status >= 0) {
        decoder->codec_whitelist = av_strdup(CFFmpeg_decoders);
        decoder->max_pixels = CFFmpeg_maxPixels;
        decoder->thread_count = threads;
        decoder->pkt_timebase = stream->time_base;
        status = avcodec_open2(decoder, codec, NULL);
    }
    if (status < 0) {
        avcodec_free_context(&decoder);
        return CFFmpeg_fail(CFFmpeg_broken, status, NULL, error, errorSize);
    }
    *opened = decoder;
    return CFFmpeg_ok;
}

/// Clockwise quarter turns from the stream's display matrix, as FFmpeg's own player reads it.
static int CFFmpeg_rotation(AVStream *stream)
{
    size_t size = 0;
    const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (matrix == NULL || size < 9 * sizeof(int32_t)) {
        return 0;
    }
    double turn = -av_display_rotation_get((const int32_t *)matrix);
    if (isnan(turn)) {
        return 0;
    }
    long quarters = lround(turn / 90.0) % 4;
    return (int)((quarters + 4) % 4) * 90;
}

// MARK: - Probe

/// Whether the video stream's last indexed sample ends past the end of the file: a truncated
/// faststart MP4 still has its whole index.
static int CFFmpeg_truncated(AVFormatContext *context, AVStream *stream)
{
    int64_t size = avio_size(context->pb);
    int count = avformat_index_get_entries_count(stream);
    if (size <= 0 || count <= 0) {
        return 0;
    }
    const AVIndexEntry *last = avformat_index_get_entry(stream, count - 1);
    return last != NULL && last->pos + last->size > size;
}

static void CFFmpeg_copyName(char *destination, size_t size, const char *name)
{
    snprintf(destination, size, "%s", name != NULL ? name : "");
}

CFFmpeg_Status CFFmpeg_probe(const char *path, double seconds, CFFmpeg_ClipInfo *info, char *error, size_t errorSize)
{
    memset(info, 0, sizeof *info);
    CFFmpeg_Deadline deadline;
    CFFmpeg_startDeadline(&deadline, seconds);
    AVFormatContext *context = NULL;
    CFFmpeg_Status status = CFFmpeg_open(path, &deadline, &context, error, errorSize);
    if (status != CFFmpeg_ok) {
        return status;
    }
    int index = -1;
    status = CFFmpeg_findVideo(context, &index, error, errorSize);
    if (status == CFFmpeg_ok && CFFmpeg_truncated(context, context->streams[index])) {
        status = CFFmpeg_fail(CFFmpeg_broken, 0, "truncated: its frames run past the end of the file", error,
            errorSize);
    }
    if (status != CFFmpeg_ok) {
        avformat_close_input(&context);
        return status;
    }
    AVStream *stream = context->streams[index];
    AVCodecParameters *video = stream->codecpar;
    info->storedWidth = video->width;
    info->storedHeight = video->height;
    info->rotation = CFFmpeg_rotation(stream);
    AVRational aspect = av_guess_sample_aspect_ratio(context, stream, NULL);
    // A pixel eight times wider than high (or narrower) is no camera's: a crafted header's, which
    // would make a clip of no width or of millions of pixels. Such a clip is shown with square pixels.
    double pixelAspect = aspect.num > 0 && aspect.den > 0 ? av_q2d(aspect) : 1.0;
    info->pixelAspect = pixelAspect >= 0.125 && pixelAspect <= 8.0 ? pixelAspect : 1.0;
    int shownWidth = (int)lround(video->width * info->pixelAspect);
    int quarter = info->rotation == 90 || info->rotation == 270;
    info->width = quarter ? video->height : shownWidth;
    info->height = quarter ? shownWidth : video->height;
    if (context->duration != AV_NOPTS_VALUE && context->duration > 0) {
        info->duration = (double)context->duration / AV_TIME_BASE;
    } else if (stream->duration != AV_NOPTS_VALUE && stream->duration > 0) {
        info->duration = (double)stream->duration * av_q2d(stream->time_base);
    }
    int matroska = strcmp(context->iformat->name, "matroska,webm") == 0;
    CFFmpeg_copyName(info->container, sizeof info->container, matroska ? "matroska" : "mov");
    CFFmpeg_copyName(info->videoCodec, sizeof info->videoCodec, avcodec_get_name(video->codec_id));
    for (unsigned other = 0; other < context->nb_streams; other++) {
        if (context->streams[other]->codecpar->codec_type == AVMEDIA_TYPE_AUDIO) {
            CFFmpeg_copyName(info->audioCodec, sizeof info->audioCodec,
                avcodec_get_name(context->streams[other]->codecpar->codec_id));
            break;
        }
    }
    if (matroska) {
        info->faststart = 1;
    } else {
        int descriptor = open(path, O_RDONLY | O_CLOEXEC);
        if (descriptor >= 0) {
            info->faststart = CFFmpeg_moovFirst(descriptor, avio_size(context->pb));
            close(descriptor);
        }
    }
    // Only the creation time is read of the container's tags: its location never leaves here.
    const AVDictionaryEntry *created = av_dict_get(context->metadata, "creation_time", NULL, 0);
    if (created == NULL) {
        created = av_dict_get(stream->metadata, "creation_time", NULL, 0);
    }
    CFFmpeg_copyName(info->creationTime, sizeof info->creationTime, created != NULL ? created->value : NULL);
    avformat_close_input(&context);
    return CFFmpeg_ok;
}

// MARK: - First frame

/// Converts `frame` to packed RGB into `picture` (allocated here).
static CFFmpeg_Status CFFmpeg_toRGB(const AVFrame *frame, CFFmpeg_Picture *picture, char *error, size_t errorSize)
{
    struct SwsContext *scaler = sws_getContext(frame->width, frame->height, frame->format, frame->width,
        frame->height, AV_PIX_FMT_RGB24, SWS_BILINEAR, NULL, NULL, NULL);
    if (scaler == NULL) {
        return CFFmpeg_fail(CFFmpeg_broken, 0, "cannot convert its frame's pixel format", error, errorSize);
    }
    size_t size = (size_t)frame->width * (size_t)frame->height * 3;
    unsigned char *pixels = av_malloc(size);
    if (pixels == NULL) {
        sws_freeContext(scaler);
        return CFFmpeg_fail(CFFmpeg_broken, AVERROR(ENOMEM), NULL, error, errorSize);
    }
    uint8_t *planes[4] = {pixels, NULL, NULL, NULL};
    int strides[4] = {frame->width * 3, 0, 0, 0};
    sws_scale(scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
    sws_freeContext(scaler);
    picture->pixels = pixels;
    picture->width = frame->width;
    picture->height = frame->height;
    return CFFmpeg_ok;
}

/// Hands the decoder one packet (NULL: the end) and takes the first good frame it returns, if any.
/// 1 when `frame` holds one, 0 when more packets are needed, negative on a decoding error.
static int CFFmpeg_decodeOne(AVCodecContext *decoder, const AVPacket *packet, AVFrame *frame)
{
    int status = avcodec_send_packet(decoder, packet);
    if (status < 0 && status != AVERROR_EOF && status != AVERROR_INVALIDDATA) {
        return status;
    }
    for (;;) {
        status = avcodec_receive_frame(decoder, frame);
        if (status == AVERROR(EAGAIN) || status == AVERROR_EOF) {
            return 0;
        }
        if (status < 0) {
            return status;
        }
        if (!(frame->flags & AV_FRAME_FLAG_CORRUPT) && !frame->decode_error_flags) {
            return 1;
        }
        av_frame_unref(frame);
    }
}

CFFmpeg_Status CFFmpeg_firstFrame(const char *path, double seconds, int maxPackets, CFFmpeg_Picture *picture,
    char *error, size_t errorSize)
{
    memset(picture, 0, sizeof *picture);
    CFFmpeg_Deadline deadline;
    CFFmpeg_startDeadline(&deadline, seconds);
    AVFormatContext *context = NULL;
    CFFmpeg_Status status = CFFmpeg_open(path, &deadline, &context, error, errorSize);
    if (status != CFFmpeg_ok) {
        return status;
    }
    int index = -1;
    AVCodecContext *decoder = NULL;
    status = CFFmpeg_findVideo(context, &index, error, errorSize);
    if (status == CFFmpeg_ok) {
        status = CFFmpeg_openDecoder(context->streams[index], 1, &decoder, error, errorSize);
    }
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    int found = 0;
    for (int packets = 0; status == CFFmpeg_ok && !found && packets < maxPackets;) {
        int read = av_read_frame(context, packet);
        if (read < 0) {
            found = CFFmpeg_decodeOne(decoder, NULL, frame);
            if (found <= 0) {
                status = deadline.expired
                    ? CFFmpeg_fail(CFFmpeg_timedOut, 0, "finding its first frame took longer than the time limit",
                          error, errorSize)
                    : CFFmpeg_fail(CFFmpeg_broken, 0, "no frame of it decodes", error, errorSize);
            }
            break;
        }
        if (packet->stream_index == index) {
            packets++;
            found = CFFmpeg_decodeOne(decoder, packet, frame);
            if (found < 0) {
                status = CFFmpeg_fail(CFFmpeg_broken, found, NULL, error, errorSize);
            }
        }
        av_packet_unref(packet);
        if (status == CFFmpeg_ok && !found && CFFmpeg_interrupted(&deadline)) {
            status = CFFmpeg_fail(CFFmpeg_timedOut, 0, "finding its first frame took longer than the time limit",
                error, errorSize);
        }
    }
    if (status == CFFmpeg_ok && !found) {
        status = CFFmpeg_fail(CFFmpeg_broken, 0, "no frame decodes within its first packets", error, errorSize);
    }
    if (status == CFFmpeg_ok) {
        status = CFFmpeg_toRGB(frame, picture, error, errorSize);
    }
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&decoder);
    avformat_close_input(&context);
    return status;
}

void CFFmpeg_freePicture(CFFmpeg_Picture *picture)
{
    av_freep(&picture->pixels);
}

// MARK: - Rendition

const char *CFFmpeg_h264EncoderName(void)
{
    const AVCodec *codec = avcodec_find_encoder_by_name("libx264");
    if (codec == NULL) {
        codec = avcodec_find_encoder(AV_CODEC_ID_H264);
    }
    return codec != NULL ? codec->name : NULL;
}

/// Everything one conversion holds, freed together by `CFFmpeg_closeRendition`.
typedef struct {
    CFFmpeg_Deadline deadline;
    AVFormatContext *input;
    AVFormatContext *output;
    AVCodecContext *decoder;
    AVCodecContext *encoder;
    struct SwsContext *scaler;
    AVFrame *decoded;
    AVFrame *scaled;
    AVPacket *packet;
    int videoIn;
    int audioIn;
    int videoOut;
    int audioOut;
    int64_t videoStart;
    int64_t audioStart;
    int64_t lastPts;
    int videoDone;
    double maxSeconds;
} CFFmpeg_Rendition;

static void CFFmpeg_closeRendition(CFFmpeg_Rendition *work)
{
    if (work->output != NULL) {
        avio_closep(&work->output->pb);
        avformat_free_context(work->output);
    }
    sws_freeContext(work->scaler);
    av_frame_free(&work->decoded);
    av_frame_free(&work->scaled);
    av_packet_free(&work->packet);
    avcodec_free_context(&work->decoder);
    avcodec_free_context(&work->encoder);
    avformat_close_input(&work->input);
}

/// The rendition's frame size: the stored size fitted within the limits (never enlarged), even.
static void CFFmpeg_fit(int width, int height, CFFmpeg_RenditionLimits limits, int *fittedWidth, int *fittedHeight)
{
    int longSide = width > height ? width : height;
    int shortSide = width > height ? height : width;
    double scale = fmin(1.0, fmin((double)limits.maxLongSide / longSide, (double)limits.maxShortSide / shortSide));
    *fittedWidth = ((int)lround(width * scale) / 2) * 2;
    *fittedHeight = ((int)lround(height * scale) / 2) * 2;
    if (*fittedWidth < 2) {
        *fittedWidth = 2;
    }
    if (*fittedHeight < 2) {
        *fittedHeight = 2;
    }
}

/// Opens the H.264 encoder and adds the output's video stream (with the input's display matrix).
static int CFFmpeg_openEncoder(CFFmpeg_Rendition *work, CFFmpeg_RenditionLimits limits)
{
    AVStream *in = work->input->streams[work->videoIn];
    const AVCodec *codec = avcodec_find_encoder_by_name("libx264");
    if (codec == NULL) {
        codec = avcodec_find_encoder(AV_CODEC_ID_H264);
    }
    if (codec == NULL) {
        return AVERROR_ENCODER_NOT_FOUND;
    }
    AVCodecContext *encoder = avcodec_alloc_context3(codec);
    work->encoder = encoder;
    if (encoder == NULL) {
        return AVERROR(ENOMEM);
    }
    CFFmpeg_fit(work->decoder->width, work->decoder->height, limits, &encoder->width, &encoder->height);
    encoder->pix_fmt = AV_PIX_FMT_YUV420P;
    encoder->time_base = in->time_base;
    encoder->framerate = av_guess_frame_rate(work->input, in, NULL);
    encoder->sample_aspect_ratio = work->decoder->sample_aspect_ratio;
    encoder->thread_count = limits.threads;
    if (work->output->oformat->flags & AVFMT_GLOBALHEADER) {
        encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    }
    // libx264's options; another encoder ignores what it does not know.
    AVDictionary *options = NULL;
    av_dict_set(&options, "preset", "veryfast", 0);
    av_dict_set(&options, "crf", "23", 0);
    int status = avcodec_open2(encoder, codec, &options);
    av_dict_free(&options);
    if (status < 0) {
        return status;
    }
    AVStream *out = avformat_new_stream(work->output, NULL);
    if (out == NULL) {
        return AVERROR(ENOMEM);
    }
    work->videoOut = out->index;
    out->time_base = encoder->time_base;
    status = avcodec_parameters_from_context(out->codecpar, encoder);
    size_t size = 0;
    const uint8_t *matrix = av_stream_get_side_data(in, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (status >= 0 && matrix != NULL && size >= 9 * sizeof(int32_t)) {
        uint8_t *copy = av_stream_new_side_data(out, AV_PKT_DATA_DISPLAYMATRIX, size);
        if (copy != NULL) {
            memcpy(copy, matrix, size);
        }
    }
    work->scaled = av_frame_alloc();
    if (work->scaled == NULL) {
        return AVERROR(ENOMEM);
    }
    work->scaled->format = AV_PIX_FMT_YUV420P;
    work->scaled->width = encoder->width;
    work->scaled->height = encoder->height;
    return status < 0 ? status : av_frame_get_buffer(work->scaled, 0);
}

/// Adds the first AAC audio stream to the output as it is; none when the clip has no AAC.
static int CFFmpeg_addAudio(CFFmpeg_Rendition *work)
{
    work->audioIn = -1;
    for (unsigned index = 0; index < work->input->nb_streams; index++) {
        AVStream *in = work->input->streams[index];
        if (in->codecpar->codec_type != AVMEDIA_TYPE_AUDIO || in->codecpar->codec_id != AV_CODEC_ID_AAC) {
            continue;
        }
        AVStream *out = avformat_new_stream(work->output, NULL);
        if (out == NULL) {
            return AVERROR(ENOMEM);
        }
        int status = avcodec_parameters_copy(out->codecpar, in->codecpar);
        out->codecpar->codec_tag = 0;
        out->time_base = in->time_base;
        work->audioIn = (int)index;
        work->audioOut = out->index;
        work->audioStart = in->start_time != AV_NOPTS_VALUE ? in->start_time : 0;
        return status;
    }
    return 0;
}

/// Encodes `frame` (NULL: flushes the encoder) and writes every packet it hands back.
static int CFFmpeg_encode(CFFmpeg_Rendition *work, AVFrame *frame)
{
    int status = avcodec_send_frame(work->encoder, frame);
    if (status < 0) {
        return status;
    }
    AVStream *out = work->output->streams[work->videoOut];
    for (;;) {
        status = avcodec_receive_packet(work->encoder, work->packet);
        if (status == AVERROR(EAGAIN) || status == AVERROR_EOF) {
            return 0;
        }
        if (status < 0) {
            return status;
        }
        av_packet_rescale_ts(work->packet, work->encoder->time_base, out->time_base);
        work->packet->stream_index = work->videoOut;
        status = av_interleaved_write_frame(work->output, work->packet);
        if (status < 0) {
            return status;
        }
    }
}

/// Scales and encodes every frame the decoder hands back within the clip's first `maxSeconds`.
static int CFFmpeg_drainDecoder(CFFmpeg_Rendition *work)
{
    AVStream *in = work->input->streams[work->videoIn];
    for (;;) {
        int status = avcodec_receive_frame(work->decoder, work->decoded);
        if (status == AVERROR(EAGAIN) || status == AVERROR_EOF) {
            return 0;
        }
        if (status < 0) {
            return status;
        }
        int64_t pts = work->decoded->best_effort_timestamp;
        if (pts == AV_NOPTS_VALUE) {
            pts = work->lastPts == AV_NOPTS_VALUE ? work->videoStart : work->lastPts + 1;
        }
        if ((double)(pts - work->videoStart) * av_q2d(in->time_base) >= work->maxSeconds) {
            work->videoDone = 1;
        }
        // The encoder needs strictly increasing timestamps; a repeated one is a duplicate frame.
        if (work->videoDone || (work->lastPts != AV_NOPTS_VALUE && pts <= work->lastPts)) {
            av_frame_unref(work->decoded);
            continue;
        }
        work->lastPts = pts;
        // Made from the first frame: without reading frames ahead (avformat_find_stream_info),
        // the header need not say the pixel format; a later frame of another size or format
        // gets a new one.
        AVFrame *decoded = work->decoded;
        work->scaler = sws_getCachedContext(work->scaler, decoded->width, decoded->height, decoded->format,
            work->encoder->width, work->encoder->height, AV_PIX_FMT_YUV420P, SWS_BICUBIC, NULL, NULL, NULL);
        status = work->scaler != NULL ? av_frame_make_writable(work->scaled) : AVERROR(EINVAL);
        if (status >= 0) {
            sws_scale(work->scaler, (const uint8_t *const *)work->decoded->data, work->decoded->linesize, 0,
                work->decoded->height, work->scaled->data, work->scaled->linesize);
            work->scaled->pts = pts;
            status = CFFmpeg_encode(work, work->scaled);
        }
        av_frame_unref(work->decoded);
        if (status < 0) {
            return status;
        }
    }
}

/// One packet read from the input: decoded and encoded (video), or copied (audio) while within the
/// clip's first `maxSeconds`.
static int CFFmpeg_convertPacket(CFFmpeg_Rendition *work)
{
    AVPacket *packet = work->packet;
    if (packet->stream_index == work->videoIn && !work->videoDone) {
        int status = avcodec_send_packet(work->decoder, packet);
        av_packet_unref(packet);
        // A damaged packet is skipped, as a player would; the frames around it still decode.
        if (status < 0 && status != AVERROR_INVALIDDATA) {
            return status;
        }
        return CFFmpeg_drainDecoder(work);
    }
    if (packet->stream_index == work->audioIn && packet->pts != AV_NOPTS_VALUE) {
        AVStream *in = work->input->streams[work->audioIn];
        if ((double)(packet->pts - work->audioStart) * av_q2d(in->time_base) < work->maxSeconds) {
            av_packet_rescale_ts(packet, in->time_base, work->output->streams[work->audioOut]->time_base);
            packet->stream_index = work->audioOut;
            packet->pos = -1;
            return av_interleaved_write_frame(work->output, packet);
        }
    }
    av_packet_unref(packet);
    return 0;
}

/// Opens the output: MP4 written through the `file` protocol only.
static int CFFmpeg_openOutput(CFFmpeg_Rendition *work, const char *path)
{
    int status = avformat_alloc_output_context2(&work->output, NULL, "mp4", path);
    if (status < 0) {
        return status;
    }
    work->output->protocol_whitelist = av_strdup("file");
    work->output->flags |= AVFMT_FLAG_BITEXACT;
    return avio_open(&work->output->pb, path, AVIO_FLAG_WRITE);
}

CFFmpeg_Status CFFmpeg_rendition(const char *input, const char *output, CFFmpeg_RenditionLimits limits,
    char *error, size_t errorSize)
{
    CFFmpeg_Rendition work;
    memset(&work, 0, sizeof work);
    work.lastPts = AV_NOPTS_VALUE;
    work.maxSeconds = limits.maxSeconds;
    CFFmpeg_startDeadline(&work.deadline, limits.timeLimit);
    CFFmpeg_Status result = CFFmpeg_open(input, &work.deadline, &work.input, error, errorSize);
    if (result == CFFmpeg_ok) {
        result = CFFmpeg_findVideo(work.input, &work.videoIn, error, errorSize);
    }
    if (result == CFFmpeg_ok) {
        result = CFFmpeg_openDecoder(work.input->streams[work.videoIn], limits.threads, &work.decoder, error,
            errorSize);
    }
    if (result != CFFmpeg_ok) {
        CFFmpeg_closeRendition(&work);
        return result;
    }
    AVStream *video = work.input->streams[work.videoIn];
    work.videoStart = video->start_time != AV_NOPTS_VALUE ? video->start_time : 0;
    work.packet = av_packet_alloc();
    work.decoded = av_frame_alloc();
    int status = work.packet != NULL && work.decoded != NULL ? 0 : AVERROR(ENOMEM);
    if (status >= 0) {
        status = CFFmpeg_openOutput(&work, output);
    }
    if (status >= 0) {
        status = CFFmpeg_openEncoder(&work, limits);
    }
    if (status >= 0) {
        status = CFFmpeg_addAudio(&work);
    }
    if (status >= 0) {
        // The index written before the frames, so that a browser starts playing at once.
        AVDictionary *options = NULL;
        av_dict_set(&options, "movflags", "+faststart", 0);
        status = avformat_write_header(work.output, &options);
        av_dict_free(&options);
    }
    while (status >= 0 && !work.videoDone && !CFFmpeg_interrupted(&work.deadline)) {
        int read = av_read_frame(work.input, work.packet);
        if (read == AVERROR_EOF) {
            break;
        }
        status = read < 0 ? read : CFFmpeg_convertPacket(&work);
    }
    if (status >= 0 && !work.deadline.expired) {
        // The frames the decoder and the encoder still hold.
        status = avcodec_send_packet(work.decoder, NULL);
        status = status < 0 && status != AVERROR_EOF ? status : CFFmpeg_drainDecoder(&work);
        status = status < 0 ? status : CFFmpeg_encode(&work, NULL);
        status = status < 0 ? status : av_write_trailer(work.output);
    }
    if (work.deadline.expired) {
        result = CFFmpeg_fail(CFFmpeg_timedOut, 0, "converting it took longer than the time limit", error, errorSize);
    } else if (status < 0) {
        result = CFFmpeg_fail(CFFmpeg_broken, status, NULL, error, errorSize);
    } else if (work.lastPts == AV_NOPTS_VALUE) {
        result = CFFmpeg_fail(CFFmpeg_broken, 0, "no frame of it decodes", error, errorSize);
    }
    CFFmpeg_closeRendition(&work);
    return result;
}
