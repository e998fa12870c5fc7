import StackModel

/// Where rooms keep what must survive a restart: each room's `SavedStack` (order, tilts, style,
/// removed photos). Rooms talk to this seam only; the engine behind it (SQLite, Redis in a group,
/// memory) can change without touching them.
///
/// Every call returns at once: writing happens on the store's own threads, never on the caller's
/// (which may be libmicrohttpd's only thread, holding a room's lock).
protocol RoomStore: Sendable {
    /// The room's lasting state as last saved, or `nil` for a room never saved.
    func load(room: String) -> SavedStack?

    /// Keeps `saved` as the room's lasting state. `whenDurable`, if given, is called once, on any
    /// thread (perhaps at once, on the caller's), when this state (or a later one) is on disk and will
    /// survive `kill -9` — or with the failure that kept it from getting there. After a failure told
    /// to someone waiting, the room's later saves are refused (told so at once, not written) until
    /// one comes `.restored`: what was refused must never reach the disk with a later save.
    func save(
        _ saved: SavedStack, room: String, urgency: SaveUrgency,
        whenDurable: (@Sendable (Result<Void, StoreFailure>) -> Void)?)

    /// Writes whatever is pending and waits for it (shutdown, tests).
    func flush()

    /// Why the store cannot keep changes now (a full disk), until it can again; `nil` while healthy.
    var failure: StoreFailure? { get }
}

/// How soon a saved state must reach the disk.
enum SaveUrgency: Sendable, Equatable {
    /// A client's answer waits for it: write now (with whatever else is pending).
    case acknowledged
    /// Nobody waits (a slideshow step, a folder change): write within a short delay, together with
    /// the changes that come meanwhile.
    case background
    /// The room went back to its state as last kept, after a change someone waited for could not be
    /// kept: a store that refused the room's saves since (so that nothing of the undone change
    /// reaches the disk later) takes them again from this one.
    case restored
}

/// A save that did not reach the disk (or the group).
struct StoreFailure: Error, Equatable, CustomStringConvertible {
    var description: String
    /// The change may have been kept after all (the connection broke with it sent): whoever waits is
    /// told the outcome is unknown rather than that it failed.
    var outcomeUnknown = false
}
