import StackModel

/// The state file's JSON: every room's lasting state, by room name.
struct StateFile: Codable, Equatable {
    struct SavedRoom: Codable, Equatable {
        var style: String
        var order: [String]
        var tilts: [Int]
        /// Absent in files written before removals were saved.
        var removed: [String]?
    }

    static let currentVersion = 1

    var version = StateFile.currentVersion
    var rooms: [String: SavedRoom] = [:]

    init(rooms: [String: SavedStack] = [:]) {
        self.rooms = rooms.mapValues {
            SavedRoom(style: $0.style.rawValue, order: $0.order, tilts: $0.tilts, removed: $0.removed)
        }
    }

    /// The rooms that read back as valid stacks; an unknown style falls back to the default.
    func savedStacks(defaultStyle: StyleName) -> [String: SavedStack] {
        rooms.mapValues { room in
            SavedStack(
                style: StyleName(rawValue: room.style) ?? defaultStyle, order: room.order, tilts: room.tilts,
                removed: room.removed ?? [])
        }
    }
}
