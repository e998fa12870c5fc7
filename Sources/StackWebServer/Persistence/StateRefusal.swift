import Glibc

/// Why `--state` names something the server must not use: not a regular file, another program's
/// database, or one whose schema holds what we did not make. A configuration error, not damage:
/// the start stops (exit status 78, `EX_CONFIG`, which the systemd unit does not restart) and the
/// path is left as it was, for the operator to fix the option or the file.
struct StateRefusal: Error, Equatable, CustomStringConvertible {
    var path: String
    var reason: String

    var description: String { "cannot keep the state in \(path): \(reason)" }

    /// The first bytes of the file at `path` (at most `count`), or nil when there is nothing there
    /// yet. Checks what the path leads to before anyone opens it for real: a FIFO would block an
    /// open or a read until some writer came, a directory would fail every read. The file is
    /// opened without blocking and checked again through the descriptor, so what is read is what
    /// was checked. SQLite's own files beside it (`-wal`, `-shm`, `-journal`) must be regular too.
    static func head(of path: String, count: Int = 16) throws(StateRefusal) -> [UInt8]? {
        for companion in ["-wal", "-shm", "-journal"] { try checkType(of: path + companion) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            try checkType(of: path)
            throw StateRefusal(path: path, reason: "cannot open it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw StateRefusal(path: path, reason: "cannot read it: \(String(cString: strerror(errno)))")
        }
        if let kind = kind(of: status.st_mode) {
            throw StateRefusal(path: path, reason: "it is not a regular file but \(kind)")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
        guard read >= 0 else {
            throw StateRefusal(path: path, reason: "cannot read it: \(String(cString: strerror(errno)))")
        }
        return Array(bytes.prefix(read))
    }

    /// Refuses a `path` that exists (through a symbolic link too) and is not a regular file.
    private static func checkType(of path: String) throws(StateRefusal) {
        var status = stat()
        guard stat(path, &status) == 0, let kind = kind(of: status.st_mode) else { return }
        throw StateRefusal(path: path, reason: "it is not a regular file but \(kind)")
    }

    /// What a file of `mode` is, in words, unless it is a regular file.
    private static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "not a file"
        }
    }
}
