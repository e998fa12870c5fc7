import Foundation
import Testing

@testable import StackWebServer

/// A read at an instance that never had the room — no viewer, no POST — shows the group's room:
/// its snapshot and its event stream, right after the room was made elsewhere (before this
/// instance's next count of the group) and still later, never a private new stack.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct ColdInstanceReadTests {
    @Test func aSnapshotAndAStreamAtAColdInstanceShowTheGroupsRoom() throws {
        let redis = try RedisServer()
        let made = try redis.startInstance("a")
        defer { made.end() }
        let cold = try redis.startInstance("c")
        defer { cold.end() }
        let a = HTTPTestClient(port: made.port)
        #expect(try a.post("/api/rooms/party/commands", json: #"{"command":"style","style":"grid"}"#).status == 200)
        let goto = try a.post("/api/rooms/party/commands", json: #"{"command":"goto","index":5}"#)
        #expect(goto.status == 200, "\(goto.text)")
        let acked = try #require(try goto.json()["seq"] as? Int)

        let c = HTTPTestClient(port: cold.port)
        try Self.expectGroupsRoom(try c.get("/api/rooms/party").json(), acked: acked, "the first read")
        // The stream opens with the group's latest snapshot and the changes after it, as any
        // instance's does: the room as drawn once it has caught up to what was acknowledged.
        let viewer = try SSETestClient(port: cold.port, path: "/api/rooms/party/events")
        let opening = try viewer.next()
        #expect(opening.event == "snapshot")
        #expect(try #require(opening.id.flatMap { Int($0) }) > 0, "a private stack's numbering")
        let caughtUp = try viewer.next { ($0.id.flatMap { Int($0) } ?? 0) >= acked }
        try Self.expectGroupsRoom(try caughtUp.json(), acked: acked, "the stream once caught up")
        // And once the instance has counted the group (about a second), still the group's.
        #expect(Poll.until(5) { (try? c.get("/api/rooms").text)?.contains(#""room":"party""#) == true })
        try Self.expectGroupsRoom(try c.get("/api/rooms/party").json(), acked: acked, "a read after the count")
    }

    /// A room nobody made is still a view of its own: no id of the group's names it.
    @Test func aRoomNobodyMadeIsAViewNumberedBelowTheGroups() throws {
        let redis = try RedisServer()
        let instance = try redis.startInstance("a")
        defer { instance.end() }
        let http = HTTPTestClient(port: instance.port)
        // `main` is the group's once an instance has taken it.
        #expect(Poll.until(10) { (try? http.get("/api/rooms/main").status) == 200 })
        let main = try #require(try http.get("/api/rooms/main").json()["seq"] as? Int)
        let nobodys = try http.get("/api/rooms/nobodys")
        #expect(nobodys.status == 200)
        #expect(try nobodys.json()["seq"] as? Int == 0)
        #expect(main > 0)
    }

    static func expectGroupsRoom(_ snapshot: [String: Any], acked: Int, _ what: Comment) throws {
        #expect(snapshot["style"] as? String == "grid", what)
        #expect(snapshot["current"] as? Int == 5, what)
        #expect(try #require(snapshot["seq"] as? Int) >= acked, what)
    }
}
