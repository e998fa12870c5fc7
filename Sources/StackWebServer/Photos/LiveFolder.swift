import Foundation

/// The photo folder followed while the server runs: turns the watcher's events into scans, swaps
/// the shared library and reports each change, and says once when the folder goes away and when it
/// is back.
///
/// A folder that went away (a USB stick unplugged, a share unmounted) or that comes back empty (the
/// bare mount point an unmounted share leaves) is a library that is unavailable, not one whose every
/// photo was deleted: the rooms are told nothing, keep their order, front card and pause, and the
/// library keeps its entries (cached variants can still be served) until the folder is back.
///
/// Everything but `stop` runs on the watcher's thread; the scanner sits behind a lock only so that
/// the compiler can check that.
final class LiveFolder: Sendable {
    let folder: String
    /// A folder read as a sub-folder of `folder` (guests' photos kept elsewhere).
    private let mount: PhotoTree.Mount?
    let library: Locked<PhotoLibrary>
    private let order: PhotoLibrary.Order
    private let scanner: Locked<PhotoScanner?>
    /// The library as it was before the folder went away: its verdicts are reused when it is back.
    private let lastSeen: Locked<PhotoLibrary?>
    private let onChange: @Sendable (LibraryChange, PhotoLibrary) -> Void
    private let log: OperatorLog
    /// Where a skipped photo is said: once each, across every scanner made as the folder comes back.
    private let skipped: @Sendable (String) -> Void
    private let watcher: Locked<FolderWatcher?> = Locked(nil)
    private let index: PhotoIndex?
    /// Whether files found wait to be read; set after each scan.
    private let reading: Locked<Bool>
    /// Whether the folder is there with its photos (false from `.gone` until a return that found
    /// photos), and why not, as `/healthz` says it.
    private let status: ServerStatus
    /// Photos found and not read yet, after each scan.
    private let remaining: Locked<Int>
    /// When the reading under way began (monotonic seconds), for the line that says it is done.
    private let readingSince: Locked<Double?> = Locked(nil)
    /// Whether the folder back empty was logged (once until it holds photos again).
    private let emptyReported = Locked(false)
    /// The image files the last look at a folder coming back listed: it is read once two looks agree.
    private let returning = Locked<Int?>(nil)
    /// Whether the folder gone was logged (once until it is back).
    private let goneReported: Locked<Bool>
    /// Photos with more pixels are skipped (`--max-pixels`).
    private let maxPixels: Int
    /// What each photo is named: the ids `library` holds.
    private let ids: PhotoIDs
    /// Seconds of reading new files per turn of the watcher's loop: between turns it notices `stop`.
    static let inspectionBudget = 0.5

    /// Follows `folder`, whose photos `library` holds now. `onChange` runs after each swap of the
    /// library, with the change and the new library, so a photo it names can already be fetched.
    /// `scanner`: the start-up scan's, whose library `library` holds and whose backlog of files to
    /// read the watcher's thread goes on with; nil: a new one reusing `library`'s verdicts.
    /// `index`: where verdicts are kept across restarts. `status`: told whether the folder is there
    /// and how many photos wait to be read. `mount`: a folder followed as a sub-folder of `folder`.
    init(
        folder: String, mount: PhotoTree.Mount? = nil, order: PhotoLibrary.Order, ids: PhotoIDs,
        library: Locked<PhotoLibrary>,
        scanner started: PhotoScanner? = nil,
        index: PhotoIndex? = nil, reading: Locked<Bool> = Locked(false), status: ServerStatus = ServerStatus(),
        timing: FolderWatcher.Timing,
        maxPixels: Int = PhotoInspector.defaultMaxPixels, log: OperatorLog,
        skipped: (@Sendable (String) -> Void)? = nil,
        onChange: @escaping @Sendable (LibraryChange, PhotoLibrary) -> Void
    ) throws {
        self.folder = folder
        self.mount = mount
        self.order = order
        self.library = library
        self.index = index
        self.reading = reading
        self.status = status
        goneReported = Locked(!status.folderPresent.withLock { $0 })
        remaining = status.remaining
        self.maxPixels = maxPixels
        self.ids = ids
        self.log = log
        let skipped = skipped ?? log.distinctMessages(as: "photo.skipped")
        self.skipped = skipped
        self.onChange = onChange
        // The first scan on the watcher's thread reuses every verdict of the start-up scan.
        let current = library.withLock { $0 }
        var scanner =
            started
            ?? PhotoScanner(
                folder: folder, mount: mount, order: order, ids: ids, reusing: current, shown: true, index: index,
                maxPixels: maxPixels,
                log: skipped)
        scanner?.inspectionBudget = Self.inspectionBudget
        self.scanner = Locked(scanner)
        lastSeen = Locked(nil)
        if let scanner { noteReading(scanner) }
        let watcher = try FolderWatcher(folder: folder, mount: mount, timing: timing) { [weak self] event in
            self?.handle(event) ?? FolderWatcher.Followup()
        }
        self.watcher.withLock { $0 = watcher }
    }

