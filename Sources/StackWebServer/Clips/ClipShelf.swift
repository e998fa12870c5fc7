import Foundation

/// The clips below the photo folder, by id: what `GET /clips/ID` serves while clips are not yet
/// cards of the library. Listed once, off libmicrohttpd's thread; a clip added later is found at the
/// next start. Ids are the photos' (`PhotoIDs`): an HMAC of the path, not to be guessed.
struct ClipShelf: Sendable {
    /// The file names taken for clips (lower-cased).
    static let extensions: Set<String> = ["mp4", "mov", "m4v", "webm"]
    /// Entries of the folder looked at most: a start never walks without end.
    static let maxEntries = 200_000

    let root: String
    private let relatives: [String: String]

    /// An empty shelf: what the server serves before the folder is listed.
    init(root: String = "") {
        self.root = root
        relatives = [:]
    }

    /// The clips below `root`, named by `ids`. Links are never followed (`OpenedFile` refuses
    /// them when a clip is opened, too).
    init(root: String, ids: PhotoIDs) {
        self.root = root
        var found: [String: String] = [:]
        if let walk = FileManager.default.enumerator(atPath: root) {
            for case let relative as String in walk.prefix(Self.maxEntries) where Self.isClipName(relative) {
                found[ids.id(of: relative)] = relative
            }
        }
        relatives = found
    }

    static func isClipName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), !name[name.index(after: dot)...].contains("/") else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The path below the root of the clip `id` names.
    func relative(id: String) -> String? { relatives[id] }

    var count: Int { relatives.count }
}
