import Dispatch
import Foundation
import StackModel

/// The group of instances sharing rooms through Redis (`--redis`), as rooms see it (`RoomGroup`):
/// the leases say which rooms this instance runs, the publisher sends what they do to the group,
/// the follower brings what the other owners publish to the viewers here, and input travels to the
/// owner and its answer back. Each part has its own connection and thread or queue; none is ever
/// called on libmicrohttpd's thread.
final class RedisGroup: RoomGroup {
    /// How long the owner has to keep what input carried to it changes (Redis's time, from when it
    /// was sent): past it, Redis refuses to keep it.
    static let forwardWindowMilliseconds: Int64 = 2000
    /// How long the poster waits for the owner's answer before it asks Redis what was kept: past the
    /// window, with a margin for the two clocks' offsets, so what Redis holds then is final.
    static let forwardTimeout = 2.5
    /// Input the owner reads this close to its deadline is refused unapplied (it could not be kept in time).
    static let forwardLeadMilliseconds: Int64 = 250
    /// Entries a room's input stream and an instance's answers keep (they are read at once).
    static let inputStreamLength = "1000"

    typealias InputHandler =
        @Sendable (ForwardedInput, _ keepBy: Int64?, @escaping @Sendable (ForwardedAnswer) -> Void) -> Void

    let instanceID: String
    let leases: RoomLeases
    let publisher: RoomPublisher
    let presence: GroupPresence
    private let url: RedisURL
    /// Reads for requests (a room's published snapshot, a kept answer), on a connection of their own.
    private let reads: RedisConnection
    private let readQueue = DispatchQueue(label: "stackweb.redis.reads")
    private let clock = RedisClock()
    /// For tests: how long a lease gained waits before its room hears of it (the gap a request
    /// could fall into, were ownership decided outside the room). `STACKWEB_TEST_TAKEOVER_DELAY_MS`.
    private let takeoverDelay: Double
    /// Where takeovers and hand-overs are told to the operator.
    private let events: OperatorLog
    private let readers = Locked<(RoomFollower, RoomInputReader)?>(nil)
    private let forwarding = Locked(Forwarding())
    private let timeouts = DispatchQueue(label: "stackweb.redis.forward")

    private struct Forwarding {
        /// Request ids are this process's own: `INSTANCE-PROCESS-N`.
        let process = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        var next = 0
        /// Who waits for the answer to each input carried to an owner, by request id.
        var waiting: [String: @Sendable (ForwardedAnswer) -> Void] = [:]
        /// Rooms whose input stream and owners' group this process has made sure of.
        var prepared: Set<String> = []
    }

    init(
        url: RedisURL, instanceID: String, defaultStyle: StyleName, log: @escaping @Sendable (String) -> Void,
        events: OperatorLog = .silent, stateRead: @escaping @Sendable (String, SavedStack) -> Void = { _, _ in },
        secrets: [String: String] = [:]
    ) {
        self.events = events
        self.url = url
        self.instanceID = instanceID
        leases = RoomLeases(
            instanceID: instanceID, connection: RedisConnection(url: url, timeout: 1), defaultStyle: defaultStyle)
        publisher = RoomPublisher(connection: RedisConnection(url: url), log: log)
        presence = GroupPresence(
            url: url, instanceID: instanceID, defaultStyle: defaultStyle, secrets: secrets, stateRead: stateRead)
        reads = RedisConnection(url: url)
        takeoverDelay =
            ProcessInfo.processInfo.environment["STACKWEB_TEST_TAKEOVER_DELAY_MS"].flatMap(Double.init).map {
                $0 / 1000
            }
            ?? 0
    }

