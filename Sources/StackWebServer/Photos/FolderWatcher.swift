import Dispatch
import Foundation
import Glibc

/// Follows a photo folder as it lives on a USB stick or a NAS share: inotify where it works, a
/// periodic rescan for changes inotify cannot see (made on another machine of a network share), and
/// a check of the folder itself every `rootCheck` seconds, so that a folder unmounted, deleted,
/// moved away or swapped behind a symbolic link is noticed, and picked up again when it is back.
///
/// One dedicated thread blocks in `poll` on the inotify descriptor with a timeout for the next
/// timer, so an unchanging folder costs a `stat` every few seconds and a stat-only rescan every
/// `rescan` seconds. `handle` runs on that thread and answers what it left to do: files that wait to
/// be complete (then a `.settle` follows `settle` seconds later), or more work now (then `.more`
/// follows at once, after a look at the wake-up pipe, so that `stop` never waits for more than
/// one batch of it).
final class FolderWatcher: Sendable {
    enum Event: Equatable, Sendable {
        /// The folder is there and watched (at start, and each time it comes back): scan it all.
        case attached
        /// The folder went away (unmounted, deleted, moved, its link swapped).
        case gone
        /// Something changed in these folders (paths below the root; "" is the root). `closed`:
        /// files seen closed after writing or renamed into place, so complete now.
        case changed(folders: Set<String>, closed: Set<String>)
        /// Time for the periodic rescan.
        case rescan
        /// Files seen incomplete may be complete now.
        case settle
        /// Go on with the work the last event left (files to read).
        case more
    }

    /// What a handled event left to do.
    struct Followup: Equatable, Sendable {
        /// Files wait to be complete: look again in `settle` seconds.
        var settle = false
        /// Work remains: send `.more` as soon as nothing else is due.
        var more = false
    }

    struct Timing: Sendable {
        /// Quiet time after the last event before a scan: a copy of 200 photos is a few scans, not 200.
        var debounce = 0.3
        /// A folder that never stops changing (a long copy) is still scanned this often.
        var longestDelay = 1.0
        /// Seconds between stat-only rescans of everything; nil: never.
        var rescan: Double? = 300
        /// Seconds between checks that the folder is still the one watched, or is back.
        var rootCheck = 2.0
        /// Seconds before a look at files that were incomplete.
        var settle = 1.0
        /// Whether to use inotify at all: false follows the folder by rescans alone (as when the
        /// kernel's watch limit is reached), which is also how the tests stand in for a NAS share.
        var inotify = true
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A pipe whose write end `stop` writes to: it wakes the thread out of `poll`.
    private let wake: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)

    /// Follows `folder`, and `mount` as its sub-folder (guests' photos kept elsewhere).
    init(
        folder: String, mount: PhotoTree.Mount? = nil, timing: Timing = Timing(),
        handle: @escaping @Sendable (Event) -> Followup
    ) throws {
        // Fails early (no inotify instances left) rather than on the thread.
        let probe = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard probe >= 0 else { throw Failure(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        close(probe)
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        // Not inherited by child processes (Glibc's Swift module does not offer pipe2).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wake = (ends[0], ends[1])
        let thread = Thread { [wake, finished] in
            // No signal is for this thread (main waits for SIGTERM and SIGINT with sigwait).
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_BLOCK, &all, nil)
            var loop = WatchLoop(folder: folder, mount: mount, timing: timing, wake: wake.read, handle: handle)
            loop.run()
            close(wake.read)
            finished.signal()
        }
        thread.name = "stackweb.watcher"
        thread.start()
    }

    /// Ends the thread and waits for it (a `handle` in progress finishes first).
    func stop() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        finished.wait()
        close(wake.write)
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
