import StackModel

/// The answers a room gave to requests that carried an `Idempotency-Key`, so that a retry with the
/// same key gets the first answer and applies nothing again. Pure: time is passed in.
///
/// Keys are scoped by kind (`IdempotencyKey.scoped`), and a key sent again with another body is
/// told so (`RoomRefusal.keyReused`) rather than given the other request's answer. Only final
/// answers are kept: a change applied (with the `seq` of its event) or refused by the room. A change that could not be kept is forgotten when the room goes back (`forget(after:)`):
/// its request was told it was not applied, and a retry must apply it.
struct IdempotencyLedger {
    /// How long a key is remembered.
    static let lifetime: Millis = 600_000
    /// Keys one room remembers at most; the oldest go first past it. Bounds a room's memory against
    /// a client that sends a fresh key with every request.
    static let capacity = 10_000
    /// The longest key taken (`Idempotency-Key` values are opaque: a UUID is 36).
    static let maxKeyLength = 64

    enum Answer: Equatable, Sendable {
        case applied(seq: Int)
        case refused(RoomRefusal)
    }

    private var answers: [String: (answer: Answer, key: IdempotencyKey, at: Millis)] = [:]
    /// Keys in the order they were recorded, for expiry; `head` is the oldest still looked at.
    private var recorded: [(key: String, at: Millis)] = []
    private var head = 0

    var count: Int { answers.count }

    /// The first answer given for `key`, if it is still remembered at `now`; a refusal
    /// (`keyReused`) when it was given to another request.
    func answer(for key: IdempotencyKey, at now: Millis) -> Answer? {
        guard let found = answers[key.scoped], now - found.at < Self.lifetime else { return nil }
        return key.matches(found.key) ? found.answer : .refused(.keyReused)
    }

    /// Remembers the answer given for `key` (a key answered already keeps its first answer).
    mutating func record(_ answer: Answer, for key: IdempotencyKey, at now: Millis) {
        expire(at: now)
        guard answers[key.scoped] == nil else { return }
        answers[key.scoped] = (answer, key, now)
        recorded.append((key.scoped, now))
        while answers.count > Self.capacity, head < recorded.count {
            dropOldest()
        }
    }

    /// Forgets the changes numbered after `seq`: the room went back to its state at `seq`.
    mutating func forget(after seq: Int) {
        answers = answers.filter { _, entry in
            if case .applied(let applied) = entry.answer { applied <= seq } else { true }
        }
    }

    private mutating func expire(at now: Millis) {
        while head < recorded.count, now - recorded[head].at >= Self.lifetime { dropOldest() }
        // The array is compacted once its expired half is large, so recording stays O(1) amortised.
        if head > 1024, head * 2 > recorded.count {
            recorded.removeFirst(head)
            head = 0
        }
    }

    private mutating func dropOldest() {
        let oldest = recorded[head]
        if let entry = answers[oldest.key], entry.at == oldest.at { answers[oldest.key] = nil }
        head += 1
    }
}
