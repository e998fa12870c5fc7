import Foundation
import Testing

@testable import StackWebServer

/// Uploads never make rooms: a guest's photo goes to `main`, a room that is kept, one `--rooms`
/// lists or one with its own `--uploads ROOM=MODE`; any other name is 404 from the head alone.
@Suite struct UploadRoomTests {
    /// The head of an upload to `room` that announces a body and sends none of it.
    static func listedRooms(_ http: HTTPTestClient) throws -> [String] {
        ((try http.get("/api/rooms").json()["rooms"] as? [[String: Any]]) ?? []).compactMap { $0["room"] as? String }
    }

    @Test func aThousandUploadsToRandomRoomNamesAre404AndChangeNothing() throws {
        let state = TemporaryFiles.databasePath()
        let fixture = try UploadFixture { $0.state = state }
        #expect(try fixture.post(try UploadFixture.jpeg(64, 40)).status == 201)
        let rooms = try Self.listedRooms(fixture.http)
        let folders = try FileManager.default.contentsOfDirectory(atPath: fixture.uploads)
        var statuses: [Int: Int] = [:]
        var names: [String] = []
        for _ in 0..<1000 {
            let name = "r" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            names.append(name)
            let reply = try UploadFixture.raw(
                port: fixture.server.port, head: UploadFixture.headOfALargePhoto(room: name))
            statuses[reply?.status ?? 0, default: 0] += 1
        }
        #expect(statuses == [404: 1000])
        #expect(try Self.listedRooms(fixture.http) == rooms)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.uploads) == folders)
        fixture.server.app.store.flush()
        #expect(names.allSatisfy { fixture.server.app.store.load(room: $0) == nil })
        #expect(names.allSatisfy { fixture.server.app.rooms.existingRoom(named: $0) == nil })
        // The operator's own next room is made as ever.
        #expect(try fixture.server.command(#"{"command":"next"}"#, room: "hall").status == 200)
    }

    @Test func aRoomWithItsOwnModeAListedRoomAndAKeptRoomTakePhotos() throws {
        let own = try UploadFixture {
            $0.uploads.mode = .off
            $0.uploads.rooms = ["party": .open]
        }
        #expect(try own.post(try UploadFixture.jpeg(64, 41), room: "party").status == 201)
        #expect(try own.post(try UploadFixture.jpeg(64, 42), room: "other").status == 403)

        let listed = try UploadFixture { $0.rooms = ["main", "hall"] }
        #expect(try listed.post(try UploadFixture.jpeg(64, 43), room: "hall").status == 201)

        let kept = try UploadFixture()
        #expect(try kept.post(try UploadFixture.jpeg(64, 44), room: "stage").status == 404)
        #expect(try kept.server.command(#"{"command":"next"}"#, room: "stage").status == 200)
        #expect(try kept.post(try UploadFixture.jpeg(64, 45), room: "stage").status == 201)
    }
}
