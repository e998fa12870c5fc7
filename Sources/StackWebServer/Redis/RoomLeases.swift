import Dispatch
import StackModel

/// Which rooms this instance runs in its group: one owner per room, fenced.
///
/// A room is owned by holding its lease in Redis (`SET … NX PX`, renewed every `renewInterval`,
/// well before it expires) and is taken over with a new epoch (`INCR`), in one script that also
/// reads the room's state, so the new owner restores exactly what the last one kept. The store
/// names the epoch in every write, and Redis refuses a write whose epoch is no longer the room's.
///
/// Locally, ownership ends a safety margin before the lease could have expired unrenewed: an
/// owner that was paused (SIGSTOP, a long GC-like stall, a frozen VM) finds on waking that it owns
/// nothing, before its first renewal attempt — and whatever it still tries to write is fenced.
///
/// Every room this instance has in memory is wanted: when its owner dies, its lease expires and
/// one of the instances that want it takes it over at its next attempt (every `attemptInterval`).
/// All Redis calls run on the leases' own queue and connection.
final class RoomLeases: Sendable {
    static let leaseMilliseconds = 3000
    static let renewInterval = 1.0
    static let attemptInterval = 0.25
    /// Ownership ends locally this long before the lease could expire: a renewal on its way when
    /// the lease runs out cannot make two owners.
    static let safetyMargin = 0.5

    /// What changed, told on the leases' queue.
    enum Change {
        /// This instance runs the room now, from `saved` (the room's state in Redis, `nil` for none);
        /// `lastSeq` is the id of the last event any owner published.
        case gained(room: String, epoch: Int, saved: SavedStack?, lastSeq: Int)
        /// Another instance runs it, or may: this one must stop.
        case lost(room: String)
    }

    static let acquire = RedisScript(
        """
        if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end
        local last = redis.call('XREVRANGE', KEYS[4], '+', '-', 'COUNT', 1)
        return {redis.call('INCR', KEYS[2]), redis.call('GET', KEYS[3]), last[1] and last[1][1] or '0-0'}
        """)
    static let renew = RedisScript(
        """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
        return 0
        """)
    static let release = RedisScript(
        """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """)

    let instanceID: String
    private let connection: RedisConnection
    private let defaultStyle: StyleName
    private let queue = DispatchQueue(label: "stackweb.redis.leases")
    /// Made once, scheduled once in `start`, cancelled once in `stop`: the timer's own calls are thread-safe.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer
    private let state = Locked(State())
    private let changed: Locked<@Sendable (Change) -> Void> = Locked({ _ in })

    private struct State {
        var wanted: Set<String> = []
        var owned: [String: Held] = [:]
        /// Between `start` and `stop`: rooms wanted before start wait for it.
        var running = false
        /// Why the last round with Redis failed, until one succeeds.
        var failure: StoreFailure?
        /// Wanted rooms whose first attempt is over, and who waits for the others'.
        var decided: Set<String> = []
        var waiting: [String: [@Sendable () -> Void]] = [:]
    }

    private struct Held {
        var epoch: Int
        /// When the last renewal (or the takeover) was sent: the lease runs from then.
        var renewedAt: DispatchTime
        var validUntil: DispatchTime {
            renewedAt + Double(RoomLeases.leaseMilliseconds) / 1000 - RoomLeases.safetyMargin
        }
    }

    init(instanceID: String, connection: RedisConnection, defaultStyle: StyleName) {
        self.instanceID = instanceID
        self.connection = connection
        self.defaultStyle = defaultStyle
        timer = DispatchSource.makeTimerSource(queue: queue)
    }

    /// Starts trying and renewing; `changed` hears of every room gained and lost.
    func start(changed: @escaping @Sendable (Change) -> Void) {
        self.changed.withLock { $0 = changed }
        state.withLock { $0.running = true }
        timer.schedule(deadline: .now(), repeating: Self.attemptInterval)
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
    }

    /// Gives every lease back (so another instance takes the rooms over at once) and stops.
    func stop() {
        timer.cancel()
        queue.sync {
            let owned = state.withLock { state in
                state.running = false
                defer { state.owned.removeAll() }
                return Array(state.owned.keys)
            }
            _ = try? connection.pipeline(
                owned.compactMap {
                    try? Self.release.call(
                        keys: [RedisKeys.lease($0)], arguments: [Array(instanceID.utf8)], on: connection)
                })
        }
    }

    var failure: StoreFailure? { state.withLock { $0.failure } }

    func owns(_ room: String) -> Bool {
        state.withLock { state in state.owned[room].map { DispatchTime.now() < $0.validUntil } ?? false }
    }

    func want(_ room: String) {
        let new = state.withLock { $0.wanted.insert(room).inserted && $0.running }
        if new { queue.async { [weak self] in self?.tick() } }
    }

    func unwant(_ room: String) {
        state.withLock { state in
            state.wanted.remove(room)
            state.decided.remove(room)
        }
    }

    /// Rooms wanted here that another instance runs (or none yet): their viewers here follow the owner.
    var followed: Set<String> {
        state.withLock { state in state.wanted.filter { state.owned[$0] == nil } }
    }

    /// Rooms this instance runs now.
    var ownedRooms: Set<String> {
        let now = DispatchTime.now()
        return state.withLock { Set($0.owned.filter { now < $0.value.validUntil }.keys) }
    }

