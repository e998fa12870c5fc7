import Foundation
import Glibc
import Testing

@testable import StackWebServer

/// Guests' photos when the photo folder is read-only (a NAS share mounted so): kept in `Uploads/`
/// beside `--state`, or in an `--uploads-dir` outside `--photos`, and still ordinary photos of the
/// library — in the room's stack, their variants served, in place after a restart, in an album.
@Suite struct UploadsElsewhereTests {
    /// The binary run on `arguments` (on an ephemeral port) until it exits by itself: its exit
    /// status and standard error.
    static func refusedStart(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        try StackwebBinary.run(StackwebBinary.serverArguments + arguments)
    }

    /// Posts a photo to `main`: its id, once answered 201 and its card is in the stack.
    static func post(_ server: ServerProcess) throws -> String {
        let reply = try HTTPTestClient(port: server.port).send(
            method: "POST", path: "/api/rooms/main/photos", headers: ["Content-Type": "image/jpeg"],
            body: try UploadFixture.jpeg(800, 600))
        #expect(reply.status == 201, "\(reply.text)")
        let id = try #require(try reply.json()["id"] as? String)
        #expect(try cards(server).contains(id))
        return id
    }

    /// The photo ids of `room`'s cards.
    static func cards(_ server: ServerProcess, room: String = "main") throws -> [String] {
        let cards = try HTTPTestClient(port: server.port).get("/api/rooms/\(room)").json()["cards"] as? [[String: Any]]
        return (cards ?? []).compactMap { $0["photo"] as? String }
    }

