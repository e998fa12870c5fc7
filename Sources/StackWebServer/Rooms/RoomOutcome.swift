import StackModel

/// What the room layer says about a request, the one answer type it gives (`response` turns it
/// into HTTP, in one place). Each case says only what the room knows.
enum RoomOutcome: Equatable, Sendable {
    /// Applied — and kept, when it changed lasting state: the id of its event.
    case applied(seq: Int)
    /// Not applied, and never will be: the room (or the group's record of the key) knows it.
    /// Sending it again is safe.
    case notApplied(String)
    /// Perhaps applied, perhaps not: this instance cannot know (Redis broke off with it sent, the
    /// owner did not answer in time, the key could not be looked up). A retry with the same
    /// `Idempotency-Key` is safe and gets the first answer.
    case unknown(String)
    /// Refused: nothing changed, and the same request is refused the same way.
    case refused(RoomRefusal)
    /// A request's `Idempotency-Key` was used before for another request (its body or kind
    /// differs): that request's answer is not this one's.
    case keyReused
    /// Nothing could be asked (a read while the group cannot be reached): try again later.
    case unavailable(String)

    /// What a store's or the group's failure to keep a change means for its request.
    init(_ failure: StoreFailure, keeping what: String = "the change") {
        let reason = "\(what) could not be kept (\(failure.description))"
        self = failure.outcomeUnknown ? .unknown(reason) : .notApplied(reason)
    }
}
