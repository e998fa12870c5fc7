import StackModel

/// A person's input to a room (a pointer batch, a command) as the router applies it: posted here, or
/// carried here by another instance of the group (`ForwardedInput`) — the same body, decoded by the
/// same functions into the same room event either way.
struct RoomInput: Sendable {
    /// `/api/rooms/ROOM/pointer` or `/api/rooms/ROOM/commands`.
    var path: String
    var body: [UInt8]
    /// The poster's address, for the per-address rate limit.
    var client: String
    /// The request's `Idempotency-Key`, if any.
    var key: String?
    /// Carried here by another instance: applied here or refused, never sent on.
    var forwarded = false
    /// For forwarded input, when its poster stops waiting (Redis's time, ms): what it changes must be
    /// kept by then or not at all.
    var keepBy: Int64?
    /// The poster's shape class (`?shape=`): its pointer samples are in that class's stage points.
    /// Input carried from another instance carries it too.
    var shape: ShapeClass?
    /// Whether `key` is the client's own, not one made for carrying the input here.
    var keyedByClient = true
}

extension RoomInput {
    /// Input posted to this instance.
    init(_ request: Request) {
        self.init(
            path: request.path, body: request.body, client: request.client,
            key: request.header(.idempotencyKey),
            shape: Router.reportedShape(request))
    }
}
