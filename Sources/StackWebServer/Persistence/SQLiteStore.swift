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
    /// Held (shared) while the store is open: `stackweb restore` refuses while it is.
    private let lock: StateLock?

    private struct Shared {
        /// Every room's latest saved state, what `load` answers (committed or not).
        var latest: [String: SavedStack]
        /// Every room's state as last committed.
        var committed: [String: SavedStack]
        /// Saved since the last commit, waiting for the next one.
        var unwritten: [String: SavedStack] = [:]
        /// Answers to keep with the next commit, by room.
        var unwrittenAnswers: [String: [StoredAnswer]] = [:]
        /// The answers as last read or committed, by room, for `answers(room:)`.
        var answers: [String: [StoredAnswer]] = [:]
        var waiters: [String: [@Sendable (Durability.Outcome) -> Void]] = [:]
        /// Rooms whose commit failed someone waiting: their saves are refused until one comes
        /// `.restored` (the room went back to its committed state).
        var refusing: Set<String> = []
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
        lock = try? StateLock(state: path)
        _ = lock?.shared()
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
        let rooms = writer.savedRooms()
        var shared = Shared(latest: rooms, committed: rooms)
        shared.answers = writer.answers(since: Clock.now() - IdempotencyLedger.lifetime)
        self.shared = Locked(shared)
    }

    func load(room: String) -> SavedStack? {
        shared.withLock { $0.latest[room] }
    }

    var savedRooms: [String: SavedStack] { shared.withLock { $0.latest } }

    func secret(named name: String, drawn: String) throws -> String {
        try queue.sync { () throws(SQLiteError) in try writer.secret(named: name, drawn: drawn) }
    }

    func historyStart(atLeast floor: Int) throws -> Int {
        try queue.sync { () throws(SQLiteError) in try writer.historyStart(atLeast: floor) }
    }

    var savesRequested: Int { shared.withLock { $0.saves } }

    /// Card rows the writer has inserted or updated since the store opened.
    var cardRowsWritten: Int { queue.sync { writer.cardRowsWritten } }

    /// Why the last commit failed, while the store cannot write.
    var failure: StoreFailure? { shared.withLock { $0.failure } }

    func answers(room: String) -> [StoredAnswer] {
        shared.withLock { $0.answers[room] ?? [] }
    }

    func save(
        _ saved: SavedStack, room: String, urgency: SaveUrgency,
        whenDurable: (@Sendable (Durability.Outcome) -> Void)?
    ) {
        save(saved, room: room, urgency: urgency, answer: nil, whenDurable: whenDurable)
    }

    func save(
        _ saved: SavedStack, room: String, urgency: SaveUrgency, answer: StoredAnswer?,
        whenDurable: (@Sendable (Durability.Outcome) -> Void)?
    ) {
        let (now, later, refused) = shared.withLock { shared -> (Bool, Bool, Bool) in
            if shared.refusing.contains(room) {
                guard urgency == .restored else { return (false, false, true) }
                shared.refusing.remove(room)
            }
            shared.latest[room] = saved
            shared.unwritten[room] = saved
            if let answer { shared.unwrittenAnswers[room, default: []].append(answer) }
            shared.saves += 1
            if let whenDurable { shared.waiters[room, default: []].append(whenDurable) }
            if urgency == .acknowledged {
                defer { shared.immediateWriteQueued = true }
                return (!shared.immediateWriteQueued, false, false)
            }
            defer { shared.delayedWriteQueued = true }
            return (false, !shared.delayedWriteQueued, false)
        }
        if refused {
            whenDurable?(.failure(StoreFailure(description: "an earlier change of this room could not be saved")))
            return
        }
        if now { queue.async { [self] in write() } }
        if later { queue.asyncAfter(deadline: .now() + Self.writeDelay) { [self] in write() } }
    }

    func flush() {
        queue.sync { write() }
    }

    /// Commits every unwritten room and tells everyone who waited. Runs on `queue` only.
    private func write() {
        let (rooms, waiters, answers) = shared.withLock { shared in
            defer {
                shared.unwritten.removeAll()
                shared.unwrittenAnswers.removeAll()
                shared.waiters.removeAll()
                shared.immediateWriteQueued = false
                shared.delayedWriteQueued = false
            }
            return (shared.unwritten, shared.waiters, shared.unwrittenAnswers)
        }
        guard !rooms.isEmpty else { return }
        let outcome: Durability.Outcome
        var failed = false
        do {
            let started = DispatchTime.now().uptimeNanoseconds
            defer {
                Metrics.standard.saveDuration.observe(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            }
            try writer.write(rooms, answers: answers, forgettingBefore: Clock.now() - IdempotencyLedger.lifetime)
            Metrics.standard.saves.add()
            outcome = .success(())
            let recovered = shared.withLock { shared in
                defer { shared.failure = nil }
                shared.committed.merge(rooms) { _, new in new }
                for (room, kept) in answers { shared.answers[room, default: []] += kept }
                return shared.failure != nil
            }
            if recovered { log.record("save.recovered", "saving to \(path) works again", ["path": .string(path)]) }
        } catch {
            Metrics.standard.saveFailures.add()
            outcome = .failure(StoreFailure(description: error.description))
            failed = true
        }
        if failed, case .failure(let failure) = outcome {
            // A room someone waited for is refused until it has gone back; the rest is tried again.
            let refused = Set(waiters.keys)
            shared.withLock { shared in
                shared.refusing.formUnion(refused)
                for room in refused { shared.latest[room] = shared.committed[room] }
            }
            retryLater(rooms.filter { !refused.contains($0.key) }, failure: failure)
        }
        for waiter in waiters.values.joined() { waiter(outcome) }
    }

    /// Puts back what a failed commit held (unless a newer state came meanwhile) and tries again.
    private func retryLater(_ rooms: [String: SavedStack], failure: StoreFailure) {
        let (first, schedule) = shared.withLock { shared -> (Bool, Bool) in
            for (room, saved) in rooms where shared.unwritten[room] == nil && !shared.refusing.contains(room) {
                shared.unwritten[room] = saved
            }
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
