import Foundation
import StackModel

/// Every room of this server.
///
/// A room is one of two kinds. A *kept* room is one a POST with control rights (which passed the
/// token check) used, or the store has, or `main`, or one the operator listed (`--rooms`): what it
/// does is kept. Watching a room that does not exist gets a room *only watched*: a live view of a new
/// stack that saves nothing, counts toward no limit of kept rooms, and is let go entirely when its
/// last viewer leaves — so anonymous GETs (or `<img>` tags on another site) cannot use up the rooms.
final class RoomRegistry: Sendable {
    enum Failure: Error, Equatable {
        case invalidName
        case tooManyRooms(limit: Int)
        /// `--rooms` lists the rooms of this server, and this is not one of them.
        case notListed
    }

    /// The room that always exists.
    static let mainRoom = "main"

    let maxRooms: Int
    let store: any RoomStore
    let settings: RoomSettings
    /// Makes a room's stack: from its saved state when the store has one, else new.
    private let makeStack: @Sendable (_ roomName: String, _ saved: SavedStack?) -> Stack
    private let scheduler: any RoomScheduler
    /// The photo folder as it is now, shared with the router and swapped when the folder changes.
    let library: Locked<PhotoLibrary>
    private let asleep: @Sendable () -> Bool
    /// `--rooms`: the only rooms there are; `nil` when any valid name may be made.
    let listedRooms: Set<String>?
    private let rooms = Locked<Rooms>(Rooms())
    private let log: OperatorLog
    /// Told the photos a room shows next (see `RoomEffect.upcoming`).
    private let upcoming: @Sendable ([String]) -> Void
    /// In a group (`--redis`), which rooms this instance runs; `nil` alone.
    let group: (any RoomGroup)?
    /// Which photos the rooms' stacks hold, told by every save.
    let stacked: StackedPhotos
    /// `--album`: the rooms that show only part of the folder.
    let albums: RoomAlbums
    /// Where this server's rooms number their events from (`HistoryNumbering`), taken at start.
    let numberedFrom: Int

    private struct Rooms {
        var kept: [String: Room] = [:]
        var onlyWatched: [String: Room] = [:]
    }

