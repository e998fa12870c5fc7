import CVips
import Foundation
import StackModel

/// The photos a server shows: every image file below one folder, with stable ids.
struct PhotoLibrary: Sendable {
    struct Entry: Sendable {
        var photo: Photo
        /// Absolute path of the file.
        var path: String
    }

    /// File endings read as images, with the type they are served as; everything else is ignored.
    static let contentTypes: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif",
        "heic": "image/heic", "heif": "image/heif", "avif": "image/avif",
    ]
    static var imageExtensions: Set<String> { Set(contentTypes.keys) }

    let entries: [Entry]
    private let byID: [String: Entry]

    init(entries: [Entry]) {
        self.entries = entries
        self.byID = Dictionary(entries.map { ($0.photo.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var photos: [Photo] { entries.map(\.photo) }

    func entry(id: String) -> Entry? { byID[id] }

    /// Scans `folder` recursively, ordered by relative path. Files libvips cannot read are skipped.
    static func scan(folder: String) throws -> PhotoLibrary {
        let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: folder])
        }
        var found: [(relative: String, path: String)] = []
        for case let url as URL in walker where imageExtensions.contains(url.pathExtension.lowercased()) {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            found.append((String(path.dropFirst(root.path.count + 1)), path))
        }
        found.sort { $0.relative < $1.relative }
        return PhotoLibrary(entries: found.compactMap { entry(relative: $0.relative, path: $0.path) })
    }

    /// Ids come from the path relative to the folder, so saved state still matches after a restart.
    private static func entry(relative: String, path: String) -> Entry? {
        var width: Int32 = 0
        var height: Int32 = 0
        guard CVips_uprightSize(path, &width, &height) == 0 else { return nil }
        let id = "p" + FNV1a.hex(relative.utf8).prefix(12)
        return Entry(photo: Photo(id: id, width: Int(width), height: Int(height)), path: path)
    }
}
