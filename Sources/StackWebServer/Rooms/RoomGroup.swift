/// The group of instances this one belongs to (`--redis`), as rooms see it: which rooms this
/// instance runs (only the owner of a room applies its input and runs its clock), and where the
/// owner publishes what the room does, for the other instances' viewers. Alone, the server runs every
/// room and has none of this.
protocol RoomGroup: Sendable {
    /// Whether this instance runs the room now. Answers from memory, at once.
    func owns(_ room: String) -> Bool
    /// The room is in memory here: take it whenever nobody runs it.
    func want(_ room: String)
    /// The room is gone from memory here: stop running it.
    func unwant(_ room: String)
    /// Whether this instance has yet to make its first attempt at a room it wants.
    func isUndecided(_ room: String) -> Bool
    /// Calls `body` once the first attempt at the room is over (at once if it is), on any thread
    /// but libmicrohttpd's.
    func whenDecided(_ room: String, _ body: @escaping @Sendable () -> Void)
    /// Hands an entry of a room this instance runs to the group, in order. Returns at once.
    func publish(_ entry: RoomRelay.Entry, of room: String)
    /// Carries input to the room's owner and hands back its answer, once, on any thread but
    /// libmicrohttpd's (an owner that does not answer in time is a 503).
    func forward(_ input: ForwardedInput, of room: String, answer: @escaping @Sendable (ForwardedAnswer) -> Void)
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
