import Dispatch
import Foundation
import StackModel

/// Keeps every room's lasting state in one JSON file, replaced atomically (temporary file, fsync,
/// rename, fsync of the folder) on the store's own queue.
///
/// A save someone waits for is written at once, together with everything else pending (one write
/// acknowledges every change that came while the previous write ran); other saves are written
/// within `writeDelay`. Without a path the state lives in memory only (rooms that are unloaded
/// while idle still come back as they were) and every save is "durable" at once.
final class JSONFileStore: RoomStore {
    /// How long a save nobody waits for may wait for others to write with it.
    static let writeDelay: DispatchTimeInterval = .milliseconds(300)

    let path: String?
    private let contents: Locked<Contents>
    private let queue = DispatchQueue(label: "stackweb.state")
    private let log: @Sendable (String) -> Void

    private struct Contents {
        var rooms: [String: SavedStack]
        var waiters: [@Sendable (Durability.Outcome) -> Void] = []
        var immediateWriteQueued = false
        var delayedWriteQueued = false
        /// Something was saved since the last write.
        var dirty = false
        /// Saves asked for so far, for the tests (a drag must not ask for one per frame).
        var saves = 0
    }

    /// Reads `path` if it exists. A file that cannot be read back is moved aside (kept for a person
    /// to look at) and the server starts clean, with a warning.
    init(path: String?, defaultStyle: StyleName, log: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.log = log
        var rooms: [String: SavedStack] = [:]
        if let path, let data = FileManager.default.contents(atPath: path) {
            do {
                rooms = try JSONDecoder().decode(StateFile.self, from: data).savedStacks(defaultStyle: defaultStyle)
            } catch {
                let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
                _ = try? FileManager.default.moveItem(atPath: path, toPath: aside)
                log("warning: \(path) could not be read (\(error)); moved it to \(aside) and started clean")
            }
        }
        contents = Locked(Contents(rooms: rooms))
    }

    func load(room: String) -> SavedStack? {
        contents.withLock { $0.rooms[room] }
    }

    var savesRequested: Int { contents.withLock { $0.saves } }

    func save(
        _ saved: SavedStack, room: String, urgency: SaveUrgency,
        whenDurable: (@Sendable (Durability.Outcome) -> Void)?
    ) {
        guard path != nil else {
            contents.withLock {
                $0.rooms[room] = saved
                $0.saves += 1
            }
            whenDurable?(.success(()))
            return
        }
        let (now, later) = contents.withLock { contents -> (Bool, Bool) in
            contents.rooms[room] = saved
            contents.saves += 1
            contents.dirty = true
            if let whenDurable { contents.waiters.append(whenDurable) }
            if urgency == .acknowledged {
                defer { contents.immediateWriteQueued = true }
                return (!contents.immediateWriteQueued, false)
            }
            defer { contents.delayedWriteQueued = true }
            return (false, !contents.delayedWriteQueued)
        }
        if now { queue.async { [self] in write() } }
        if later { queue.asyncAfter(deadline: .now() + Self.writeDelay) { [self] in write() } }
    }

    func flush() {
        queue.sync { write() }
    }

    /// Writes every room as it is now and tells everyone who waited. Runs on `queue` only.
    private func write() {
        let (rooms, waiters, dirty) = contents.withLock { contents in
            defer {
                contents.waiters.removeAll()
                contents.immediateWriteQueued = false
                contents.delayedWriteQueued = false
                contents.dirty = false
            }
            return (contents.rooms, contents.waiters, contents.dirty)
        }
        guard let path, dirty else { return }
        let outcome: Durability.Outcome
        do {
            try AtomicFile.write(try JSONEncoder().encode(StateFile(rooms: rooms)), to: path)
            outcome = .success(())
        } catch {
            log("warning: could not save state to \(path): \(error)")
            outcome = .failure(StoreFailure(description: "\(error)"))
        }
        for waiter in waiters { waiter(outcome) }
    }
}
