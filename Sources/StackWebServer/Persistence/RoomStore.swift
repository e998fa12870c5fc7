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

    /// `save` with the answer to the request whose change this is (its `Idempotency-Key`), kept in
    /// the same write as the state, so that a retry after a crash still finds it. A store that
    /// keeps no answers keeps the state alone.
    func save(
        _ saved: SavedStack, room: String, urgency: SaveUrgency, answer: StoredAnswer?,
        whenDurable: (@Sendable (Result<Void, StoreFailure>) -> Void)?)

    /// The answers kept with the room's state (the last 10 minutes'), as `save` stored them.
    func answers(room: String) -> [StoredAnswer]

    /// Writes whatever is pending and waits for it (shutdown, tests).
    func flush()

    /// Why the store cannot keep changes now (a full disk), until it can again; `nil` while healthy.
    var failure: StoreFailure? { get }

    /// The secret kept under `name` with the rooms' state, or `drawn` when none is kept yet (then
    /// kept from now on). At start only: it may wait for the disk or the network.
    func secret(named name: String, drawn: String) throws -> String

    /// Every room's lasting state as the store had it at start and saved since, by room.
    var savedRooms: [String: SavedStack] { get }

    /// Where this start's rooms number their events from (`HistoryNumbering`): above where every
    /// earlier start from this store did, and at least `floor` (the clock's); kept before it is
    /// returned, so even a restart within the same millisecond starts higher. At start only: it
    /// may wait for the disk.
    func historyStart(atLeast floor: Int) throws -> Int
}

extension RoomStore {
    func save(
        _ saved: SavedStack, room: String, urgency: SaveUrgency, answer: StoredAnswer?,
        whenDurable: (@Sendable (Result<Void, StoreFailure>) -> Void)?
    ) {
        save(saved, room: room, urgency: urgency, whenDurable: whenDurable)
    }

    func answers(room: String) -> [StoredAnswer] { [] }

    var savedRooms: [String: SavedStack] { [:] }

    /// A store that keeps nothing past the process has only the clock to go by: `floor`.
    func historyStart(atLeast floor: Int) throws -> Int { floor }

    /// A store that keeps nothing past the process keeps no secret either: `drawn`, for this run.
    func secret(named name: String, drawn: String) throws -> String { drawn }
}

/// The answer a room gave to a lasting change sent with an `Idempotency-Key`.
struct StoredAnswer: Equatable, Sendable {
    var key: String
    var seq: Int
    /// Server time it was given (ms); it is kept `IdempotencyLedger.lifetime` from then.
    var at: Double
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
