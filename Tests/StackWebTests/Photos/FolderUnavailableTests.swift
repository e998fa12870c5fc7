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
}
