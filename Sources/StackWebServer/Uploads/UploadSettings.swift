/// Which rooms take guests' photos, where new ones join the stack, and the bounds on them: the
/// `--uploads…` options as the server uses them.
struct UploadSettings: Equatable, Sendable {
    /// Whether a room takes photos.
    enum Mode: String, Sendable, CaseIterable {
        /// Refused with 403: nothing changes for a server that never asked for uploads.
        case off
        /// A photo shows as soon as it is kept.
        case open
        /// A photo is kept out of sight until the control token's holder approves it.
        case review
    }

    /// Where a new photo joins a room's stack.
    enum Arrival: String, Sendable, CaseIterable {
        /// Right after the front card: the next one shown.
        case next
        /// In front: shown at once.
        case front
        /// At the back, as a photo copied into the folder.
        case back

        /// The stack position for a stack of `count` cards.
        func position(in count: Int) -> Int {
            switch self {
            case .next: min(1, count)
            case .front: 0
            case .back: count
            }
        }
    }

    /// The mode of rooms not named in `rooms`.
    var mode = Mode.off
    /// `--uploads ROOM=MODE`: rooms with a mode of their own.
    var rooms: [String: Mode] = [:]
    var arrival = Arrival.next
    /// The largest photo taken, in bytes (`--max-upload-size`).
    var maxBytes: Int64 = 50 * 1_000_000
    /// `--uploads-dir`; `nil`: `Uploads/` in the photo folder or beside the state (`UploadsFolder`).
    var folder: String?
    /// `--uploads-quota` in bytes; `nil`: a tenth of the space free at start.
    var quota: Int64?

    /// The mode of the room named `room`.
    func mode(of room: String) -> Mode { rooms[room] ?? mode }

    /// Whether any room takes photos (then an add token is made on a LAN).
    var anyOpen: Bool { mode != .off || rooms.values.contains { $0 != .off } }

    /// The sub-folder of `--uploads-dir` the default names inside the photo folder.
    static let defaultFolderName = "Uploads"
}
