import Foundation
import Testing

@testable import StackWebServer

/// The cache folder is a cache: deleted between two runs, it costs the restart time, never a room's
/// order. The real binary is stopped (SIGTERM, or killed), its cache folder deleted, and started
/// again: once it has read the photos anew, every room is as it was.
@Suite struct StateWithoutCacheTests {
    /// Three copies of the bundled photos (a test deletes one; reading 36 takes long enough for a
    /// viewer to come first), a state path and a cache folder.
    struct Setup {
        static let count = 36
        let photos: String
        let state: String
        let cache: String

        init() throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("stackweb-\(UUID().uuidString)")
            photos = root.appendingPathComponent("photos").path
            state = root.appendingPathComponent("state.db").path
            cache = root.appendingPathComponent("cache").path
            try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
            for copy in ["a", "b", "c"] {
                try FileManager.default.copyItem(
                    atPath: TestServer.repositoryRoot.appendingPathComponent("Resources/demo-photos").path,
                    toPath: photos + "/" + copy)
            }
        }

        /// In the grid every card of the room is drawn: a snapshot shows the whole order.
        func arguments(_ extra: [String] = []) -> [String] {
            ["--photos", photos, "--state", state, "--cache", cache, "--style", "grid"] + extra
        }

        /// Started again with the cache folder gone, a viewer watching at once (a photo frame's page
        /// reconnecting): the room is restored before the photos are read again.
        func restart(_ extra: [String] = []) throws -> (ServerProcess, SSETestClient) {
            try FileManager.default.removeItem(atPath: cache)
            let server = try ServerProcess.start(arguments: arguments(extra), readPhotos: false)
            let viewer = try SSETestClient(port: server.port, path: "/api/rooms/main/events")
            return (server, viewer)
        }
    }

    /// What a restart must give back: the order of the photos, front first, and `current`.
    struct View: Equatable, CustomStringConvertible {
        var order: [String]
        var current: Int?

        var description: String { "current \(current.map(String.init) ?? "nil"): \(order)" }

        init(_ snapshot: [String: Any]) {
            let cards = (snapshot["cards"] as? [[String: Any]] ?? []).sorted {
                ($0["position"] as? Int ?? 0) < ($1["position"] as? Int ?? 0)
            }
            order = cards.compactMap { $0["photo"] as? String }
            current = snapshot["current"] as? Int
        }

        /// The same view without `photo`: what is left when that file is deleted.
        func without(_ photo: String) -> View {
            var view = self
            view.order.removeAll { $0 == photo }
            return view
        }
    }

    /// The room's view once the server has read every photo and the room holds `count` cards
    /// (polled: the server answers before it has read them).
    static func view(of server: ServerProcess, count: Int) throws -> View {
        #expect(server.hasReadItsPhotos(within: 30))
        #expect(server.shows(photos: count, within: 30))
        return View(try settled(HTTPTestClient(port: server.port)))
    }

    /// The snapshot once nothing has moved or changed for half a second.
    static func settled(_ http: HTTPTestClient) throws -> [String: Any] {
        var snapshot = try http.get("/api/rooms/main").json()
        var quietSince = Date()
        while Date().timeIntervalSince(quietSince) < 0.5 {
            Thread.sleep(forTimeInterval: 0.02)
            let next = try http.get("/api/rooms/main").json()
            let moving = (next["cards"] as? [[String: Any]])?.contains { $0["anim"] != nil } ?? true
            if moving || next["seq"] as? Int != snapshot["seq"] as? Int { quietSince = Date() }
            snapshot = next
        }
        return snapshot
    }

    /// The view the event stream's opening snapshot shows.
    static func streamedView(of server: ServerProcess) throws -> View {
        let events = try SSETestClient(port: server.port, path: "/api/rooms/main/events")
        return View(try events.next { $0.event == "snapshot" }.json())
    }

    /// Shuffled and turned to its fifth photo, stopped (SIGTERM or SIGKILL), the cache deleted,
    /// started again: the same order, front card and `current`, in the snapshot and the stream.
    @Test(arguments: [false, true])
    func aShuffledRoomComesBackWhenTheCacheIsDeleted(killed: Bool) throws {
        let setup = try Setup()
        let before: View
        do {
            let server = try ServerProcess.start(arguments: setup.arguments())
            defer { server.end() }
            let http = HTTPTestClient(port: server.port)
            #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"shuffle"}"#).status == 200)
            #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"goto","index":5}"#).status == 200)
            before = try Self.view(of: server, count: Setup.count)
            #expect(before.current == 5)
            if killed { server.kill9() } else { #expect(server.stop() == 0) }
        }
        let (server, viewer) = try setup.restart()
        defer { server.end() }
        #expect(
            try View(viewer.next { $0.event == "snapshot" }.json()).order.count < Setup.count,
            "read before it was watched")
        #expect(try Self.view(of: server, count: Setup.count) == before)
        #expect(try Self.streamedView(of: server) == before)
    }

    /// In `--order date` too the saved order wins over the dates, and a photo deleted while the
    /// server was down leaves the room once the folder has been read, the others where they were.
    @Test func aPhotoDeletedMeanwhileLeavesAndTheRestKeepTheirPlaces() throws {
        let setup = try Setup()
        let before: View
        do {
            let server = try ServerProcess.start(arguments: setup.arguments(["--order", "date"]))
            defer { server.end() }
            let http = HTTPTestClient(port: server.port)
            #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"shuffle"}"#).status == 200)
            #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"goto","index":5}"#).status == 200)
            before = try Self.view(of: server, count: Setup.count)
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
        let after = try Self.view(of: server, count: Setup.count - 1)
        #expect(after.order == before.without(deleted).order)
        #expect(after.order.first == before.order.first)
        // It lay behind the front card, not between the first card and it.
        #expect(after.current == before.current)
    }
}
