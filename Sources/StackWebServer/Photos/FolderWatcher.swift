import Dispatch
import Foundation
import Glibc

/// Watches a folder and every folder below it with inotify, and calls `onChange` once things have
/// been quiet for a moment: a copy of 200 photos is one rescan, not 200.
///
/// One dedicated thread blocks in `poll` on the inotify descriptor, so an unchanging folder costs
/// nothing. `onChange` runs on that thread; events arriving meanwhile wait in the kernel's queue.
final class FolderWatcher: Sendable {
    /// Quiet time after the last event before `onChange` runs.
    static let debounce = 0.3
    /// A folder that never stops changing (a long copy) is still rescanned this often.
    static let longestDelay = 1.0
    static let mask: UInt32 = UInt32(
        IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE_SELF)

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let inotify: Int32
    /// A pipe whose write end `stop` writes to: it wakes the thread out of `poll`.
    private let wake: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)

    init(folder: String, onChange: @escaping @Sendable () -> Void) throws {
        let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL.path
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { throw Failure(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(inotify)
            throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        // Not inherited by child processes (Glibc's Swift module does not offer pipe2).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wake = (ends[0], ends[1])
        var watches = Watches(inotify: inotify)
        guard watches.addTree(root) else {
            close(inotify)
            close(ends[0])
            close(ends[1])
            throw Failure(description: "cannot watch \(root): \(String(cString: strerror(errno)))")
        }
        let thread = Thread { [inotify, wake, finished, watches] in
            // SIGTERM and SIGINT are for main's dispatch source, which reads them from a signalfd while
            // their disposition is SIG_IGN: a thread that left them unblocked would take one and drop it.
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_BLOCK, &all, nil)
            Self.run(inotify: inotify, wake: wake.read, watches: watches, onChange: onChange)
            close(inotify)
            close(wake.read)
            finished.signal()
        }
        thread.name = "stackweb.watcher"
        thread.start()
    }

    /// Ends the thread and waits for it (an `onChange` in progress finishes first).
    func stop() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        finished.wait()
        close(wake.write)
    }

    private static func run(inotify: Int32, wake: Int32, watches: Watches, onChange: () -> Void) {
        var watches = watches
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        // Monotonic seconds of the first and the last event not yet reported.
        var first: Double?
        var last = 0.0
        while true {
            var fds = [
                pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            var timeout: Int32 = -1
            if let first {
                let due = min(last + debounce, first + longestDelay)
                timeout = Int32(max(0, (due - monotonicSeconds()) * 1000).rounded(.up))
            }
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if ready == 0 {
                first = nil
                onChange()
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            watches.apply(buffer[..<count])
            last = monotonicSeconds()
            if first == nil { first = last }
        }
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// The watcher thread's own table of watched folders, by watch descriptor.
private struct Watches {
    let inotify: Int32
    var folders: [Int32: String] = [:]

    /// Watches `folder` and every folder below it (hidden ones are skipped, as the scan skips them).
    /// A folder that arrives with files already in it (moved in whole) needs no more: the rescan
    /// that follows finds them.
    mutating func addTree(_ folder: String) -> Bool {
        guard add(folder) else { return false }
        let url = URL(fileURLWithPath: folder)
        guard
            let walker = FileManager.default.enumerator(
                at: url, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else { return true }
        for case let sub as URL in walker
        where (try? sub.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
            _ = add(sub.path)
        }
        return true
    }

    private mutating func add(_ folder: String) -> Bool {
        let descriptor = inotify_add_watch(inotify, folder, FolderWatcher.mask)
        guard descriptor >= 0 else { return false }
        folders[descriptor] = folder
        return true
    }

    /// Reads a batch of `struct inotify_event`s (variable length: a 16-byte head, then `len` bytes of
    /// name) and follows folders coming and going.
    mutating func apply(_ bytes: ArraySlice<UInt8>) {
        var offset = bytes.startIndex
        while bytes.endIndex - offset >= 16 {
            let (descriptor, mask, length) = bytes.withUnsafeBytes { raw in
                let base = offset - bytes.startIndex
                return (
                    raw.loadUnaligned(fromByteOffset: base, as: Int32.self),
                    raw.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self),
                    Int(raw.loadUnaligned(fromByteOffset: base + 12, as: UInt32.self))
                )
            }
            let nameBytes = bytes[(offset + 16)..<min(offset + 16 + length, bytes.endIndex)].prefix { $0 != 0 }
            offset += 16 + length
            if mask & UInt32(IN_IGNORED) != 0 {
                folders[descriptor] = nil
            } else if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0,
                let parent = folders[descriptor], let name = String(validating: nameBytes, as: UTF8.self),
                !name.hasPrefix(".")
            {
                _ = addTree(parent + "/" + name)
            }
        }
    }
}
