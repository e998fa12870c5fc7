import Foundation
import StackModel

/// Every room of this server, created on first use up to an explicit limit.
final class RoomRegistry: Sendable {
    enum Failure: Error, Equatable {
        case invalidName
        case tooManyRooms(limit: Int)
    }

    let maxRooms: Int
    let store: any RoomStore
    let settings: RoomSettings
    /// Makes a room's stack: from its saved state when the store has one, else new.
    private let makeStack: @Sendable (_ roomName: String, _ saved: SavedStack?) -> Stack
    private let scheduler: any RoomScheduler
    /// The photo folder as it is now, shared with the router and swapped when the folder changes.
    let library: Locked<PhotoLibrary>
    private let asleep: @Sendable () -> Bool
    private let rooms = Locked<[String: Room]>([:])

    init(
        maxRooms: Int, store: any RoomStore, settings: RoomSettings, scheduler: any RoomScheduler,
        library: Locked<PhotoLibrary>, asleep: @escaping @Sendable () -> Bool = { false },
        makeStack: @escaping @Sendable (String, SavedStack?) -> Stack
    ) {
        self.maxRooms = maxRooms
        self.library = library
        self.asleep = asleep
        self.store = store
        self.settings = settings
        self.scheduler = scheduler
        self.makeStack = makeStack
    }

    /// Room names as the contract allows them: `[a-z0-9][a-z0-9_-]{0,63}`.
    static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 64, isLowerAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The room of that name, made now if it is new.
    func room(named name: String) throws(Failure) -> Room {
        guard Self.isValidName(name) else { throw .invalidName }
        return try rooms.withLock { (rooms) throws(Failure) -> Room in
            if let room = rooms[name] { return room }
            guard rooms.count < maxRooms else { throw .tooManyRooms(limit: maxRooms) }
            let room = Room(
                name: name, settings: settings, library: library.withLock { $0 }, asleep: asleep(),
                scheduler: scheduler, store: store,
                restore: { [store, makeStack] in makeStack(name, store.load(room: name)) })
            rooms[name] = room
            return room
        }
    }

    var all: [Room] { rooms.withLock { Array($0.values) } }
}
