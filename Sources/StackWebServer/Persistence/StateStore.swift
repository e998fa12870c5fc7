import Dispatch
import Foundation
import Glibc
import StackModel

/// Keeps every room's lasting state and writes it to one file, atomically (temporary file, fsync,
/// rename), within a second of a change, so a crash loses nothing older than that.
///
/// Without a path it only keeps the state in memory (rooms that are unloaded while idle still come
/// back as they were).
final class StateStore: Sendable {
    /// How long after a change the file is written: changes in between are written together.
    static let writeDelay: DispatchTimeInterval = .milliseconds(300)

    let path: String?
    private let contents: Locked<Contents>
    private let queue = DispatchQueue(label: "stackweb.state")
    private let log: @Sendable (String) -> Void

    private struct Contents {
        var rooms: [String: SavedStack]
        var dirty: Set<String> = []
        var writeScheduled = false
        /// Changes reported so far, for the tests (a drag must not report one per frame).
        var marks = 0
        /// Reads a loaded room's current state; set once the rooms exist.
        var source: (@Sendable (String) -> SavedStack?)?
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

    /// Where the store reads a loaded room's current state when it writes.
    func setSource(_ source: @escaping @Sendable (String) -> SavedStack?) {
        contents.withLock { $0.source = source }
    }

    func saved(room: String) -> SavedStack? {
        contents.withLock { $0.rooms[room] }
    }

    /// A room changed: write it soon. O(1); the room's state is read only when writing.
    func markDirty(_ room: String) {
        let schedule = contents.withLock { contents in
            contents.marks += 1
            contents.dirty.insert(room)
            defer { contents.writeScheduled = true }
            return !contents.writeScheduled
        }
        if schedule {
            queue.asyncAfter(deadline: .now() + Self.writeDelay) { [weak self] in self?.write() }
        }
    }

    var changesReported: Int { contents.withLock { $0.marks } }

    /// Takes a room's final state (it was unloaded) and writes it soon.
    func keep(_ saved: SavedStack, room: String) {
        contents.withLock { $0.rooms[room] = saved }
        markDirty(room)
    }

    /// Writes now, waiting for it (shutdown).
    func flush() {
        queue.sync { write() }
    }

    private func write() {
        let (dirty, source) = contents.withLock { contents in
            defer {
                contents.dirty.removeAll()
                contents.writeScheduled = false
            }
            return (contents.dirty, contents.source)
        }
        // Room locks are taken outside the store's lock: a room may be marking itself dirty now.
        var fresh: [String: SavedStack] = [:]
        for room in dirty { fresh[room] = source?(room) }
        let rooms = contents.withLock { contents in
            contents.rooms.merge(fresh) { _, new in new }
            return contents.rooms
        }
        guard let path else { return }
        do {
            try AtomicFile.write(try JSONEncoder().encode(StateFile(rooms: rooms)), to: path)
        } catch {
            log("warning: could not save state to \(path): \(error)")
        }
    }
}
