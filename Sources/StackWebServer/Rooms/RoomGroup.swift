import StackModel

/// The group of instances this one belongs to (`--redis`), as rooms see it: whether this instance
/// still holds a room's lease, where the owner publishes what the room does (for the other
/// instances' viewers) together with what it keeps, and how input reaches the owner. Alone, the
/// server runs every room and has none of this.
///
/// A room decides for itself whether it runs here (`RoomState.ownership`, changed only by the
/// `leaseGained`/`leaseLost` events under the room's lock); the group only says whether the lease
/// taken with a given epoch is still held, so that a lease that lapsed unrenewed stops input at once.
protocol RoomGroup: Sendable {
    /// Whether this instance still holds the room's lease taken with `epoch`. Answers from memory.
    func holds(_ room: String, epoch: Int) -> Bool
    /// The room is in memory here: take it whenever nobody runs it.
    func want(_ room: String)
    /// The room is gone from memory here: stop running it.
    func unwant(_ room: String)
    /// Whether this instance has yet to make its first attempt at a room it wants.
    func isUndecided(_ room: String) -> Bool
    /// Calls `body` once the first attempt at the room is over (at once if it is), on any thread
    /// but libmicrohttpd's.
    func whenDecided(_ room: String, _ body: @escaping @Sendable () -> Void)
    /// Hands what a room this instance runs publishes to the group, in order; `report` hears, once and
    /// in the same order, whether the group took it. Returns at once.
    func publish(
        _ publication: GroupPublication, of room: String, report: @escaping @Sendable (GroupPublication.Outcome) -> Void
    )
    /// Carries input to the room's owner and hands back its answer, once, on any thread but
    /// libmicrohttpd's.
    func forward(_ input: ForwardedInput, of room: String, answer: @escaping @Sendable (ForwardedAnswer) -> Void)
    /// The room's snapshot as its owner last published it (JSON), read from the group, handed to
    /// `answer` on any thread but libmicrohttpd's; `nil` when the group has none.
    func publishedSnapshot(of room: String, _ answer: @escaping @Sendable (Result<[UInt8]?, StoreFailure>) -> Void)
    /// Whether the group has the room (some instance made it: it has lasting state or a published
    /// snapshot), read from the group on any thread but libmicrohttpd's.
    func hasRoom(_ room: String, _ answer: @escaping @Sendable (Result<Bool, StoreFailure>) -> Void)
    /// The answer the group keeps for a request's `Idempotency-Key` (the body of a `200`), if any.
    func keptAnswer(
        for key: String, of room: String, _ answer: @escaping @Sendable (Result<[UInt8]?, StoreFailure>) -> Void)
    /// Every room of the group as last counted (about once a second), by name; `nil` before the first count.
    var listing: [String: RoomListing]? { get }
    /// Why ownership cannot be kept or taken now (the group's Redis is unreachable); `nil` while healthy.
    var failure: StoreFailure? { get }
}

/// What `GET /api/rooms` says of a room.
struct RoomListing: Equatable, Sendable {
    var viewers: Int
    var count: Int
    var seq: Int
}

/// One thing a room's owner hands to the group: an entry of its history, what it keeps, or both —
/// taken by the group together or not at all, and only while `epoch` is the room's.
struct GroupPublication: Sendable {
    var epoch: Int
    var entry: RoomRelay.Entry?
    /// The entry laid out for each shape class present in the group (see `RoomRelay.Published`).
    var shaped: [ShapeClass: [UInt8]] = [:]
    var keep: Keep?
    /// The room's snapshot (JSON) after the entry, as instances that do not run it answer a read:
    /// sent with what the room keeps, and whenever the room comes to rest.
    var snapshot: [UInt8]?
    /// For a publication without an entry: the id of the event whose state it carries (the history
    /// must hold that event for the group to take it).
    var about = 0

    /// The room's lasting state after the entry, and what goes with it.
    struct Keep: Sendable {
        var saved: SavedStack
        /// Answers to requests with an `Idempotency-Key`, kept with the change they answer.
        var answers: [(key: String, body: [UInt8])] = []
        /// Keys whose answer must no longer be given: their change was undone.
        var forgotten: [String] = []
        /// Kept by then (Redis's time, ms) or not at all: the poster of forwarded input stops
        /// waiting then, and is told what the group holds.
        var deadline: Int64?
    }

    /// Whether the group took a publication.
    enum Outcome: Equatable, Sendable {
        case accepted
        /// Not taken, and never will be: the room's epoch moved on, it came too late, or the history
        /// it continues is not the group's.
        case refused(String)
        /// Perhaps taken, perhaps not: the connection broke with it sent.
        case unknown(String)
    }
}
