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
        /// Device, inode, size and modification time: a file replaced in place gets a new one.
        var identity: FileIdentity
        /// When the photo was taken, "YYYY-MM-DD HH:MM:SS" local time, from its EXIF; nil when unknown.
        var taken: String?
        /// What `--order date` sorts by: when taken, else when last written (local time). Stored, as
        /// formatting a time for each comparison would make a sort of 20,000 photos slow.
        let dateKey: String

        init(
            photo: Photo, path: String, relative: String, size: Int64, modified: timespec, taken: String?,
            device: UInt64 = 0, inode: UInt64 = 0
        ) {
            self.init(
                photo: photo, path: path, relative: relative,
                identity: FileIdentity(device: device, inode: inode, size: size, modified: modified), taken: taken)
        }

        init(photo: Photo, path: String, relative: String, identity: FileIdentity, taken: String?) {
            self.photo = photo
            self.path = path
            self.relative = relative
            self.identity = identity
            self.taken = taken
            dateKey = taken ?? Self.localTime(identity.seconds)
        }

        var size: Int64 { identity.size }
        var modified: timespec { identity.modified }

        /// Short hash of size and modification time: part of the photo's URL, so that viewers fetch
        /// a replaced file again instead of drawing the cached old one.
        var version: String {
            String(FNV1a.hex("\(size)-\(modified.tv_sec).\(modified.tv_nsec)".utf8).prefix(8))
        }

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

        /// Whether `a` comes before `b` in this order.
        func precedes(_ a: Entry, _ b: Entry) -> Bool {
            switch self {
            case .name: a.relative < b.relative
            // Photos taken in the same second stay in name order.
            case .date: (a.dateKey, a.relative) < (b.dateKey, b.relative)
            }
        }
    }

    /// File endings read as images, with the type they are served as; everything else is ignored.
    static let contentTypes: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif",
        "heic": "image/heic", "heif": "image/heif", "avif": "image/avif",
    ]
    static var imageExtensions: Set<String> { Set(contentTypes.keys) }

    /// Whether a file's name ends in an image extension (case-insensitively).
    static func isImageName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return contentTypes[name[name.index(after: dot)...].lowercased()] != nil
    }

    let entries: [Entry]
    private let byID: [String: Entry]

    init(entries: [Entry]) {
        self.entries = entries
        self.byID = Dictionary(entries.map { ($0.photo.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var photos: [Photo] { entries.map(\.photo) }

    func entry(id: String) -> Entry? { byID[id] }

    /// Scans `folder` recursively, in `order`, keeping only files that decode whole. A file that
    /// `previous` already read, unchanged since, is not read again.
    static func scan(folder: String, order: Order = .name, ids: PhotoIDs, reusing previous: PhotoLibrary? = nil)
        throws -> PhotoLibrary
    {
        guard var scanner = PhotoScanner(folder: folder, order: order, ids: ids, reusing: previous, log: { _ in })
        else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: folder])
        }
        // At start-up nothing is half-written that was not already: take every file as it is.
        _ = scanner.scanAll(now: .infinity)
        return scanner.library
    }

    /// This library with `changed` (new, or replaced in place: same id) and without `removed`,
    /// in `order`. A merge: O(entries + changed log changed), no re-sort of what did not change.
    func updating(changed: [Entry], removed: Set<String>, order: Order) -> PhotoLibrary {
        let gone = removed.union(changed.map(\.photo.id))
        let kept = gone.isEmpty ? entries : entries.filter { !gone.contains($0.photo.id) }
        let incoming = changed.sorted(by: order.precedes)
        var merged: [Entry] = []
        merged.reserveCapacity(kept.count + incoming.count)
        var next = incoming.startIndex
        for entry in kept {
            while next < incoming.endIndex, order.precedes(incoming[next], entry) {
                merged.append(incoming[next])
                next += 1
            }
            merged.append(entry)
        }
        merged += incoming[next...]
        return PhotoLibrary(entries: merged)
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
