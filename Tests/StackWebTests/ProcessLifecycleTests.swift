import Foundation
import Glibc
import Testing

/// The real binary's life: killed hard, or asked to stop with many viewers parked.
@Suite struct ProcessLifecycleTests {
    static func stateArguments() -> (path: String, arguments: [String]) {
        let path = PersistenceTests.temporaryPath()
        return (path, ["--state", path])
    }

    @Test func everyAcknowledgedChangeSurvivesKillDashNine() throws {
        let (_, arguments) = Self.stateArguments()
        let server = try ServerProcess.start(arguments: arguments)
        let http = HTTPTestClient(port: server.port)
        for index in [7, 3, 9] {
            let reply = try http.post("/api/rooms/hall/commands", json: #"{"command":"goto","index":\#(index)}"#)
            #expect(reply.status == 200)
        }
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
        let restarted = try ServerProcess.start(arguments: arguments)
        defer { restarted.stop() }
        let snapshot = try HTTPTestClient(port: restarted.port).get("/api/rooms/hall").json()
        #expect(snapshot["current"] as? Int == 9)
    }

    @Test func sigtermClosesAThousandParkedViewersSavesAndExitsZero() throws {
        Self.raiseOpenFileLimit()
        let (path, arguments) = Self.stateArguments()
        let server = try ServerProcess.start(arguments: arguments)
        let viewers = try (0..<1000).map { _ in try SSETestClient(port: server.port, path: "/api/rooms/main/events") }
        for viewer in viewers { #expect(try viewer.next().event == "snapshot") }
        _ = try HTTPTestClient(port: server.port).post("/api/rooms/main/commands", json: #"{"command":"next"}"#)
        #expect(server.stop() == 0)
        // Every stream was ended by the server (end of stream, not a timeout).
        var ended = 0
        for viewer in viewers {
            if (try? viewer.readToEnd(timeout: 5)) == true { ended += 1 }
        }
        #expect(ended == 1000)
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("\"main\""))
    }

    static func raiseOpenFileLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
