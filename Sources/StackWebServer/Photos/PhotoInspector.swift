import CVips
import Glibc

/// Reads what the library needs of a new or changed file, and checks that it decodes whole.
///
/// Runs on the watcher's thread and its helpers (or at start-up), never on an HTTP thread, once per
/// file identity: a half-copied or truncated file must never become a card whose image is grey or
/// broken. Safe to run on several threads at once (`inspect(_:maxPixels:workers:)`).
enum PhotoInspector {
    struct Header: Sendable, Equatable {
        var width: Int
        var height: Int
        /// EXIF's "2024:07:14 10:22:33" as "2024-07-14 10:22:33"; nil when unknown.
        var taken: String?
        /// EXIF orientation, 1 (upright) to 8.
        var orientation = 1
    }

    /// Photos larger than this many pixels are not shown (`--max-pixels`): about what this kind of
    /// machine (2 cores) converts in a second when the whole photo must be decoded — a 48 MP PNG to
    /// a 300-px variant took 1.2–1.35 s, a 36 MP one 0.5–0.7 s; a 48 MP JPEG 0.4 s (it shrinks on
    /// load), 1.1 s to 4096 px. 50 MP keeps today's 48 and 50 MP phone photos.
    static let defaultMaxPixels = 50_000_000

    /// The fewest bytes per pixel a file of each format can plausibly hold: deflate packs at most
    /// 1032:1 and a PNG pixel is at least a bit; a JPEG codes every 8×8 block, in a few bits even
    /// when arithmetic-coded. A file far smaller than its declared size is a truncated bomb (a
    /// 633-byte JPEG declaring 50,000 × 50,000), refused before anything decodes it.
    static let fewestPixelsPerByte = ["jpegload": 4096.0, "pngload": 8192.0]

    /// The header of a file that decodes whole, or why it is not shown (one line). A photo over
    /// `maxPixels`, or declaring more pixels than its bytes can hold, is refused from its header
    /// alone, before anything decodes it.
    static func inspect(_ path: String, maxPixels: Int = defaultMaxPixels) -> Result<Header, PhotoProblem> {
        var header = CVipsHeader()
        guard CVips_readHeader(path, &header) == 0 else {
            return .failure(PhotoProblem(reason: "not an image libvips can read"))
        }
        let pixels = Int(header.width) * Int(header.height)
        guard pixels <= maxPixels else {
            return .failure(
                PhotoProblem(reason: "\(header.width)×\(header.height) is more than --max-pixels \(maxPixels)"))
        }
        let loader = withUnsafeBytes(of: header.loader) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var info = stat()
        if let ratio = fewestPixelsPerByte[loader], stat(path, &info) == 0,
            Double(pixels) / ratio > Double(info.st_size)
        {
            return .failure(
                PhotoProblem(
                    reason: "declares \(header.width)×\(header.height) in only \(info.st_size) bytes (truncated?)"))
        }
        var message = [CChar](repeating: 0, count: 256)
        guard CVips_verify(path, loader, &message, message.count) == 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(PhotoProblem(reason: text.isEmpty ? "does not decode whole" : text))
        }
        let taken = withUnsafeBytes(of: header.taken) { Array($0.prefix { $0 != 0 }) }
        return .success(
            Header(
                width: Int(header.width), height: Int(header.height),
                taken: PhotoLibrary.takenDate(taken.map { CChar(bitPattern: $0) }),
                orientation: Int(max(1, header.orientation))))
    }
}

/// Why a file is not shown.
struct PhotoProblem: Error, Sendable, Equatable {
    var reason: String
}