    /// The stack position of `photo`'s card in `main`.
    static func position(_ server: ServerProcess, of photo: String) throws -> Int? {
        let cards = try HTTPTestClient(port: server.port).get("/api/rooms/main").json()["cards"] as? [[String: Any]]
        return cards?.first { $0["photo"] as? String == photo }?["position"] as? Int
    }

    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }
    }

    /// A server on `arguments` takes a photo: its card is in the stack, its file in `kept`, its
    /// variant served. Its id and its card's place.
    static func postedPhoto(_ arguments: [String], kept: String) throws -> (id: String, place: Int) {
        let server = try ServerProcess.start(arguments: arguments)
        defer { server.end() }
        #expect(server.shows(photos: 3))
        let id = try post(server)
        #expect(Self.files(kept).count == 1, "\(Self.files(kept))")
        let variant = try HTTPTestClient(port: server.port).get("/photos/\(id)?w=256")
        #expect(variant.status == 200, "\(variant.text)")
        return (id, try #require(try position(server, of: id)))
    }

    /// After a restart with `--album party=Uploads/main`, the photo `id` is all that room shows.
    static func expectInAlbum(_ arguments: [String], id: String) throws {
        let album = try ServerProcess.start(arguments: arguments + ["--album", "party=Uploads/main"])
        defer { album.end() }
        #expect(album.shows(photos: 4))
        #expect(try cards(album, room: "party") == [id])
    }

    @Test func aReadOnlyPhotoFolderKeepsGuestsPhotosBesideTheState() throws {
        try TinyDisk.mounted { photos in
            try UploadFixture.photoFolder(photos)
            try TinyDisk.makeReadOnly(photos)
            let state = try TemporaryFiles.folder()
            let arguments = [
                "--photos", photos, "--cache", try TemporaryFiles.folder(), "--state", state + "/state.db",
                "--uploads", "open",
            ]
            let kept = state + "/" + UploadSettings.defaultFolderName + "/main"
            let (id, place) = try Self.postedPhoto(arguments, kept: kept)

            let again = try ServerProcess.start(arguments: arguments)
            defer { again.end() }
            #expect(again.shows(photos: 4))
            #expect(try Self.position(again, of: id) == place)
            #expect(Self.files(kept).count == 1)
            #expect(try HTTPTestClient(port: again.port).get("/photos/\(id)?w=128").status == 200)
            again.end()
            // The photo folder writable again: guests' photos stay where they are, and still show.
            try TinyDisk.makeReadOnly(photos, false)
            try Self.expectInAlbum(arguments, id: id)
            #expect(!FileManager.default.fileExists(atPath: photos + "/" + UploadSettings.defaultFolderName))
        }
    }

    @Test func aFolderNamedUploadsBesideTheStateIsShownOnlyIfItHoldsGuestsPhotos() throws {
        let photos = try TemporaryFiles.folder()
        try UploadFixture.photoFolder(photos)
        // The operator's own folder of that name (a home folder's), holding photos of its own.
        let state = try TemporaryFiles.folder()
        let other = state + "/" + UploadSettings.defaultFolderName + "/elsewhere"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try UploadFixture.photoFolder(other)
        let arguments = [
            "--photos", photos, "--cache", try TemporaryFiles.folder(), "--state", state + "/state.db",
            "--uploads", "open",
        ]
        _ = try Self.postedPhoto(arguments, kept: photos + "/" + UploadSettings.defaultFolderName + "/main")
    }

    @Test func aReadOnlyPhotoFolderWithoutStateIsRefusedNamingTheOption() throws {
        try TinyDisk.mounted { photos in
            try UploadFixture.photoFolder(photos)
            try TinyDisk.makeReadOnly(photos)
            let (status, errors) = try Self.refusedStart([
                "--photos", photos, "--cache", try TemporaryFiles.folder(), "--uploads", "open",
            ])
            #expect(status == 78)
            #expect(errors.contains("--uploads-dir"), "\(errors)")
            #expect(errors.contains("read-only"), "\(errors)")
        }
    }

    @Test func aReadOnlyUploadsFolderOfThePhotosIsRefusedNotHidden() throws {
        try TinyDisk.mounted { photos in
            try UploadFixture.photoFolder(photos)
            try FileManager.default.createDirectory(
                atPath: photos + "/" + UploadSettings.defaultFolderName, withIntermediateDirectories: true)
            try TinyDisk.makeReadOnly(photos)
            let (status, errors) = try Self.refusedStart([
                "--photos", photos, "--cache", try TemporaryFiles.folder(), "--state",
                try TemporaryFiles.folder() + "/state.db", "--uploads", "open",
            ])
            #expect(status == 78)
            #expect(errors.contains("it is read-only, and a folder elsewhere would hide it"), "\(errors)")
        }
    }

    @Test func anUploadsFolderOutsideThePhotosHoldsTheirPhotos() throws {
        let photos = try TemporaryFiles.folder()
        try UploadFixture.photoFolder(photos)
        let uploads = try TemporaryFiles.folder()
        let arguments = [
            "--photos", photos, "--cache", try TemporaryFiles.folder(), "--state",
            try TemporaryFiles.folder() + "/state.db", "--uploads", "open", "--uploads-dir", uploads,
        ]
        let (id, _) = try Self.postedPhoto(arguments, kept: uploads + "/main")
        #expect(!FileManager.default.fileExists(atPath: photos + "/" + UploadSettings.defaultFolderName))
        try Self.expectInAlbum(arguments, id: id)
    }

    @Test func aPhotoCopiedIntoAnUploadsFolderOutsideThePhotosIsFollowed() throws {
        let photos = try TemporaryFiles.folder()
        try UploadFixture.photoFolder(photos)
        let uploads = try TemporaryFiles.folder()
        let server = try ServerProcess.start(arguments: [
            "--photos", photos, "--cache", try TemporaryFiles.folder(), "--uploads", "open", "--uploads-dir", uploads,
        ])
        defer { server.end() }
        #expect(server.shows(photos: 3))
        // A room's folder made, then a photo written into it: both seen by the watcher (the next
        // rescan is minutes away).
        try FileManager.default.createDirectory(atPath: uploads + "/party", withIntermediateDirectories: true)
        try Data(try UploadFixture.jpeg(320, 240)).write(
            to: URL(fileURLWithPath: uploads + "/party/copied.jpg"), options: .atomic)
        #expect(server.shows(photos: 4))
        // And gone when deleted.
        try FileManager.default.removeItem(atPath: uploads + "/party/copied.jpg")
        #expect(server.shows(photos: 3))
    }

    @Test func anUploadsFolderOutsideThePhotosIsRefusedWhenTheyHaveAnUploadsFolderOfTheirOwn() throws {
        let outside = try TemporaryFiles.folder()
        let fixtureFolder = try TemporaryFiles.folder()
        try FileManager.default.createDirectory(
            atPath: fixtureFolder + "/" + UploadSettings.defaultFolderName, withIntermediateDirectories: true)
        let (status, errors) = try Self.refusedStart([
            "--photos", fixtureFolder, "--cache", try TemporaryFiles.folder(), "--uploads", "open", "--uploads-dir",
            outside,
        ])
        #expect(status == 78)
        #expect(errors.contains("has a folder Uploads of its own"), "\(errors)")
    }
}
