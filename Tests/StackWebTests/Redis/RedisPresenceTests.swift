import Foundation
import Testing

@testable import StackWebServer

/// Presence is the group's: `viewers` counts every instance's viewers of the room, and
/// `GET /api/rooms` lists the rooms of the whole group, whichever instance is asked.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisPresenceTests {
    @Test func viewersAreSummedAcrossInstances() throws {
        try RedisServer.withGroup { _, owner, other in
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
            #expect(Poll.until(3) { RoomList.entry("main", at: other.port)?.viewers == 5 })
            #expect(Poll.until(3) { RoomList.entry("main", at: owner.port)?.viewers == 5 })
            // A dead instance's viewers drop out of the count by themselves.
            other.kill9()
            #expect(Poll.until(6) { RoomList.entry("main", at: owner.port)?.viewers == 2 })
        }
    }

    @Test func everyInstanceListsTheGroupsRooms() throws {
        try RedisServer.withGroup { _, owner, other in
            #expect(
                try HTTPTestClient(port: owner.port).post("/api/rooms/hall/commands", json: CommandBody.next)
                    .status
                    == 200)
            let count = try HTTPTestClient(port: owner.port).get("/api/rooms/hall").json()["count"] as? Int
            #expect(Poll.until(3) { RoomList.entry("hall", at: other.port)?.count == count })
        }
    }
}

/// The token rules hold group-wide: a generated control token is the group's, whichever instance
/// drew it, so a control URL works through any instance — and Redis keeps only its SHA-256.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisTokenTests {
    static let next = CommandBody.next

    @Test func aGeneratedTokenIsTheGroupsAndRedisHoldsOnlyItsDigest() throws {
        let redis = try RedisServer()
        let folder = try TemporaryFiles.folder()
        let arguments = ["--host", "0.0.0.0", "--redis", redis.urlText]
        // The first keeps the token it drew in its state folder (systemd's StateDirectory=).
        let first = try ServerProcess.start(
            arguments: arguments + ["--instance-id", "a"], environment: ["STATE_DIRECTORY": folder])
        let second = try ServerProcess.start(arguments: arguments + ["--instance-id", "b"])
        defer {
            first.end()
            second.end()
        }
        let token = try String(contentsOfFile: folder + "/token", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count == 32)
        let connection = redis.connection()
        #expect(try connection.command([Array("GET".utf8), RedisKeys.clearToken]).bytes == nil)
        #expect(
            try connection.command([Array("GET".utf8), RedisKeys.tokenDigest]).text == GroupToken.hexDigest(token))
        for key in try connection.command("KEYS", "*").array?.compactMap(\.bytes) ?? [] {
            guard try connection.command([Array("TYPE".utf8), key]).text == "string" else { continue }
            let value = try connection.command([Array("GET".utf8), key]).text ?? ""
            #expect(!value.contains(token), "\(String(decoding: key, as: UTF8.self)) holds the token")
        }
        try Self.expectControlled(by: token, at: [first.port, second.port])
    }

    /// A group an earlier version started kept its token in clear: its digest takes its place, and
    /// the token the operator has goes on working.
    @Test func aClearTokenAnEarlierVersionKeptIsCarriedOverAsItsDigest() throws {
        let redis = try RedisServer()
        let token = "0123456789abcdef0123456789abcdef"
        let connection = redis.connection()
        _ = try connection.command([Array("SET".utf8), RedisKeys.clearToken, Array(token.utf8)])
        let server = try ServerProcess.start(arguments: ["--host", "0.0.0.0", "--redis", redis.urlText])
        defer { server.end() }
        #expect(try connection.command([Array("GET".utf8), RedisKeys.clearToken]).bytes == nil)
        #expect(
            try connection.command([Array("GET".utf8), RedisKeys.tokenDigest]).text == GroupToken.hexDigest(token))
        try Self.expectControlled(by: token, at: [server.port])
    }

    /// Each server refuses a POST without a token and takes one with `token`.
    static func expectControlled(by token: String, at ports: [UInt16]) throws {
        for port in ports {
            let http = HTTPTestClient(port: port)
            #expect(try http.post("/api/rooms/main/commands", json: next).status == 401)
            #expect(
                try http.post("/api/rooms/main/commands", json: next, headers: ["Authorization": "Bearer x\(token)"])
                    .status == 403)
            let reply = try http.post(
                "/api/rooms/main/commands", json: next, headers: ["Authorization": "Bearer \(token)"])
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
        for room in ["r1", "r2"] { #expect(try a.command(CommandBody.next, room: room).status == 200) }
        #expect(try a.command(CommandBody.next, room: "r3").status == 429)
        #expect(Poll.until(3) { RoomList.entry("r2", at: b.port) != nil })
        #expect(try b.command(CommandBody.next, room: "r4").status == 429)
        // A room the group has is no new room: input to it goes to its owner.
        #expect(try b.command(CommandBody.next, room: "r1").status == 200)
    }
}
