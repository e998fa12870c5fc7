import StackModel

/// The one mapping from a room's outcome to HTTP: no other file chooses a status for a room's answer.
extension RoomOutcome {
    var response: Response {
        switch self {
        case .applied(let seq):
            return .json(Self.appliedBody(seq: seq))
        case .notApplied(let reason):
            return Self.failure(503, "\(reason); nothing was applied, try again", outcome: "not-applied", retryAfter: 5)
        case .unknown(let reason):
            return Self.failure(
                504, "whether it was applied is unknown (\(reason)); retry with the same Idempotency-Key",
                outcome: "unknown", retryAfter: 1)
        case .refused(let refusal):
            return Self.refusal(refusal)
        case .keyReused:
            return .error(422, "this Idempotency-Key was used for another request; use a new key for a new request")
        case .unavailable(let reason):
            var response = Response.error(503, "\(reason); try again")
            response.headers.append(("Retry-After", "1"))
            return response
        }
    }

    /// The body of an applied change's answer: `{"seq": N}`.
    static func appliedBody(seq: Int) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { $0.field("seq", seq) }
        return writer.bytes
    }

    private static func failure(_ status: Int, _ message: String, outcome: String, retryAfter: Int) -> Response {
        var writer = JSONWriter()
        writer.object { json in
            json.field("error", message)
            json.field("outcome", outcome)
        }
        var response = Response.json(writer.bytes, status: status)
        response.headers.append(("Retry-After", String(retryAfter)))
        return response
    }

    private static func refusal(_ refusal: RoomRefusal) -> Response {
        switch refusal {
        case .rateLimited:
            Metrics.standard.rateLimited.add()
            var response = Response.error(429, "too many pointer events from this viewer or address; slow down")
            response.headers.append(("Retry-After", "1"))
            return response
        case .refusedByStack(.indexOutOfRange(let index, let count)):
            return .error(400, "index \(index) is out of range: the stack has \(count) cards")
        case .refusedByStack(.emptyStack):
            return .error(400, "the stack is empty")
        case .refusedByStack(.unknownCard(let id)):
            return .error(404, "no card \(id.prefix(40)) in this room")
        case .refusedByStack(.nothingToUndo):
            return .error(400, "nothing to undo")
        case .stackFull(let limit):
            return .error(409, "this stack holds at most \(limit) cards (--max-cards)")
        case .runElsewhere:
            return RoomOutcome.notApplied("another instance of the group runs this room").response
        case .keyReused:
            return RoomOutcome.keyReused.response
        }
    }
}