    /// Whether files found are still being read (a first start on a new library, a big copy).
    var isReading: Bool { reading.withLock { $0 } }

    /// Whether the folder is there (false while it is gone, or back empty after holding photos).
    var isAvailable: Bool { status.folderPresent.withLock { $0 } }

    func stop() {
        watcher.withLock { $0 }?.stop()
    }

    /// One watcher event; answers what it left to do.
    private func handle(_ event: FolderWatcher.Event) -> FolderWatcher.Followup {
        switch event {
        case .gone:
            scanner.withLock { $0 = nil }
            reading.withLock { $0 = false }
            let old = library.withLock { $0 }
            lastSeen.withLock { $0 = old.entries.isEmpty ? $0 : old }
            status.folderAway(ServerStatus.folderProblem(folder) ?? "missing")
            tellRoomsAway()
            // Said once: a folder missing at start was said by the start already.
            if !goneReported.withLock({ $0 }) {
                goneReported.withLock { $0 = true }
                log.record(
                    "folder.gone", "photo folder \(folder) is gone; waiting for it", ["folder": .string(folder)])
            }
            return FolderWatcher.Followup()
        case .attached:
            // The folder is a symbolic link swapped since the scanner was made (before the watcher's
            // first look): follow it where it leads now, the photos shown as what to compare with.
            let moved = scanner.withLock { $0.map { $0.root != PhotoScanner.realPath(folder) } ?? false }
            if moved {
                let current = library.withLock { $0 }
                scanner.withLock { $0 = makeScanner(reusing: current) }
            }
            if scanner.withLock({ $0 == nil }) { return reattach() }
            return scan { $0.scanAll() }
        case _ where scanner.withLock({ $0 == nil }):
            // Back empty, or not readable until now: photos copied or a share mounted into it since
            // are looked for whole.
            return reattach()
        case .changed(let folders, let closed):
            return scan { $0.scan(folders: folders, closed: closed) }
        case .rescan:
            return scan { $0.scanAll() }
        case .settle:
            return scan { $0.scan(folders: $0.pendingFolders) }
        case .more:
            return scan { $0.scan(folders: []) }
        }
    }

    /// A scanner for the folder that shows `shown` now, its verdicts reused.
    private func makeScanner(reusing shown: PhotoLibrary?) -> PhotoScanner? {
        var made = PhotoScanner(
            folder: folder, mount: mount, order: order, ids: ids, reusing: shown, shown: true, index: index,
            maxPixels: maxPixels,
            log: skipped)
        made?.inspectionBudget = Self.inspectionBudget
        return made
    }

    /// The folder is there again: scanned whole against what the rooms still show, so that photos
    /// unchanged meanwhile change nothing. Found empty, it is taken as still away (an unmounted
    /// share's mount point): nothing is told, and the next event looks again.
    private func reattach() -> FolderWatcher.Followup {
        let previous = lastSeen.withLock { $0 }
        guard let attempt = makeScanner(reusing: previous) else { return FolderWatcher.Followup() }
        var trial = attempt
        let found = trial.scanAll()
        let followup = FolderWatcher.Followup(settle: !trial.pendingFolders.isEmpty, more: trial.hasBacklog)
        // Read once it stops changing: a folder still being copied back would drop from every room
        // the photos not copied yet, and add them again at the back (the room's order rewritten).
        // Taken when two looks `settle` apart list the same files and none is still being written.
        let listed = trial.listedFileCount
        let lastLook = returning.withLock { returning in
            defer { returning = listed }
            return returning
        }
        guard lastLook == listed, trial.pendingFolders.isEmpty else { return FolderWatcher.Followup(settle: true) }
        returning.withLock { $0 = nil }
        if let previous, !previous.entries.isEmpty, trial.library.entries.isEmpty {
            if isAvailable || !emptyReported.withLock({ $0 }) {
                emptyReported.withLock { $0 = true }
                log.record(
                    "folder.empty", "photo folder \(folder) shows no photos; taken as not there until it does",
                    ["folder": .string(folder)])
            }
            return followup
        }
        emptyReported.withLock { $0 = false }
        goneReported.withLock { $0 = false }
        status.folderBack()
        lastSeen.withLock { $0 = nil }
        scanner.withLock { $0 = trial }
        remaining.withLock { $0 = trial.backlogCount }
        var change = found ?? LibraryChange()
        change.complete = !followup.more
        change.folderAway = false
        // Said before `reading` turns false: whoever waits for the reading to end finds the line.
        noteReading(trial)
        reading.withLock { $0 = followup.more }
        publish(change, library: trial.library)
        let count = trial.library.entries.count
        log.record(
            "folder.back", "photo folder \(folder) is back: \(count) photos",
            ["folder": .string(folder), "photos": .int(count)])
        return followup
    }