    init(
        maxRooms: Int, store: any RoomStore, settings: RoomSettings, scheduler: any RoomScheduler,
        library: Locked<PhotoLibrary>, asleep: @escaping @Sendable () -> Bool = { false },
        listedRooms: [String]? = nil, log: OperatorLog = .silent, group: (any RoomGroup)? = nil,
        upcoming: @escaping @Sendable ([String]) -> Void = { _ in }, stacked: StackedPhotos = StackedPhotos(),
        albums: RoomAlbums = RoomAlbums(), numberedFrom: Int = 0,
        makeStack: @escaping @Sendable (String, SavedStack?) -> Stack
    ) {
        self.numberedFrom = numberedFrom
        self.log = log
        self.stacked = stacked
        self.albums = albums
        self.group = group
        self.upcoming = upcoming
        self.listedRooms = listedRooms.map(Set.init)
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

    /// The room to control (a POST with control rights), or one the group has: made kept if it is
    /// new, or kept from now if it was only watched so far.
    func controlledRoom(named name: String) throws(Failure) -> Room {
        try check(name)
        return try rooms.withLock { (rooms) throws(Failure) -> Room in
            if let room = rooms.kept[name] { return room }
            try checkRoomForOneMore(in: rooms, name: name)
            let room = rooms.onlyWatched.removeValue(forKey: name) ?? makeRoom(name)
            // Said when a person makes a room, not when a start or a reload brings back one kept.
            if store.load(room: name) == nil {
                log.record("room.created", "room \(name) created", ["room": .string(name)])
            }
            room.becomeKept()
            rooms.kept[name] = room
            group?.want(name)
            return room
        }
    }

    /// The room to watch (a GET): the room if it exists, else one only watched. With `stream`, the
    /// caller will subscribe a viewer: a room only watched stays until that viewer has come and gone.
    func watchedRoom(named name: String, stream: Bool) throws(Failure) -> Room {
        try check(name)
        return try rooms.withLock { (rooms) throws(Failure) -> Room in
            if let room = rooms.kept[name] ?? rooms.onlyWatched[name] {
                if stream { room.expectViewer() }
                return room
            }
            if name == Self.mainRoom || listedRooms != nil || store.load(room: name) != nil
                || group?.listing?[name] != nil
            {
                try checkRoomForOneMore(in: rooms, name: name)
                let room = makeRoom(name)
                rooms.kept[name] = room
                group?.want(name)
                return room
            }
            // As many rooms only watched as kept ones: a bound on memory, not a door to the limit.
            let room = makeRoom(name, onlyWatched: true)
            Metrics.standard.watchedRoomsOpened.add()
            // A snapshot of a room nobody made is answered from a view that is never kept.
            guard stream else { return room }
            guard rooms.onlyWatched.count < maxRooms else { throw .tooManyRooms(limit: maxRooms) }
            room.expectViewer()
            rooms.onlyWatched[name] = room
            return room
        }
    }

    /// Rooms only watched here that the group keeps (another instance made them): they are kept here
    /// too, their viewers following the group's owner.
    func adopt(_ names: Set<String>) {
        let adopted = rooms.withLock { rooms -> [Room] in
            let found = names.compactMap { rooms.onlyWatched.removeValue(forKey: $0) }
            for room in found { rooms.kept[room.name] = room }
            return found
        }
        for room in adopted {
            room.becomeKept()
            group?.want(room.name)
        }
    }

    /// Lets a room only watched go once nobody watches it (kept rooms stay, unloading when idle).
    func release(ifUnwatched room: Room) {
        rooms.withLock { rooms in
            if rooms.onlyWatched[room.name] === room, room.isAbandoned {
                rooms.onlyWatched[room.name] = nil
            }
        }
    }

    /// The room of that name if it is in memory, kept or only watched; makes nothing.
    func existingRoom(named name: String) -> Room? {
        rooms.withLock { $0.kept[name] ?? $0.onlyWatched[name] }
    }

    /// Every kept room.
    var kept: [Room] { rooms.withLock { Array($0.kept.values) } }

    /// Every room in memory, kept or only watched (what timers and the folder watcher tell).
    var all: [Room] { rooms.withLock { Array($0.kept.values) + Array($0.onlyWatched.values) } }

    private func check(_ name: String) throws(Failure) {
        guard Self.isValidName(name) else { throw .invalidName }
        if let listedRooms, !listedRooms.contains(name) { throw .notListed }
    }

    /// `main` always has its place; any other room needs one under the limit. In a group the limit is
    /// the group's: its rooms as last counted (a room the group has already is not one more).
    private func checkRoomForOneMore(in rooms: Rooms, name: String) throws(Failure) {
        let listed = group?.listing ?? [:]
        guard name != Self.mainRoom, listed[name] == nil else { return }
        let others = Set(rooms.kept.keys).union(listed.keys).subtracting([Self.mainRoom])
        guard others.count < maxRooms - 1 else { throw .tooManyRooms(limit: maxRooms) }
    }

    /// Tells every room that the folder changed, each what it shows of it (`--album`).
    func libraryChanged(_ change: LibraryChange, library: PhotoLibrary) {
        for room in all {
            _ = try? room.handle(
                .libraryChanged(
                    albums.change(change, library: library, for: room.name),
                    library: albums.library(library, for: room.name)))
        }
    }

    private func makeRoom(_ name: String, onlyWatched: Bool = false) -> Room {
        return Room(
            name: name, settings: settings, library: albums.library(library.withLock { $0 }, for: name),
            asleep: asleep(), scheduler: scheduler,
            // A view of its own in a group numbers from 0, below every id the group hands out.
            store: store, onlyWatched: onlyWatched, group: group,
            numberedFrom: onlyWatched && group != nil ? 0 : numberedFrom,
            restore: { [makeStack] saved in makeStack(name, saved) },
            unwatched: { [weak self] room in self?.release(ifUnwatched: room) }, upcoming: upcoming,
            stacked: onlyWatched ? nil : stacked, log: log)
    }
}
