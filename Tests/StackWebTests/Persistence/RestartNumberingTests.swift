import Foundation
import Testing

@testable import StackWebServer

/// One frame, one state file, a power cut: ids never name two events across restarts of a single
/// instance, and a viewer resuming from before the restart gets the room afresh, never the new
/// start's changes as if they followed what it saw. On the real binary, stopped by SIGTERM and by
/// `kill -9`.
@Suite struct RestartNumberingTests {
    /// How the instance goes down.
    enum Stop: String, CaseIterable, CustomTestStringConvertible {
        case sigterm, kill9
        var testDescription: String { rawValue }
    }

    @Test(arguments: Stop.allCases)
    func idsGrowAcrossARestartAndAResumeFromBeforeItGetsASnapshot(stop: Stop) throws {
        let state = TemporaryFiles.databasePath()
        var server = try ServerProcess.start(arguments: ["--state", state])
        defer { server.end() }
        let viewer = try SSETestClient(port: server.port, path: "/api/rooms/main/events")
        var payloads = [try viewer.next()]
        for _ in 0..<5 {
            let seq = try Self.next(at: server)
            payloads.append(try viewer.next { $0.id == String(seq) })
        }
        let lastSeen = try #require(payloads.last?.id.flatMap { Int($0) })

        switch stop {
        case .sigterm: #expect(server.stop() == 0)
        case .kill9: server.kill9()
        }
        server = try ServerProcess.start(arguments: ["--state", state])
        // More changes than before: a numbering that started again would pass the id last seen.
        let after = try (0..<8).map { _ in try Self.next(at: server) }
        #expect(after.allSatisfy { $0 > lastSeen }, "ids after the restart: \(after), last seen before: \(lastSeen)")

        let resumed = try SSETestClient(
            port: server.port, path: "/api/rooms/main/events", headers: ["Last-Event-ID": String(lastSeen)])
        let first = try resumed.next()
        #expect(first.event == "snapshot")
        #expect(first.id == after.last.map(String.init))
        // No id the viewer saw before names another event now.
        let room = try HTTPTestClient(port: server.port).get("/api/rooms/main").json()
        #expect(try first.json()["current"] as? Int == room["current"] as? Int)
        #expect(!payloads.contains { $0.id == first.id })
    }

    /// `next` at `server`, acknowledged: the id of its event.
    static func next(at server: ServerProcess) throws -> Int {
        let reply = try HTTPTestClient(port: server.port).post("/api/rooms/main/commands", json: CommandBody.next)
        try #require(reply.status == 200, "\(reply.status) \(reply.text)")
        return try #require(try reply.json()["seq"] as? Int)
    }
}
