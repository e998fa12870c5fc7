import Foundation

extension HTTPTestClient {
    /// The snapshot once nothing has moved or changed for half a second.
    func quietSnapshot() throws -> [String: Any] {
        var snapshot = try get("/api/rooms/main").json()
        var quietSince = Date()
        while Date().timeIntervalSince(quietSince) < 0.5 {
            Thread.sleep(forTimeInterval: 0.02)
            let next = try get("/api/rooms/main").json()
            let moving = (next["cards"] as? [[String: Any]])?.contains { $0["anim"] != nil } ?? true
            if moving || next["seq"] as? Int != snapshot["seq"] as? Int { quietSince = Date() }
            snapshot = next
        }
        return snapshot
    }
}
