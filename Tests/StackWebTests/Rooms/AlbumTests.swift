import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// `--album ROOM=SUBDIR`: a kitchen frame and a living-room frame on one server, each showing its
/// own sub-folder (and its guests' photos), a room without an album the whole folder.
@Suite struct AlbumTests {
    static func server(_ folder: String, configure: (inout Configuration) -> Void = { _ in }) throws -> TestServer {
        let cache = try TemporaryFiles.folder()
        return try TestServer { configuration in
            configuration.photos = folder
            configuration.cache = cache
            configuration.albums = ["kitchen": "kitchen", "living": "./living/"]
            configure(&configuration)
        }
    }

    static func photos(_ server: TestServer, room: String) throws -> Set<String> {
        let cards = try server.snapshot(room: room)["cards"] as? [[String: Any]] ?? []
        return Set(cards.compactMap { $0["photo"] as? String })
    }

    @Test func eachRoomShowsOnlyItsAlbumAndARoomWithoutOneShowsAll() throws {
        let server = try Self.server(try TestPhotos.albumFolder())
        #expect(try server.snapshot(room: "kitchen")["count"] as? Int == 2)
        #expect(
            try Self.photos(server, room: "kitchen") == [
                server.photoID("kitchen/k0.jpg"), server.photoID("kitchen/k1.jpg"),
            ])
        #expect(try server.snapshot(room: "living")["count"] as? Int == 1)
        #expect(try Self.photos(server, room: "living") == [server.photoID("living/l0.jpg")])
        #expect(try server.snapshot(room: "main")["count"] as? Int == 4)
    }

    @Test func aRoomTakesNoInsertOfAPhotoOutsideItsAlbum() throws {
        let server = try Self.server(try TestPhotos.albumFolder())
        let outside = server.photoID("living/l0.jpg")
        let refused = try server.command(#"{"command":"insert","photo":"\#(outside)"}"#, room: "kitchen")
        #expect(refused.status == 404, "\(refused.text)")
        #expect(try server.snapshot(room: "kitchen")["count"] as? Int == 2)
        let inside = server.photoID("kitchen/k0.jpg")
        #expect(try server.command(#"{"command":"insert","photo":"\#(inside)"}"#, room: "kitchen").status == 200)
        #expect(try server.command(#"{"command":"insert","photo":"\#(outside)"}"#, room: "main").status == 200)
    }

    @Test func aPhotoAddedToOneAlbumAppearsInThatRoomOnly() throws {
        let folder = try TestPhotos.albumFolder()
        let server = try Self.server(folder)
        let kitchen = try server.events(room: "kitchen")
        let living = try server.events(room: "living")
        let main = try server.events()
        for viewer in [kitchen, living, main] { _ = try viewer.next() }
        #expect(CVipsTest_writeJPEG(folder + "/kitchen/k2.jpg", 120, 90, 1) == 0)
        let added = server.photoID("kitchen/k2.jpg")
        _ = try kitchen.nextChange(within: 5) { $0["count"] as? Int == 3 }
        _ = try main.nextChange(within: 5) { $0["count"] as? Int == 5 }
        #expect(try Self.photos(server, room: "kitchen").contains(added))
        #expect(try server.snapshot(room: "living")["count"] as? Int == 1)
        #expect(try !Self.photos(server, room: "living").contains(added))
    }

    @Test func aGuestsPhotoJoinsItsRoomsAlbum() throws {
        let folder = try TestPhotos.albumFolder()
        let server = try Self.server(folder) { configuration in
            configuration.uploads.mode = .open
            configuration.limits = .standard(loopbackOnly: true)
        }
        let reply = try server.http.send(
            method: "POST", path: "/api/rooms/kitchen/photos", headers: ["Content-Type": "image/jpeg"],
            body: try UploadFixture.jpeg(200, 150))
        #expect(reply.status == 201, "\(reply.text)")
        let id = try #require(try reply.json()["id"] as? String)
        #expect(try Self.photos(server, room: "kitchen").contains(id))
        #expect(try server.snapshot(room: "kitchen")["count"] as? Int == 3)
        // The folder's watcher finds the file too: the room without an album shows it, the
        // living room never does.
        #expect(Poll.until(10) { (try? server.snapshot(room: "main")["count"] as? Int) == 5 })
        #expect(try server.snapshot(room: "main")["count"] as? Int == 5)
        #expect(try server.snapshot(room: "living")["count"] as? Int == 1)
        #expect(try server.snapshot(room: "kitchen")["count"] as? Int == 3)
    }

    @Test func thePhotoFolderGoneLeavesEveryAlbumItsCards() throws {
        let folder = try TestPhotos.albumFolder()
        let server = try Self.server(folder)
        let kitchen = try Self.photos(server, room: "kitchen")
        try FileManager.default.removeItem(atPath: folder)
        // Gone is unavailable, not empty: once the server says so, each album still has its cards.
        #expect(Poll.until(10) { (try? server.http.get("/healthz").status) == 503 })
        #expect(try Self.photos(server, room: "kitchen") == kitchen)
        #expect(try server.snapshot(room: "living")["count"] as? Int == 1)
        #expect(try server.snapshot(room: "main")["count"] as? Int == 4)
    }

    static let refused: [[String]] = [
        ["--album", "kitchen=../elsewhere"], ["--album", "kitchen=/tmp"], ["--album", "kitchen=missing"],
        ["--album", "kitchen=a/../../b"], ["--album", "Kitchen=kitchen"], ["--album", "kitchen"],
    ]

    @Test(arguments: refused)
    func anAlbumOutsideThePhotosOrMissingIsRefusedAtStart(arguments: [String]) throws {
        let folder = try TestPhotos.albumFolder()
        let start = try RefusedStart(arguments: ["--photos", folder] + arguments, within: 20)
        #expect(start.status == 78, "\(arguments): \(start.errors)")
        #expect(start.errors.split(separator: "\n").count == 1, "\(start.errors)")
        #expect(start.errors.contains("--album"), "\(start.errors)")
    }

    @Test func aLinkOutOfThePhotosIsRefused() throws {
        let folder = try TestPhotos.albumFolder()
        try FileManager.default.createSymbolicLink(atPath: folder + "/away", withDestinationPath: "/tmp")
        let start = try RefusedStart(arguments: ["--photos", folder, "--album", "kitchen=away"], within: 20)
        #expect(start.status == 78, "\(start.errors)")
    }
}
