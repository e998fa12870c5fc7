import Foundation
import Testing

/// A photo folder that goes away (a USB stick unplugged, a NAS share unmounted) and comes back is
/// not a library emptied and refilled: on the real binary, a shuffled room turned to its fifth photo
/// and paused keeps its order, front card and pause while the folder is away and after it is back,
/// and a restart shows the same (nothing was saved from the library that went away).
@Suite struct FolderUnavailableTests {
    /// How the folder goes away: renamed (unplugged), or replaced by an empty folder (the mount
    /// point an unmounted share leaves).
    enum Absence: CaseIterable, Sendable { case renamed, emptyMountPoint }

    @Test(arguments: Absence.allCases)
    func aRoomKeepsItsPlaceWhileTheFolderIsAway(absence: Absence) throws {
        let setup = try RestartSetup()
        let arguments = setup.arguments(["--interval", "30"])
        let before: RoomView
        do {
            let server = try ServerProcess.start(arguments: arguments)
            defer { server.end() }
            let http = HTTPTestClient(port: server.port)
            #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"shuffle"}"#).status == 200)
            #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"goto","index":5}"#).status == 200)
            #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"pause"}"#).status == 200)
            before = try RoomView.settled(of: server, count: RestartSetup.count)
            #expect(before.current == 5)
            #expect(try http.get("/api/rooms/main").json()["playing"] as? Bool == false)

            let away = setup.photos + ".away"
            #expect(rename(setup.photos, away) == 0)
            if absence == .emptyMountPoint {
                try FileManager.default.createDirectory(atPath: setup.photos, withIntermediateDirectories: false)
            }
            // The server checks its folder every 2 s: away for more than two checks.
            Thread.sleep(forTimeInterval: 5)
            let meanwhile = RoomView(try http.quietSnapshot())
            #expect(meanwhile == before, "while the folder is away")
            if absence == .emptyMountPoint { try FileManager.default.removeItem(atPath: setup.photos) }
            #expect(rename(away, setup.photos) == 0)
            Thread.sleep(forTimeInterval: 5)
            #expect(try RoomView.settled(of: server, count: RestartSetup.count) == before, "once it is back")
            #expect(try http.get("/api/rooms/main").json()["playing"] as? Bool == false)
            #expect(server.stop() == 0)
        }
        let server = try ServerProcess.start(arguments: arguments)
        defer { server.end() }
        #expect(try RoomView.settled(of: server, count: RestartSetup.count) == before, "after a restart")
    }

    /// The front card and the room's place, as a snapshot shows them.
    static func place(_ http: HTTPTestClient) throws -> (current: Int?, front: String?) {
        let snapshot = try http.get("/api/rooms/main").json()
        let cards = snapshot["cards"] as? [[String: Any]] ?? []
        let front = cards.first { $0["position"] as? Int == 0 }?["photo"] as? String
        return (snapshot["current"] as? Int, front)
    }

    /// An unmounted stick under `--interval 3`, away for 12 s: its contents gone at once (the bare
    /// mount point left). Known photos answer 503 with Retry-After from the first moment, before
    /// the server has looked, and all along; the slideshow holds its place and front photo, and
    /// goes on from there once the folder is back.
    @Test func aPlayingSlideshowHoldsItsPlaceWhileTheFolderIsAway() throws {
        let setup = try RestartSetup()
        let server = try ServerProcess.start(arguments: setup.arguments(["--interval", "3"]))
        defer { server.end() }
        let http = HTTPTestClient(port: server.port)
        #expect(server.shows(photos: RestartSetup.count, within: 30))
        let known = try #require(try Self.place(http).front)
        let aside = setup.photos + ".aside"
        try FileManager.default.createDirectory(atPath: aside, withIntermediateDirectories: false)
        let parts = ["a", "b", "c"]
        for part in parts { #expect(rename(setup.photos + "/" + part, aside + "/" + part) == 0) }
        let first = try http.get("/photos/\(known)")
        #expect(first.status == 503, "a known photo in the first moments of the unmount")
        #expect(first.header("Retry-After") != nil)
        #expect(try Poll.until(5) { try http.get("/healthz").status == 503 })
        let held = try Self.place(http)
        let until = Date().addingTimeInterval(12)
        while Date() < until {
            let now = try Self.place(http)
            #expect(now.current == held.current && now.front == held.front, "while away: \(now) against \(held)")
            let photo = try http.get("/photos/\(held.front ?? known)")
            #expect(photo.status == 503 && photo.header("Retry-After") != nil, "status \(photo.status)")
            Thread.sleep(forTimeInterval: 1)
        }
        for part in parts { #expect(rename(aside + "/" + part, setup.photos + "/" + part) == 0) }
        #expect(try Poll.until(10) { try http.get("/healthz").status == 200 })
        let back = try Self.place(http)
        #expect(back.current == held.current && back.front == held.front, "back: \(back) against \(held)")
        #expect(try http.get("/photos/\(held.front ?? known)").status == 200)
        // And it plays on from there.
        #expect(try Poll.until(10) { try Self.place(http).current != held.current })
    }
}
