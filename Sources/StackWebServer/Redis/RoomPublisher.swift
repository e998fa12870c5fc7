import Dispatch
import Foundation
import StackModel

/// Publishes what the rooms this instance runs do to each room's stream in Redis — every change
/// once, in order, with the snapshots other instances start their viewers from — and keeps their
/// lasting state with it: one script per publication, atomic, so the room's state, its history and
/// the answers it gave never disagree in Redis. On its own queue and connection, so a room's lock is
/// never held across a Redis call; whatever the rooms hand over while a round trip is under way goes
/// in the next one, pipelined.
///
/// The script takes a publication only if (1) the epoch it names is still the room's (an owner that
/// lost the room cannot add to its history), (2) Redis's clock has not passed its deadline (a
/// publication Redis runs late, after its sender gave up waiting, is refused rather than applied),
/// and (3) a change continues the history exactly (its id follows the stream's last): a change after
/// one that was refused is refused too, so what the group has is always a prefix of what the owner
/// numbered, up to the next rebase (a snapshot, which starts the history afresh and re-creates the
/// stream whatever it held). Each publication's outcome is reported to its room, in order.
final class RoomPublisher: Sendable {
    /// How often a publisher whose publications failed asks Redis whether it answers again.
    static let recoveryInterval = 1.0
    /// How long after it is sent Redis may still take a publication.
    static let deadlineMilliseconds: Int64 = 1500
    /// How long an idempotency answer is kept in Redis.
    static let answerLifetimeMilliseconds = Int(IdempotencyLedger.lifetime)

    /// KEYS: epoch, events, state, rooms, snapshot, then the answers to keep, then those to forget.
    /// ARGV: epoch, stream length, id ('' for none), kind, data, state ('' for none), room, snapshot
    /// ('' for none), deadline (Redis ms), answer lifetime (ms), number of answers, the answers, for a
    /// publication without an entry the id of the event whose state it carries (the history must
    /// hold it: a state or a snapshot of a change Redis refused is never kept), and last the entry's
    /// bytes for each shape class, as field and value pairs (`d:16x9`; empty: the same as `d`).
    /// Returns 1 taken, 0 another epoch, -1 too late, -2 not continuing the history.
    static let publish = RedisScript(
        """
        if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
        local now = redis.call('TIME')
        if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[9]) then return -1 end
        local answers = tonumber(ARGV[11])
        local top = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
        local topSeq = top[1] and tonumber(string.match(top[1][1], '^(%d+)')) or -1
        if ARGV[3] == '' and ARGV[12 + answers] ~= '' and topSeq ~= tonumber(ARGV[12 + answers]) then return -2 end
        if ARGV[3] ~= '' then
          local id = ARGV[3]
          local seq = tonumber(string.match(id, '^(%d+)'))
          if ARGV[4] == 'c' then
            if topSeq ~= seq - 1 then return -2 end
          elseif ARGV[4] == 'b' then
            if topSeq ~= seq then return -2 end
            -- After the entries of its seq: a second base at one seq (a class new to the group
            -- after another, with no change between) is one part further.
            id = string.match(id, '^(%d+)') .. '-' .. (tonumber(string.match(top[1][1], '-(%d+)$')) + 1)
          elseif topSeq >= seq then
            redis.call('DEL', KEYS[2])
          end
          local fields = {'k', ARGV[4], 'd', ARGV[5]}
          for i = 13 + answers, #ARGV do fields[#fields + 1] = ARGV[i] end
          redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], id, unpack(fields))
        end
        if ARGV[6] ~= '' then
          redis.call('SET', KEYS[3], ARGV[6])
          redis.call('SADD', KEYS[4], ARGV[7])
        end
        if ARGV[8] ~= '' then redis.call('SET', KEYS[5], ARGV[8]) end
        for i = 1, answers do redis.call('SET', KEYS[5 + i], ARGV[11 + i], 'PX', ARGV[10]) end
        for i = 6 + answers, #KEYS do redis.call('DEL', KEYS[i]) end
        return 1
        """)

