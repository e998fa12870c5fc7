import Foundation
import Testing

@testable import StackWebServer

/// A client whose `remove` was acknowledged but whose answer was lost in a crash retries it once the
/// server is back: the card is out of the restored room, so the retry is refused and takes nothing.
@Suite struct RemovalRetryAfterKillTests {
    static let commands = "/api/rooms/main/commands"
    static let removal = #"{"command":"remove","id":"c3"}"#

    /// The card ids a snapshot draws (in the grid: every card of the room).
    static func cardIDs(_ snapshot: [String: Any]) -> [String] {
        (snapshot["cards"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// `remove c3` acknowledged, the server killed (kill -9) and started again from its state file,
    /// the slideshow turned four cards on, then the same removal again: 404, the server alive and the
    /// room one card short, as before the retry.
    @Test func aRemovalRetriedAfterAKillAndTurnsIsRefused() throws {
        let setup = try RestartSetup()
        let photo: String
        do {
            let server = try ServerProcess.start(arguments: setup.arguments())
            defer { server.end() }
            _ = try RoomView.settled(of: server, count: RestartSetup.count)
            let http = HTTPTestClient(port: server.port)
            let cards = try http.get("/api/rooms/main").json()["cards"] as? [[String: Any]] ?? []
            photo = try #require(cards.first { $0["id"] as? String == "c3" }?["photo"] as? String)
            #expect(try http.post(Self.commands, json: Self.removal).status == 200)
            server.kill9()
        }
        let server = try ServerProcess.start(arguments: setup.arguments())
        defer { server.end() }
        let restored = try RoomView.settled(of: server, count: RestartSetup.count - 1)
        #expect(!restored.order.contains(photo))
        let http = HTTPTestClient(port: server.port)
        try #require(!Self.cardIDs(try http.quietSnapshot()).contains("c3"), "c3 names another card after the restart")
        for _ in 0..<4 { #expect(try http.post(Self.commands, json: #"{"command":"next"}"#).status == 200) }
        let retry = try http.post(Self.commands, json: Self.removal)
        #expect(retry.status == 404)
        #expect(retry.text.contains("no card c3"))
        #expect(try http.get("/api/rooms/main").json()["count"] as? Int == RestartSetup.count - 1)
    }
}
