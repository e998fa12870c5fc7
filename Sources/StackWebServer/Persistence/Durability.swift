/// The outcome of "is this change kept yet?", told once by the store and awaited by whoever
/// acknowledges the change (a command's answer waits for it).
final class Durability: Sendable {
    typealias Outcome = Result<Void, StoreFailure>

    private struct State {
        var outcome: Outcome?
        var waiters: [@Sendable (Outcome) -> Void] = []
    }

    private let state = Locked(State())

    init() {}

    /// The outcome, once the store has told it.
    var outcome: Outcome? { state.withLock { $0.outcome } }

    /// Records the outcome (the first one told wins) and tells every waiter, outside the lock.
    @Sendable func complete(_ outcome: Outcome) {
        let waiters = state.withLock { state -> [@Sendable (Outcome) -> Void] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter(outcome) }
    }

    /// Calls `body` with the outcome: now if it is known, else when the store tells it.
    func whenKnown(_ body: @escaping @Sendable (Outcome) -> Void) {
        let known = state.withLock { state -> Outcome? in
            if state.outcome == nil { state.waiters.append(body) }
            return state.outcome
        }
        if let known { body(known) }
    }
}