    private let connection: RedisConnection
    private let clock = RedisClock()
    private let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "stackweb.redis.publish")
    private let pending = Locked(Pending())
    /// Set at shutdown: a publisher finding out what Redis kept stops waiting for it.
    private let stopping = Locked(false)

    typealias Report = @Sendable (GroupPublication.Outcome) -> Void

    /// What is sent, in order: rooms' publications, and plain commands (input carried to another
    /// owner, answers to input carried here).
    private enum Item {
        /// `deadline`: Redis's time after which it must not be taken, set when the room handed it over.
        case publication(room: String, GroupPublication, Report, deadline: Int64?)
        case command([[UInt8]])
    }

    private struct Pending {
        var items: [Item] = []
        var queued = false
        /// Entries appended and Redis commands sent so far (the cost of a change through Redis).
        var published = 0
        var commands = 0
        /// Rooms with a publication Redis did not take, and whether a check that it answers is due.
        var failed: Set<String> = []
        var checking = false
        var recovered: (@Sendable (String) -> Void)?
    }

    init(connection: RedisConnection, log: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.log = log
    }

    /// Queues the publication; `report` hears its outcome, on the publisher's queue. Returns at once.
    func publish(_ publication: GroupPublication, of room: String, report: @escaping Report) {
        // The deadline runs from when the room decided, not from when it is sent: a publication that
        // waited behind a slow round trip must not be taken later than the room could answer for.
        let deadline = clock.estimate().map { $0 + Self.deadlineMilliseconds }
        enqueue(.publication(room: room, publication, report, deadline: deadline))
    }

    /// Queues plain commands, sent in order with the publications; their replies are not looked at.
    func send(_ commands: [[[UInt8]]]) {
        for command in commands { enqueue(.command(command)) }
    }

    private func enqueue(_ item: Item) {
        let schedule = pending.withLock { pending in
            pending.items.append(item)
            defer { pending.queued = true }
            return !pending.queued
        }
        if schedule { queue.async { [self] in drain() } }
    }

    /// `recovered(room)` is called, on the publisher's queue, for each room with a failed publication
    /// once Redis answers again.
    func onRecovery(_ recovered: @escaping @Sendable (String) -> Void) {
        pending.withLock { $0.recovered = recovered }
    }

    /// Stops waiting for a Redis that is away (what is unknown stays so); then `flush`.
    func stop() {
        stopping.withLock { $0 = true }
        flush()
    }

    /// Waits until everything queued so far has been sent.
    func flush() {
        queue.sync { drain() }
    }

    /// Entries appended to streams, and Redis commands sent for them, since start.
    var counts: (published: Int, commands: Int) { pending.withLock { ($0.published, $0.commands) } }

    /// Sends every queued item in one pipeline and reports each publication's outcome. Runs on `queue` only.
    private func drain() {
        let items = pending.withLock { pending in
            defer {
                pending.items.removeAll()
                pending.queued = false
            }
            return pending.items
        }
        guard !items.isEmpty else { return }
        let outcomes = send(items)
        var failed: Set<String> = []
        var published = 0
        for (item, outcome) in zip(items, outcomes) {
            guard case .publication(let room, let publication, let report, _) = item else { continue }
            if outcome == .accepted, publication.entry != nil { published += 1 }
            if outcome != .accepted { failed.insert(room) }
            report(outcome)
        }
        pending.withLock {
            $0.published += published
            $0.commands += items.count
        }
        if failed.isEmpty {
            mendFailures()
        } else {
            if outcomes.contains(where: { if case .unknown = $0 { true } else { false } }) {
                log("warning: Redis did not answer; the outcome of \(failed.count) rooms' changes is unknown")
            }
            remember(failed)
        }
    }

    /// Each item's outcome (a plain command's is not looked at).
    private func send(_ items: [Item]) -> [GroupPublication.Outcome] {
        var deadlines: [Int64] = []
        do {
            let fallback = try clock.now(on: connection) + Self.deadlineMilliseconds
            var commands: [[[UInt8]]] = []
            for item in items {
                switch item {
                case .command(let command): commands.append(command)
                case .publication(let room, let publication, _, let deadline):
                    let due = min(deadline ?? fallback, publication.keep?.deadline ?? .max)
                    deadlines.append(due)
                    commands.append(try Self.call(publication, of: room, deadline: due, on: connection))
                }
            }
            var replies = try connection.pipeline(commands)
            if replies.contains(where: RedisScript.isUnknown) {
                // Redis restarted and forgot the script: none of the publications ran. The script is
                // loaded again and they are sent again (the plain commands went through).
                try Self.publish.load(on: connection)
                let publications = items.indices.filter { if case .publication = items[$0] { true } else { false } }
                let again = try connection.pipeline(publications.map { commands[$0] })
                for (index, reply) in zip(publications, again) { replies[index] = reply }
            }
            return replies.map(Self.outcome)
        } catch {
            if error.surelyNotRun { return items.map { _ in .refused(error.description) } }
            return resolve(items, after: deadlines.max() ?? 0)
        }
    }

    /// The outcome of publications sent on a connection that broke before they were answered: once
    /// Redis's clock has passed their deadline (none can be taken later), each was taken if and only
    /// if its entry is in the room's stream (the script keeps the entry with everything else, or
    /// nothing). Waits for Redis as long as it takes; what comes meanwhile waits behind, in order.
    /// Runs on `queue` only.
    private func resolve(_ items: [Item], after deadline: Int64) -> [GroupPublication.Outcome] {
        log("warning: Redis broke off with changes sent; finding out which were kept")
        while !stopping.withLock({ $0 }) {
            do throws(RedisError) {
                let now = try clock.now(on: connection)
                if now <= deadline {
                    Thread.sleep(forTimeInterval: Double(deadline - now + 20) / 1000)
                    continue
                }
                var outcomes: [GroupPublication.Outcome] = []
                for item in items {
                    guard case .publication(let room, let publication, _, _) = item else {
                        outcomes.append(.accepted)
                        continue
                    }
                    guard let entry = publication.entry else {
                        outcomes.append(.unknown("Redis broke off with it sent"))
                        continue
                    }
                    let id = Array(RedisStreamID(entry).text.utf8)
                    let found = try connection.command([Array("XRANGE".utf8), RedisKeys.events(room), id, id])
                    outcomes.append(
                        found.array?.isEmpty == false
                            ? .accepted : .refused("Redis did not keep it before its deadline"))
                }
                return outcomes
            } catch {
                Thread.sleep(forTimeInterval: Self.recoveryInterval)
            }
        }
        return items.map { _ in .unknown("the instance stopped before Redis answered") }
    }

    private static func outcome(_ reply: RedisReply) -> GroupPublication.Outcome {
        switch reply {
        case .integer(1): .accepted
        case .integer(0): .refused("another instance runs the room now")
        case .integer(-1): .refused("Redis took it too late")
        case .integer(-2): .refused("it does not continue the room's history in Redis")
        // A script error may have stopped it halfway.
        case .error(let message): .unknown("Redis refused it: \(message)")
        default: .accepted
        }
    }

    /// The `EVALSHA` of one publication.
    private static func call(
        _ publication: GroupPublication, of room: String, deadline: Int64, on connection: RedisConnection
    ) throws(RedisError) -> [[UInt8]] {
        let empty: [UInt8] = []
        let keep = publication.keep
        var (id, kind, data) = (empty, empty, empty)
        if let entry = publication.entry {
            id = Array(RedisStreamID(entry).text.utf8)
            data = entry.bytes
            kind =
                switch entry {
                case .change: Array("c".utf8)
                case .takeover: Array("t".utf8)
                case .base: Array("b".utf8)
                }
        }
        let answers = keep?.answers ?? []
        let keys =
            [
                RedisKeys.epoch(room), RedisKeys.events(room), RedisKeys.state(room), RedisKeys.rooms,
                RedisKeys.snapshot(room),
            ] + answers.map { RedisKeys.answer($0.key, of: room) }
            + (keep?.forgotten ?? []).map { RedisKeys.answer($0, of: room) }
        let arguments: [[UInt8]] =
            [
                Array(String(publication.epoch).utf8), Array(String(RoomSettings.replayCapacity).utf8), id, kind, data,
                keep?.saved.json ?? empty, Array(room.utf8), publication.snapshot ?? empty,
                Array(String(deadline).utf8),
                Array(String(answerLifetimeMilliseconds).utf8), Array(String(answers.count).utf8),
            ] + answers.map(\.body) + [publication.entry == nil ? Array(String(publication.about).utf8) : empty]
            + shapedFields(publication, data: data)
        return try publish.call(keys: keys, arguments: arguments, on: connection)
    }

    /// The entry's bytes for each shape class as stream fields, in a fixed order; a class shown the
    /// room's own stage has the same bytes as `d`, sent once.
    static func shapedFields(_ publication: GroupPublication, data: [UInt8]) -> [[UInt8]] {
        guard publication.entry != nil else { return [] }
        return publication.shaped.sorted { $0.key.rawValue < $1.key.rawValue }.flatMap { shape, bytes in
            [Array((shapedField + shape.rawValue).utf8), bytes == data ? [] : bytes]
        }
    }

    /// The prefix of a stream field holding an entry's bytes for one shape class.
    static let shapedField = "d:"

    /// Rooms with a failed publication: told once Redis answers (a check every `recoveryInterval`).
    private func remember(_ rooms: Set<String>) {
        let schedule = pending.withLock { pending in
            pending.failed.formUnion(rooms)
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
        mendFailures()
    }

    /// Tells `recovered` of every room with a failed publication. Runs on `queue` only.
    private func mendFailures() {
        let (rooms, recovered) = pending.withLock { pending in
            defer { pending.failed.removeAll() }
            return (pending.failed, pending.recovered)
        }
        for room in rooms { recovered?(room) }
    }
}
