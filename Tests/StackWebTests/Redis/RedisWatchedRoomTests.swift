import Foundation
import Testing

@testable import StackWebServer

/// A room only watched keeps nothing — in a group neither: anonymous viewers of rooms nobody made
/// leave no key in Redis and no log line each; a room another instance made is the group's here too.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisWatchedRoomTests {
    @Test func anonymousViewersOfRoomsNobodyMadeLeaveNothingInRedis() throws {
        let redis = try RedisServer()
        let server = try redis.startInstance("a")
        defer { server.end() }
        #expect(Poll.until { redis.lease(of: "main") == "a" })
        // Presence and leases of `main` settle first.
        var before = redis.keyCount
        #expect(
            Poll.until(5) {
                Thread.sleep(forTimeInterval: 0.3)
                let now = redis.keyCount
                defer { before = now }
                return now == before
            })
        let http = HTTPTestClient(port: server.port)
        for index in 0..<40 {
            let viewer = try SSETestClient(port: server.port, path: "/api/rooms/anon-\(index)/events")
            #expect(try viewer.next().event == "snapshot")
            #expect(try http.get("/api/rooms/look-\(index)").status == 200)
        }
        // Two presence rounds later (they run every second), still nothing new.
        let deadline = Date().addingTimeInterval(2.5)
        while Date() < deadline {
            #expect(redis.keyCount == before)
            Thread.sleep(forTimeInterval: 0.25)
        }
        let metrics = try http.get("/metrics").text
        #expect(metrics.contains("stackweb_watched_rooms_opened_total 80"), "\(metrics.prefix(0))")
    }

    @Test func aRoomAnotherInstanceMadeIsTheGroupsForItsViewersHere() throws {
        let redis = try RedisServer()
        let (owner, other) = try redis.startGroup()
        defer {
            owner.end()
            other.end()
        }
        // Watched at b before a makes it: a view of b's own.
        let viewer = try SSETestClient(port: other.port, path: "/api/rooms/hall/events")
        #expect(try viewer.next().event == "snapshot")
        let made = try HTTPTestClient(port: owner.port).post(
            "/api/rooms/hall/commands", json: #"{"command":"style","style":"grid"}"#)
        #expect(made.status == 200)
        // Within a presence round b's viewer follows the group's room.
        let followed = try viewer.next(timeout: 8) { (try? $0.json()["style"] as? String) == "grid" }
        #expect(followed.event == "snapshot" || followed.event == "change")
    }
}
