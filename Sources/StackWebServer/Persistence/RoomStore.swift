import StackModel

/// Where rooms keep what must survive a restart: each room's `SavedStack` (order, tilts, style,
/// removed photos). Rooms talk to this seam only; the engine behind it (a JSON file today) can
/// change without touching them.
///
/// Every call returns at once: writing happens on the store's own threads, never on the caller's
/// (which may be libmicrohttpd's only thread, holding a room's lock).
protocol RoomStore: Sendable {
    /// The room's lasting state as last saved, or `nil` for a room never saved.
    func load(room: String) -> SavedStack?

    /// Keeps `saved` as the room's lasting state. `whenDurable`, if given, is called once, on any
    /// thread, when this state (or a later one) is on disk and will survive `kill -9` — or with the
    /// failure that kept it from getting there.
    func save(
        _ saved: SavedStack, room: String, urgency: SaveUrgency,
        whenDurable: (@Sendable (Result<Void, StoreFailure>) -> Void)?)

    /// Writes whatever is pending and waits for it (shutdown, tests).
    func flush()
}

/// How soon a saved state must reach the disk.
enum SaveUrgency: Sendable, Equatable {
    /// A client's answer waits for it: write now (with whatever else is pending).
    case acknowledged
    /// Nobody waits (a slideshow step, a folder change): write within a short delay, together with
    /// the changes that come meanwhile.
    case background
}

/// A save that did not reach the disk.
struct StoreFailure: Error, Equatable, CustomStringConvertible {
    var description: String
}
