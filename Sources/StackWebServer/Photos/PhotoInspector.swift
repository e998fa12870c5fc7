import CVips

/// Reads what the library needs of a new or changed file, and checks that it decodes whole.
///
/// Runs on the watcher's thread (or at start-up), never on an HTTP thread, once per file identity:
/// a half-copied or truncated file must never become a card whose image is grey or broken.
enum PhotoInspector {
    struct Header: Sendable, Equatable {
        var width: Int
        var height: Int
        /// EXIF's "2024:07:14 10:22:33" as "2024-07-14 10:22:33"; nil when unknown.
        var taken: String?
        /// EXIF orientation, 1 (upright) to 8.
        var orientation = 1
    }

    /// The header of a file that decodes whole, or why it is not shown (one line).
    static func inspect(_ path: String) -> Result<Header, PhotoProblem> {
        var header = CVipsHeader()
        guard CVips_readHeader(path, &header) == 0 else {
            return .failure(PhotoProblem(reason: "not an image libvips can read"))
        }
        var message = [CChar](repeating: 0, count: 256)
        guard CVips_verify(path, &message, message.count) == 0 else {
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
