import Foundation
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
    private let taken = Locked<[String: String]>([:])

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
    /// takes that one, so that all compute the same photo ids. None in Redis may mean a Redis that
    /// came back empty while other instances live: each of them puts the secret it holds back
    /// within a presence round (`GroupPresence`), so this one waits that long before its own drawn
    /// one may become the group's (a first start of a group waits so once).
    func secret(named name: String, drawn: String) throws -> String {
        let key = RedisKeys.secret(name)
        let deadline = DispatchTime.now() + Self.secretWait
        while DispatchTime.now() < deadline {
            if let kept = try connection.command([Array("GET".utf8), key]).text { return remember(name, kept) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return remember(name, try RedisKeys.setOnce(key, to: Array(drawn.utf8), at: connection))
    }

    /// How long a start waits for live instances to put a secret back: two presence rounds.
    static let secretWait = 2 * GroupPresence.interval

    /// The secrets this instance took, by name: put back into a Redis that lost them.
    var secrets: [String: String] { taken.withLock { $0 } }

    private func remember(_ name: String, _ secret: String) -> String {
        taken.withLock { $0[name] = secret }
        return secret
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
