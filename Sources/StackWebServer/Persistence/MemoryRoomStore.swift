import StackModel

/// Keeps rooms' lasting state in memory only (no `--state`): rooms unloaded while idle still come
/// back as they were, and nothing survives a restart. Every save is "durable" at once.
final class MemoryRoomStore: RoomStore {
    private let rooms = Locked<[String: SavedStack]>([:])

    func load(room: String) -> SavedStack? { rooms.withLock { $0[room] } }

    func save(
        _ saved: SavedStack, room: String, urgency: SaveUrgency,
        whenDurable: (@Sendable (Durability.Outcome) -> Void)?
    ) {
        rooms.withLock { $0[room] = saved }
        whenDurable?(.success(()))
    }

    func flush() {}

    var savedRooms: [String: SavedStack] { rooms.withLock { $0 } }

    var failure: StoreFailure? { nil }
}
