import Dispatch
import Foundation
import StackModel

/// The folder as last seen, kept between scans so that a rescan only reads what changed.
///
/// Used by one thread at a time (start-up, then the watcher's). A scan lists folders with
/// `readdir` and `lstat`; a file whose identity (device, inode, size, modification time) is
/// unchanged is not read again. A new or changed file is taken only once it is complete — closed
/// after writing (the watcher saw IN_CLOSE_WRITE or a rename into place), or unchanged for
/// `settle` seconds — and only if it decodes whole; a file that does not is logged once per
/// identity and skipped.
///
/// Files to read wait in a backlog, read in the order found (in `--order name`, each scan's finds
/// sorted by name), a batch at a time on every core: a scan reads at most
/// `inspectionBudget` seconds' worth of them (nil: all; 0: none, a stat-only scan), so that a first
/// start on 20,000 photos shows them as they are read instead of after. Each verdict is written to
/// the photo index, whose records a later start reuses as it reuses a library.
struct PhotoScanner {
    /// The folder's real path (symbolic links resolved), and how photos are ordered.
    let root: String
    /// Where each path below the root is (the root, or a folder mounted into it).
    let tree: PhotoTree
    let order: PhotoLibrary.Order
    /// Seconds a file must stay unchanged before it is taken when nobody saw it closed.
    var settle = 1.0
    /// Seconds of reading and decoding one scan may spend on the backlog; nil: no limit.
    var inspectionBudget: Double?
    /// Photos with more pixels are skipped (`--max-pixels`).
    let maxPixels: Int
    /// What each photo is named.
    let ids: PhotoIDs
    private(set) var library: PhotoLibrary
    private let log: @Sendable (String) -> Void

    /// Per folder below the root ("" is the root): its subfolders' names and its image files' names.
    private var subfolders: [String: Set<String>] = [:]
    private var files: [String: Set<String>] = [:]
    /// Accepted photos, by path below the root.
    private var accepted: [String: PhotoLibrary.Entry] = [:]
    /// Files seen incomplete: their identity then, and when it was first seen.
    private var pending: [String: (identity: FileIdentity, since: Double)] = [:]
    /// Files that did not decode, at the identity that did not: neither read nor logged again.
    private var rejected: [String: FileIdentity] = [:]
    /// Names that are not UTF-8 (escaped), logged when first seen and not again.
    private var undecodable: Set<String> = []
    /// Earlier verdicts to reuse by identity (a restart's library, or the folder before it went away).
    private var known: [String: PhotoLibrary.Entry]
    /// The paths the photo index held at start: those no scan lists are forgotten by it.
    private var indexed: Set<String>?
    private let index: PhotoIndex?
    /// Files to read, in the order found, and the identity each had when last seen.
    private var backlog: [String] = []
    private var backlogStart = 0
    private var waiting: [String: FileIdentity] = [:]

    /// Whether files wait to be read.
    var hasBacklog: Bool { !waiting.isEmpty }

    /// How many files wait to be read.
    var backlogCount: Int { waiting.count }

    /// How many image files the scans listed (read or not).
    var listedFileCount: Int { files.values.reduce(0) { $0 + $1.count } }

    /// How many files were refused (do not decode whole, too large), at their current identity.
    var skippedCount: Int { rejected.count }

    /// The id earlier versions gave each image file listed (read yet or not) → its id now: what
    /// turns a stack saved by them into this version's ids (`SavedStack.renamingPhotos`).
    /// - Complexity: O(files listed).
    func legacyIDs() -> [String: String] {
        var renamed: [String: String] = [:]
        for (folder, names) in files {
            for name in names {
                let relative = prefix(folder) + name
                renamed[PhotoIDs.legacyID(of: relative)] = accepted[relative]?.photo.id ?? ids.id(of: relative)
            }
        }
        return renamed
    }

    /// Folders holding files that are not complete yet.
    var pendingFolders: Set<String> { Set(pending.keys.map(Self.parent)) }

