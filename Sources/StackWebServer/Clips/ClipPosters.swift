import CFFmpeg
import CVips
import Foundation
import Glibc

/// A clip's poster: its first displayable frame, decoded by FFmpeg, handed to libvips from memory
/// and written once, whole and upright, into the variant cache. Every width a page asks for is then
/// a variant of that file, made, cached and pruned by `PhotoVariants` as a photo's are.
struct ClipPosters: Sendable {
    /// The full-size poster is the source of every variant: kept close to the frame.
    static let quality: Int32 = 92
    /// Seconds the first frame may take to find and decode (an 8K HEVC key frame takes a fraction).
    static let timeLimit = 10.0
    /// Packets of the video stream read at most before a frame decodes.
    static let maxPackets = 600

    let variants: PhotoVariants

    /// Where the full-size poster of the clip that had `identity` lives, made or not.
    func posterPath(identity: FileIdentity) -> String {
        "\(variants.cacheFolder)/\(PhotoVariants.key(of: identity))-poster.jpg"
    }

    /// Makes the full-size poster of the clip at `clip` (a path the caller opened safely) unless it
    /// is there, on the caller's thread (never libmicrohttpd's), and returns its path.
    func makePoster(of clip: String, identity: FileIdentity, probe: ClipProbe) -> Result<String, ClipProbe.Failure> {
        let path = posterPath(identity: identity)
        if FileManager.default.fileExists(atPath: path) {
            variants.cache.used(URL(fileURLWithPath: path).lastPathComponent)
            return .success(path)
        }
        ClipLibraries.start()
        CVipsSetup.start()
        var picture = CFFmpeg_Picture()
        var message = [CChar](repeating: 0, count: 256)
        let status = CFFmpeg_firstFrame(clip, Self.timeLimit, Int32(Self.maxPackets), &picture, &message, message.count)
        if let failure = ClipProbe.Failure(status, message: message) { return .failure(failure) }
        defer { CFFmpeg_freePicture(&picture) }
        // Written beside and renamed into place, so a reader never sees half a file.
        let temporary = "\(path).tmp-\(UUID().uuidString).jpg"
        let written = CVips_rgbToFile(
            picture.pixels, picture.width, picture.height, Int32(probe.rotation), probe.pixelAspect, temporary,
            Self.quality, &message, message.count)
        var info = stat()
        guard written == 0, stat(temporary, &info) == 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.broken("cannot write its poster: \(text)"))
        }
        variants.cache.added(URL(fileURLWithPath: path).lastPathComponent, bytes: Int64(info.st_blocks) * 512)
        return .success(path)
    }

    /// The poster's variant whose long side serves `box`, made unless cached; reports on a
    /// conversion thread, or on the caller's when nothing needs doing.
    func variant(
        of clip: String, identity: FileIdentity, probe: ClipProbe, box: (width: Int, height: Int),
        format: PhotoVariants.Format,
        completion: @escaping @Sendable (Result<PhotoVariants.Variant, PhotoVariants.Failure>) -> Void
    ) {
        let poster: String
        switch makePoster(of: clip, identity: identity, probe: probe) {
        case .success(let path): poster = path
        case .failure(let failure): return completion(.failure(.failed(failure.description)))
        }
        let longSide = PhotoVariants.longSide(box: box, photoWidth: probe.width, photoHeight: probe.height)
        guard let variant = variants.variant(of: poster, longSide: longSide, format: format) else {
            return completion(.failure(.failed("its poster went missing")))
        }
        variants.make(variant, from: poster, completion: completion)
    }
}
