import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// One owner per room in a group, fenced: a lease and an epoch in a real `redis-server`, instances
/// as real processes.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisOwnershipTests {
    static func lease(of room: String, in redis: RedisServer) -> String? {
        (try? redis.connection().command([Array("GET".utf8), RedisKeys.lease(room)]))?.text
    }

    static func epoch(of room: String, in redis: RedisServer) -> Int? {
        (try? redis.connection().command([Array("GET".utf8), RedisKeys.epoch(room)]))?.text.flatMap { Int($0) }
    }

    static func instance(_ id: String, of redis: RedisServer) throws -> ServerProcess {
        try ServerProcess.start(arguments: ["--redis", redis.urlText, "--instance-id", id])
    }

    static let next = #"{"command":"next"}"#

    @Test func oneInstanceRunsARoomAndAnotherTakesItOverWhenItStops() throws {
        let redis = try RedisServer()
        let first = try Self.instance("a", of: redis)
        defer { first.end() }
        #expect(PersistenceTests.eventually { Self.lease(of: "main", in: redis) == "a" })
        let second = try Self.instance("b", of: redis)
        defer { second.end() }
        let a = HTTPTestClient(port: first.port)
        let b = HTTPTestClient(port: second.port)
        #expect(try a.post("/api/rooms/main/commands", json: Self.next).status == 200)
        // Input at the other instance is applied by the owner, which keeps the state: no second writer.
        let forwarded = try b.post("/api/rooms/main/commands", json: Self.next)
        #expect(forwarded.status == 200, "\(forwarded.status) \(String(decoding: forwarded.body, as: UTF8.self))")
        #expect(Self.epoch(of: "main", in: redis) == 1)
        let current = try a.get("/api/rooms/main").json()["current"] as? Int
        // A clean stop gives the lease back: the other instance takes over at its next attempt, without
        // waiting for the lease to run out (3 s after its last renewal).
        #expect(first.stop() == 0)
        let exited = Date()
        #expect(PersistenceTests.eventually { Self.lease(of: "main", in: redis) == "b" })
        #expect(Date().timeIntervalSince(exited) < 1)
        #expect(Self.epoch(of: "main", in: redis) == 2)
        #expect(try b.get("/api/rooms/main").json()["current"] as? Int == current)
        #expect(try b.post("/api/rooms/main/commands", json: Self.next).status == 200)
    }

    @Test func theFirstPostToARoomNobodyRunsTakesIt() throws {
        let redis = try RedisServer()
        let server = try Self.instance("a", of: redis)
        defer { server.end() }
        let http = HTTPTestClient(port: server.port)
        #expect(try http.post("/api/rooms/hall/commands", json: Self.next).status == 200)
        #expect(Self.lease(of: "hall", in: redis) == "a")
        #expect(try RedisStoreTests.state(of: "hall", in: redis) != nil)
    }

    @Test func aPausedOwnerCanNeverWriteAgain() throws {
        let redis = try RedisServer()
        let owner = try Self.instance("a", of: redis)
        defer { owner.end() }
        #expect(PersistenceTests.eventually { Self.lease(of: "main", in: redis) == "a" })
        let a = HTTPTestClient(port: owner.port)
        #expect(try a.post("/api/rooms/main/commands", json: Self.next).status == 200)
        let successor = try Self.instance("b", of: redis)
        defer { successor.end() }
        let b = HTTPTestClient(port: successor.port)

        owner.pause()
        // The lease runs out while the owner is frozen; the other instance takes the room.
        #expect(PersistenceTests.eventually(6) { Self.lease(of: "main", in: redis) == "b" })
        #expect(Self.epoch(of: "main", in: redis) == 2)
        #expect(try b.post("/api/rooms/main/commands", json: #"{"command":"style","style":"grid"}"#).status == 200)
        let kept = try #require(try RedisStoreTests.state(of: "main", in: redis))
        #expect(kept.style == .grid)

        let events = try redis.connection().command([Array("XLEN".utf8), RedisKeys.events("main")]).integer

        owner.resume()
        // However its clock and its renewals catch up, the old owner never writes the room's state or
        // its history again.
        let watched = Date()
        while Date().timeIntervalSince(watched) < 2 {
            #expect(try RedisStoreTests.state(of: "main", in: redis) == kept)
            #expect(try redis.connection().command([Array("XLEN".utf8), RedisKeys.events("main")]).integer == events)
        }
        // Input it is given goes to the room's owner now.
        let reply = try a.post("/api/rooms/main/commands", json: #"{"command":"style","style":"deck"}"#)
        #expect(reply.status == 200)
        #expect(try RedisStoreTests.state(of: "main", in: redis)?.style == .deck)
        #expect(Self.lease(of: "main", in: redis) == "b")
        #expect(Self.epoch(of: "main", in: redis) == 2)
    }
}

/// The owner of a room killed outright: its lease runs out and an instance with viewers of the room
/// takes it over from what Redis kept.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisFailoverTests {
    @Test func aKilledOwnersRoomMovesWithinSecondsAndNothingAcknowledgedIsLost() throws {
        let redis = try RedisServer()
        let owner = try RedisOwnershipTests.instance("a", of: redis)
        defer { owner.end() }
        #expect(PersistenceTests.eventually { RedisOwnershipTests.lease(of: "main", in: redis) == "a" })
        let survivor = try RedisOwnershipTests.instance("b", of: redis)
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
        #expect(PersistenceTests.eventually(5) { RedisOwnershipTests.lease(of: "main", in: redis) == "b" })
        let moved = Date().timeIntervalSince(killed)
        #expect(moved <= 3.5, "the room moved \(moved) s after its owner was killed")
        // The survivor's viewer stayed connected and is shown the room as the owner last acknowledged it.
        let taken = try viewer.next(timeout: 2) { $0.event == "snapshot" }.json()
        #expect(taken["current"] as? Int == acknowledged["current"] as? Int)
        #expect(taken["style"] as? String == "deck")
        let b = HTTPTestClient(port: survivor.port)
        let reply = try b.post("/api/rooms/main/commands", json: RedisOwnershipTests.next)
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
        #expect(PersistenceTests.eventually { RedisOwnershipTests.lease(of: "main", in: redis) == "a" })
        let survivor = try ServerProcess.start(arguments: arguments + ["b"])
        defer { survivor.end() }
        let a = HTTPTestClient(port: owner.port)
        #expect(try a.get("/api/rooms/main").json()["playing"] as? Bool == true)
        #expect(try a.post("/api/rooms/main/commands", json: #"{"command":"pause"}"#).status == 200)
        owner.kill9()
        #expect(PersistenceTests.eventually(5) { RedisOwnershipTests.lease(of: "main", in: redis) == "b" })
        let b = HTTPTestClient(port: survivor.port)
        #expect(try b.get("/api/rooms/main").json()["playing"] as? Bool == false)
        // And ▶ at the new owner is kept as well.
        #expect(try b.post("/api/rooms/main/commands", json: #"{"command":"play"}"#).status == 200)
        #expect(try RedisStoreTests.state(of: "main", in: redis)?.paused == false)
    }
}
