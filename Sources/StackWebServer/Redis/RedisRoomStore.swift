import Dispatch
import StackModel

/// Keeps every room's lasting state in the group's Redis (`--redis`), so that any instance can
/// restore a room exactly. A save reaches Redis on the store's own queue; whoever waits for it is
/// told once Redis has answered. Saves that come while a write is under way go together in the next
/// (one pipelined round trip for all the rooms pending).
///
/// Fenced: a room's state is written only by the instance that owns the room, with the epoch its
/// lease gave it, and the write is checked against the room's current epoch in Redis by one script,
/// atomically. An owner that was paused past its lease (another instance took the room over and
/// raised the epoch) has every later write refused.
///
/// While Redis cannot be reached, the store keeps what is pending, says why in `failure`, and tries
/// again every `retryDelay`; whoever waited is told it failed.
final class RedisRoomStore: RoomStore {
    static let retryDelay: DispatchTimeInterval = .milliseconds(500)

    /// Writes a room's state if, and only if, the epoch given is the room's current one.
    static let fencedWrite = RedisScript(
        """
        if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
        redis.call('SET', KEYS[2], ARGV[2])
        redis.call('SADD', KEYS[3], ARGV[3])
        return 1
        """)

    /// Why a save of a room this instance does not own (any more) is refused: it is not a failure of
    /// Redis, and the store stays healthy.
    static let notOwner = StoreFailure(description: "this instance does not run the room (any more)")

    private let connection: RedisConnection
    private let defaultStyle: StyleName
    private let queue = DispatchQueue(label: "stackweb.redis.store")
    private let shared: Locked<Shared>
    private let log: @Sendable (String) -> Void

    private struct Shared {
        /// Every room's latest state known here, what `load` answers.
        var latest: [String: SavedStack] = [:]
        /// Saved since the last write, waiting for the next.
        var unwritten: [String: SavedStack] = [:]
        var waiters: [String: [@Sendable (Durability.Outcome) -> Void]] = [:]
        /// The epoch of each room this instance owns; `nil` when writes are not fenced (no leases).
        var epochs: [String: Int]?
        var writeQueued = false
        var failure: StoreFailure?
        /// Rooms whose write the fence refused (another instance owns them now), for `refused`.
        var refusedWrites = 0
    }

    /// Reads every room's state from Redis (so `load` answers at once, from memory). `fenced`: writes
    /// need an epoch (`owned(_:epoch:saved:)`); without, every save is written as it is.
    init(
        connection: RedisConnection, defaultStyle: StyleName, fenced: Bool,
        log: @escaping @Sendable (String) -> Void
    ) throws(RedisError) {
        self.connection = connection
        self.defaultStyle = defaultStyle
        self.log = log
        var shared = Shared(epochs: fenced ? [:] : nil)
        let names = try connection.command([Array("SMEMBERS".utf8), RedisKeys.rooms]).array?.compactMap(\.text) ?? []
        let states = try connection.pipeline(names.map { [Array("GET".utf8), RedisKeys.state($0)] })
        for (name, state) in zip(names, states) {
            if let json = state.bytes, let saved = SavedStack(json: json, defaultStyle: defaultStyle) {
                shared.latest[name] = saved
            }
        }
        self.shared = Locked(shared)
    }

    func load(room: String) -> SavedStack? {
        shared.withLock { $0.latest[room] }
    }

    var failure: StoreFailure? { shared.withLock { $0.failure } }

    /// Writes the fence has refused so far.
    var refusedWrites: Int { shared.withLock { $0.refusedWrites } }

    /// This instance took the room over with `epoch`; `saved` is its state as Redis held it then.
    func owned(_ room: String, epoch: Int, saved: SavedStack?) {
        shared.withLock { shared in
            shared.epochs?[room] = epoch
            shared.latest[room] = saved
            shared.unwritten[room] = nil
        }
    }

    /// This instance no longer owns the room: its pending save, if any, will be refused.
    func disowned(_ room: String) {
        shared.withLock { _ = $0.epochs?.removeValue(forKey: room) }
    }

