import Foundation
import Glibc
import Testing

@testable import StackWebServer

/// A room with an album keeps its order across a `kill -9`, and comes back with its album only.
@Suite struct AlbumRestartTests {
    @Test func aRoomsOrderIsKeptPerAlbum() throws {
        let folder = try TestPhotos.albumFolder()
        let state = try TemporaryFiles.folder() + "/state.db"
        let arguments = [
            "--photos", folder, "--cache", try TemporaryFiles.folder(), "--state", state,
            "--album", "kitchen=kitchen",
        ]
        let server = try ServerProcess.start(arguments: arguments)
        #expect(server.shows(photos: 4))
        let http = HTTPTestClient(port: server.port)
        #expect(try http.post("/api/rooms/kitchen/commands", json: #"{"command":"next"}"#).status == 200)
        let before = try http.get("/api/rooms/kitchen").json()
        #expect(before["count"] as? Int == 2)
        #expect(before["current"] as? Int == 1)
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()

        let again = try ServerProcess.start(arguments: arguments)
        #expect(again.shows(photos: 4))
        let after = try HTTPTestClient(port: again.port).get("/api/rooms/kitchen").json()
        #expect(after["count"] as? Int == 2)
        #expect(after["current"] as? Int == 1)
        let photos = { (data: [String: Any]) in
            (data["cards"] as? [[String: Any]] ?? []).sorted {
                ($0["position"] as? Int ?? 0) < ($1["position"] as? Int ?? 0)
            }
            .compactMap { $0["photo"] as? String }
        }
        #expect(photos(after) == photos(before))
    }
}
