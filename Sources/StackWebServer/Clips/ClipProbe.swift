import CFFmpeg

/// What the server knows of a clip from its container's header, without decoding a frame: read
/// by `CFFmpeg_probe` (two demuxers, the `file` protocol, a time limit). Its location is never
/// read.
struct ClipProbe: Sendable, Equatable {
    /// The demuxer that read it.
    enum Container: String, Sendable {
        /// MP4, MOV, M4V (ISO base media and QuickTime).
        case mov
        /// Matroska and WebM.
        case matroska
    }

    /// Seconds; 0 when the container does not say.
    var duration: Double
    /// Size as shown: the stored frame turned by its rotation and stretched by its pixel aspect.
    var width: Int
    var height: Int
    /// Clockwise degrees a player turns the stored frame: 0, 90, 180 or 270.
    var rotation: Int
    /// A stored pixel's width over its height (1: square pixels).
    var pixelAspect: Double
    var container: Container
    /// The video codec's short name: "h264", "hevc", "vp8", "vp9", "av1".
    var videoCodec: String
    /// The first audio stream's codec, `nil` without sound.
    var audioCodec: String?
    /// Whether a player can start before the whole file is read (`moov` before `mdat`).
    var faststart: Bool
    /// When it was recorded, "YYYY-MM-DD HH:MM:SS" UTC, from the container's creation time; `nil`
    /// when the file does not say.
    var taken: String?

    /// Why a clip is not shown.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// Not a clip we show (another container, no video, a codec outside the allowed ones).
        case refused(String)
        /// The time limit passed first.
        case timedOut(String)
        /// Truncated, corrupt, undecodable.
        case broken(String)

        var description: String {
            switch self {
            case .refused(let reason), .timedOut(let reason), .broken(let reason): reason
            }
        }

        /// The failure a shim's status and message make; `nil` for success.
        init?(_ status: CFFmpeg_Status, message: [CChar]) {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            switch status {
            case CFFmpeg_ok: return nil
            case CFFmpeg_refused: self = .refused(text)
            case CFFmpeg_timedOut: self = .timedOut(text)
            default: self = .broken(text)
            }
        }
    }

    /// Codecs every current browser plays in each container (MP4 served as `video/mp4`, Matroska
    /// as `video/webm`); HEVC plays in some browsers only, so it is converted.
    static let playableVideo: [Container: Set<String>] = [
        .mov: ["h264", "vp9", "av1"], .matroska: ["vp8", "vp9", "av1"],
    ]
    static let playableAudio: [Container: Set<String>] = [
        .mov: ["aac", "mp3", "opus"], .matroska: ["opus", "vorbis"],
    ]

    /// Whether browsers play the file as it is: a playable codec pair in its container, and a
    /// faststart file (else a browser reads to the end before the first frame).
    var playsAsIs: Bool {
        faststart && Self.playableVideo[container, default: []].contains(videoCodec)
            && audioCodec.map { Self.playableAudio[container, default: []].contains($0) } ?? true
    }

    /// The `Content-Type` the file is served with.
    var contentType: String { container == .matroska ? "video/webm" : "video/mp4" }

    /// Seconds a probe may take: a header is read in milliseconds, so this only ends a demuxer
    /// made to loop (or a disk that hangs).
    static let defaultTimeLimit = 5.0

    /// Reads the clip at `path` (a path the caller opened safely, e.g. `/proc/self/fd/N`).
    /// The caller's thread does the work: never libmicrohttpd's.
    static func read(path: String, timeLimit: Double = defaultTimeLimit) -> Result<ClipProbe, Failure> {
        ClipLibraries.start()
        var info = CFFmpeg_ClipInfo()
        var message = [CChar](repeating: 0, count: 256)
        let status = CFFmpeg_probe(path, timeLimit, &info, &message, message.count)
        if let failure = Failure(status, message: message) { return .failure(failure) }
        let container = Self.text(info.container) == "matroska" ? Container.matroska : .mov
        let audio = Self.text(info.audioCodec)
        return .success(
            ClipProbe(
                duration: info.duration, width: Int(info.width), height: Int(info.height),
                rotation: Int(info.rotation), pixelAspect: info.pixelAspect, container: container,
                videoCodec: Self.text(info.videoCodec),
                audioCodec: audio.isEmpty ? nil : audio, faststart: info.faststart != 0,
                taken: Self.taken(fromCreationTime: Self.text(info.creationTime))))
    }

    /// "2024-06-01T10:20:30.000000Z" as "2024-06-01 10:20:30"; `nil` for anything else, and for
    /// QuickTime's zero date (1904-01-01), which cameras write when they do not know.
    static func taken(fromCreationTime text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ") else { return nil }
        let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        let separators: [(Int, UInt8)] = [(4, 0x2D), (7, 0x2D), (13, 0x3A), (16, 0x3A)]
        guard digits.allSatisfy({ (0x30...0x39).contains(bytes[$0]) }),
            separators.allSatisfy({ bytes[$0.0] == $0.1 }), !text.hasPrefix("1904-01-01")
        else { return nil }
        return String(decoding: bytes[0..<10], as: UTF8.self) + " " + String(decoding: bytes[11..<19], as: UTF8.self)
    }

    private static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
