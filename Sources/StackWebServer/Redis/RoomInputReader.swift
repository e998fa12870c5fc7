import Dispatch
import Foundation

/// Reads the input other instances carry to the rooms this instance runs (`RedisKeys.input`), in
/// the order it reached Redis, and hands each to `apply`: on a thread of its own, blocked in
/// `XREADGROUP … BLOCK` on a connection of its own. The owners of a room share one consumer group,
/// so an entry is delivered once, to whichever instance owns the room when it is read: a new owner
/// goes on where the last one stopped, and nothing is applied twice.
final class RoomInputReader: Sendable {
    static let group = Array("owners".utf8)

    private let connection: RedisConnection
    private let instanceID: String
    private let owned: @Sendable () -> Set<String>
    private let apply: @Sendable (_ room: String, _ entry: [String: [UInt8]]) -> Void
    private let thread = ReaderThread()

    init(
        url: RedisURL, instanceID: String, owned: @escaping @Sendable () -> Set<String>,
        apply: @escaping @Sendable (String, [String: [UInt8]]) -> Void
    ) {
        connection = RedisConnection(url: url, timeout: 2 + Double(RoomFollower.blockMilliseconds) / 1000)
        self.instanceID = instanceID
        self.owned = owned
        self.apply = apply
    }

    /// The command that makes a room's input stream and its owners' group, if they are not there
    /// yet (an error reply `BUSYGROUP` says they are). Starting at 0 loses nothing: whoever makes
    /// the group makes it before anything is added.
    static func createGroup(_ room: String) -> [[UInt8]] {
        [
            Array("XGROUP".utf8), Array("CREATE".utf8), RedisKeys.input(room), group, Array("0".utf8),
            Array("MKSTREAM".utf8),
        ]
    }

    func start() {
        thread.start { [self] in run() }
    }

    func stop() {
        thread.stop()
    }

    private func run() {
        var ready: Set<String> = []
        while thread.isRunning {
            let rooms = owned()
            ready.formIntersection(rooms)
            let new = rooms.subtracting(ready)
            if !new.isEmpty, (try? connection.pipeline(new.map(Self.createGroup))) != nil { ready.formUnion(new) }
            if ready.isEmpty || !read(Array(ready)) {
                // Nothing to read, or Redis unreachable (a Redis that lost its data lost the groups
                // too: they are made again).
                ready.removeAll()
                thread.rest(milliseconds: RoomFollower.blockMilliseconds)
            }
        }
    }

    /// One `XREADGROUP` over the rooms' input; `false` when Redis could not be asked.
    private func read(_ rooms: [String]) -> Bool {
        let keys = rooms.map(RedisKeys.input)
        let byKey = Dictionary(uniqueKeysWithValues: zip(keys, rooms))
        let command =
            [Array("XREADGROUP".utf8), Array("GROUP".utf8), Self.group, Array(instanceID.utf8)]
            + ["COUNT", "256", "BLOCK", String(RoomFollower.blockMilliseconds), "NOACK", "STREAMS"].map {
                Array($0.utf8)
            }
            + keys + rooms.map { _ in Array(">".utf8) }
        guard let reply = try? connection.command(command) else { return false }
        for stream in reply.array ?? [] {
            guard let parts = stream.array, parts.count == 2, let key = parts[0].bytes, let room = byKey[key] else {
                continue
            }
            for entry in parts[1].array ?? [] {
                guard let fields = entry.array?.last?.array else { continue }
                apply(room, Self.fields(fields))
            }
        }
        return true
    }

    /// A stream entry's fields by name.
    static func fields(_ flat: [RedisReply]) -> [String: [UInt8]] {
        var fields: [String: [UInt8]] = [:]
        for pair in stride(from: 0, to: flat.count - 1, by: 2) {
            if let name = flat[pair].text, let value = flat[pair + 1].bytes { fields[name] = value }
        }
        return fields
    }
}
