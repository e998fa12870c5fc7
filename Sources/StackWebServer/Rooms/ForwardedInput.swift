import StackModel

/// A person's input (a pointer batch, a command) that reached an instance of a group that does not
/// run the room: carried to the owner as it came, and applied there as if posted there.
struct ForwardedInput: Equatable, Sendable {
    /// The request's path: `/api/rooms/ROOM/pointer`, `…/commands`, `…/photos` (a guest's photo
    /// another instance kept, `PhotoUploads+Group.swift`) or the room itself (a read for a shape).
    var path: String
    var body: [UInt8]
    /// The poster's address, for the owner's per-address rate limit.
    var client: String
    /// The request's `Idempotency-Key`, or one made for it: the owner keeps its answer with the
    /// change, so the poster can find out whether a change whose answer it never got was kept.
    var key: String
    /// Whether the input is a command that changes lasting state (only those are kept with their key).
    var lasting: Bool
    /// The poster's shape class: the owner maps its pointer samples from that class's stage.
    var shape: ShapeClass? = nil
    /// Whether `key` is the client's own (else made here): a client's key may have been applied by
    /// an earlier attempt, so only what the group says of it tells whether it was.
    var keyedByClient = true

    /// The key as the owner keeps its answer: scoped by what the input is (a guest's photo's body
    /// names where this instance kept it, so its key alone is compared).
    var idempotencyKey: IdempotencyKey {
        switch Route(path: path) {
        case .pointer: IdempotencyKey(kind: .pointer, value: key, body: body)
        case .uploads: IdempotencyKey(kind: .photo, value: key, body: [])
        default: IdempotencyKey(kind: .command, value: key, body: body)
        }
    }
}

/// The owner's answer to a `ForwardedInput`, carried back to the instance the person waits at.
struct ForwardedAnswer: Equatable, Sendable {
    var status: Int
    /// `Retry-After` in seconds, when the answer says to come back.
    var retryAfter: String?
    /// The JSON body.
    var body: [UInt8]
}