    func save(
        _ saved: SavedStack, room: String, urgency: SaveUrgency,
        whenDurable: (@Sendable (Durability.Outcome) -> Void)?
    ) {
        let queueWrite = shared.withLock { shared -> Bool in
            shared.latest[room] = saved
            shared.unwritten[room] = saved
            if let whenDurable { shared.waiters[room, default: []].append(whenDurable) }
            defer { shared.writeQueued = true }
            return !shared.writeQueued
        }
        if queueWrite { queue.async { [self] in write() } }
    }

    func flush() {
        queue.sync { write() }
    }

    /// Writes every unwritten room in one round trip and tells who waited. Runs on `queue` only.
    private func write() {
        let (rooms, waiters, epochs) = shared.withLock { shared in
            defer {
                shared.unwritten.removeAll()
                shared.waiters.removeAll()
                shared.writeQueued = false
            }
            return (shared.unwritten, shared.waiters, shared.epochs)
        }
        guard !rooms.isEmpty else { return }
        let names = Array(rooms.keys)
        var outcomes: [String: Durability.Outcome] = [:]
        do {
            let written = try writeAll(names.map { ($0, rooms[$0]!) }, epochs: epochs)
            for (name, accepted) in zip(names, written) {
                outcomes[name] = accepted ? .success(()) : .failure(Self.notOwner)
            }
            let (recovered, refused) = shared.withLock { shared in
                defer { shared.failure = nil }
                shared.refusedWrites += written.filter { !$0 }.count
                return (shared.failure != nil, written.contains(false))
            }
            if recovered { log("Redis at \(connection.url) works again") }
            if refused { log("a write of a room this instance no longer runs was refused (fenced)") }
        } catch {
            let failure = StoreFailure(description: error.description)
            for name in names { outcomes[name] = .failure(failure) }
            retryLater(rooms, failure: failure)
        }
        for (room, roomWaiters) in waiters {
            for waiter in roomWaiters { waiter(outcomes[room] ?? .success(())) }
        }
    }

    /// One pipeline: per room, the fenced script (or a plain write without fencing). Whether each
    /// write was accepted, in order; a room without an epoch here is refused without asking Redis.
    private func writeAll(_ rooms: [(String, SavedStack)], epochs: [String: Int]?) throws(RedisError) -> [Bool] {
        guard let epochs else {
            let commands = rooms.flatMap { name, saved in
                [
                    [Array("SET".utf8), RedisKeys.state(name), saved.json],
                    [Array("SADD".utf8), RedisKeys.rooms, Array(name.utf8)],
                ]
            }
            for reply in try connection.pipeline(commands) {
                if case .error(let message) = reply { throw .refused(message) }
            }
            return rooms.map { _ in true }
        }
        let owned = rooms.filter { epochs[$0.0] != nil }
        var commands: [[[UInt8]]] = []
        for (name, saved) in owned {
            commands.append(
                try Self.fencedWrite.call(
                    keys: [RedisKeys.epoch(name), RedisKeys.state(name), RedisKeys.rooms],
                    arguments: [Array(String(epochs[name]!).utf8), saved.json, Array(name.utf8)], on: connection))
        }
        let replies = try connection.pipeline(commands)
        if replies.contains(where: RedisScript.isUnknown) {
            // Redis restarted since the script was loaded: load it again and repeat (the writes are
            // idempotent: each sets a whole state).
            try Self.fencedWrite.load(on: connection)
            return try writeAll(rooms, epochs: epochs)
        }
        var accepted: [String: Bool] = [:]
        for ((name, _), reply) in zip(owned, replies) {
            if case .error(let message) = reply { throw .refused(message) }
            accepted[name] = reply.integer == 1
        }
        return rooms.map { accepted[$0.0] ?? false }
    }

    /// Puts back what a failed write held (unless a newer state came meanwhile) and tries again.
    private func retryLater(_ rooms: [String: SavedStack], failure: StoreFailure) {
        let (first, schedule) = shared.withLock { shared -> (Bool, Bool) in
            for (room, saved) in rooms where shared.unwritten[room] == nil { shared.unwritten[room] = saved }
            defer {
                shared.failure = failure
                shared.writeQueued = true
            }
            return (shared.failure == nil, !shared.writeQueued)
        }
        if first { log("warning: cannot write to Redis at \(connection.url) (\(failure)); retrying") }
        if schedule { queue.asyncAfter(deadline: .now() + Self.retryDelay) { [self] in write() } }
    }
}
