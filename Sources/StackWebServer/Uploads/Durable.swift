import Glibc

/// Puts a file in place so that a crash or power cut at any moment leaves it whole or absent.
enum Durable {
    /// Flushes `temporary`'s bytes, gives it its lasting name (refusing to replace a file there),
    /// then flushes the folder that names it and that folder's parent (which names a folder made
    /// for it). Returns why not, or nil.
    static func move(_ temporary: String, to path: String) -> String? {
        if let problem = flush(temporary) { return problem }
        if let problem = name(temporary, path) { return problem }
        let folder = parent(path)
        return flush(folder) ?? flush(parent(folder))
    }

    /// Gives `temporary` the name `path` without replacing a file there: link and unlink, or on a
    /// file system without hard links (FAT on a USB stick, some SMB shares) a rename after a look —
    /// the names are unique (the time to the millisecond and the content's hash), so nothing else
    /// takes the name between the two.
    private static func name(_ temporary: String, _ path: String) -> String? {
        if link(temporary, path) == 0 {
            unlink(temporary)
            return nil
        }
        var failure = errno
        if [EPERM, ENOTSUP, EOPNOTSUPP, ENOSYS].contains(failure) {
            if access(path, F_OK) == 0 { return "cannot name \(path): a file has that name" }
            if rename(temporary, path) == 0 { return nil }
            failure = errno
        }
        return "cannot name \(path): \(String(cString: strerror(failure)))"
    }

    /// fsync of a file or folder by path.
    static func flush(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "cannot open \(path): \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        return fsync(descriptor) == 0 ? nil : "cannot flush \(path): \(String(cString: strerror(errno)))"
    }

    private static func parent(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }
}
