/// The answers given to uploads that carried an `Idempotency-Key`, for 10 minutes (as the rooms'
/// ledger): a retry of one whose answer was lost gets that answer and stores nothing again.
/// Pure: time is passed in (seconds).
struct UploadAnswers: Sendable {
    static let capacity = 10_000

    private var answers: [String: (response: Response, at: Double)] = [:]

    func answer(for key: String, room: String, at now: Double) -> Response? {
        guard let found = answers[room + "\u{0}" + key], now - found.at < Double(IdempotencyLedger.lifetime) / 1000
        else { return nil }
        return found.response
    }

    mutating func record(_ response: Response, for key: String, room: String, at now: Double) {
        let lifetime = Double(IdempotencyLedger.lifetime) / 1000
        if answers.count >= Self.capacity { answers = answers.filter { now - $0.value.at < lifetime } }
        guard answers.count < Self.capacity else { return }
        answers[room + "\u{0}" + key] = (response, now)
    }
}
