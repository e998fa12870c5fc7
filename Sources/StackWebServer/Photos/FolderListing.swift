import Glibc

/// One folder's direct contents as the scan needs them: subfolders by name, and image files by name
/// with their identities. Read with `readdir` and `lstat` only: at 20,000 photos Foundation's
/// enumerator (URLs, resource values) cost more than a second of CPU per rescan.
struct FolderListing {
    var subfolders: Set<String> = []
    var images: [String: FileIdentity] = [:]
    /// Names that are not UTF-8, with their other bytes escaped (`\xff`): no page could ask for
    /// them by URL, so they are skipped — and said so, rather than lost in a lossy decoding.
    var undecodable: [String] = []

    /// An empty listing: what a folder that cannot be read shows.
    init() {}

    /// Lists `path`; nil when it cannot be opened (gone, unmounted, no permission).
    /// Symbolic links are neither followed nor listed: the folder is the boundary of what is
    /// served, and a link inside it would only show a photo twice.
    init?(path: String) {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        while let item = readdir(directory) {
            guard let name = Self.name(of: item) else {
                undecodable.append(Self.escapedName(of: item))
                continue
            }
            guard name != ".", name != "..", !FolderJunk.skips(name) else { continue }
            var kind = item.pointee.d_type
            let isImage = PhotoLibrary.isImageName(name)
            // Most file systems say the type in the entry; others (some NAS shares) need a stat.
            guard kind == UInt8(DT_DIR) || kind == UInt8(DT_UNKNOWN) || (kind == UInt8(DT_REG) && isImage) else {
                continue
            }
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0 else { continue }
            if kind == UInt8(DT_UNKNOWN) {
                kind =
                    (info.st_mode & S_IFMT) == S_IFDIR
                    ? UInt8(DT_DIR) : (info.st_mode & S_IFMT) == S_IFREG ? UInt8(DT_REG) : 0
            }
            if kind == UInt8(DT_DIR) {
                subfolders.insert(name)
            } else if kind == UInt8(DT_REG), isImage {
                images[name] = FileIdentity(info)
            }
        }
    }
}

extension FolderListing {
    /// The names of `path`'s subfolders (not junk, not links): what the watcher must watch too.
    static func subfolders(of path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let item = readdir(directory) {
            let kind = item.pointee.d_type
            guard kind == UInt8(DT_DIR) || kind == UInt8(DT_UNKNOWN) else { continue }
            guard let name = name(of: item), name != ".", name != "..", !FolderJunk.skips(name) else { continue }
            var info = stat()
            if kind == UInt8(DT_UNKNOWN), lstat(path + "/" + name, &info) != 0 || (info.st_mode & S_IFMT) != S_IFDIR {
                continue
            }
            names.append(name)
        }
        return names
    }

    /// The names of everything in `path` but `.` and `..` (names that are not UTF-8 left out).
    static func names(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let item = readdir(directory) {
            guard let name = name(of: item), name != ".", name != ".." else { continue }
            names.append(name)
        }
        return names
    }

    /// The entry's name, or `nil` when it is not UTF-8 (a lossy decoding would name another file).
    private static func name(of item: UnsafeMutablePointer<dirent>) -> String? {
        withUnsafeBytes(of: &item.pointee.d_name) { String(validating: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The entry's name with each byte that is not part of UTF-8 written `\xNN`.
    private static func escapedName(of item: UnsafeMutablePointer<dirent>) -> String {
        let bytes = withUnsafeBytes(of: &item.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
        var out = ""
        var index = 0
        while index < bytes.count {
            // The shortest run from here that is one whole scalar, else this byte alone, escaped.
            let length = (1...4).first {
                index + $0 <= bytes.count && String(validating: bytes[index..<index + $0], as: UTF8.self) != nil
            }
            if let length {
                out += String(decoding: bytes[index..<index + length], as: UTF8.self)
                index += length
            } else {
                out += "\\x" + (bytes[index] < 0x10 ? "0" : "") + String(bytes[index], radix: 16)
                index += 1
            }
        }
        return out
    }
}
