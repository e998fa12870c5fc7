import Foundation
import Glibc

/// `stackweb backup FILE` and `stackweb restore FILE`: a copy of the state database made while the
/// server runs, and put back while it does not.
///
/// A copy of `state.db` by `cp` misses what is still in `state.db-wal`, and one copied back over it
/// is undone by the old WAL replayed at the next open; both go through SQLite here instead. The
/// backup is SQLite's online backup API (consistent however busy the server is). The restore checks
/// the file first (`integrity_check`, our `application_id`), refuses while a server holds the state
/// (`StateLock`), and copies it in through SQLite too, so the WAL is rewritten with it, then
/// checkpointed into the database and emptied.
public enum StateBackup {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Copies the state at `state` to `file` (written beside it and renamed into place, so a copy
    /// interrupted leaves no half file under that name). Answers what it copied.
    public static func backup(state: String, to file: String) throws -> String {
        guard FileManager.default.fileExists(atPath: state) else {
            throw Failure(description: "there is no state at \(state)")
        }
        let owner = try StateOwner(of: state)
        let temporary = file + ".tmp-\(getpid())"
        defer { unlink(temporary) }
        // Made 0600 before SQLite opens it (it keeps a file's mode): the backup holds the photo-id
        // secret, as private as the state.
        let made = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard made >= 0 else {
            throw Failure(description: "cannot write \(file): \(ServerStatus.problem(errno, file))")
        }
        close(made)
        defer { owner.giveBack(state) }
        do {
            let source = try SQLiteDatabase(path: state, existing: true)
            try source.execute("PRAGMA busy_timeout=5000")
            let target = try SQLiteDatabase(path: temporary)
            try source.copy(into: target)
            // One file, no WAL beside it: what a person copies elsewhere is all there is.
            try target.execute("PRAGMA journal_mode=DELETE")
        } catch let error as SQLiteError {
            throw Failure(description: "cannot back up \(state) to \(file): \(error.message)")
        }
        guard rename(temporary, file) == 0 else {
            throw Failure(description: "cannot write \(file): \(ServerStatus.problem(errno, file))")
        }
        return "backed up \(state) to \(file)"
    }

    /// Replaces the state at `state` with the backup `file`, once no server holds it and the file
    /// is whole and ours.
    public static func restore(state: String, from file: String) throws -> String {
        guard FileManager.default.fileExists(atPath: file) else { throw Failure(description: "there is no \(file)") }
        let owner = try StateOwner(of: state)
        // Everything written below (the database, its WAL, the lock file) is the owner's again,
        // whoever ran the restore: a root-owned state stops the server (permission denied).
        defer { owner.giveBack(state) }
        let lock = try StateLock(state: state)
        guard lock.exclusive() else {
            throw Failure(description: "a server holds \(state): stop it first (systemctl stop stackweb)")
        }
        do {
            let backup = try SQLiteDatabase(path: file, existing: true)
            let integrity = try backup.textPragma("integrity_check")
            guard integrity == "ok" else { throw Failure(description: "\(file) is damaged: \(integrity)") }
            let stamp = try backup.integerPragma("application_id")
            guard stamp == SQLiteSchema.applicationID else {
                throw Failure(description: "\(file) is not a StackWeb state database (application_id \(stamp))")
            }
            let target = try SQLiteDatabase(path: state)
            try target.execute("PRAGMA busy_timeout=5000")
            try backup.copy(into: target)
            try target.execute("PRAGMA journal_mode=WAL; PRAGMA wal_checkpoint(TRUNCATE)")
        } catch let error as SQLiteError {
            throw Failure(description: "cannot restore \(file) to \(state): \(error.message)")
        }
        return "restored \(state) from \(file)"
    }
}

/// Who the state belongs to, and its mode: a backup or restore run as root (`sudo stackweb
/// restore`) gives what it wrote back to them; one run as another user is refused, naming the owner,
/// since it could neither read the state nor give back what it wrote.
struct StateOwner {
    let user: uid_t
    let group: gid_t
    /// The database's permission bits; 0600 for a state not made yet.
    let mode: mode_t

    /// The owner of `state`, or of its folder when there is no state yet.
    init(of state: String) throws(StateBackup.Failure) {
        var info = stat()
        let exists = stat(state, &info) == 0
        if !exists, stat((state as NSString).deletingLastPathComponent, &info) != 0 {
            throw StateBackup.Failure(description: "cannot use \(state): \(ServerStatus.problem(errno, nil))")
        }
        user = info.st_uid
        group = info.st_gid
        mode = exists ? info.st_mode & 0o777 : 0o600
        let me = geteuid()
        guard me == 0 || me == user else {
            let name = Self.name(of: user)
            throw StateBackup.Failure(
                description: "\(state) belongs to \(name), not to \(Self.name(of: me)): run it as \(name) "
                    + "(sudo -u \(name) stackweb …) or as root")
        }
    }

    /// The database, its WAL and shared memory and the lock file, as far as they exist: the
    /// owner's, the database with its mode.
    func giveBack(_ state: String) {
        for suffix in ["", "-wal", "-shm", "-journal", "-lock"] {
            let path = state + suffix
            guard access(path, F_OK) == 0 else { continue }
            if geteuid() == 0 { _ = chown(path, user, group) }
            _ = chmod(path, suffix == "-lock" ? 0o600 : mode)
        }
    }

    static func name(of user: uid_t) -> String {
        guard let entry = getpwuid(user), let name = entry.pointee.pw_name else { return "uid \(user)" }
        return String(cString: name)
    }
}

/// Which process uses the state: a server holds a shared `flock` on `<state>-lock` while it runs;
/// a restore needs it exclusive. A lock file of its own, not the database: SQLite's own locks
/// (`fcntl`) are left alone, also on a network file system that maps `flock` onto them.
final class StateLock: Sendable {
    private let descriptor: Int32

    init(state: String) throws {
        descriptor = open(state + "-lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StateBackup.Failure(description: "cannot open \(state)-lock: \(ServerStatus.problem(errno, nil))")
        }
    }

    deinit { close(descriptor) }

    /// Taken for as long as this object lives: shared, as every server takes it.
    func shared() -> Bool { flock(descriptor, LOCK_SH | LOCK_NB) == 0 }

    /// Whether nobody else holds it (then this holds it, exclusively, until it goes).
    func exclusive() -> Bool { flock(descriptor, LOCK_EX | LOCK_NB) == 0 }
}