    /// Starts taking rooms, following the others' and reading the input carried here, which
    /// `input` applies; `store` learns each room's epoch.
    func start(rooms: RoomRegistry, store: RedisRoomStore?, input: @escaping InputHandler) {
        publisher.onRecovery { [weak rooms] room in rooms?.existingRoom(named: room)?.groupRecovered() }
        leases.start { [weak rooms, events, takeoverDelay] change in
            switch change {
            case .gained(let room, let epoch, let saved, let keptThrough, let numberedFrom):
                events.record(
                    "room.takeover", "runs room \(room) now (epoch \(epoch))",
                    ["room": .string(room), "epoch": .int(epoch)])
                store?.owned(room, saved: saved)
                if takeoverDelay > 0 { Thread.sleep(forTimeInterval: takeoverDelay) }
                rooms?.existingRoom(named: room)?.leaseGained(
                    epoch: epoch, saved: saved, keptThrough: keptThrough, numberedFrom: numberedFrom)
            case .lost(let room, let epoch):
                events.record("room.handover", "no longer runs room \(room)", ["room": .string(room)])
                rooms?.existingRoom(named: room)?.leaseLost(epoch: epoch)
            }
        }
        let follower = RoomFollower(
            url: url, answers: RedisKeys.answers(instanceID), followed: { [leases] in leases.followed },
            answered: { [weak self] in self?.answered($0) }
        ) { [weak rooms] room, entries, catchingUp in
            rooms?.existingRoom(named: room)?.relay(entries, catchingUp: catchingUp)
        }
        let reader = RoomInputReader(url: url, instanceID: instanceID, owned: { [leases] in leases.ownedRooms }) {
            [publisher, clock, reads] room, fields in
            guard let path = fields["p"], let origin = fields["o"], let id = fields["i"] else { return }
            let text = { (name: String) in fields[name].map { String(decoding: $0, as: UTF8.self) } }
            let carried = ForwardedInput(
                path: String(decoding: path, as: UTF8.self), body: fields["b"] ?? [], client: text("c") ?? "",
                key: text("k") ?? text("i") ?? "", lasting: text("l") == "1",
                shape: text("s").flatMap { ShapeClass(rawValue: $0) }, keyedByClient: text("g") != "1")
            let reply = { @Sendable (answer: ForwardedAnswer) in
                var command = ["XADD", "", "MAXLEN", "~", Self.inputStreamLength, "*", "i"].map { Array($0.utf8) }
                command[1] = RedisKeys.answers(String(decoding: origin, as: UTF8.self))
                command += [id, Array("s".utf8), Array(String(answer.status).utf8), Array("b".utf8), answer.body]
                if let retryAfter = answer.retryAfter { command += [Array("a".utf8), Array(retryAfter.utf8)] }
                publisher.send([command])
            }
            let deadline = text("t").flatMap { Int64($0) }
            if let deadline, (try? clock.now(on: reads)).map({ $0 > deadline - Self.forwardLeadMilliseconds }) ?? true {
                // Its poster stops waiting before a change could be kept: refused, so nothing is applied
                // that the poster is told was not. A client's key may be a retry of a change applied
                // before, which this answer cannot vouch for.
                let reason = "it reached the instance that runs the room too late"
                reply(Self.answer(carried.keyedByClient ? .unknown(reason) : .notApplied(reason)))
                return
            }
            input(carried, deadline, reply)
        }
        readers.withLock { $0 = (follower, reader) }
        follower.start()
        reader.start()
        presence.start(rooms: rooms)
    }

    /// Sends what is queued, stops reading and gives the leases back.
    func stop() {
        presence.stop()
        publisher.stop()
        if let (follower, reader) = readers.withLock({ $0 }) {
            reader.stop()
            follower.stop()
        }
        leases.stop()
    }

    /// Carries the input to the owner with a deadline in Redis's time. An owner that has not
    /// answered by `forwardTimeout` has either kept the change with its key by the deadline or never
    /// will: the poster reads the key and answers with what Redis holds (`200`, or `503` not applied);
    /// only input that keeps nothing (a drag, a flip) and Redis that cannot be asked leave the outcome
    /// unknown (`504`).
    func forward(_ input: ForwardedInput, of room: String, answer: @escaping @Sendable (ForwardedAnswer) -> Void) {
        Metrics.standard.redisForwarded.add()
        let (id, prepare) = forwarding.withLock { forwarding in
            forwarding.next += 1
            let id = "\(instanceID)-\(forwarding.process)-\(forwarding.next)"
            forwarding.waiting[id] = answer
            return (id, forwarding.prepared.insert(room).inserted)
        }
        readQueue.async { [self] in
            // Asked first, so that input a Redis that is away cannot take is surely not applied.
            guard (try? reads.command("PING")) != nil, let now = try? clock.now(on: reads) else {
                // Nothing was sent now; but a client's key may have been applied by an earlier
                // attempt, and without Redis nobody here can say.
                let reason = "the group's Redis cannot be reached"
                settle(id, Self.answer(input.keyedByClient ? .unknown(reason) : .notApplied(reason)))
                return
            }
            var command = ["XADD", "", "MAXLEN", "~", Self.inputStreamLength, "*"].map { Array($0.utf8) }
            command[1] = RedisKeys.input(room)
            command +=
                [
                    "i", id, "o", instanceID, "p", input.path, "c", input.client, "k", input.key,
                    "t", String(now + Self.forwardWindowMilliseconds), "l", input.lasting ? "1" : "0",
                    "g", input.keyedByClient ? "0" : "1",
                ].map { Array($0.utf8) } + [Array("b".utf8), input.body]
                + (input.shape.map { [Array("s".utf8), Array($0.rawValue.utf8)] } ?? [])
            publisher.send((prepare ? [RoomInputReader.createGroup(room)] : []) + [command])
            timeouts.asyncAfter(deadline: .now() + Self.forwardTimeout) { [weak self] in
                self?.unanswered(id, input: input, of: room)
            }
        }
    }

