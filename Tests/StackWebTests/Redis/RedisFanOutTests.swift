import Foundation
import Testing

@testable import StackWebServer

/// Changes reach every instance: the owner publishes each change once to the room's stream in a
/// real `redis-server`; another instance fans the same bytes out to its viewers, and a viewer
/// resumes through any instance.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisFanOutTests {
    static let next = CommandBody.next

    @Test func aChangeAtTheOwnerReachesAViewerOfAnotherInstanceAsTheSameBytes() throws {
        try RedisServer.withGroup { _, owner, other in
            let here = try SSETestClient(port: owner.port, path: "/api/rooms/main/events")
            let there = try SSETestClient(port: other.port, path: "/api/rooms/main/events")
            let first = try here.next()
            let relayed = try there.next()
            #expect(first.event == "snapshot")
            #expect(relayed.event == "snapshot")
            let reply = try HTTPTestClient(port: owner.port).post("/api/rooms/main/commands", json: Self.next)
            let seq = try #require(try reply.json()["seq"] as? Int)
            // Either viewer may have the room's earlier changes first (its arrival, made as the first
            // viewer came): this command's change is the one compared.
            let change = try here.next { $0.event == "change" && $0.id == String(seq) }
            let fannedOut = try there.next { $0.event == "change" && $0.id == String(seq) }
            #expect(fannedOut == change)
        }
    }

    @Test func aViewerResumesThroughAnotherInstanceWithoutASnapshot() throws {
        try RedisServer.withGroup { _, owner, other in
            let viewer = try SSETestClient(port: owner.port, path: "/api/rooms/main/events")
            #expect(try viewer.next().event == "snapshot")
            let http = HTTPTestClient(port: owner.port)
            #expect(try http.post("/api/rooms/main/commands", json: Self.next).status == 200)
            let seen = try viewer.next { $0.event == "change" }
            var missed: [SSETestClient.Event] = []
            for _ in 0..<3 {
                #expect(try http.post("/api/rooms/main/commands", json: Self.next).status == 200)
                missed.append(try viewer.next { $0.event == "change" })
            }
            // The viewer's connection drops; it comes back through the other instance.
            let resumed = try SSETestClient(
                port: other.port, path: "/api/rooms/main/events", headers: ["Last-Event-ID": seen.id ?? ""])
            let replayed = try (0..<3).map { _ in try resumed.next() }
            #expect(replayed == missed)
            #expect(!replayed.contains { $0.event == "snapshot" })
        }
    }

    @Test func idsKeepIncreasingAcrossOwners() throws {
        try RedisServer.withGroup { _, owner, other in
            let viewer = try SSETestClient(port: other.port, path: "/api/rooms/main/events")
            #expect(try viewer.next().event == "snapshot")
            let a = HTTPTestClient(port: owner.port)
            var last = 0
            for _ in 0..<3 { last = try a.post("/api/rooms/main/commands", json: Self.next).json()["seq"] as? Int ?? 0 }
            #expect(try viewer.next { $0.event == "change" && $0.id == String(last) }.id == String(last))
            owner.stop()
            let takeover = try viewer.next(timeout: 3) { $0.event == "snapshot" }
            #expect(Int(takeover.id ?? "") ?? 0 > last)
            let b = HTTPTestClient(port: other.port)
            let seq = try b.post("/api/rooms/main/commands", json: Self.next).json()["seq"] as? Int ?? 0
            #expect(seq > Int(takeover.id ?? "") ?? .max)
            #expect(try viewer.next { $0.event == "change" && $0.id == String(seq) }.id == String(seq))
        }
    }

    @Test func theViewersOfAnOwnerThatLostTheRoomFollowTheNewOwner() throws {
        try RedisServer.withGroup { redis, owner, other in
            let viewer = try SSETestClient(port: owner.port, path: "/api/rooms/main/events")
            #expect(try viewer.next().event == "snapshot")
            owner.pause()
            #expect(Poll.until(6) { redis.lease(of: "main") == "b" })
            let b = HTTPTestClient(port: other.port)
            #expect(try b.post("/api/rooms/main/commands", json: #"{"command":"style","style":"grid"}"#).status == 200)
            owner.resume()
            // Its old owner shows the viewer the room as the new owner runs it, then every change.
            let caughtUp = try viewer.next(timeout: 5) { (try? $0.json()["style"] as? String) == "grid" }
            #expect(["snapshot", "change"].contains(caughtUp.event))
            let seq = try b.post("/api/rooms/main/commands", json: Self.next).json()["seq"] as? Int ?? 0
            #expect(try viewer.next { $0.event == "change" && $0.id == String(seq) }.id == String(seq))
        }
    }

    /// Redis away for less than a lease: the owner keeps the room and its viewers see every change,
    /// but the group's history misses those; once Redis answers, the owner sends the room's snapshot
    /// to the other instances' viewers, who would otherwise show the room without them.
    @Test func aChangeRedisMissedReachesTheOtherInstancesOnceItReturns() throws {
        let redis = try RedisServer(persistent: true)
        let (owner, other) = try redis.startGroup()
        defer {
            owner.end()
            other.end()
        }
        let viewer = try SSETestClient(port: other.port, path: "/api/rooms/main/events")
        #expect(try viewer.next().event == "snapshot")
        // Where the front card is, from its owner: on a loaded machine the room can be published
        // before the folder's photos are in it (the opening here then has no card yet).
        let ownerHTTP = HTTPTestClient(port: owner.port)
        var top: [String: Any] = [:]
        #expect(
            try Poll.until(10) {
                top = PointerScript.top(try ownerHTTP.get("/api/rooms/main").json())
                return top["x"] is Double
            })
        let (x, y) = (try #require(top["x"] as? Double), try #require(top["y"] as? Double))
        redis.stop()
        let samples = [
            PointerScript.sample("down", x: x, y: y, t: 1000), PointerScript.sample("move", x: x + 40, y: y, t: 1016),
        ]
        let grab = try HTTPTestClient(port: owner.port).post(
            "/api/rooms/main/pointer", json: #"{"viewer":"mover","events":[\#(samples.joined(separator: ","))]}"#)
        #expect(grab.status == 200)
        try redis.start()
        let mended = try viewer.next(timeout: 5) { event in
            event.event == "snapshot" && (try? event.json()["heldBy"] as? String) == "mover"
        }
        #expect(mended.event == "snapshot")
    }

    /// The same room's changes cost the same in Redis whatever the number of viewers: one entry each.
    @Test func aChangeIsOneStreamEntryWhateverTheViewers() throws {
        try RedisServer.withGroup { redis, owner, other in
            let viewers = try (0..<20).map { index in
                try SSETestClient(port: (index % 2 == 0 ? owner : other).port, path: "/api/rooms/main/events")
            }
            for viewer in viewers { _ = try viewer.next() }
            let connection = redis.connection()
            let before = try connection.command([Array("XLEN".utf8), RedisKeys.events("main")]).integer ?? 0
            #expect(
                try HTTPTestClient(port: owner.port).post("/api/rooms/main/commands", json: Self.next).status == 200)
            for viewer in viewers { #expect(try viewer.next { $0.event == "change" }.event == "change") }
            let after = try connection.command([Array("XLEN".utf8), RedisKeys.events("main")]).integer ?? 0
            #expect(after - before == 1)
        }
    }
}
