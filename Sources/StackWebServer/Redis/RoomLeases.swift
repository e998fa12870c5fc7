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

    /// How long after it is sent Redis may still run a lease attempt or renewal: one that Redis runs
    /// later (it was frozen) is refused, so no lease is taken that its taker no longer waits for.
    static let deadlineMilliseconds: Int64 = 750

    /// What changed, told on the leases' queue.
    enum Change {
        /// This instance runs the room now with `epoch`, from `saved` (the room's state in Redis,
        /// `nil` for none), read in the same script that took the lease.
        /// `keptThrough` is the last event of the room's history in Redis then; `numberedFrom` where
        /// the room's numbering starts (`HistoryNumbering`, by Redis's clock and its history).
        case gained(room: String, epoch: Int, saved: SavedStack?, keptThrough: Int, numberedFrom: Int)
        /// The lease taken with `epoch` is gone: another instance runs the room, or may.
        case lost(room: String, epoch: Int)
    }

    /// KEYS: lease, epoch, state, events. ARGV: instance, lease ms, deadline (Redis ms), the highest
    /// epoch this instance has seen, the clock's origin (Unix ms), ids per ms. The new epoch is above
    /// the last one and what the instance saw, and above Redis's clock in ms since the origin: a
    /// Redis that came back empty (no epoch key) cannot fence a live owner with its own epoch again.
    /// Returns the epoch, the state, the history's last id and where numbering starts: above that
    /// id and at least Redis's clock (`HistoryNumbering`), so no id is handed out again, even by an
    /// instance that never had the room.
    static let acquire = RedisScript(
        """
        local now = redis.call('TIME')
        if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[3]) then return -1 end
        if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end
        local clock = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) - tonumber(ARGV[5])
        local floor = math.max(tonumber(ARGV[4]), clock)
        local top = redis.call('XREVRANGE', KEYS[4], '+', '-', 'COUNT', 1)
        local topSeq = top[1] and tonumber(string.match(top[1][1], '^(%d+)')) or 0
        local epoch = redis.call('INCR', KEYS[2])
        if epoch <= floor then
          epoch = floor + 1
          redis.call('SET', KEYS[2], epoch)
        end
        local start = math.max(topSeq, clock * tonumber(ARGV[6]))
        return {epoch, redis.call('GET', KEYS[3]), top[1] and top[1][1] or '0-0', start}
        """)
    static let renew = RedisScript(
        """
        local now = redis.call('TIME')
        if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[3]) then return -1 end
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
    private let clock = RedisClock()
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
        /// The highest epoch this instance has held each room with.
        var highestEpoch: [String: Int] = [:]
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

    /// `connection` should time out soon (a second): an attempt that waits longer is late anyway.
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

    /// Whether this instance still holds the room's lease taken with `epoch`.
    func holds(_ room: String, epoch: Int) -> Bool {
        state.withLock { state in
            guard let held = state.owned[room], held.epoch == epoch else { return false }
            return DispatchTime.now() < held.validUntil
        }
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
        let (ended, dropped, due, free) = state.withLock { state in
            guard state.running else { return ([(String, Int)](), [String](), [String](), [String]()) }
            let expired = state.owned.filter { now >= $0.value.validUntil }.map(\.key)
            let dropped = state.owned.keys.filter { !state.wanted.contains($0) && !expired.contains($0) }
            let ended = (expired + dropped).map { ($0, state.owned[$0]!.epoch) }
            for room in expired + dropped { state.owned[room] = nil }
            let due = state.owned.filter { now >= $0.value.renewedAt + Self.renewInterval }.map(\.key)
            let free = state.wanted.filter { state.owned[$0] == nil }
            return (ended, dropped, due, Array(free))
        }
        let tell = changed.withLock { $0 }
        for (room, epoch) in ended { tell(.lost(room: room, epoch: epoch)) }
        if !dropped.isEmpty { release(dropped) }
        if !due.isEmpty { renew(due, sentAt: now) }
        if !free.isEmpty { acquire(free, sentAt: now) }
    }

    private func renew(_ rooms: [String], sentAt: DispatchTime) {
        let round = { () throws(RedisError) -> [RedisReply] in
            let arguments = try self.arguments(deadline: true)
            return try self.run(Self.renew, rooms, arguments: { _ in arguments })
        }
        guard let replies = reporting(round) else { return }
        var lost: [(String, Int)] = []
        state.withLock { state in
            for (room, reply) in zip(rooms, replies) {
                guard let held = state.owned[room] else { continue }
                switch reply.integer {
                case 1: state.owned[room]?.renewedAt = sentAt
                // Late: not renewed, but not lost either (the next renewal may still come in time).
                case -1: continue
                default:
                    state.owned[room] = nil
                    lost.append((room, held.epoch))
                }
            }
        }
        let tell = changed.withLock { $0 }
        for (room, epoch) in lost { tell(.lost(room: room, epoch: epoch)) }
    }

    /// The instance, the lease's length and (for attempts and renewals) the deadline in Redis's time.
    private func arguments(deadline: Bool) throws(RedisError) -> [[UInt8]] {
        var arguments = [Array(instanceID.utf8), Array(String(Self.leaseMilliseconds).utf8)]
        if deadline { arguments.append(Array(String(try clock.now(on: connection) + Self.deadlineMilliseconds).utf8)) }
        return arguments
    }

    private func acquire(_ rooms: [String], sentAt: DispatchTime) {
        let keys = { (room: String) in [RedisKeys.epoch(room), RedisKeys.state(room), RedisKeys.events(room)] }
        let highest = state.withLock { $0.highestEpoch }
        let numbering = [Int(HistoryNumbering.clockOrigin), HistoryNumbering.idsPerMillisecond].map {
            Array(String($0).utf8)
        }
        let round = { () throws(RedisError) -> [RedisReply] in
            let arguments = try self.arguments(deadline: true)
            return try self.run(Self.acquire, rooms, keys: keys) { room in
                arguments + [Array(String(highest[room] ?? 0).utf8)] + numbering
            }
        }
        let replies = reporting(round) ?? []
        var gained: [Change] = []
        state.withLock { state in
            for (room, reply) in zip(rooms, replies) {
                guard let fields = reply.array, let epoch = fields.first?.integer, state.running else { continue }
                state.owned[room] = Held(epoch: epoch, renewedAt: sentAt)
                state.highestEpoch[room] = max(state.highestEpoch[room] ?? 0, epoch)
                Metrics.standard.redisTakeovers.add()
                let saved = fields.dropFirst().first?.bytes.flatMap { SavedStack(json: $0, defaultStyle: defaultStyle) }
                let top = fields.dropFirst(2).first?.text.flatMap(RedisStreamID.init)?.seq ?? 0
                let start = fields.dropFirst(3).first?.integer ?? top
                gained.append(.gained(room: room, epoch: epoch, saved: saved, keptThrough: top, numberedFrom: start))
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