    /// The owner did not answer in time: what Redis holds for the input's key is the answer.
    private func unanswered(_ id: String, input: ForwardedInput, of room: String) {
        guard forwarding.withLock({ $0.waiting[id] != nil }) else { return }
        keptAnswer(for: input.idempotencyKey.scoped, of: room) { [weak self] kept in
            switch kept {
            case .success(.some(let value)):
                let body = input.idempotencyKey.answer(fromKept: value)
                self?.settle(
                    id,
                    body.map { ForwardedAnswer(status: 200, retryAfter: nil, body: $0) }
                        ?? Self.answer(.refused(.keyReused)))
            case .success(.none) where input.lasting:
                // Kept by its deadline with its key, or never: Redis holds no answer, so never.
                self?.settle(id, Self.answer(.notApplied("the instance that runs this room did not keep it in time")))
            case .success(.none), .failure:
                self?.settle(id, Self.answer(.unknown("the instance that runs this room did not answer in time")))
            }
        }
    }

    private func settle(_ id: String, _ answer: ForwardedAnswer) {
        forwarding.withLock { $0.waiting.removeValue(forKey: id) }?(answer)
    }

    private static func answer(_ outcome: RoomOutcome) -> ForwardedAnswer {
        let response = outcome.response
        let body: [UInt8]
        if case .bytes(let bytes) = response.body { body = bytes } else { body = [] }
        return ForwardedAnswer(
            status: response.status, retryAfter: response.headers.first { $0.0 == "Retry-After" }?.1, body: body)
    }

    /// An owner's answer to input this instance carried.
    private func answered(_ fields: [String: [UInt8]]) {
        guard let id = fields["i"].map({ String(decoding: $0, as: UTF8.self) }),
            let answer = forwarding.withLock({ $0.waiting.removeValue(forKey: id) })
        else { return }
        let status = fields["s"].flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 502
        answer(
            ForwardedAnswer(
                status: status, retryAfter: fields["a"].map { String(decoding: $0, as: UTF8.self) },
                body: fields["b"] ?? []))
    }

    func holds(_ room: String, epoch: Int) -> Bool { leases.holds(room, epoch: epoch) }
    func want(_ room: String) { leases.want(room) }
    func unwant(_ room: String) { leases.unwant(room) }
    func isUndecided(_ room: String) -> Bool { leases.isUndecided(room) }
    func whenDecided(_ room: String, _ body: @escaping @Sendable () -> Void) { leases.whenDecided(room, body) }
    func publish(
        _ publication: GroupPublication, of room: String, report: @escaping @Sendable (GroupPublication.Outcome) -> Void
    ) {
        publisher.publish(publication, of: room, report: report)
    }

    func publishedSnapshot(of room: String, _ answer: @escaping @Sendable (Result<[UInt8]?, StoreFailure>) -> Void) {
        read([Array("GET".utf8), RedisKeys.snapshot(room)], answer)
    }

    func hasRoom(_ room: String, _ answer: @escaping @Sendable (Result<Bool, StoreFailure>) -> Void) {
        readQueue.async { [reads] in
            do throws(RedisError) {
                let replies = try reads.pipeline([
                    [Array("SISMEMBER".utf8), RedisKeys.rooms, Array(room.utf8)],
                    [Array("EXISTS".utf8), RedisKeys.snapshot(room)],
                ])
                answer(.success(replies.contains { ($0.integer ?? 0) > 0 }))
            } catch {
                answer(.failure(StoreFailure(description: error.description)))
            }
        }
    }

    func keptAnswer(
        for key: String, of room: String, _ answer: @escaping @Sendable (Result<[UInt8]?, StoreFailure>) -> Void
    ) {
        read([Array("GET".utf8), RedisKeys.answer(key, of: room)], answer)
    }

    /// One read on the reads' queue and connection; its value (`nil`: no such key) to `answer`.
    private func read(_ command: [[UInt8]], _ answer: @escaping @Sendable (Result<[UInt8]?, StoreFailure>) -> Void) {
        readQueue.async { [reads] in
            do throws(RedisError) {
                answer(.success(try reads.command(command).bytes))
            } catch {
                answer(.failure(StoreFailure(description: error.description)))
            }
        }
    }
    var failure: StoreFailure? { leases.failure }
    var listing: [String: RoomListing]? { presence.listing }
}
