import Glibc

/// Puts a file in place so that a crash or power cut at any moment leaves it whole or absent.
enum Durable {
    /// Flushes `temporary`'s bytes, gives it its lasting name (refusing to replace a file there),
    /// then flushes the folder that names it and that folder's parent (which names a folder made
    /// for it). Returns why not, or nil.
    static func move(_ temporary: String, to path: String) -> String? {
        if let problem = flush(temporary) { return problem }
        // link + unlink: unlike rename, link never replaces a file already at `path`.
        guard link(temporary, path) == 0 else { return "cannot name \(path): \(String(cString: strerror(errno)))" }
        unlink(temporary)
        let folder = parent(path)
        return flush(folder) ?? flush(parent(folder))
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
