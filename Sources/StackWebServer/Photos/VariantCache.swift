// CVips: libvips' headers include <sys/stat.h>, and Swift may attribute `stat` and `timespec` to
// whichever module brought them in first; without this import an incremental build can refuse
// their members (MemberImportVisibility).
import CVips
import Dispatch
import Foundation
import Glibc

/// Keeps the folder of resized variants under a size limit, least recently used out first.
///
/// A request only notes in memory when it used a variant (no disk write on an HTTP thread; atime is
/// not to be trusted on noatime/relatime mounts). Pruning runs on a background queue when the
/// variants written since the last count may exceed the limit, and at start; it removes files
/// until the folder is at 80 % of the limit (so that it does not run again for every new
/// variant), and writes the remembered use times as the kept files' atimes, so the order
/// survives a restart.
final class VariantCache: Sendable {
    static let defaultLimit: Int64 = 1 << 30
    /// Glibc's UTIME_OMIT, a macro Swift does not import: leave this time as it is.
    static let utimeOmit = (1 << 30) - 2
    /// Pruned down to this share of the limit.
    static let lowWater = 0.8

    let folder: String
    let limit: Int64

    private struct State {
        var lastUse: [String: Double] = [:]
        /// Bytes in the folder as last counted, plus variants written since; nil before the first count.
        var total: Int64?
        var pruning = false
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "stackweb.cache-pruner", qos: .background)

    init(folder: String, limit: Int64 = VariantCache.defaultLimit) {
        self.folder = folder
        self.limit = limit
        schedulePrune()
    }

    /// A request used the variant named `name` (a file in the folder).
    func used(_ name: String) {
        let now = Date().timeIntervalSince1970
        state.withLock { $0.lastUse[name] = now }
    }

    /// A new variant of `bytes` was written.
    func added(_ name: String, bytes: Int64) {
        let now = Date().timeIntervalSince1970
        let over = state.withLock { state -> Bool in
            state.lastUse[name] = now
            state.total = state.total.map { $0 + bytes }
            // Current between counts: an alert on the cache's size must not wait for a prune.
            if let total = state.total { Metrics.standard.variantBytes.set(Int(total)) }
            return (state.total ?? 0) > limit
        }
        if over { schedulePrune() }
    }

    private func schedulePrune() {
        let start = state.withLock { state -> Bool in
            defer { state.pruning = true }
            return !state.pruning
        }
        guard start else { return }
        queue.async { [self] in prune() }
    }

    /// Counts the folder and removes the least recently used variants while over the limit.
    /// Internal for the tests, which call it directly; the server calls it on its queue.
    func prune() {
        var files: [(name: String, size: Int64, used: Double, atime: Double)] = []
        let remembered = state.withLock { $0.lastUse }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where !name.hasPrefix(PhotoIndex.fileName) {
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let atime = Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) / 1e9
            let mtime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            let used = max(remembered[name] ?? 0, atime, mtime)
            files.append((name, Int64(info.st_blocks) * 512, used, atime))
        }
        var total = files.reduce(0) { $0 + $1.size }
        var removed: Set<String> = []
        if total > limit {
            let target = Int64(Double(limit) * Self.lowWater)
            for file in files.sorted(by: { $0.used < $1.used }) where total > target {
                if unlink(folder + "/" + file.name) == 0 || errno == ENOENT {
                    total -= file.size
                    removed.insert(file.name)
                }
            }
        }
        // Use times kept on disk for the next start; the modification time is left alone.
        for file in files where !removed.contains(file.name) && file.used > file.atime + 1 {
            let sec = Int(file.used)
            var times = [
                timespec(tv_sec: sec, tv_nsec: Int((file.used - Double(sec)) * 1e9)),
                timespec(tv_sec: 0, tv_nsec: Self.utimeOmit),
            ]
            _ = utimensat(AT_FDCWD, folder + "/" + file.name, &times, 0)
        }
        Metrics.standard.variantEvictions.add(removed.count)
        Metrics.standard.variantBytes.set(Int(total))
        state.withLock { state in
            state.total = total
            state.pruning = false
            for name in removed { state.lastUse[name] = nil }
        }
    }

    /// Waits until a prune in progress (or queued) is over: for tests.
    func waitForPruning() {
        queue.sync {}
    }
}
