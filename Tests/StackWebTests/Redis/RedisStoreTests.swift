import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// `--redis`: lasting state lives in a real `redis-server`, written before a change is acknowledged,
/// so a new instance restores it exactly; a Redis that goes away degrades the server, not stops it.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisStoreTests {
    @Test func anAcknowledgedChangeIsInRedisAndANewInstanceRestoresIt() throws {
        let redis = try RedisServer()
        let first = try ServerProcess.start(arguments: ["--redis", redis.urlText])
        defer { first.end() }
        let http = HTTPTestClient(port: first.port)
        for command in [#"{"command":"next"}"#, #"{"command":"next"}"#, #"{"command":"style","style":"deck"}"#] {
            #expect(try http.post("/api/rooms/main/commands", json: command).status == 200)
        }
        let before = try http.get("/api/rooms/main").json()
        // Answered means kept: nothing is flushed on the way down.
        first.kill9()
        let saved = try #require(try redis.keptState(of: "main"))
        #expect(saved.style == .deck)
        let second = try ServerProcess.start(arguments: ["--redis", redis.urlText])
        defer { second.end() }
        let after = try HTTPTestClient(port: second.port).get("/api/rooms/main").json()
        #expect(after["current"] as? Int == before["current"] as? Int)
        #expect(after["style"] as? String == "deck")
        #expect(after["count"] as? Int == before["count"] as? Int)
    }

    @Test func aStoppedRedisDegradesTheServerUntilItReturns() throws {
        let redis = try RedisServer(persistent: true)
        let server = try ServerProcess.start(arguments: ["--redis", redis.urlText])
        defer { server.end() }
        let http = HTTPTestClient(port: server.port)
        let viewer = try SSETestClient(port: server.port, path: "/api/rooms/main/events")
        #expect(try viewer.next().event == "snapshot")
        #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"next"}"#).status == 200)
        let acknowledged = try #require(try redis.keptState(of: "main"))
        redis.stop()
        #expect(Poll.until(2) { (try? http.get("/healthz").status) == 503 })
        #expect(try http.get("/healthz").json()["status"] as? String == "degraded")
        // The first change may have been on its way when Redis went (its outcome unknown, 504);
        // after that, nothing is sent and nothing applied (503).
        let first = try http.post("/api/rooms/main/commands", json: #"{"command":"next"}"#)
        #expect([503, 504].contains(first.status))
        let refused = try http.post("/api/rooms/main/commands", json: #"{"command":"next"}"#)
        #expect(refused.status == 503)
        #expect(try refused.json()["outcome"] as? String == "not-applied")
        #expect(refused.header("retry-after") != nil)
        // The server stays up and its viewers keep their stream.
        #expect(try viewer.next(where: { $0.event == "change" }).event == "change")
        try redis.start()
        // What was acknowledged is still there; the room is taken again and input works, by itself.
        #expect(try redis.keptState(of: "main") == acknowledged)
        #expect(Poll.until(5) { (try? http.get("/healthz").status) == 200 })
        #expect(
            Poll.until(6) {
                (try? http.post("/api/rooms/main/commands", json: #"{"command":"style","style":"grid"}"#).status) == 200
            })
        #expect(try redis.keptState(of: "main")?.style == .grid)
    }

    @Test func anInstanceThatCannotReachRedisDoesNotStart() {
        // It would otherwise start its rooms from nothing and overwrite what the group keeps.
        #expect(throws: (any Error).self) {
            try ServerProcess.start(arguments: ["--redis", "redis://127.0.0.1:1/0"], readPhotos: false)
        }
    }

    @Test func theOptionsParse() throws {
        let outcome = try Configuration.parse(
            arguments: ["--redis", "redis://127.0.0.1:7000/1", "--instance-id", "a.1"], environment: [:])
        guard case .run(let configuration) = outcome else { throw RedisError.unexpected("\(outcome)") }
        #expect(configuration.redis == RedisURL(host: "127.0.0.1", port: 7000, database: 1))
        #expect(configuration.instanceID == "a.1")
        #expect(throws: Configuration.Failure.self) {
            try Configuration.parse(arguments: ["--instance-id", "a b"], environment: [:])
        }
        #expect(throws: Configuration.Failure.self) {
            try Configuration.parse(arguments: ["--redis", "redis://h", "--state", "/s.db"], environment: [:])
        }
    }

    @Test func theInstanceIsNamedAtStart() throws {
        let redis = try RedisServer()
        let server = try ServerProcess.start(arguments: ["--redis", redis.urlText, "--instance-id", "web-7"])
        defer { server.end() }
        // Among the start-up lines, after the addresses to open.
        var lines: [String] = []
        while lines.count < 20, let line = server.nextLine() {
            lines.append(line)
            if line.hasPrefix("  group:") { break }
        }
        #expect(lines.last == "  group:   instance web-7 of the group at \(redis.urlText)", "\(lines)")
    }
}
