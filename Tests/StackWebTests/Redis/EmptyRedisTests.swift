import Foundation
import Testing

@testable import StackWebServer

/// A group's Redis without persistence, restarted empty: every record of the room's epochs and of
/// the photo-id secret is gone. No id is handed out again — not even by an instance that never
/// held the room — and the instances alive keep one photo-id secret, which an instance started
/// after the wipe takes too.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct EmptyRedisTests {
    @Test func aRedisThatCameBackEmptyHandsOutNoIdAgainAndKeepsThePhotoIDs() throws {
        let redis = try RedisServer()
        let (owner, other) = try redis.startGroup()
        defer { other.end() }
        let a = HTTPTestClient(port: owner.port)
        let acked = try #require(try a.post("/api/rooms/main/commands", json: CommandBody.next).json()["seq"] as? Int)
        let cards = try #require(try a.get("/api/rooms/main").json()["cards"] as? [[String: Any]])
        let photo = try #require(cards.first?["photo"] as? String)

        owner.kill9()
        redis.stop()
        try redis.start()
        // The other instance, which never held the room, takes it in the empty Redis.
        #expect(Poll.until(10) { redis.lease(of: "main") == "b" })
        let b = HTTPTestClient(port: other.port)
        let after = try b.post("/api/rooms/main/commands", json: CommandBody.next)
        #expect(after.status == 200, "\(after.text)")
        let seq = try #require(try after.json()["seq"] as? Int)
        #expect(seq > acked, "an id after the wipe (\(seq)) is not above one acknowledged before it (\(acked))")

        // An instance started after the wipe computes the same photo ids as the one alive.
        let late = try redis.startInstance("c")
        defer { late.end() }
        #expect(try HTTPTestClient(port: late.port).get("/photos/\(photo)?w=200").status == 200)
        #expect(try b.get("/photos/\(photo)?w=200").status == 200)
    }
}