    /// Runs `body` on the scanner, publishes what changed; answers what is left to do. The scan that
    /// ends the reading says so (`LibraryChange.complete`), and `reading` turns false only after
    /// the rooms were told: a room restored meanwhile still waits for the photos of that scan.
    private func scan(_ body: (inout PhotoScanner) -> LibraryChange?) -> FolderWatcher.Followup {
        let outcome = scanner.withLock { scanner -> (LibraryChange?, PhotoLibrary, FolderWatcher.Followup)? in
            guard var current = scanner else { return nil }
            let change = body(&current)
            scanner = current
            let followup = FolderWatcher.Followup(settle: !current.pendingFolders.isEmpty, more: current.hasBacklog)
            remaining.withLock { $0 = current.backlogCount }
            return (change, current.library, followup)
        }
        guard let (found, new, followup) = outcome else {
            reading.withLock { $0 = false }
            return FolderWatcher.Followup()
        }
        let old = library.withLock { $0 }
        if new.entries.isEmpty, !old.entries.isEmpty {
            // Every photo gone at once is a share that stopped answering or was unmounted beneath
            // its mount point, not an owner emptying the frame: the folder is away, not empty.
            scanner.withLock { $0 = nil }
            reading.withLock { $0 = false }
            lastSeen.withLock { $0 = old }
            status.folderAway("empty")
            tellRoomsAway()
            emptyReported.withLock { $0 = true }
            log.record(
                "folder.empty", "photo folder \(folder) shows no photos; taken as not there until it does",
                ["folder": .string(folder)])
            return followup
        }
        var change = found ?? LibraryChange()
        change.complete = reading.withLock { $0 } && !followup.more
        if !change.isEmpty || change.complete { publish(change, library: new) }
        if let current = scanner.withLock({ $0 }) { noteReading(current) }
        reading.withLock { $0 = followup.more }
        return followup
    }

    /// Says when files found begin to be read (a first start, a big copy, a folder back with new
    /// photos) and when the last of them was, with counts and the time it took: what an operator
    /// waits for on a first start.
    private func noteReading(_ scanner: PhotoScanner) {
        let now = FolderWatcher.monotonicSeconds()
        let started = readingSince.withLock { since -> Double?? in
            switch (since, scanner.hasBacklog) {
            case (nil, true):
                since = now
                return .some(nil)
            case (let began?, false):
                since = nil
                return began
            default: return nil
            }
        }
        guard let started else { return }
        let photos = scanner.library.entries.count
        if let began = started {
            let milliseconds = Int(((now - began) * 1000).rounded())
            let seconds = String(format: "%.1f", Double(milliseconds) / 1000)
            log.record(
                "photos.indexed",
                "read photo folder \(folder): \(photos) photos, \(scanner.skippedCount) skipped, in \(seconds) s",
                [
                    "folder": .string(folder), "photos": .int(photos), "skipped": .int(scanner.skippedCount),
                    "milliseconds": .int(milliseconds),
                ])
        } else {
            log.record(
                "photos.indexing",
                "reading photo folder \(folder): \(scanner.backlogCount) files to read, \(photos) photos known",
                ["folder": .string(folder), "files": .int(scanner.backlogCount), "photos": .int(photos)])
        }
    }

    /// Swaps in the scanner's library as it is now — `new`, and what was adopted since the scan
    /// (a guest's photo): a scan's result never drops an entry another thread added meanwhile.
    private func publish(_ change: LibraryChange, library new: PhotoLibrary) {
        let current = scanner.withLock { scanner in
            let current = scanner?.library ?? new
            library.withLock { $0 = current }
            return current
        }
        if !change.isEmpty || change.complete || change.folderAway != nil { onChange(change, current) }
    }

    /// Every room holds its place (its slideshow too) until the folder is back.
    private func tellRoomsAway() {
        var away = LibraryChange()
        away.folderAway = true
        onChange(away, library.withLock { $0 })
    }

    /// A photo the server put in the folder itself (a guest's, checked already) joins the shared
    /// library now, and the scanner takes it as read: its scan will find it unchanged, and no scan
    /// finished before can swap in a library without it. Answers the library with it.
    func adopt(_ entry: PhotoLibrary.Entry) -> PhotoLibrary {
        scanner.withLock { scanner in
            scanner?.adopt(entry)
            return library.withLock { library in
                library = library.updating(changed: [entry], removed: [], order: order)
                return library
            }
        }
    }
}
