import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// Rooms' lasting state: saved atomically, restored at start, kept while a room is unloaded.
@Suite struct PersistenceTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("stackweb-\(UUID().uuidString)/state.json").path
    }

    /// Polls `condition` until it holds or `seconds` pass.
    static func eventually(_ seconds: Double = 3, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return try condition()
    }

    /// The snapshot once every motion has ended on the server's clock: no card animating and no
    /// change for 300 ms (a card sliding under the pile is dropped by a tick after its animation).
    static func settledSnapshot(_ server: TestServer, room: String = "main") throws -> [String: Any] {
        var snapshot = try server.snapshot(room: room)
        var quietSince = Date()
        _ = try eventually(10) {
            let next = try server.snapshot(room: room)
            let moving = (next["cards"] as? [[String: Any]])?.contains { $0["anim"] != nil } ?? true
            if moving || next["seq"] as? Int != snapshot["seq"] as? Int { quietSince = Date() }
            snapshot = next
            return Date().timeIntervalSince(quietSince) >= 0.3
        }
        return snapshot
    }

    @Test func aChangeIsOnDiskWithinASecondAndRestoredAtTheNextStart() throws {
        let path = Self.temporaryPath()
        let before: [String: Any]
        do {
            let server = try TestServer { $0.state = path }
            _ = try server.command(#"{"command":"goto","index":4}"#, room: "hall")
            let changedAt = Date()
            #expect(
                try Self.eventually { (try? String(contentsOfFile: path, encoding: .utf8))?.contains("hall") == true })
            #expect(Date().timeIntervalSince(changedAt) < 1)
            before = try Self.settledSnapshot(server, room: "hall")
        }
        let restarted = try TestServer { $0.state = path }
        let after = try restarted.snapshot(room: "hall")
        #expect(after["current"] as? Int == 4)
        let ids = { (snapshot: [String: Any]) in (snapshot["cards"] as? [[String: Any]])?.map { $0["id"] as? String } }
        let rotations = { (snapshot: [String: Any]) in
            (snapshot["cards"] as? [[String: Any]])?.map { $0["rotation"] as? Double }
        }
        #expect(ids(after) == ids(before))
        #expect(rotations(after) == rotations(before))
        #expect(try restarted.snapshot(room: "other")["current"] as? Int == 0)
    }

    @Test func aDragAsksForNoSaveUntilItReordersTheStack() throws {
        let server = try TestServer {
            $0.state = Self.temporaryPath()
            $0.style = .deck
        }
        let pointer = PointerScript(server: server)
        let (_, x, y) = try pointer.settledTop()
        let store = try #require(server.app.store as? JSONFileStore)
        let current = try #require(try pointer.snapshot()["current"] as? Int)
        try pointer.post(viewer: "v", [PointerScript.sample("down", x: x, y: y, t: 1000, seq: 1)])
        let reported = store.savesRequested
        // Frames of a drag move the deck's layers: events for every viewer, nothing to save.
        for step in 1...5 {
            let sample = PointerScript.sample(
                "move", x: x + Double(step) * 20, y: y, t: 1000 + Double(step) * 16, seq: step + 1)
            #expect(try pointer.post(viewer: "v", [sample]).status == 200)
        }
        #expect(store.savesRequested == reported)
        // Past the fly-out distance the top card leaves mid-drag: the stack is reordered, and saved.
        try pointer.post(viewer: "v", [PointerScript.sample("move", x: x + 400, y: y, t: 1200, seq: 7)])
        let after = try PersistenceTests.settledSnapshot(server)
        #expect(after["current"] as? Int != current)
        #expect(store.savesRequested > reported)
    }

    @Test func theFileIsReplacedWholeWithNoTemporaryLeftBehind() throws {
        let path = Self.temporaryPath()
        let server = try TestServer { $0.state = path }
        for _ in 0..<5 { _ = try server.command(#"{"command":"next"}"#) }
        server.app.store.flush()
        let folder = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["state.json"])
        let file = try JSONDecoder().decode(StateFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(file.version == 1)
        #expect(file.rooms["main"]?.order.count == 12)
    }

    @Test func aCorruptStateFileIsKeptAsideAndTheServerStartsClean() throws {
        let path = Self.temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("{\"version\":1,\"rooms\":{\"main\":".utf8).write(to: URL(fileURLWithPath: path))
        let server = try TestServer { $0.state = path }
        #expect(try server.snapshot()["current"] as? Int == 0)
        let folder = (path as NSString).deletingLastPathComponent
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.contains { $0.hasPrefix("state.json.corrupt-") })
    }
}
