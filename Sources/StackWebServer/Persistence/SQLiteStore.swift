import Dispatch
import Foundation
import StackModel

/// Keeps every room's lasting state in a SQLite database (WAL, `synchronous=FULL`: a commit is on
/// disk when it returns), written on the store's own queue.
///
/// A room is rows, not a blob: its style and front (`rooms`), its cards in a cycle with their tilts
/// (`room_cards`), its removed photos (`room_removed`). A save writes only what changed since the
/// last commit: `next`, `goto`, a flick or a swipe turn the cycle, so they update the front alone; a
/// pile card that lands with a new tilt is one row; only an insert, a removal or a shuffle rewrites
/// the room's cards. A save someone waits for is committed at once, together with every save pending
/// (one commit acknowledges them all); others within `writeDelay`. A failed commit is retried every
/// `retryDelay` until it succeeds (a full disk that gets space again); whoever waited is told it failed.
final class SQLiteStore: RoomStore {
    static let writeDelay: DispatchTimeInterval = .milliseconds(300)
    static let retryDelay: DispatchTimeInterval = .seconds(1)

    let path: String
    private let queue = DispatchQueue(label: "stackweb.sqlite")
    private let writer: SQLiteRoomWriter
    private let shared: Locked<Shared>
    private let log: OperatorLog

    private struct Shared {
        /// Every room's latest saved state, what `load` answers (committed or not).
        var latest: [String: SavedStack]
        /// Saved since the last commit, waiting for the next one.
        var unwritten: [String: SavedStack] = [:]
        var waiters: [@Sendable (Durability.Outcome) -> Void] = []
        var immediateWriteQueued = false
        var delayedWriteQueued = false
        var saves = 0
        /// Why the last commit failed, until one succeeds.
        var failure: StoreFailure?
    }

    /// Opens (or creates) the database at `path`. A JSON state file of an earlier version found
    /// there is imported once and kept beside it as `<path>.imported.json`.
    init(path: String, defaultStyle: StyleName, log: OperatorLog) throws {
        self.path = path
        self.log = log
        let imported = try StateFileImport.takeJSONStateFile(
            at: path, defaultStyle: defaultStyle, log: log.messages(as: "state.imported"))
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent.isEmpty
                ? "." : (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        writer = try SQLiteRoomWriter(path: path, defaultStyle: defaultStyle)
        if let imported {
            try writer.write(imported)
            log.record("state.imported", "imported \(imported.count) rooms from the JSON state file into \(path)")
        }
        shared = Locked(Shared(latest: writer.savedRooms()))
    }

    func load(room: String) -> SavedStack? {
        shared.withLock { $0.latest[room] }
    }

    var savesRequested: Int { shared.withLock { $0.saves } }

    /// Card rows the writer has inserted or updated since the store opened.
    var cardRowsWritten: Int { queue.sync { writer.cardRowsWritten } }

    /// Why the last commit failed, while the store cannot write.
    var failure: StoreFailure? { shared.withLock { $0.failure } }

    func save(
        _ saved: SavedStack, room: String, urgency: SaveUrgency,
        whenDurable: (@Sendable (Durability.Outcome) -> Void)?
    ) {
        let (now, later) = shared.withLock { shared -> (Bool, Bool) in
            shared.latest[room] = saved
            shared.unwritten[room] = saved
            shared.saves += 1
            if let whenDurable { shared.waiters.append(whenDurable) }
            if urgency == .acknowledged {
                defer { shared.immediateWriteQueued = true }
                return (!shared.immediateWriteQueued, false)
            }
            defer { shared.delayedWriteQueued = true }
            return (false, !shared.delayedWriteQueued)
        }
        if now { queue.async { [self] in write() } }
        if later { queue.asyncAfter(deadline: .now() + Self.writeDelay) { [self] in write() } }
    }

    func flush() {
        queue.sync { write() }
    }

    /// Commits every unwritten room and tells everyone who waited. Runs on `queue` only.
    private func write() {
        let (rooms, waiters) = shared.withLock { shared in
            defer {
                shared.unwritten.removeAll()
                shared.waiters.removeAll()
                shared.immediateWriteQueued = false
                shared.delayedWriteQueued = false
            }
            return (shared.unwritten, shared.waiters)
        }
        guard !rooms.isEmpty else { return }
        let outcome: Durability.Outcome
        do {
            let started = DispatchTime.now().uptimeNanoseconds
            defer {
                Metrics.standard.saveDuration.observe(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            }
            try writer.write(rooms)
            Metrics.standard.saves.add()
            outcome = .success(())
            let recovered = shared.withLock { shared in
                defer { shared.failure = nil }
                return shared.failure != nil
            }
            if recovered { log.record("save.recovered", "saving to \(path) works again", ["path": .string(path)]) }
        } catch {
            Metrics.standard.saveFailures.add()
            outcome = .failure(StoreFailure(description: error.description))
            retryLater(rooms, failure: StoreFailure(description: error.description))
        }
        for waiter in waiters { waiter(outcome) }
    }

    /// Puts back what a failed commit held (unless a newer state came meanwhile) and tries again.
    private func retryLater(_ rooms: [String: SavedStack], failure: StoreFailure) {
        let (first, schedule) = shared.withLock { shared -> (Bool, Bool) in
            for (room, saved) in rooms where shared.unwritten[room] == nil { shared.unwritten[room] = saved }
            defer {
                shared.failure = failure
                shared.delayedWriteQueued = true
            }
            return (shared.failure == nil, !shared.delayedWriteQueued)
        }
        if first {
            log.record(
                "save.failed", "warning: could not save to \(path) (\(failure)); retrying every second",
                ["path": .string(path), "error": .string(failure.description)])
        }
        if schedule { queue.asyncAfter(deadline: .now() + Self.retryDelay) { [self] in write() } }
    }
}
