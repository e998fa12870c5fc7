@testable import StackWebServer

/// A group whose answers a test gives: every publication waits, in order, until the test accepts or
/// refuses it. The instance holds every lease it is asked about.
final class ScriptedGroup: RoomGroup {
    typealias Report = @Sendable (GroupPublication.Outcome) -> Void
    private let pending = Locked<[(publication: GroupPublication, report: Report)]>([])

    /// Publications handed over and not yet answered, oldest first.
    var waiting: [GroupPublication] { pending.withLock { $0.map(\.publication) } }

    /// Answers the oldest publication waiting; returns it.
    @discardableResult
    func answerNext(_ outcome: GroupPublication.Outcome) -> GroupPublication? {
        guard let (publication, report) = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return nil }
        report(outcome)
        return publication
    }

    /// Answers every publication waiting, and those they lead to, with `outcome`.
    func answerAll(_ outcome: GroupPublication.Outcome) {
        while answerNext(outcome) != nil {}
    }

    func holds(_ room: String, epoch: Int) -> Bool { true }
    func want(_ room: String) {}
    func unwant(_ room: String) {}
    func isUndecided(_ room: String) -> Bool { false }
    func whenDecided(_ room: String, _ body: @escaping @Sendable () -> Void) { body() }

    func publish(_ publication: GroupPublication, of room: String, report: @escaping Report) {
        pending.withLock { $0.append((publication, report)) }
    }

    func forward(_ input: ForwardedInput, of room: String, answer: @escaping @Sendable (ForwardedAnswer) -> Void) {}
    func publishedSnapshot(of room: String, _ answer: @escaping @Sendable (Result<[UInt8]?, StoreFailure>) -> Void) {
        answer(.success(nil))
    }
    func hasRoom(_ room: String, _ answer: @escaping @Sendable (Result<Bool, StoreFailure>) -> Void) {
        answer(.success(false))
    }
    func keptAnswer(
        for key: String, of room: String, _ answer: @escaping @Sendable (Result<[UInt8]?, StoreFailure>) -> Void
    ) { answer(.success(nil)) }
    var listing: [String: RoomListing]? { nil }
    var failure: StoreFailure? { nil }
}
