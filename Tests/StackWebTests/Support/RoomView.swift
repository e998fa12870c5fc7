import Testing

/// What a restart must give back: the order of the photos, front first, and `current`.
struct RoomView: Equatable, CustomStringConvertible {
    var order: [String]
    var current: Int?

    var description: String { "current \(current.map(String.init) ?? "nil"): \(order)" }

    init(_ snapshot: [String: Any]) {
        let cards = (snapshot["cards"] as? [[String: Any]] ?? []).sorted {
            ($0["position"] as? Int ?? 0) < ($1["position"] as? Int ?? 0)
        }
        order = cards.compactMap { $0["photo"] as? String }
        current = snapshot["current"] as? Int
    }

    /// The same view without `photo`: what is left when that file is deleted.
    func without(_ photo: String) -> RoomView {
        var view = self
        view.order.removeAll { $0 == photo }
        return view
    }

    /// The room's view once the server has read every photo and the room holds `count` cards
    /// (polled: the server answers before it has read them).
    static func settled(of server: ServerProcess, count: Int) throws -> RoomView {
        #expect(server.hasReadItsPhotos(within: 30))
        #expect(server.shows(photos: count, within: 30))
        return RoomView(try HTTPTestClient(port: server.port).quietSnapshot())
    }
}
