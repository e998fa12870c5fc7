/// Which rooms this instance runs, in a group of instances (`--redis`): only the owner of a room
/// applies its input and runs its clock. Alone, the server runs every room and has none of this.
protocol RoomOwnership: Sendable {
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
    /// Why ownership cannot be kept or taken now (the group's Redis is unreachable); `nil` while healthy.
    var failure: StoreFailure? { get }
}
