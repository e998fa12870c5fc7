import Dispatch

/// Publishes what the rooms this instance runs do to each room's stream in Redis: every change once,
/// in order, with the snapshots other instances start their viewers from. On its own queue and
/// connection, so a room's lock is never held across a Redis call; whatever the rooms hand over
/// while a round trip is under way goes in the next one, pipelined.
///
/// Fenced like the store: a script appends only while the epoch this instance holds the room with
/// is the room's, so an owner that lost the room cannot add to its history.
///
/// A change that could not be sent (Redis was unreachable for less than a lease, so this instance
/// still runs the room) leaves a hole in the room's history that the other instances' viewers would
/// carry until the cards it moved moved again. Once Redis answers again, `onRecovery` hears of each
/// such room, and the room publishes its whole snapshot to every viewer of the group.
final class RoomPublisher: Sendable {
    /// How often a publisher with holes to mend asks Redis whether it answers again.
    static let recoveryInterval = 1.0

    /// Appends one entry if the epoch is still the room's, trimming the stream near the replay ring's size.
    static let append = RedisScript(
        """
        if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
        redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], ARGV[3], 'k', ARGV[4], 'd', ARGV[5])
        return 1
        """)

    private let connection: RedisConnection
    /// The epoch this instance holds a room with, while it runs it.
    private let epoch: @Sendable (String) -> Int?
    private let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "stackweb.redis.publish")
    private let pending = Locked(Pending())

    /// What is sent, in order: entries of rooms this instance runs, and plain commands (input carried
    /// to another owner, answers to input carried here).
    private enum Item {
        case entry(room: String, RoomRelay.Entry)
        case command([[UInt8]])
    }

    private struct Pending {
        var entries: [Item] = []
        var queued = false
        /// Entries appended and Redis commands sent so far (the cost of a change through Redis).
        var published = 0
        var commands = 0
        /// Rooms with a change Redis did not take, and whether a check that it answers is due.
        var holes: Set<String> = []
        var checking = false
        var recovered: (@Sendable (String) -> Void)?
    }

    init(
        connection: RedisConnection, epoch: @escaping @Sendable (String) -> Int?,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.connection = connection
        self.epoch = epoch
        self.log = log
    }

    /// Queues the entry; returns at once.
    func publish(_ entry: RoomRelay.Entry, of room: String) {
        enqueue(.entry(room: room, entry))
    }

    /// Queues plain commands, sent in order with the entries; their replies are not looked at.
    func send(_ commands: [[[UInt8]]]) {
        for command in commands { enqueue(.command(command)) }
    }

    private func enqueue(_ item: Item) {
        let schedule = pending.withLock { pending in
            pending.entries.append(item)
            defer { pending.queued = true }
            return !pending.queued
        }
        if schedule { queue.async { [self] in drain() } }
    }

    /// `recovered(room)` is called, on the publisher's queue, for each room whose history has a
    /// hole once Redis takes entries again.
    func onRecovery(_ recovered: @escaping @Sendable (String) -> Void) {
        pending.withLock { $0.recovered = recovered }
    }

    /// Waits until everything queued so far has been sent.
    func flush() {
        queue.sync { drain() }
    }

    /// Entries appended to streams, and Redis commands sent for them, since start.
    var counts: (published: Int, commands: Int) { pending.withLock { ($0.published, $0.commands) } }

    /// Sends every queued entry in one pipeline. Runs on `queue` only.
    private func drain() {
        let entries = pending.withLock { pending in
            defer {
                pending.entries.removeAll()
                pending.queued = false
            }
            return pending.entries
        }
        guard !entries.isEmpty else { return }
        do {
            let replies = try send(entries)
            let published = zip(entries, replies).filter { item, reply in
                if case .entry = item { reply.integer == 1 } else { false }
            }
            pending.withLock {
                $0.published += published.count
                $0.commands += replies.count
            }
            var holes: Set<String> = []
            for (item, reply) in zip(entries, replies) {
                guard case .entry(let room, _) = item, case .error(let message) = reply else { continue }
                log("warning: a room's change was not published: \(message)")
                holes.insert(room)
            }
            holes.isEmpty ? mendHoles() : remember(holes)
        } catch {
            log("warning: \(entries.count) changes were not published: \(error)")
            remember(Set(entries.compactMap { if case .entry(let room, _) = $0 { room } else { nil } }))
        }
    }

    /// Rooms whose history now has a hole: mended once Redis answers (a check every `recoveryInterval`).
    private func remember(_ rooms: Set<String>) {
        guard !rooms.isEmpty else { return }
        let schedule = pending.withLock { pending in
            pending.holes.formUnion(rooms)
            defer { pending.checking = true }
            return !pending.checking
        }
        if schedule { scheduleCheck() }
    }

    private func scheduleCheck() {
        queue.asyncAfter(deadline: .now() + Self.recoveryInterval) { [weak self] in self?.check() }
    }

    /// Runs on `queue` only: Redis answers again, or the check is tried later.
    private func check() {
        guard (try? connection.command("PING")) != nil else {
            scheduleCheck()
            return
        }
        pending.withLock { $0.checking = false }
        mendHoles()
    }

    /// Hands every room with a hole to `recovered` (whose snapshot is then queued here). Runs on `queue` only.
    private func mendHoles() {
        let (rooms, recovered) = pending.withLock { pending in
            defer { pending.holes.removeAll() }
            return (pending.holes, pending.recovered)
        }
        for room in rooms { recovered?(room) }
    }

    /// One reply per item, in order (an entry of a room no longer run here is not sent: `.null`).
    private func send(_ items: [Item]) throws(RedisError) -> [RedisReply] {
        var commands: [[[UInt8]]] = []
        var sent: [Int] = []
        for (index, item) in items.enumerated() {
            let room: String
            let entry: RoomRelay.Entry
            switch item {
            case .command(let command):
                commands.append(command)
                sent.append(index)
                continue
            case .entry(let itemRoom, let itemEntry):
                room = itemRoom
                entry = itemEntry
            }
            guard let epoch = epoch(room) else { continue }
            let (kind, bytes): (String, [UInt8]) =
                switch entry {
                case .change(_, let bytes): ("c", bytes)
                case .takeover(_, let bytes): ("t", bytes)
                case .base(_, let bytes): ("b", bytes)
                }
            commands.append(
                try Self.append.call(
                    keys: [RedisKeys.epoch(room), RedisKeys.events(room)],
                    arguments: [
                        Array(String(epoch).utf8), Array(String(RoomSettings.replayCapacity).utf8),
                        Array(RedisStreamID(entry).text.utf8), Array(kind.utf8), bytes,
                    ], on: connection))
            sent.append(index)
        }
        let replies = try connection.pipeline(commands)
        var all = [RedisReply](repeating: .null, count: items.count)
        for (index, reply) in zip(sent, replies) { all[index] = reply }
        if replies.contains(where: RedisScript.isUnknown) {
            // Redis restarted and forgot the script: it is loaded again and the entries repeated
            // (every one of them was refused); the plain commands went through and are not repeated.
            try Self.append.load(on: connection)
            let entries = items.indices.filter { if case .entry = items[$0] { true } else { false } }
            for (index, reply) in zip(entries, try send(entries.map { items[$0] })) { all[index] = reply }
        }
        return all
    }
}
