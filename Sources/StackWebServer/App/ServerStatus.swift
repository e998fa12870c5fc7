import Foundation
import Glibc

/// What `/healthz` and the gauges of `/metrics` look at besides the rooms: where state and resized
/// photos are written, whether the photo folder is there and how many photos found wait to be
/// read. Made once by the application; the folder watcher keeps the folder's part current.
final class ServerStatus: Sendable {
    /// `--state`, nil when rooms are kept in memory (or in Redis).
    let statePath: String?
    /// The folder of resized photos and its size limit (`--cache`, `--cache-size`).
    let cacheFolder: String
    let cacheLimit: Int64
    /// Whether the photo folder is there with its photos (false while it is gone or back empty).
    let folderPresent = Locked(true)
    /// The photo folder (`--photos`), named by the check while it is away.
    let photoFolder: String
    /// Why the photo folder is away, in words (`missing`, `unreadable (permission denied)`); nil
    /// while it is there.
    private let folderProblem = Locked<String?>(nil)
    /// Photos found and not read yet (a first start on a big library, a big copy).
    let remaining = Locked(0)

    init(
        statePath: String? = nil, cacheFolder: String = "", cacheLimit: Int64 = VariantCache.defaultLimit,
        photoFolder: String = ""
    ) {
        self.statePath = statePath
        self.cacheFolder = cacheFolder
        self.cacheLimit = cacheLimit
        self.photoFolder = photoFolder
    }

    /// `present`, or why the photo folder is away (`missing`, `empty`, `unreadable (…)`).
    var folderState: String {
        folderPresent.withLock { $0 } ? "present" : folderProblem.withLock { $0 } ?? "missing"
    }

    /// The photo folder is away for the reason `problem` (in words).
    func folderAway(_ problem: String) {
        folderProblem.withLock { $0 = problem }
        folderPresent.withLock { $0 = false }
    }

    /// The photo folder is there with its photos again.
    func folderBack() {
        folderPresent.withLock { $0 = true }
        folderProblem.withLock { $0 = nil }
    }

    /// One line of `/healthz`'s `checks`: whether it passes, and in words what was found.
    struct Check: Sendable {
        var name: String
        var ok: Bool
        var detail: String
    }

    /// Every check, in a fixed order. `saving`: why the store refuses changes now, if it does;
    /// `redis`: with `--redis`, why the group cannot reach Redis (nil: it can).
    func checks(saving: String?, redis: String??) -> [Check] {
        var checks: [Check] = []
        if redis == nil {
            let writable = statePath.map { Self.canWrite(beside: $0) } ?? nil
            checks.append(
                Check(
                    name: "state", ok: saving == nil && writable == nil,
                    detail: saving.map { "saving state fails: \($0)" } ?? writable ?? "writable"))
        }
        let cacheProblem = cacheFolder.isEmpty ? nil : Self.canWrite(folder: cacheFolder)
        checks.append(Check(name: "cache", ok: cacheProblem == nil, detail: cacheProblem ?? "writable"))
        let state = folderState
        let present = state == "present"
        checks.append(Check(name: "photoFolder", ok: present, detail: present ? state : "\(state): \(photoFolder)"))
        let left = remaining.withLock { $0 }
        checks.append(Check(name: "indexing", ok: true, detail: left == 0 ? "done" : "\(left) photos to read"))
        if let redis {
            checks.append(
                Check(name: "redis", ok: redis == nil, detail: redis.map { "unreachable: \($0)" } ?? "reachable"))
        }
        return checks
    }

    /// Nil when a file at `path` can be written and files beside it made (SQLite's WAL, shared
    /// memory and journal, the lock file): the file, if it is there, writable, and its folder there
    /// and writable (or made); else why not, in words, with the path when `naming` (for the
    /// operator; never for a client).
    static func canWrite(beside path: String, naming: Bool = false) -> String? {
        if access(path, F_OK) == 0, access(path, W_OK) != 0 { return problem(errno, naming ? path : nil) }
        return canWrite(folder: (path as NSString).deletingLastPathComponent, naming: naming)
    }

    /// Nil when `folder` is there (or can be made, as `mkdir -p` does) and files can be written in
    /// it. With `mkdir` itself rather than Foundation, whose errors name the system's reason only
    /// in a nested error.
    static func canWrite(folder: String, naming: Bool = false) -> String? {
        var made = ""
        for part in folder.split(separator: "/", omittingEmptySubsequences: true) {
            made += (made.isEmpty && !folder.hasPrefix("/") ? "" : "/") + part
            if mkdir(made, 0o755) != 0, errno != EEXIST { return problem(errno, naming ? made : nil) }
        }
        var info = stat()
        guard stat(folder, &info) == 0 else { return problem(errno, naming ? folder : nil) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return problem(ENOTDIR, naming ? folder : nil) }
        return access(folder, W_OK) == 0 ? nil : problem(errno, naming ? folder : nil)
    }

    /// Why `folder` cannot be read now, in words (`missing`, `unreadable (permission denied)`);
    /// nil when it can.
    static func folderProblem(_ folder: String) -> String? {
        if let directory = opendir(folder) {
            closedir(directory)
            return nil
        }
        return errno == ENOENT ? "missing" : "unreadable (\(String(cString: strerror(errno)).lowercased()))"
    }

    /// `permission denied: PATH` and the like: the system's words, not a Foundation error's.
    static func problem(_ code: Int32, _ path: String?) -> String {
        let words = String(cString: strerror(code)).lowercased()
        return path.map { "\(words): \($0)" } ?? words
    }
}
