import Dispatch
import Foundation

/// What the server learnt of each photo file, kept across restarts in a SQLite database in the
/// cache folder (`photo-index.db`, there with or without `--state`): per path, the file's identity
/// (device, inode, size, modification time), its upright size, EXIF orientation and date taken,
/// and the verdict — decodes whole, or not. A start reads it in one query and stats the files; only
/// a file whose identity changed is read and decoded again.
///
/// Writes go to the index's own queue, one transaction per scan's batch, never on an HTTP thread.
/// The index is a cache: synchronous=NORMAL (a crash may lose the last writes, which costs a
/// re-read), and a file that cannot be opened is deleted and made again.
final class PhotoIndex: Sendable {
    struct Record: Sendable, Equatable {
        var relative: String
        var identity: FileIdentity
        var width = 0
        var height = 0
        var orientation = 1
        var taken: String?
        /// Whether the file decodes whole; false: it is skipped until its identity changes.
        var whole: Bool
    }

    /// Its name in the cache folder (with SQLite's `-wal` and `-shm` beside it), which the pruning
    /// of resized photos leaves alone.
    static let fileName = "photo-index.db"

    private let queue = DispatchQueue(label: "stackweb.photo-index")
    /// Used on `queue` only; behind a lock so that the compiler can check that it is not shared.
    private let database: Locked<SQLiteDatabase>
    private let log: @Sendable (String) -> Void

    /// Opens (or makes) the index at `path`; nil when no database can be made there (the server
    /// then reads every file at each start, as without an index). Records are kept per folder
    /// (`root`, its real path): one index may serve several folders over time.
    init?(path: String, log: @escaping @Sendable (String) -> Void) {
        self.log = log
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard let database = Self.open(path) ?? Self.replace(path, log: log) else {
            log("cannot make the photo index \(path): every start will read every photo")
            return nil
        }
        self.database = Locked(database)
    }

    private static func open(_ path: String) -> SQLiteDatabase? {
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute(
                """
                PRAGMA busy_timeout=5000; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
                CREATE TABLE IF NOT EXISTS photos (
                    root TEXT NOT NULL, relative TEXT NOT NULL,
                    device INTEGER NOT NULL, inode INTEGER NOT NULL, size INTEGER NOT NULL,
                    seconds INTEGER NOT NULL, nanoseconds INTEGER NOT NULL,
                    width INTEGER NOT NULL, height INTEGER NOT NULL, orientation INTEGER NOT NULL,
                    taken TEXT NOT NULL, whole INTEGER NOT NULL,
                    PRIMARY KEY (root, relative)) WITHOUT ROWID;
                """)
            return database
        } catch {
            return nil
        }
    }

    /// A damaged file: the index is only a cache, so it is made again.
    private static func replace(_ path: String, log: @Sendable (String) -> Void) -> SQLiteDatabase? {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        log("the photo index \(path) could not be read; made a new one")
        return open(path)
    }

    /// Every record of the folder `root`, in one query.
    func load(root: String) -> [Record] {
        queue.sync {
            database.withLock { database in
                var records: [Record] = []
                do {
                    let query = try database.prepare(
                        """
                        SELECT relative, device, inode, size, seconds, nanoseconds, width, height, orientation,
                               taken, whole FROM photos WHERE root = ?1
                        """)
                    try query.bind([.text(root)])
                    while try query.step() {
                        let identity = FileIdentity(
                            device: UInt64(bitPattern: Int64(query.int(1))),
                            inode: UInt64(bitPattern: Int64(query.int(2))),
                            size: Int64(query.int(3)), modified: timespec(tv_sec: query.int(4), tv_nsec: query.int(5)))
                        let taken = query.text(9)
                        records.append(
                            Record(
                                relative: query.text(0), identity: identity, width: query.int(6), height: query.int(7),
                                orientation: query.int(8), taken: taken.isEmpty ? nil : taken, whole: query.int(10) != 0
                            ))
                    }
                } catch {
                    log("cannot read the photo index: \(error)")
                }
                return records
            }
        }
    }

    /// Records `verdicts` and forgets `removed` (paths below `root`), in one transaction on the
    /// index's queue; returns at once.
    func write(_ verdicts: [Record], removed: [String], root: String) {
        guard !verdicts.isEmpty || !removed.isEmpty else { return }
        queue.async { [self] in
            database.withLock { database in
                do {
                    let insert = try database.prepare(
                        """
                        INSERT OR REPLACE INTO photos (root, relative, device, inode, size, seconds, nanoseconds,
                            width, height, orientation, taken, whole)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
                        """)
                    let delete = try database.prepare("DELETE FROM photos WHERE root = ?1 AND relative = ?2")
                    try database.transaction { () throws(SQLiteError) in
                        for record in verdicts {
                            let identity = record.identity
                            try insert.run([
                                .text(root), .text(record.relative),
                                .integer(Int(Int64(bitPattern: identity.device))),
                                .integer(Int(Int64(bitPattern: identity.inode))), .integer(Int(identity.size)),
                                .integer(identity.seconds), .integer(identity.nanoseconds), .integer(record.width),
                                .integer(record.height), .integer(record.orientation), .text(record.taken ?? ""),
                                .integer(record.whole ? 1 : 0),
                            ])
                        }
                        for relative in removed { try delete.run([.text(root), .text(relative)]) }
                    }
                } catch {
                    log("cannot write the photo index: \(error)")
                }
            }
        }
    }

    /// Waits for the writes queued so far.
    func flush() {
        queue.sync {}
    }
}
