import CVipsTestSupport
import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// The photo folder followed while the server runs: added, removed and replaced files reach every
/// viewer within 2 s.
@Suite struct LiveFolderTests {
    /// A folder of `count` generated photos, `photo-0.jpg`…
    static func folder(count: Int = 3) throws -> String {
        CVipsSetup.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for index in 0..<count { #expect(CVipsTest_writeJPEG(folder + "/photo-\(index).jpg", 120, 90, 1) == 0) }
        return folder
    }

    static func server(photos: String) throws -> TestServer {
        try TestServer.caching(photos: photos)
    }

    @Test func aPhotoAddedWhileRunningReachesAViewerWithinTwoSeconds() throws {
        let folder = try Self.folder()
        let server = try Self.server(photos: folder)
        let viewer = try server.events()
        #expect(try viewer.next().json()["count"] as? Int == 3)
        #expect(CVipsTest_writeJPEG(folder + "/later.jpg", 120, 90, 1) == 0)
        _ = try viewer.nextChange { $0["count"] as? Int == 4 }
        // It joined the back: the front card is the one it was.
        #expect(try server.snapshot()["current"] as? Int == 0)
        let id = server.photoID("later.jpg")
        #expect(try server.http.get("/photos/\(id)").status == 200)
    }

    @Test func aPhotoInANewSubfolderIsFound() throws {
        let folder = try Self.folder()
        let server = try Self.server(photos: folder)
        let viewer = try server.events()
        _ = try viewer.next()
        try FileManager.default.createDirectory(atPath: folder + "/2024/July", withIntermediateDirectories: true)
        #expect(CVipsTest_writeJPEG(folder + "/2024/July/beach.jpg", 120, 90, 1) == 0)
        // Written before the new folder's watch may exist: no close event is seen for it, so it is
        // taken once it has not changed for a second (the slower path, on a loaded machine too).
        _ = try viewer.nextChange(within: 5) { $0["count"] as? Int == 4 }
        // Made after the folder's watch was added: found because the new folder is watched too.
        #expect(CVipsTest_writeJPEG(folder + "/2024/July/dunes.jpg", 120, 90, 1) == 0)
        _ = try viewer.nextChange { $0["count"] as? Int == 5 }
    }

    @Test func removingTheFrontPhotoMovesTheStackOn() throws {
        let folder = try Self.folder()
        let server = try Self.server(photos: folder)
        let viewer = try server.events()
        let snapshot = try viewer.next().json()
        let front = try #require(SSETestClient.cards(snapshot).first { $0["position"] as? Int == 0 })
        let name = try #require((front["caption"] as? [String: Any])?["name"] as? String)
        try FileManager.default.removeItem(atPath: folder + "/" + name)
        let change = try viewer.nextChange { $0["count"] as? Int == 2 }
        // `current` counts places from the first card; the card after the removed first card is first
        // now, so the front is place 0 of the two left.
        #expect(snapshot["current"] as? Int == 0 && change["current"] as? Int == 0)
        // The removed card fades out where it was.
        let fading = SSETestClient.cards(change).first { $0["id"] as? String == front["id"] as? String }
        #expect(
            (fading?["anim"] as? [String: Any])?["to"].flatMap { ($0 as? [String: Any])?["opacity"] } as? Double == 0)
        #expect(try server.http.get("/photos/\(front["photo"] as? String ?? "")").status == 404)
    }

    @Test func aReplacedFileKeepsItsCardWithANewSrc() throws {
        let folder = try Self.folder()
        let server = try Self.server(photos: folder)
        let viewer = try server.events()
        let snapshot = try viewer.next().json()
        let front = try #require(SSETestClient.cards(snapshot).first { $0["position"] as? Int == 0 })
        let src = try #require(front["src"] as? String)
        #expect(src.hasPrefix("/photos/\(front["photo"] as? String ?? "")?v="))
        let name = try #require((front["caption"] as? [String: Any])?["name"] as? String)
        // As an editor saves: a new file beside, renamed over the old one.
        #expect(CVipsTest_writeJPEG(folder + "/.saving.jpg", 120, 90, 1) == 0)
        #expect(rename(folder + "/.saving.jpg", folder + "/" + name) == 0)
        let change = try viewer.nextChange { data in
            SSETestClient.cards(data).contains {
                $0["id"] as? String == front["id"] as? String && $0["src"] as? String != src
            }
        }
        #expect(change["count"] as? Int == 3)
        let newSrc = try #require(
            SSETestClient.cards(try server.snapshot()).first { $0["id"] as? String == front["id"] as? String }?["src"]
                as? String
        )
        #expect(newSrc != src)
        #expect(try server.http.get(newSrc + "&w=100").status == 200)
    }

    @Test func theDiffTellsAddedRemovedRenamedAndReplaced() {
        func entry(_ relative: String, width: Int = 4, size: Int64 = 10, seconds: Int = 1) -> PhotoLibrary.Entry {
            PhotoLibrary.Entry(
                photo: Photo(id: PhotoIDs.test.id(of: relative), width: width, height: 3), path: "/p/" + relative,
                relative: relative, size: size, modified: timespec(tv_sec: seconds, tv_nsec: 0), taken: nil)
        }
        let old = PhotoLibrary(entries: [
            entry("a.jpg"), entry("b.jpg"), entry("c.jpg"), entry("d.jpg"), entry("e.jpg"),
        ])
        let new = PhotoLibrary(entries: [
            entry("a.jpg"), entry("b2.jpg"), entry("c.jpg", size: 11), entry("d.jpg", width: 3, seconds: 2),
            entry("e.jpg"), entry("f.jpg"),
        ])
        let change = LibraryChange(from: old, to: new)
        #expect(change.added.map(\.id) == [PhotoIDs.test.id(of: "b2.jpg"), PhotoIDs.test.id(of: "f.jpg")])
        #expect(change.removed == [PhotoIDs.test.id(of: "b.jpg")])
        #expect(change.replaced == [PhotoIDs.test.id(of: "c.jpg")])
        #expect(change.reshaped.map(\.id) == [PhotoIDs.test.id(of: "d.jpg")])
        #expect(LibraryChange(from: new, to: new).isEmpty)
    }

    @Test func aRoomAppliesAChangeOnceEvenIfRestoredFromTheNewLibrary() throws {
        let room = Room.forTests(photos: 4)
        _ = room.snapshotJSON()
        let change = LibraryChange(
            added: [Photo(id: "p3", width: 4, height: 3), Photo(id: "p9", width: 4, height: 3)], removed: ["p0", "p7"])
        try room.handle(.libraryChanged(change, library: PhotoLibrary(entries: [])))
        try room.handle(.libraryChanged(change, library: PhotoLibrary(entries: [])))
        #expect(room.listing().count == 4)
    }
}