    func isUndecided(_ room: String) -> Bool {
        state.withLock { $0.wanted.contains(room) && !$0.decided.contains(room) }
    }

    func whenDecided(_ room: String, _ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { state in
            if state.decided.contains(room) || !state.wanted.contains(room) { return true }
            state.waiting[room, default: []].append(body)
            return false
        }
        if now { body() }
    }

    /// The epoch this instance holds the room with, while it owns it.
    func epoch(of room: String) -> Int? {
        state.withLock { $0.owned[room]?.epoch }
    }

    /// Renews what is due, takes what is free. Runs on `queue` only.
    private func tick() {
        let now = DispatchTime.now()
        let (expired, dropped, due, free) = state.withLock { state in
            guard state.running else { return ([String](), [String](), [String](), [String]()) }
            let expired = state.owned.filter { now >= $0.value.validUntil }.map(\.key)
            let dropped = state.owned.keys.filter { !state.wanted.contains($0) && !expired.contains($0) }
            for room in expired + dropped { state.owned[room] = nil }
            let due = state.owned.filter { now >= $0.value.renewedAt + Self.renewInterval }.map(\.key)
            let free = state.wanted.filter { state.owned[$0] == nil }
            return (expired, dropped, due, Array(free))
        }
        let tell = changed.withLock { $0 }
        for room in expired + dropped { tell(.lost(room: room)) }
        if !dropped.isEmpty { release(dropped) }
        if !due.isEmpty { renew(due, sentAt: now) }
        if !free.isEmpty { acquire(free, sentAt: now) }
    }

    private func renew(_ rooms: [String], sentAt: DispatchTime) {
        let arguments = [Array(instanceID.utf8), Array(String(Self.leaseMilliseconds).utf8)]
        let round = { () throws(RedisError) in try self.run(Self.renew, rooms, arguments: { _ in arguments }) }
        guard let replies = reporting(round) else { return }
        var lost: [String] = []
        state.withLock { state in
            for (room, reply) in zip(rooms, replies) where state.owned[room] != nil {
                if reply.integer == 1 {
                    state.owned[room]?.renewedAt = sentAt
                } else {
                    state.owned[room] = nil
                    lost.append(room)
                }
            }
        }
        let tell = changed.withLock { $0 }
        for room in lost { tell(.lost(room: room)) }
    }

    private func acquire(_ rooms: [String], sentAt: DispatchTime) {
        let arguments = [Array(instanceID.utf8), Array(String(Self.leaseMilliseconds).utf8)]
        let keys = { (room: String) in [RedisKeys.epoch(room), RedisKeys.state(room), RedisKeys.events(room)] }
        let round = { () throws(RedisError) in
            try self.run(Self.acquire, rooms, keys: keys, arguments: { _ in arguments })
        }
        let replies = reporting(round) ?? []
        var gained: [Change] = []
        state.withLock { state in
            for (room, reply) in zip(rooms, replies) {
                guard let fields = reply.array, let epoch = fields.first?.integer, state.running else { continue }
                state.owned[room] = Held(epoch: epoch, renewedAt: sentAt)
                Metrics.standard.redisTakeovers.add()
                let saved = fields.dropFirst().first?.bytes.flatMap { SavedStack(json: $0, defaultStyle: defaultStyle) }
                let lastSeq = fields.dropFirst(2).first?.text.flatMap(RedisStreamID.init)?.seq ?? 0
                gained.append(.gained(room: room, epoch: epoch, saved: saved, lastSeq: lastSeq))
            }
        }
        let tell = changed.withLock { $0 }
        for change in gained { tell(change) }
        // Only now, with the rooms taken over: whoever waited for the first attempt finds them ready.
        let waiting = state.withLock { state in
            defer { for room in rooms { state.waiting[room] = nil } }
            state.decided.formUnion(rooms.filter { state.wanted.contains($0) })
            return rooms.flatMap { state.waiting[$0] ?? [] }
        }
        for waiter in waiting { waiter() }
    }

    private func release(_ rooms: [String]) {
        _ = try? run(Self.release, rooms, arguments: { _ in [Array(instanceID.utf8)] })
    }

    /// The outcome of one round with Redis, its failure kept for `failure` (health) until one succeeds.
    private func reporting(_ round: () throws(RedisError) -> [RedisReply]) -> [RedisReply]? {
        do {
            let replies = try round()
            state.withLock { $0.failure = nil }
            return replies
        } catch {
            state.withLock { $0.failure = StoreFailure(description: "cannot keep room leases: \(error)") }
            return nil
        }
    }

    /// Runs `script` once per room in one pipeline: the lease key first, then `keys(room)`.
    private func run(
        _ script: RedisScript, _ rooms: [String], keys: (String) -> [[UInt8]] = { _ in [] },
        arguments: (String) -> [[UInt8]]
    ) throws(RedisError) -> [RedisReply] {
        var commands: [[[UInt8]]] = []
        for room in rooms {
            commands.append(
                try script.call(keys: [RedisKeys.lease(room)] + keys(room), arguments: arguments(room), on: connection))
        }
        let replies = try connection.pipeline(commands)
        if replies.contains(where: RedisScript.isUnknown) {
            try script.load(on: connection)
            return try run(script, rooms, keys: keys, arguments: arguments)
        }
        return replies
    }
}
