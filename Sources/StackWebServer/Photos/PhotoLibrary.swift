import CVips
import Foundation
import Glibc
import StackModel

/// The photos a server shows: every image file below one folder, with stable ids.
struct PhotoLibrary: Sendable {
    struct Entry: Sendable, Equatable {
        var photo: Photo
        /// Absolute path of the file.
        var path: String
        /// Path below the library's folder: the id's source and the caption's name.
        var relative: String
        /// The file's size and modification time: a file replaced in place gets new ones.
        var size: Int64
        var modified: timespec
        /// When the photo was taken, "YYYY-MM-DD HH:MM:SS" local time, from its EXIF; nil when unknown.
        var taken: String?

        /// Short hash of size and modification time: part of the photo's URL, so that viewers fetch
        /// a replaced file again instead of drawing the cached old one.
        var version: String {
            String(FNV1a.hex("\(size)-\(modified.tv_sec).\(modified.tv_nsec)".utf8).prefix(8))
        }

        /// What `--order date` sorts by: when taken, else when last written (local time).
        var dateKey: String { taken ?? Self.localTime(modified.tv_sec) }

        /// Whether the file on disk is still the one this entry describes.
        func describes(size: Int64, modified: timespec) -> Bool {
            self.size == size && self.modified.tv_sec == modified.tv_sec && self.modified.tv_nsec == modified.tv_nsec
        }

        static func == (a: Entry, b: Entry) -> Bool {
            a.photo == b.photo && a.path == b.path && a.taken == b.taken
                && a.describes(size: b.size, modified: b.modified)
        }

        static func localTime(_ seconds: Int) -> String {
            var time = seconds
            var parts = tm()
            localtime_r(&time, &parts)
            return String(
                format: "%04d-%02d-%02d %02d:%02d:%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                parts.tm_hour, parts.tm_min, parts.tm_sec)
        }
    }

    /// How the library orders its photos, which is the order of a new room's stack.
    enum Order: String, Sendable, CaseIterable {
        /// By path below the folder.
        case name
        /// By when taken (EXIF DateTimeOriginal, else the file's modification time), then by path.
        case date
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

    /// Scans `folder` recursively, in `order`. Files libvips cannot read are skipped. A file that
    /// `previous` already read, unchanged since, is not read again: a rescan after one new photo
    /// costs a directory walk, not a header read per photo.
    static func scan(folder: String, order: Order = .name, reusing previous: PhotoLibrary? = nil) throws
        -> PhotoLibrary
    {
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
        var entries = found.compactMap { file in
            entry(relative: file.relative, path: file.path, previous: previous?.entry(id: id(of: file.relative)))
        }
        if order == .date {
            // Stable, so photos taken in the same second stay in name order.
            entries = entries.enumerated().sorted {
                ($0.element.dateKey, $0.offset) < ($1.element.dateKey, $1.offset)
            }.map(\.element)
        }
        return PhotoLibrary(entries: entries)
    }

    /// Ids come from the path relative to the folder, so saved state still matches after a restart.
    static func id(of relative: String) -> String { "p" + FNV1a.hex(relative.utf8).prefix(12) }

    private static func entry(relative: String, path: String, previous: Entry?) -> Entry? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if let previous, previous.path == path, previous.describes(size: Int64(info.st_size), modified: info.st_mtim) {
            return previous
        }
        var width: Int32 = 0
        var height: Int32 = 0
        var taken = [CChar](repeating: 0, count: 32)
        guard CVips_photoHeader(path, &width, &height, &taken, taken.count) == 0 else { return nil }
        return Entry(
            photo: Photo(id: id(of: relative), width: Int(width), height: Int(height)), path: path,
            relative: relative, size: Int64(info.st_size), modified: info.st_mtim, taken: takenDate(taken))
    }

    /// EXIF's "2024:07:14 10:22:33" as "2024-07-14 10:22:33"; nil when absent or not a date.
    static func takenDate(_ exif: [CChar]) -> String? {
        let text = String(decoding: exif.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let digits = text.utf8.enumerated().allSatisfy { index, byte in
            [4, 7].contains(index)
                ? byte == UInt8(ascii: ":")
                : index == 10
                    ? byte == UInt8(ascii: " ")
                    : [13, 16].contains(index) ? byte == UInt8(ascii: ":") : (48...57).contains(byte)
        }
        // Cameras without a clock write "0000:00:00 00:00:00".
        guard text.utf8.count == 19, digits, !text.hasPrefix("0000") else { return nil }
        var date = Array(text)
        date[4] = "-"
        date[7] = "-"
        return String(date)
    }
}
