import StackModel

/// The group's rooms as Redis held them when this instance started (`--redis`): what a room that the
/// group has is, for the registry's "does this room exist" and for a room only watched here.
///
/// A room of the group keeps its state through the group, not through this store: its owner hands
/// each lasting change to the publisher (`RoomPublisher`), which keeps the state, the change and the
/// answers to keyed requests in one fenced script. So `save` is never called for such a room; a
/// room only watched (`RoomRegistry`) keeps nothing; `load` answers from the states read at start
/// and the ones taken over since.
final class RedisRoomStore: RoomStore {
    private let states: Locked<[String: SavedStack]>
    /// Where the group's secrets are kept (read at start only).
    private let connection: RedisConnection

    /// Reads every room's state from Redis (so `load` answers at once, from memory).
    init(connection: RedisConnection, defaultStyle: StyleName) throws(RedisError) {
        self.connection = connection
        let names = try connection.command([Array("SMEMBERS".utf8), RedisKeys.rooms]).array?.compactMap(\.text) ?? []
        let replies = try connection.pipeline(names.map { [Array("GET".utf8), RedisKeys.state($0)] })
        var states: [String: SavedStack] = [:]
        for (name, reply) in zip(names, replies) {
            if let json = reply.bytes, let saved = SavedStack(json: json, defaultStyle: defaultStyle) {
                states[name] = saved
            }
        }
        self.states = Locked(states)
    }

    func load(room: String) -> SavedStack? {
        states.withLock { $0[room] }
    }

    var savedRooms: [String: SavedStack] { states.withLock { $0 } }

    /// The group's secret: the first instance to start keeps what it drew (`SET NX`), every other
    /// takes that one, so that all compute the same photo ids.
    func secret(named name: String, drawn: String) throws -> String {
        try RedisKeys.setOnce(RedisKeys.secret(name), to: Array(drawn.utf8), at: connection)
    }

    /// This instance took the room over; `saved` is its state as Redis held it then.
    func owned(_ room: String, saved: SavedStack?) {
        states.withLock { $0[room] = saved }
    }

    /// Not used by a group's rooms (see the type's summary): what is given is remembered for `load`.
    func save(
        _ saved: SavedStack, room: String, urgency: SaveUrgency,
        whenDurable: (@Sendable (Durability.Outcome) -> Void)?
    ) {
        states.withLock { $0[room] = saved }
        whenDurable?(.success(()))
    }

    func flush() {}

    /// The group's own health is the leases' and the publisher's (`RoomGroup.failure`).
    var failure: StoreFailure? { nil }
}
