import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// Rooms' lasting state: in the SQLite database before a change is acknowledged, restored at start.
@Suite struct PersistenceTests {
    @Test func anAcknowledgedChangeIsInTheDatabaseAndRestoredAtTheNextStart() throws {
        let path = TemporaryFiles.databasePath()
        let before: [String: Any]
        do {
            let server = try TestServer { $0.state = path }
            #expect(try server.command(#"{"command":"goto","index":4}"#, room: "hall").status == 200)
            // Read by another connection, as a restart would: committed, not merely queued.
            before = try server.settledSnapshot(room: "hall")
            let front = (before["cards"] as? [[String: Any]])?.first { $0["position"] as? Int == 0 }
            #expect(try StateDatabaseReader(path: path).frontPhoto(of: "hall") == front?["photo"] as? String)
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
            $0.state = TemporaryFiles.databasePath()
            $0.style = .deck
        }
        let pointer = PointerScript(server: server)
        let (_, x, y) = try pointer.settledTop()
        let store = try #require(server.app.store as? SQLiteStore)
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
        let after = try server.settledSnapshot()
        #expect(after["current"] as? Int != current)
        #expect(store.savesRequested > reported)
    }
}
