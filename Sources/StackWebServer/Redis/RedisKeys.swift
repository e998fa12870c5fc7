/// The names of a group's keys in Redis. Every key of one room carries the room's name as a hash tag
/// (`{main}`), so a room's own keys would share a slot under Redis Cluster. Not every command keeps to
/// one slot: the publication script (`RoomPublisher.publish`) also adds the room's name to
/// `stackweb:rooms`, a key of no room, and the blocking reads (`RoomFollower`'s `XREAD`,
/// `RoomInputReader`'s `XREADGROUP`) name several rooms' streams at once, so under Redis Cluster they
/// would fail with CROSSSLOT. The group runs on one Redis (or a primary with replicas); what Cluster
/// would need is listed in docs/scale-out.md, "Keys".
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

    /// The SHA-256 (hex) of the control token a group generated (its first instance drew it and
    /// printed it), when no `--token` was given: every instance checks bearer tokens against it,
    /// and nobody who reads Redis learns the token.
    static let tokenDigest = Array("stackweb:token-sha256".utf8)

    /// Where earlier versions kept a group's generated token in clear: read once to carry it over
    /// as its digest, then deleted.
    static let clearToken = Array("stackweb:token".utf8)

    /// A secret of the group's, such as what photo ids are keyed with (`RoomStore.secret`).
    static func secret(_ name: String) -> [UInt8] { Array("stackweb:secret:\(name)".utf8) }

    /// `value` as `key`'s value if it has none yet (`SET NX`), else the one it has.
    static func setOnce(_ key: [UInt8], to value: [UInt8], at connection: RedisConnection) throws(RedisError)
        -> String
    {
        let replies = try connection.pipeline([
            [Array("SET".utf8), key, value, Array("NX".utf8)], [Array("GET".utf8), key],
        ])
        guard let kept = replies.last?.text else {
            throw .unexpected("no value at \(String(decoding: key, as: UTF8.self)) after SET NX")
        }
        return kept
    }

    private static func key(_ room: String, _ name: String) -> [UInt8] {
        Array("stackweb:{\(room)}:\(name)".utf8)
    }
}
