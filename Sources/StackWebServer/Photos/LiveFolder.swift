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
    private let log: @Sendable (String) -> Void
    private let watcher: Locked<FolderWatcher?> = Locked(nil)

    /// Follows `folder`, whose photos `library` holds now. `onChange` runs after each swap of the
    /// library, with the change and the new library, so a photo it names can already be fetched.
    init(
        folder: String, order: PhotoLibrary.Order, library: Locked<PhotoLibrary>, timing: FolderWatcher.Timing,
        log: @escaping @Sendable (String) -> Void, onChange: @escaping @Sendable (LibraryChange, PhotoLibrary) -> Void
    ) throws {
        self.folder = folder
        self.order = order
        self.library = library
        self.log = log
        self.onChange = onChange
        // The first scan on the watcher's thread reuses every verdict of the start-up scan.
        let current = library.withLock { $0 }
        scanner = Locked(PhotoScanner(folder: folder, order: order, reusing: current, shown: true, log: log))
        lastSeen = Locked(nil)
        let watcher = try FolderWatcher(folder: folder, timing: timing) { [weak self] event in
            self?.handle(event) ?? false
        }
        self.watcher.withLock { $0 = watcher }
    }

    func stop() {
        watcher.withLock { $0 }?.stop()
    }

    /// One watcher event; answers whether files wait to be complete.
    private func handle(_ event: FolderWatcher.Event) -> Bool {
        switch event {
        case .gone:
            scanner.withLock { $0 = nil }
            let old = library.withLock { $0 }
            lastSeen.withLock { $0 = old.entries.isEmpty ? $0 : old }
            log("photo folder \(folder) is gone; waiting for it")
            publish(LibraryChange(from: old, to: PhotoLibrary(entries: [])), library: PhotoLibrary(entries: []))
            return false
        case .attached:
            let returning = scanner.withLock { $0 == nil }
            if returning {
                let previous = lastSeen.withLock { $0 }
                scanner.withLock {
                    $0 = PhotoScanner(folder: folder, order: order, reusing: previous, log: log)
                }
            }
            let pending = scan { $0.scanAll() }
            if returning {
                log("photo folder \(folder) is back: \(library.withLock { $0.entries.count }) photos")
            }
            return pending
        case .changed(let folders, let closed):
            return scan { $0.scan(folders: folders, closed: closed) }
        case .rescan:
            return scan { $0.scanAll() }
        case .settle:
            return scan { $0.scan(folders: $0.pendingFolders) }
        }
    }

    /// Runs `body` on the scanner, publishes what changed; answers whether files are pending.
    private func scan(_ body: (inout PhotoScanner) -> LibraryChange?) -> Bool {
        let outcome = scanner.withLock { scanner -> (LibraryChange?, PhotoLibrary, Bool)? in
            guard var current = scanner else { return nil }
            let change = body(&current)
            scanner = current
            return (change, current.library, !current.pendingFolders.isEmpty)
        }
        guard let (change, new, pending) = outcome else { return false }
        if let change, !change.isEmpty { publish(change, library: new) }
        return pending
    }

    private func publish(_ change: LibraryChange, library new: PhotoLibrary) {
        library.withLock { $0 = new }
        if !change.isEmpty { onChange(change, new) }
    }
}
