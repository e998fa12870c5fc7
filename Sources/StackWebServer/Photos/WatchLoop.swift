import Glibc

/// The watcher thread's state and loop: the inotify descriptor, the watched folders, the timers.
struct WatchLoop {
    let folder: String
    /// A folder watched as a sub-folder of `folder` (guests' photos kept elsewhere).
    let mount: PhotoTree.Mount?
    let timing: FolderWatcher.Timing
    let wake: Int32
    let handle: @Sendable (FolderWatcher.Event) -> FolderWatcher.Followup
    /// While the folder is watched: inotify, its watches and the identity the root had.
    private var watches: InotifyWatches?
    /// Folders and files changed since the last scan, and when the first and last change came.
    private var dirty: Set<String> = []
    private var closed: Set<String> = []
    private var firstChange: Double?
    private var lastChange = 0.0
    private var nextRescan: Double?
    private var nextRootCheck = 0.0
    private var nextSettle: Double?
    /// Whether the last event left work to go on with.
    private var more = false
    /// Whether `.gone` was reported and the folder has not come back since.
    private var goneReported = false

    init(
        folder: String, mount: PhotoTree.Mount?, timing: FolderWatcher.Timing, wake: Int32,
        handle: @escaping @Sendable (FolderWatcher.Event) -> FolderWatcher.Followup
    ) {
        self.folder = folder
        self.mount = mount
        self.timing = timing
        self.wake = wake
        self.handle = handle
    }

    mutating func run() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        defer { watches?.close() }
        while true {
            let now = FolderWatcher.monotonicSeconds()
            if now >= nextRootCheck { checkRoot(now: now) }
            if let first = firstChange, now >= min(lastChange + timing.debounce, first + timing.longestDelay) {
                let request = FolderWatcher.Event.changed(folders: dirty, closed: closed)
                (dirty, closed, firstChange) = ([], [], nil)
                report(request, now: now)
            }
            if let due = nextRescan, now >= due {
                nextRescan = timing.rescan.map { now + $0 }
                report(.rescan, now: now)
            }
            if let due = nextSettle, now >= due {
                nextSettle = nil
                report(.settle, now: now)
            }
            if more {
                more = false
                report(.more, now: now)
            }
            var fds = [
                pollfd(fd: watches?.inotify ?? -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, timeout(now: FolderWatcher.monotonicSeconds()))
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0, let inotify = watches?.inotify else { continue }
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            let seen = watches?.apply(buffer[..<count]) ?? InotifyWatches.Seen()
            if seen.rootChanged { nextRootCheck = 0 }
            if seen.overflowed { nextRescan = 0 }
            guard !seen.folders.isEmpty else { continue }
            dirty.formUnion(seen.folders)
            closed.formUnion(seen.closed)
            lastChange = FolderWatcher.monotonicSeconds()
            if firstChange == nil { firstChange = lastChange }
        }
    }

    /// Milliseconds until the next timer is due.
    private func timeout(now: Double) -> Int32 {
        var due = nextRootCheck
        if let first = firstChange { due = min(due, lastChange + timing.debounce, first + timing.longestDelay) }
        if let next = nextRescan { due = min(due, next) }
        if let next = nextSettle { due = min(due, next) }
        if more { due = now }
        return Int32(max(0, (due - now) * 1000).rounded(.up))
    }

    private mutating func report(_ event: FolderWatcher.Event, now: Double) {
        guard watches != nil else { return }
        let followup = handle(event)
        if followup.settle, nextSettle == nil { nextSettle = now + timing.settle }
        more = more || followup.more
    }

    /// Whether the folder is still the one watched; if it is gone, says so once, and while it is
    /// gone, whether it is back.
    private mutating func checkRoot(now: Double) {
        nextRootCheck = now + timing.rootCheck
        let current = InotifyWatches.rootIdentity(folder)
        if let watches, current == watches.rootIdentity { return }
        if watches != nil || (current == nil && !goneReported) {
            watches?.close()
            watches = nil
            (dirty, closed, firstChange, nextRescan, nextSettle, more) = ([], [], nil, nil, nil, false)
            _ = handle(.gone)
            goneReported = true
        }
        guard let current,
            let attached = InotifyWatches(folder: folder, mount: mount, identity: current, inotify: timing.inotify)
        else { return }
        goneReported = false
        watches = attached
        nextRescan = timing.rescan.map { now + $0 }
        report(.attached, now: now)
    }
}
