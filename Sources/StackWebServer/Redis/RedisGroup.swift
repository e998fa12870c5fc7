import Dispatch
import StackModel

/// The group of instances sharing rooms through Redis (`--redis`), as rooms see it (`RoomGroup`):
/// the leases say which rooms this instance runs, the publisher sends what they do to the group,
/// the follower brings what the other owners publish to the viewers here, and input travels to the
/// owner and its answer back. Each part has its own connection and thread or queue; none is ever
/// called on libmicrohttpd's thread.
final class RedisGroup: RoomGroup {
    /// How long input carried to another instance may wait for its answer.
    static let forwardTimeout = 3.0
    /// Entries a room's input stream and an instance's answers keep (they are read at once).
    static let inputStreamLength = "1000"

    typealias InputHandler = @Sendable (ForwardedInput, @escaping @Sendable (ForwardedAnswer) -> Void) -> Void

    let instanceID: String
    let leases: RoomLeases
    let publisher: RoomPublisher
    let presence: GroupPresence
    private let url: RedisURL
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
        events: OperatorLog = .silent
    ) {
        self.events = events
        self.url = url
        self.instanceID = instanceID
        let leases = RoomLeases(
            instanceID: instanceID, connection: RedisConnection(url: url), defaultStyle: defaultStyle)
        self.leases = leases
        publisher = RoomPublisher(connection: RedisConnection(url: url), epoch: { leases.epoch(of: $0) }, log: log)
        presence = GroupPresence(url: url, instanceID: instanceID, defaultStyle: defaultStyle)
    }

    /// Starts taking rooms, following the others' and reading the input carried here, which
    /// `input` applies; `store` learns each room's epoch.
    func start(rooms: RoomRegistry, store: RedisRoomStore?, input: @escaping InputHandler) {
        publisher.onRecovery { [weak rooms] room in rooms?.existingRoom(named: room)?.republish() }
        leases.start { [weak rooms, events] change in
            switch change {
            case .gained(let room, let epoch, let saved, let lastSeq):
                events.record(
                    "room.takeover", "runs room \(room) now (epoch \(epoch))",
                    ["room": .string(room), "epoch": .int(epoch)])
                store?.owned(room, epoch: epoch, saved: saved)
                rooms?.existingRoom(named: room)?.takeOver(after: lastSeq)
            case .lost(let room):
                events.record("room.handover", "no longer runs room \(room)", ["room": .string(room)])
                store?.disowned(room)
                rooms?.existingRoom(named: room)?.relinquish()
            }
        }
        let follower = RoomFollower(
            url: url, answers: RedisKeys.answers(instanceID), followed: { [leases] in leases.followed },
            answered: { [weak self] in self?.answered($0) }
        ) { [weak rooms] room, entries, catchingUp in
            rooms?.existingRoom(named: room)?.relay(entries, catchingUp: catchingUp)
        }
        let reader = RoomInputReader(url: url, instanceID: instanceID, owned: { [leases] in leases.ownedRooms }) {
            [publisher] room, fields in
            guard let path = fields["p"], let origin = fields["o"], let id = fields["i"] else { return }
            let carried = ForwardedInput(
                path: String(decoding: path, as: UTF8.self), body: fields["b"] ?? [],
                client: String(decoding: fields["c"] ?? [], as: UTF8.self))
            input(carried) { answer in
                var command = ["XADD", "", "MAXLEN", "~", Self.inputStreamLength, "*", "i"].map { Array($0.utf8) }
                command[1] = RedisKeys.answers(String(decoding: origin, as: UTF8.self))
                command += [id, Array("s".utf8), Array(String(answer.status).utf8), Array("b".utf8), answer.body]
                if let retryAfter = answer.retryAfter { command += [Array("a".utf8), Array(retryAfter.utf8)] }
                publisher.send([command])
            }
        }
        readers.withLock { $0 = (follower, reader) }
        follower.start()
        reader.start()
        presence.start(rooms: rooms)
    }

    /// Sends what is queued, stops reading and gives the leases back.
    func stop() {
        presence.stop()
        publisher.flush()
        if let (follower, reader) = readers.withLock({ $0 }) {
            reader.stop()
            follower.stop()
        }
        leases.stop()
    }

    func forward(_ input: ForwardedInput, of room: String, answer: @escaping @Sendable (ForwardedAnswer) -> Void) {
        Metrics.standard.redisForwarded.add()
        let (id, prepare) = forwarding.withLock { forwarding in
            forwarding.next += 1
            let id = "\(instanceID)-\(forwarding.process)-\(forwarding.next)"
            forwarding.waiting[id] = answer
            return (id, forwarding.prepared.insert(room).inserted)
        }
        var command = ["XADD", "", "MAXLEN", "~", Self.inputStreamLength, "*"].map { Array($0.utf8) }
        command[1] = RedisKeys.input(room)
        command +=
            [
                "i", id, "o", instanceID, "p", input.path, "c", input.client,
            ].map { Array($0.utf8) } + [Array("b".utf8), input.body]
        publisher.send((prepare ? [RoomInputReader.createGroup(room)] : []) + [command])
        timeouts.asyncAfter(deadline: .now() + Self.forwardTimeout) { [weak self] in
            guard let answer = self?.forwarding.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
            var writer = JSONWriter()
            writer.object { $0.field("error", "the instance that runs this room did not answer in time; try again") }
            answer(ForwardedAnswer(status: 503, retryAfter: "1", body: writer.bytes))
        }
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

    func owns(_ room: String) -> Bool { leases.owns(room) }
    func want(_ room: String) { leases.want(room) }
    func unwant(_ room: String) { leases.unwant(room) }
    func isUndecided(_ room: String) -> Bool { leases.isUndecided(room) }
    func whenDecided(_ room: String, _ body: @escaping @Sendable () -> Void) { leases.whenDecided(room, body) }
    func publish(_ entry: RoomRelay.Entry, of room: String) { publisher.publish(entry, of: room) }
    var failure: StoreFailure? { leases.failure }
    var listing: [String: RoomListing]? { presence.listing }
}