    /// `previous`: verdicts to reuse by identity. `shown`: `previous` is also what the rooms show
    /// now, so the first scan reports only what differs from it.
    /// `index`: its records are earlier verdicts too (read once here), and new verdicts are written to it.
    /// `mount`: a folder read as a sub-folder of this one (guests' photos kept elsewhere).
    init?(
        folder: String, mount: PhotoTree.Mount? = nil, order: PhotoLibrary.Order, ids: PhotoIDs,
        reusing previous: PhotoLibrary? = nil,
        shown: Bool = false, index: PhotoIndex? = nil, maxPixels: Int = PhotoInspector.defaultMaxPixels,
        log: @escaping @Sendable (String) -> Void
    ) {
        let root = Self.realPath(folder)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
            return nil
        }
        self.root = root
        tree = PhotoTree(root: root, mount: mount)
        self.order = order
        self.maxPixels = maxPixels
        self.ids = ids
        self.log = log
        library = shown ? previous ?? PhotoLibrary(entries: []) : PhotoLibrary(entries: [])
        // A photo over the pixel limit (lowered since) is not reused: it is read again, and refused.
        let fits = { (width: Int, height: Int) in width * height <= maxPixels }
        known = Dictionary(
            (previous?.entries ?? []).filter { fits($0.photo.width, $0.photo.height) }.map { ($0.relative, $0) },
            uniquingKeysWith: { a, _ in a })
        self.index = index
        if let index {
            let records = index.load(root: root)
            for record in records where known[record.relative] == nil {
                if record.whole, !fits(record.width, record.height) {
                    continue
                } else if record.whole {
                    let photo = Photo(
                        id: ids.id(of: record.relative), width: record.width, height: record.height)
                    known[record.relative] = PhotoLibrary.Entry(
                        photo: photo, path: tree.path(of: record.relative), relative: record.relative,
                        identity: record.identity, taken: record.taken)
                } else {
                    // Logged when it was found; not again at each start.
                    rejected[record.relative] = record.identity
                }
            }
            indexed = Set(records.map(\.relative))
        }
    }

    /// Everything below the root. Returns the change, or nil when nothing changed.
    /// Takes `entry` as a file read and accepted (the server made it itself, checked).
    mutating func adopt(_ entry: PhotoLibrary.Entry) {
        accepted[entry.relative] = entry
        pending[entry.relative] = nil
        waiting[entry.relative] = nil
        library = library.updating(changed: [entry], removed: [], order: order)
    }

    mutating func scanAll(now: Double = Date().timeIntervalSince1970) -> LibraryChange? {
        scan(folders: [""], recursive: true, closed: [], now: now)
    }

    /// `folders` (paths below the root) without their known subfolders (each has its own watch);
    /// new subfolders are walked whole. `closed` names files seen closed after writing.
    mutating func scan(
        folders: Set<String>, recursive: Bool = false, closed: Set<String> = [],
        now: Double = Date().timeIntervalSince1970
    ) -> LibraryChange? {
        var pass = Pass(closed: closed, now: now)
        let found = backlog.count
        // Parents first: a folder that went away is dropped with its subfolders before they are read.
        for folder in folders.sorted()
        where folder.isEmpty || subfolders[Self.parent(folder)]?.contains(Self.name(folder)) == true {
            list(folder, recursive: recursive, into: &pass)
        }
        if order == .name, backlog.count > found {
            // Read in the order shown: each batch's photos then come after every photo read before
            // them, so a first start fills the stack in its order instead of in listing order.
            backlog[max(found, backlogStart)...].sort()
        }
        inspect(&pass)
        if !known.isEmpty {
            // The first scan after a restart or a return: what was shown and is not there is gone
            // (unless a folder could not be listed: then nobody knows).
            for entry in library.entries where accepted[entry.relative] == nil && !pass.unlisted {
                pass.removed.insert(entry.photo.id)
            }
            known = [:]
        }
        if let paths = indexed {
            indexed = nil
            for relative in paths where !pass.listed.contains(relative) {
                pass.forgotten.append(relative)
                if rejected[relative] != nil, files[Self.parent(relative)]?.contains(Self.name(relative)) != true {
                    rejected[relative] = nil
                }
            }
        }
        // A folder that could not be listed (a share gone mid-scan) says nothing of its files.
        index?.write(pass.verdicts, removed: pass.unlisted ? [] : pass.forgotten, root: root)
        guard !pass.changed.isEmpty || !pass.removed.isEmpty else { return nil }
        let old = library
        library = library.updating(changed: pass.changed, removed: pass.removed, order: order)
        return LibraryChange(from: old, changed: pass.changed, removed: pass.removed, order: order)
    }

    /// What one scan found.
    private struct Pass {
        var closed: Set<String>
        var now: Double
        /// New verdicts for the index, and paths it should forget.
        var verdicts: [PhotoIndex.Record] = []
        var forgotten: [String] = []
        /// Whether a folder could not be listed.
        var unlisted = false
        /// Paths listed in this pass: a folder and its parent may both be listed.
        var listed: Set<String> = []
        var changed: [PhotoLibrary.Entry] = []
        var removed: Set<String> = []
    }

    private mutating func list(_ folder: String, recursive: Bool, into pass: inout Pass) {
        // A folder that cannot be listed (a share answering with errors) keeps what it held: a
        // folder really deleted is dropped by its parent's listing.
        guard let listing = tree.listing(of: folder) else {
            pass.unlisted = true
            for name in files[folder] ?? [] { pass.listed.insert(prefix(folder) + name) }
            return
        }
        let prefix = prefix(folder)
        for name in listing.undecodable where undecodable.insert(prefix + name).inserted {
            log("skipping \(tree.path(of: prefix + name)): its name is not UTF-8")
        }
        for (name, identity) in listing.images {
            consider(prefix + name, identity, &pass)
        }
        for name in files[folder] ?? [] where listing.images[name] == nil {
            forget(prefix + name, &pass)
        }
        files[folder] = Set(listing.images.keys)
        let before = subfolders[folder] ?? []
        subfolders[folder] = listing.subfolders
        for name in before.subtracting(listing.subfolders) { drop(prefix + name, &pass) }
        for name in listing.subfolders where recursive || !before.contains(name) {
            list(prefix + name, recursive: true, into: &pass)
        }
    }

    private mutating func consider(_ relative: String, _ identity: FileIdentity, _ pass: inout Pass) {
        guard pass.listed.insert(relative).inserted else { return }
        if accepted[relative]?.identity == identity || rejected[relative] == identity {
            waiting[relative] = nil
            return
        }
        if let entry = known[relative], entry.identity == identity {
            accepted[relative] = entry
            if library.entry(id: entry.photo.id) != entry { pass.changed.append(entry) }
            return
        }
        let waited = pending[relative].map { $0.identity == identity ? pass.now - $0.since : 0 } ?? 0
        let quiet = pass.now - identity.modifiedSeconds
        // A tenth of slack: the second look comes `settle` after the first by another clock.
        guard pass.closed.contains(relative) || quiet >= settle * 0.9 || waited >= settle * 0.9 else {
            if waited == 0 { pending[relative] = (identity, pass.now) }
            return
        }
        pending[relative] = nil
        if waiting.updateValue(identity, forKey: relative) == nil { backlog.append(relative) }
    }

    /// Files read per batch, side by side: enough to keep every worker busy, few enough that the
    /// budget is checked every few milliseconds.
    static let batchSize = 8 * PhotoInspector.workers

    /// Reads the backlog's headers and decodes its files, a batch at a time on every worker, for at
    /// most `inspectionBudget` seconds; each batch's verdicts are taken in the backlog's order.
    private mutating func inspect(_ pass: inout Pass) {
        let deadline = inspectionBudget.map { FolderWatcher.monotonicSeconds() + $0 }
        while backlogStart < backlog.count {
            if let deadline, FolderWatcher.monotonicSeconds() >= deadline { break }
            var batch: [(relative: String, identity: FileIdentity)] = []
            while backlogStart < backlog.count, batch.count < Self.batchSize {
                let relative = backlog[backlogStart]
                backlogStart += 1
                if let identity = waiting.removeValue(forKey: relative) { batch.append((relative, identity)) }
            }
            let results = PhotoInspector.inspect(batch.map { tree.path(of: $0.relative) }, maxPixels: maxPixels)
            for (file, result) in zip(batch, results) { take(file.relative, file.identity, result, &pass) }
        }
        if backlogStart == backlog.count || backlogStart > 4096 {
            backlog.removeFirst(backlogStart)
            backlogStart = 0
        }
    }

    /// Takes one file's verdict: a photo accepted (new or replaced), or refused and logged once.
    private mutating func take(
        _ relative: String, _ identity: FileIdentity, _ result: Result<PhotoInspector.Header, PhotoProblem>,
        _ pass: inout Pass
    ) {
        switch result {
        case .success(let header):
            let id = accepted[relative]?.photo.id ?? ids.id(of: relative)
            let entry = PhotoLibrary.Entry(
                photo: Photo(id: id, width: header.width, height: header.height), path: tree.path(of: relative),
                relative: relative, identity: identity, taken: header.taken)
            accepted[relative] = entry
            rejected[relative] = nil
            pass.changed.append(entry)
            pass.verdicts.append(
                PhotoIndex.Record(
                    relative: relative, identity: identity, width: header.width, height: header.height,
                    orientation: header.orientation, taken: header.taken, whole: true))
        case .failure(let problem):
            rejected[relative] = identity
            log("skipping \(tree.path(of: relative)): \(problem.reason)")
            if let entry = accepted.removeValue(forKey: relative) { pass.removed.insert(entry.photo.id) }
            pass.verdicts.append(PhotoIndex.Record(relative: relative, identity: identity, whole: false))
        }
    }

    private mutating func forget(_ relative: String, _ pass: inout Pass) {
        if let entry = accepted.removeValue(forKey: relative) { pass.removed.insert(entry.photo.id) }
        pending[relative] = nil
        rejected[relative] = nil
        waiting[relative] = nil
        pass.forgotten.append(relative)
    }

    /// A folder that went away, with everything below it.
    private mutating func drop(_ folder: String, _ pass: inout Pass) {
        for name in files.removeValue(forKey: folder) ?? [] { forget(folder + "/" + name, &pass) }
        for name in subfolders.removeValue(forKey: folder) ?? [] { drop(folder + "/" + name, &pass) }
    }

    /// What a name in `folder` is prefixed with to be a path below the root.
    private func prefix(_ folder: String) -> String { folder.isEmpty ? "" : folder + "/" }

    /// `folder` with symbolic links resolved: what the photo index is keyed by.
    static func realPath(_ folder: String) -> String {
        URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL.path
    }

    static func name(_ relative: String) -> String {
        relative.lastIndex(of: "/").map { String(relative[relative.index(after: $0)...]) } ?? relative
    }

    static func parent(_ relative: String) -> String {
        relative.lastIndex(of: "/").map { String(relative[..<$0]) } ?? ""
    }
}
