/// A room's change events as a test waits for them: the first one that shows what it waits for,
/// and the cards it carries.
extension SSETestClient {
    /// The data of the first change event that satisfies `match`, within `seconds` of now.
    func nextChange(within seconds: Double = 2, where match: @escaping ([String: Any]) -> Bool) throws
        -> [String: Any]
    {
        try next(timeout: seconds) { event in
            event.event == "change" && (try? event.json()).map(match) == true
        }.json()
    }

    /// The cards of a snapshot's or a change's data, as sent.
    static func cards(_ data: [String: Any]) -> [[String: Any]] { data["cards"] as? [[String: Any]] ?? [] }
}
