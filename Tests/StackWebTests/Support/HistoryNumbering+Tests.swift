@testable import StackWebServer

extension HistoryNumbering {
    /// How many events after the start of its numbering an id is, for a server whose numbering
    /// started at the clock (`idsPerMillisecond` to a millisecond): tests count within it.
    static func counted(_ id: Int) -> Int { id % idsPerMillisecond }

    /// The id `n` events after the start of the numbering `id` is in.
    static func id(_ n: Int, inNumberingOf id: Int) -> Int { id - counted(id) + n }
}

extension SSETestClient.Event {
    /// The event's number within its numbering (`HistoryNumbering.counted`); nil without an id.
    var number: Int? { id.flatMap(Int.init).map(HistoryNumbering.counted) }
}

extension TestServer {
    /// How many events the room has numbered since this start.
    func numberedSoFar(room: String = "main") throws -> Int? {
        (try snapshot(room: room)["seq"] as? Int).map(HistoryNumbering.counted)
    }
}

extension IdempotencyKey {
    /// A command's key, for a body-less test command.
    static func command(_ value: String) -> IdempotencyKey { IdempotencyKey(kind: .command, value: value, body: []) }
}
