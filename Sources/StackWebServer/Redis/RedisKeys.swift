/// The names of a group's keys in Redis. Every key of one room carries the room's name as a hash tag
/// (`{main}`), so a room's own keys would share a slot under Redis Cluster. Its scripts do not keep to
/// them: the fenced write (`RedisRoomStore.fencedWrite`) and the publication (`RoomPublisher`) also add
/// the room's name to `stackweb:rooms`, a key of no room, so under Redis Cluster they would fail with
/// CROSSSLOT. The group runs on one Redis (or a primary with replicas); for Cluster the list of rooms
/// would have to be kept per slot (or each room's name set outside the scripts) first.
enum RedisKeys {
    /// Every room of the group that has lasting state (a set of names).
    static let rooms = Array("stackweb:rooms".utf8)

    /// The room's lasting state (`SavedStack` as JSON).
    static func state(_ room: String) -> [UInt8] { key(room, "state") }

    /// The instance that owns the room now (its lease: a value with an expiry).
    static func lease(_ room: String) -> [UInt8] { key(room, "lease") }

    /// The room's fencing epoch: raised at each takeover; every write of the owner names it.
    static func epoch(_ room: String) -> [UInt8] { key(room, "epoch") }

    /// What the room's owner publishes (`RoomRelay.Entry`), a stream capped near the replay ring's
    /// size; entry ids are `SEQ-0` for a change or a takeover, `SEQ-1` for a snapshot after change SEQ.
    static func events(_ room: String) -> [UInt8] { key(room, "events") }

    /// Input other instances carry to the room's owner, a capped stream read by the owners' consumer
    /// group (`owners`): each entry is delivered once, whichever instance owns the room by then.
    static func input(_ room: String) -> [UInt8] { key(room, "input") }

    /// The owners' answers to the input an instance carried, a capped stream that instance reads.
    static func answers(_ instanceID: String) -> [UInt8] { Array("stackweb:instance:\(instanceID):answers".utf8) }

    /// The room's snapshot (JSON) as its owner last kept it: what instances that do not run the room
    /// answer a read with.
    static func snapshot(_ room: String) -> [UInt8] { key(room, "snapshot") }

    /// The answer given to a request with this `Idempotency-Key` (the body of a `200`), kept ten minutes.
    static func answer(_ idempotencyKey: String, of room: String) -> [UInt8] {
        Array("stackweb:{\(room)}:answer:".utf8) + Array(idempotencyKey.utf8)
    }

    /// Each instance's count of the room's viewers, with the time it lapses (a hash by instance id).
    static func viewers(_ room: String) -> [UInt8] { key(room, "viewers") }

    /// The control token a group generated (its first instance drew it), when no `--token` was given.
    static let token = Array("stackweb:token".utf8)

    /// `drawn` as the group's generated token if it has none yet, else the one it has. At start only.
    static func sharedToken(_ drawn: String, at url: RedisURL) throws(RedisError) -> String {
        let connection = RedisConnection(url: url)
        let replies = try connection.pipeline([
            [Array("SET".utf8), token, Array(drawn.utf8), Array("NX".utf8)], [Array("GET".utf8), token],
        ])
        guard let shared = replies.last?.text else { throw .unexpected("no token after SET NX") }
        return shared
    }

    private static func key(_ room: String, _ name: String) -> [UInt8] {
        Array("stackweb:{\(room)}:\(name)".utf8)
    }
}
