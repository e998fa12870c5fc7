import Foundation
import Testing

@testable import StackWebServer

/// The gap between an instance winning a room's lease and the room hearing of it: nothing may run
/// in it. Ownership is the room's own state, changed only when the room handles the lease it gained
/// (from the state Redis held when it was taken), so widening the gap changes nothing.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisTakeoverRaceTests {
    static let gap = ["STACKWEB_TEST_TAKEOVER_DELAY_MS": "1500"]

    @Test func inputInTheGapOfATakeoverNeverRunsOnAStaleCopy() throws {
        let redis = try RedisServer()
        let a = try redis.startInstance("a")
        defer { a.end() }
        #expect(Poll.until { redis.lease(of: "main") == "a" })
        let b = try ServerProcess.start(
            arguments: ["--redis", redis.urlText, "--instance-id", "b"], environment: Self.gap)
        defer { b.end() }
        let (httpA, httpB) = (HTTPTestClient(port: a.port), HTTPTestClient(port: b.port))
        // A read at the instance that will take over, while the other runs the room.
        #expect(try httpB.get("/api/rooms/main").status == 200)
        var acknowledged: [Int] = []
        for command in [#"{"command":"goto","index":5}"#, CommandBody.next, CommandBody.next] {
            let reply = try httpA.post("/api/rooms/main/commands", json: command)
            #expect(reply.status == 200)
            acknowledged.append(try #require(try reply.json()["seq"] as? Int))
        }
        let count = try #require(try httpA.get("/api/rooms/main").json()["count"] as? Int)
        a.kill9()
        // Every `next` posted to the taker, through the takeover and its widened gap, until five are
        // acknowledged; a 503 (not applied) or a 504 (unknown) is retried with the same key.
        var key = 0
        let deadline = Date().addingTimeInterval(20)
        while acknowledged.count < 8, Date() < deadline {
            let reply = try httpB.post(
                "/api/rooms/main/commands", json: CommandBody.next, headers: ["Idempotency-Key": "next-\(key)"])
            if reply.status == 200 {
                acknowledged.append(try #require(try reply.json()["seq"] as? Int))
                key += 1
            } else {
                #expect([503, 504].contains(reply.status), "\(reply.status)")
            }
        }
        #expect(acknowledged.count == 8)
        // Acknowledged in real-time order, each under its own id.
        #expect(
            acknowledged == acknowledged.sorted() && Set(acknowledged).count == acknowledged.count, "\(acknowledged)")
        // Every acknowledged change is in the room: goto 5, then seven `next`.
        let final = try httpB.get("/api/rooms/main").json()
        #expect(final["current"] as? Int == (5 + 7) % count)
    }
}
