import Foundation
import Testing

@testable import StackWebServer

/// The cache folder is a cache: deleted between two runs, it costs the restart time, never a room's
/// order. The real binary is stopped (SIGTERM, or killed), its cache folder deleted, and started
/// again: once it has read the photos anew, every room is as it was.
@Suite struct StateWithoutCacheTests {
    /// The view the event stream's opening snapshot shows.
    static func streamedView(of server: ServerProcess) throws -> RoomView {
        let events = try SSETestClient(port: server.port, path: "/api/rooms/main/events")
        return RoomView(try events.next { $0.event == "snapshot" }.json())
    }

    /// Shuffled and turned to its fifth photo, stopped (SIGTERM or SIGKILL), the cache deleted,
    /// started again: the same order, front card and `current`, in the snapshot and the stream.
    @Test(arguments: [false, true])
    func aShuffledRoomComesBackWhenTheCacheIsDeleted(killed: Bool) throws {
        let setup = try RestartSetup()
        let before: RoomView
        do {
            let server = try ServerProcess.start(arguments: setup.arguments())
            defer { server.end() }
            let http = HTTPTestClient(port: server.port)
            #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"shuffle"}"#).status == 200)
            #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"goto","index":5}"#).status == 200)
            before = try RoomView.settled(of: server, count: RestartSetup.count)
            #expect(before.current == 5)
            if killed { server.kill9() } else { #expect(server.stop() == 0) }
        }
        let (server, viewer) = try setup.restart()
        defer { server.end() }
        #expect(
            try RoomView(viewer.next { $0.event == "snapshot" }.json()).order.count < RestartSetup.count,
            "read before it was watched")
        #expect(try RoomView.settled(of: server, count: RestartSetup.count) == before)
        #expect(try Self.streamedView(of: server) == before)
    }

    /// In `--order date` too the saved order wins over the dates, and a photo deleted while the
    /// server was down leaves the room once the folder has been read, the others where they were.
    @Test func aPhotoDeletedMeanwhileLeavesAndTheRestKeepTheirPlaces() throws {
        let setup = try RestartSetup()
        let before: RoomView
        do {
            let server = try ServerProcess.start(arguments: setup.arguments(["--order", "date"]))
            defer { server.end() }
            let http = HTTPTestClient(port: server.port)
            #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"shuffle"}"#).status == 200)
            #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"goto","index":5}"#).status == 200)
            before = try RoomView.settled(of: server, count: RestartSetup.count)
            #expect(server.stop() == 0)
        }
        // Neither the front photo nor the last: one in the middle.
        let deleted = before.order[4]
        let ids = try PhotoIDs.kept(in: setup.state)
        let file = try #require(
            try FileManager.default.subpathsOfDirectory(atPath: setup.photos).first {
                ids.id(of: $0) == deleted
            })
        try FileManager.default.removeItem(atPath: setup.photos + "/" + file)
        let (server, _) = try setup.restart(["--order", "date"])
        defer { server.end() }
        let after = try RoomView.settled(of: server, count: RestartSetup.count - 1)
        #expect(after.order == before.without(deleted).order)
        #expect(after.order.first == before.order.first)
        // It lay behind the front card, not between the first card and it.
        #expect(after.current == before.current)
    }
}
