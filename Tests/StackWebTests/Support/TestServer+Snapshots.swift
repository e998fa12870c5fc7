import Testing

@testable import StackWebServer

extension TestServer {
    /// The snapshot once every motion has ended on the server's clock: no card animating, and no
    /// deadline pending in the model (a card sliding under the pile is dropped by a tick after its
    /// animation).
    func settledSnapshot(room: String = "main") throws -> [String: Any] {
        let live = try #require(app.rooms.existingRoom(named: room))
        var snapshot: [String: Any] = [:]
        let settled = try Poll.until(10) {
            guard live.isAtRest else { return false }
            snapshot = try self.snapshot(room: room)
            return !((snapshot["cards"] as? [[String: Any]])?.contains { $0["anim"] != nil } ?? true) && live.isAtRest
        }
        #expect(settled, "the room never came to rest")
        return snapshot
    }

    /// The photos' caption names in stack order, front first.
    func captionNames(room: String = "main") throws -> [String] {
        let cards = try snapshot(room: room)["cards"] as? [[String: Any]] ?? []
        return cards.sorted { ($0["position"] as? Int ?? 0) < ($1["position"] as? Int ?? 0) }
            .compactMap { ($0["caption"] as? [String: Any])?["name"] as? String }
    }

    /// The photo of the first card the snapshot lists.
    func firstPhotoID() throws -> String {
        let cards = try #require(try snapshot()["cards"] as? [[String: Any]])
        return try #require(cards.first?["photo"] as? String)
    }
}
