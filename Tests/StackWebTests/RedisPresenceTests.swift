import Foundation
import Testing

@testable import StackWebServer

/// Presence is the group's: `viewers` counts every instance's viewers of the room, and
/// `GET /api/rooms` lists the rooms of the whole group, whichever instance is asked.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisPresenceTests {
    static func viewersListed(_ room: String, at port: UInt16) -> (viewers: Int, count: Int)? {
        let rooms = (try? HTTPTestClient(port: port).get("/api/rooms").json())?["rooms"] as? [[String: Any]]
        guard let entry = rooms?.first(where: { $0["room"] as? String == room }) else { return nil }
        return (entry["viewers"] as? Int ?? -1, entry["count"] as? Int ?? -1)
    }

    @Test func viewersAreSummedAcrossInstances() throws {
        try RedisFanOutTests.withGroup { _, owner, other in
            let here = try (0..<2).map { _ in try SSETestClient(port: owner.port, path: "/api/rooms/main/events") }
            let there = try (0..<3).map { _ in try SSETestClient(port: other.port, path: "/api/rooms/main/events") }
            for viewer in here + there { _ = try viewer.next() }
            // Both instances' viewers are told the group's count.
            for viewer in [here[0], there[0]] {
                let counted = try viewer.next(timeout: 5) {
                    $0.event == "presence" && (try? $0.json()["viewers"] as? Int) == 5
                }
                #expect(counted.event == "presence")
            }
            #expect(PersistenceTests.eventually(3) { Self.viewersListed("main", at: other.port)?.viewers == 5 })
            #expect(PersistenceTests.eventually(3) { Self.viewersListed("main", at: owner.port)?.viewers == 5 })
            // A dead instance's viewers drop out of the count by themselves.
            other.kill9()
            #expect(PersistenceTests.eventually(6) { Self.viewersListed("main", at: owner.port)?.viewers == 2 })
        }
    }

    @Test func everyInstanceListsTheGroupsRooms() throws {
        try RedisFanOutTests.withGroup { _, owner, other in
            #expect(
                try HTTPTestClient(port: owner.port).post("/api/rooms/hall/commands", json: RedisOwnershipTests.next)
                    .status
                    == 200)
            let count = try HTTPTestClient(port: owner.port).get("/api/rooms/hall").json()["count"] as? Int
            #expect(PersistenceTests.eventually(3) { Self.viewersListed("hall", at: other.port)?.count == count })
        }
    }
}

/// The token rules hold group-wide: a generated control token is the group's, whichever instance
/// drew it, so a control URL works through any instance.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisTokenTests {
    @Test func aGeneratedTokenIsTheGroups() throws {
        let redis = try RedisServer()
        let arguments = ["--host", "0.0.0.0", "--redis", redis.urlText]
        let first = try ServerProcess.start(arguments: arguments + ["--instance-id", "a"])
        let second = try ServerProcess.start(arguments: arguments + ["--instance-id", "b"])
        defer {
            first.end()
            second.end()
        }
        let token = try #require(try redis.connection().command([Array("GET".utf8), RedisKeys.token]).text)
        #expect(token.count == 32)
        for server in [first, second] {
            let http = HTTPTestClient(port: server.port)
            #expect(try http.post("/api/rooms/main/commands", json: RedisOwnershipTests.next).status == 401)
            let reply = try http.post(
                "/api/rooms/main/commands", json: RedisOwnershipTests.next,
                headers: ["Authorization": "Bearer \(token)"])
            #expect(reply.status == 200)
        }
    }
}

/// The room limit is the group's: rooms made at one instance count at every other.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisRoomLimitTests {
    @Test func roomsMadeAtOneInstanceCountAtAnother() throws {
        let redis = try RedisServer()
        let group = { (id: String) in
            try TestServer { configuration in
                configuration.redis = redis.url
                configuration.instanceID = id
                configuration.maxRooms = 3
            }
        }
        let a = try group("a")
        let b = try group("b")
        for room in ["r1", "r2"] { #expect(try a.command(RedisOwnershipTests.next, room: room).status == 200) }
        #expect(try a.command(RedisOwnershipTests.next, room: "r3").status == 429)
        #expect(PersistenceTests.eventually(3) { RedisPresenceTests.viewersListed("r2", at: b.port) != nil })
        #expect(try b.command(RedisOwnershipTests.next, room: "r4").status == 429)
        // A room the group has is no new room: input to it goes to its owner.
        #expect(try b.command(RedisOwnershipTests.next, room: "r1").status == 200)
    }
}
