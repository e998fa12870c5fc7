import Foundation

/// The photo folder followed while the server runs: turns the watcher's events into scans, swaps
/// the shared library and reports each change, and says once when the folder goes away and when it
/// is back.
///
/// Everything but `stop` runs on the watcher's thread; the scanner sits behind a lock only so that
/// the compiler can check that.
final class LiveFolder: Sendable {
    let folder: String
    let library: Locked<PhotoLibrary>
    private let order: PhotoLibrary.Order
    private let scanner: Locked<PhotoScanner?>
    /// The library as it was before the folder went away: its verdicts are reused when it is back.
    private let lastSeen: Locked<PhotoLibrary?>
    private let onChange: @Sendable (LibraryChange, PhotoLibrary) -> Void
    private let log: OperatorLog
    private let watcher: Locked<FolderWatcher?> = Locked(nil)
    private let index: PhotoIndex?
    /// Whether files found wait to be read; set after each scan.
    private let reading: Locked<Bool>
    /// Photos with more pixels are skipped (`--max-pixels`).
    private let maxPixels: Int
    /// Seconds of reading new files per turn of the watcher's loop: between turns it notices `stop`.
    static let inspectionBudget = 0.5

    /// Follows `folder`, whose photos `library` holds now. `onChange` runs after each swap of the
    /// library, with the change and the new library, so a photo it names can already be fetched.
    /// `scanner`: the start-up scan's, whose library `library` holds and whose backlog of files to
    /// read the watcher's thread goes on with; nil: a new one reusing `library`'s verdicts.
    /// `index`: where verdicts are kept across restarts.
    init(
        folder: String, order: PhotoLibrary.Order, library: Locked<PhotoLibrary>, scanner started: PhotoScanner? = nil,
        index: PhotoIndex? = nil, reading: Locked<Bool> = Locked(false), timing: FolderWatcher.Timing,
        maxPixels: Int = PhotoInspector.defaultMaxPixels, log: OperatorLog,
        onChange: @escaping @Sendable (LibraryChange, PhotoLibrary) -> Void
    ) throws {
        self.folder = folder
        self.order = order
        self.library = library
        self.index = index
        self.reading = reading
        self.maxPixels = maxPixels
        self.log = log
        self.onChange = onChange
        // The first scan on the watcher's thread reuses every verdict of the start-up scan.
        let current = library.withLock { $0 }
        var scanner =
            started
            ?? PhotoScanner(
                folder: folder, order: order, reusing: current, shown: true, index: index, maxPixels: maxPixels,
                log: log.messages(as: "photo.skipped"))
        scanner?.inspectionBudget = Self.inspectionBudget
        self.scanner = Locked(scanner)
        lastSeen = Locked(nil)
        let watcher = try FolderWatcher(folder: folder, timing: timing) { [weak self] event in
            self?.handle(event) ?? FolderWatcher.Followup()
        }
        self.watcher.withLock { $0 = watcher }
    }

    /// Whether files found are still being read (a first start on a new library, a big copy).
    var isReading: Bool { reading.withLock { $0 } }

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
            log.record("folder.gone", "photo folder \(folder) is gone; waiting for it", ["folder": .string(folder)])
            publish(LibraryChange(from: old, to: PhotoLibrary(entries: [])), library: PhotoLibrary(entries: []))
            return FolderWatcher.Followup()
        case .attached:
            // The folder is a symbolic link swapped since the scanner was made (before the watcher's
            // first look): follow it where it leads now, the photos shown as what to compare with.
            let moved = scanner.withLock { $0.map { $0.root != PhotoScanner.realPath(folder) } ?? false }
            if moved {
                let current = library.withLock { $0 }
                scanner.withLock {
                    $0 = PhotoScanner(
                        folder: folder, order: order, reusing: current, shown: true, index: index, maxPixels: maxPixels,
                        log: log.messages(as: "photo.skipped"))
                    $0?.inspectionBudget = Self.inspectionBudget
                }
            }
            let returning = scanner.withLock { $0 == nil }
            if returning {
                let previous = lastSeen.withLock { $0 }
                scanner.withLock {
                    $0 = PhotoScanner(
                        folder: folder, order: order, reusing: previous, index: index, maxPixels: maxPixels,
                        log: log.messages(as: "photo.skipped"))
                    $0?.inspectionBudget = Self.inspectionBudget
                }
            }
            let pending = scan { $0.scanAll() }
            if returning {
                let count = library.withLock { $0.entries.count }
                log.record(
                    "folder.back", "photo folder \(folder) is back: \(count) photos",
                    ["folder": .string(folder), "photos": .int(count)])
            }
            return pending
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

    /// Runs `body` on the scanner, publishes what changed; answers what is left to do. The scan that
    /// ends the reading says so (`LibraryChange.complete`), and `reading` turns false only after
    /// the rooms were told: a room restored meanwhile still waits for the photos of that scan.
    private func scan(_ body: (inout PhotoScanner) -> LibraryChange?) -> FolderWatcher.Followup {
        let outcome = scanner.withLock { scanner -> (LibraryChange?, PhotoLibrary, FolderWatcher.Followup)? in
            guard var current = scanner else { return nil }
            let change = body(&current)
            scanner = current
            let followup = FolderWatcher.Followup(settle: !current.pendingFolders.isEmpty, more: current.hasBacklog)
            return (change, current.library, followup)
        }
        guard let (found, new, followup) = outcome else {
            reading.withLock { $0 = false }
            return FolderWatcher.Followup()
        }
        var change = found ?? LibraryChange()
        change.complete = reading.withLock { $0 } && !followup.more
        if !change.isEmpty || change.complete { publish(change, library: new) }
        reading.withLock { $0 = followup.more }
        return followup
    }

    private func publish(_ change: LibraryChange, library new: PhotoLibrary) {
        library.withLock { $0 = new }
        if !change.isEmpty || change.complete { onChange(change, new) }
    }
}
