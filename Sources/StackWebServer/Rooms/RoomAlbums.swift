import StackModel

/// `--album ROOM=SUBDIR`: rooms that show only the photos below one sub-folder of the photo
/// folder, plus that room's guests' photos — a kitchen frame and a living-room frame on one
/// server. A room without an album shows the whole folder. Pure: the rooms are given the library
/// and its changes cut to what they show, so the reducer, `--order`, captions and the saved order
/// work per album as they do for the whole folder.
struct RoomAlbums: Sendable, Equatable {
    /// For each room with an album, the beginnings of the paths (below the photo folder) it shows.
    private(set) var prefixes: [String: [String]] = [:]

    init() {}

    /// `albums`: room → its sub-folder; `uploads`: the guests' folder below the photo folder
    /// (`Uploads`), whose `ROOM/` sub-folder each room with an album shows too.
    init(albums: [String: String], uploads: String?) {
        for (room, folder) in albums {
            prefixes[room] =
                [Self.trimmed(folder) + "/"] + (uploads.map { [Self.trimmed($0) + "/" + room + "/"] } ?? [])
        }
    }

    var isEmpty: Bool { prefixes.isEmpty }

    /// Whether `room` has an album of its own (the operator named it).
    func names(_ room: String) -> Bool { prefixes[room] != nil }

    /// Whether the photo at `relative` (below the photo folder) shows in `room`.
    func shows(_ relative: String, in room: String) -> Bool {
        guard let prefixes = prefixes[room] else { return true }
        return prefixes.contains { relative.hasPrefix($0) }
    }

    /// What `room` shows of `library`: the same library for a room without an album.
    /// - Complexity: O(entries) for a room with an album.
    func library(_ library: PhotoLibrary, for room: String) -> PhotoLibrary {
        guard prefixes[room] != nil else { return library }
        return PhotoLibrary(entries: library.entries.filter { shows($0.relative, in: room) })
    }

    /// What `room` is told of `change`, with `library` the folder after it: photos outside its
    /// album neither join nor change its stack. Removed ids are passed on: an id its stack does not
    /// hold removes nothing.
    func change(_ change: LibraryChange, library: PhotoLibrary, for room: String) -> LibraryChange {
        guard prefixes[room] != nil else { return change }
        let shown = { (id: String) in library.entry(id: id).map { shows($0.relative, in: room) } ?? false }
        var cut = change
        cut.added = change.added.filter { shown($0.id) }
        cut.replaced = change.replaced.filter(shown)
        cut.reshaped = change.reshaped.filter { shown($0.id) }
        return cut
    }

    /// Whether `folder` (as `--album` gives it) stays below the photo folder: relative, without
    /// `..`. Whether it exists is checked at start, against the folder.
    static func isContained(_ folder: String) -> Bool {
        guard !folder.hasPrefix("/") else { return false }
        let parts = folder.split(separator: "/")
        return !parts.isEmpty && !parts.contains("..") && !parts.allSatisfy { $0 == "." }
    }

    private static func trimmed(_ folder: String) -> String {
        folder.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }
}
