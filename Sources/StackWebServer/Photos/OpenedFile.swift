import Glibc

/// A file opened for sending: its descriptor and size. Whoever sends it takes the descriptor
/// (`take()`); one never taken is closed when this goes away, so no path leaks a descriptor.
final class OpenedFile: @unchecked Sendable {
    let size: Int64
    private var descriptor: Int32?
    /// The descriptor's number while it is still here (for `/proc/self/fd/N`).
    let descriptorNumber: Int32
    private let lock = Locked(())

    init(descriptor: Int32, size: Int64) {
        self.descriptor = descriptor
        self.descriptorNumber = descriptor
        self.size = size
    }

    /// The descriptor, handed over once; `nil` after the first call.
    func take() -> Int32? {
        lock.withLock { _ in
            defer { descriptor = nil }
            return descriptor
        }
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// Opens `relative` below `root` the way a hostile folder cannot abuse: no symbolic link is
    /// followed anywhere below the root (each component is opened with `O_NOFOLLOW` from the one
    /// before), a FIFO or device does not block the open (`O_NONBLOCK`), and only a regular file is
    /// kept. `nil` for anything else. The root itself may be a link (a mount point an operator made).
    static func open(_ relative: String, beneath root: String) -> OpenedFile? {
        var current = Glibc.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { return nil }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard !part.isEmpty, part != ".", part != ".." else {
                close(current)
                return nil
            }
            let flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (isLast ? O_NONBLOCK : O_DIRECTORY)
            let next = openat(current, String(part), flags)
            close(current)
            guard next >= 0 else { return nil }
            current = next
        }
        return regular(current)
    }

    /// Opens a file the server made itself (a cached variant): not through a link, never blocking,
    /// a regular file only.
    static func open(path: String) -> OpenedFile? {
        let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        return regular(descriptor)
    }

    private static func regular(_ descriptor: Int32) -> OpenedFile? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        return OpenedFile(descriptor: descriptor, size: Int64(info.st_size))
    }
}
