import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// One owner per room in a group, fenced: a lease and an epoch in a real `redis-server`, instances
/// as real processes.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisOwnershipTests {
    @Test func oneInstanceRunsARoomAndAnotherTakesItOverWhenItStops() throws {
        let redis = try RedisServer()
        let first = try redis.startInstance("a")
        defer { first.end() }
        #expect(Poll.until { redis.lease(of: "main") == "a" })
        let second = try redis.startInstance("b")
        defer { second.end() }
        let a = HTTPTestClient(port: first.port)
        let b = HTTPTestClient(port: second.port)
        #expect(try a.post("/api/rooms/main/commands", json: CommandBody.next).status == 200)
        // Input at the other instance is applied by the owner, which keeps the state: no second writer.
        let forwarded = try b.post("/api/rooms/main/commands", json: CommandBody.next)
        #expect(forwarded.status == 200, "\(forwarded.status) \(String(decoding: forwarded.body, as: UTF8.self))")
        let firstEpoch = try #require(redis.epoch(of: "main"))
        let current = try a.get("/api/rooms/main").json()["current"] as? Int
        // A clean stop gives the lease back: the other instance takes over at its next attempt, without
        // waiting for the lease to run out (3 s after its last renewal).
        #expect(first.stop() == 0)
        let exited = Date()
        #expect(Poll.until { redis.lease(of: "main") == "b" })
        #expect(Date().timeIntervalSince(exited) < 1)
        #expect(try #require(redis.epoch(of: "main")) > firstEpoch)
        #expect(try b.get("/api/rooms/main").json()["current"] as? Int == current)
        #expect(try b.post("/api/rooms/main/commands", json: CommandBody.next).status == 200)
    }

    @Test func theFirstPostToARoomNobodyRunsTakesIt() throws {
        let redis = try RedisServer()
        let server = try redis.startInstance("a")
        defer { server.end() }
        let http = HTTPTestClient(port: server.port)
        #expect(try http.post("/api/rooms/hall/commands", json: CommandBody.next).status == 200)
        #expect(redis.lease(of: "hall") == "a")
        #expect(try redis.keptState(of: "hall") != nil)
    }

    @Test func aPausedOwnerCanNeverWriteAgain() throws {
        let redis = try RedisServer()
        let owner = try redis.startInstance("a")
        defer { owner.end() }
        #expect(Poll.until { redis.lease(of: "main") == "a" })
        let a = HTTPTestClient(port: owner.port)
        #expect(try a.post("/api/rooms/main/commands", json: CommandBody.next).status == 200)
        let ownersEpoch = try #require(redis.epoch(of: "main"))
        let successor = try redis.startInstance("b")
        defer { successor.end() }
        let b = HTTPTestClient(port: successor.port)

        owner.pause()
        // The lease runs out while the owner is frozen; the other instance takes the room.
        #expect(Poll.until(6) { redis.lease(of: "main") == "b" })
        let successorsEpoch = try #require(redis.epoch(of: "main"))
        #expect(successorsEpoch > ownersEpoch)
        #expect(try b.post("/api/rooms/main/commands", json: #"{"command":"style","style":"grid"}"#).status == 200)
        let kept = try #require(try redis.keptState(of: "main"))
        #expect(kept.style == .grid)

        let events = try redis.connection().command([Array("XLEN".utf8), RedisKeys.events("main")]).integer

        owner.resume()
        // However its clock and its renewals catch up, the old owner never writes the room's state or
        // its history again.
        let watched = Date()
        while Date().timeIntervalSince(watched) < 2 {
            #expect(try redis.keptState(of: "main") == kept)
            #expect(try redis.connection().command([Array("XLEN".utf8), RedisKeys.events("main")]).integer == events)
        }
        // Input it is given goes to the room's owner now.
        let reply = try a.post("/api/rooms/main/commands", json: #"{"command":"style","style":"deck"}"#)
        #expect(reply.status == 200)
        #expect(try redis.keptState(of: "main")?.style == .deck)
        #expect(redis.lease(of: "main") == "b")
        #expect(redis.epoch(of: "main") == successorsEpoch)
    }
}

/// The owner of a room killed outright: its lease runs out and an instance with viewers of the room
/// takes it over from what Redis kept.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisFailoverTests {
    @Test func aKilledOwnersRoomMovesWithinSecondsAndNothingAcknowledgedIsLost() throws {
        let redis = try RedisServer()
        let owner = try redis.startInstance("a")
        defer { owner.end() }
        #expect(Poll.until { redis.lease(of: "main") == "a" })
        let survivor = try redis.startInstance("b")
        defer { survivor.end() }
        let viewer = try SSETestClient(port: survivor.port, path: "/api/rooms/main/events")
        #expect(try viewer.next().event == "snapshot")

        let a = HTTPTestClient(port: owner.port)
        for command in [#"{"command":"next"}"#, #"{"command":"next"}"#, #"{"command":"style","style":"deck"}"#] {
            #expect(try a.post("/api/rooms/main/commands", json: command).status == 200)
        }
        let acknowledged = try a.get("/api/rooms/main").json()
        owner.kill9()
        let killed = Date()
        #expect(Poll.until(5) { redis.lease(of: "main") == "b" })
        let moved = Date().timeIntervalSince(killed)
        #expect(moved <= 3.5, "the room moved \(moved) s after its owner was killed")
        // The survivor's viewer stayed connected and is shown the room as the owner last acknowledged it.
        let taken = try viewer.next(timeout: 2) { $0.event == "snapshot" }.json()
        #expect(taken["current"] as? Int == acknowledged["current"] as? Int)
        #expect(taken["style"] as? String == "deck")
        let b = HTTPTestClient(port: survivor.port)
        let reply = try b.post("/api/rooms/main/commands", json: CommandBody.next)
        #expect(reply.status == 200)
        let seq = try #require(try reply.json()["seq"] as? Int)
        let change = try viewer.next { $0.event == "change" && $0.id == String(seq) }
        #expect(try change.json()["current"] as? Int != acknowledged["current"] as? Int)
    }

    /// A pause is kept in Redis before it is acknowledged: the instance that takes the room over
    /// from a killed owner shows it paused, though every instance plays by default.
    @Test func aPausedRoomStaysPausedWhenAnotherInstanceTakesItOver() throws {
        let redis = try RedisServer()
        let arguments = ["--redis", redis.urlText, "--interval", "60", "--instance-id"]
        let owner = try ServerProcess.start(arguments: arguments + ["a"])
        defer { owner.end() }
        #expect(Poll.until { redis.lease(of: "main") == "a" })
        let survivor = try ServerProcess.start(arguments: arguments + ["b"])
        defer { survivor.end() }
        let a = HTTPTestClient(port: owner.port)
        #expect(try a.get("/api/rooms/main").json()["playing"] as? Bool == true)
        #expect(try a.post("/api/rooms/main/commands", json: #"{"command":"pause"}"#).status == 200)
        owner.kill9()
        #expect(Poll.until(5) { redis.lease(of: "main") == "b" })
        let b = HTTPTestClient(port: survivor.port)
        #expect(try b.get("/api/rooms/main").json()["playing"] as? Bool == false)
        // And ▶ at the new owner is kept as well.
        #expect(try b.post("/api/rooms/main/commands", json: #"{"command":"play"}"#).status == 200)
        #expect(try redis.keptState(of: "main")?.paused == false)
    }
}
