import Foundation
import Testing

@testable import StackWebServer

/// The photo folder coming and going as a USB stick or a NAS share does: removed and re-created,
/// moved away and replaced, swapped behind a symbolic link, changed where inotify cannot see. Real
/// folders, real inotify; every wait is a poll with a deadline.
@Suite struct PhotoFolderLifecycleTests {
    @Test func aFolderRemovedAndRecreatedComesBack() throws {
        let folder = try TemporaryFiles.folder() + "/photos"
        try TestPhotos.write(["a.jpg", "2024/07/b.jpg"], in: folder)
        let follower = try FolderFollower(folder: folder)
        #expect(follower.names.count == 2)
        // Gone at once, as an unmounted stick is: `rm -r` in place deletes the photos one by one
        // first, which the watcher may rightly see as photos deleted before the folder goes.
        #expect(rename(folder, folder + "-gone") == 0)
        try FileManager.default.removeItem(atPath: folder + "-gone")
        #expect(Poll.until { follower.lines(containing: "is gone; waiting for it") == 1 })
        // Gone is unavailable, not empty: the library (and so every room) keeps its photos.
        #expect(follower.names.sorted() == ["2024/07/b.jpg", "a.jpg"])
        // The rooms are told only that it is away (they hold their place), no photo changed.
        #expect(follower.changes.withLock { $0.allSatisfy { $0.isEmpty && $0.folderAway == true } })
        try TestPhotos.write(["c.jpg", "2025/01/d.jpg"], in: folder)
        #expect(follower.shows(["c.jpg", "2025/01/d.jpg"]))
        // Logged once, with the photos there when the folder was found (the copy may still be going on).
        #expect(follower.lines(containing: "photo folder \(folder) is back: ") == 1)
        // Watched again below the new root: a photo added now is seen by inotify.
        try TestPhotos.write(["2025/01/e.jpg"], in: folder)
        #expect(follower.shows(["c.jpg", "2025/01/d.jpg", "2025/01/e.jpg"]))
        #expect(follower.lines(containing: "is gone") == 1)
    }

    /// A stick plugged back in while its photos are still being copied onto it: read once it stops
    /// changing, so the rooms never see the photos not copied yet as deleted (dropped, then added
    /// again at the back: their order rewritten).
    @Test func aFolderBackWhileStillBeingCopiedIsReadOnceItStopsChanging() throws {
        let base = try TemporaryFiles.folder()
        let folder = base + "/photos"
        let names = (0..<8).map { "p\($0).jpg" }
        try TestPhotos.write(names, in: folder)
        let follower = try FolderFollower(folder: folder)
        #expect(rename(folder, base + "/away") == 0)
        #expect(Poll.until { follower.lines(containing: "is gone; waiting for it") == 1 })
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        // One photo every 0.15 s, as a slow copy writes them.
        for name in names {
            #expect(rename(base + "/away/" + name, folder + "/" + name) == 0)
            Thread.sleep(forTimeInterval: 0.15)
        }
        // Taken back once, whole (the library kept the photos meanwhile: `names` says nothing yet).
        #expect(Poll.until(8) { follower.lines(containing: "is back: ") == 1 })
        #expect(follower.lines(containing: "is back: 8 photos") == 1, "\(follower.logged.withLock { $0 })")
        #expect(
            follower.changes.withLock { $0.allSatisfy { $0.removed.isEmpty } }, "\(follower.changes.withLock { $0 })")
        #expect(follower.changes.withLock { $0.contains { $0.folderAway == false } })
        #expect(follower.shows(names))
    }

    /// A file that does not decode is said once, not again each time the folder comes back.
    @Test func aBrokenFileIsLoggedOnceAcrossReturns() throws {
        let base = try TemporaryFiles.folder()
        let folder = base + "/photos"
        try TestPhotos.write(["a.jpg"], in: folder)
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: folder + "/broken.jpg"))
        let follower = try FolderFollower(folder: folder)
        #expect(Poll.until { follower.lines(containing: "skipping \(folder)/broken.jpg") == 1 })
        for round in 1...2 {
            #expect(rename(folder, base + "/away") == 0)
            #expect(Poll.until { follower.lines(containing: "is gone; waiting for it") == round })
            #expect(rename(base + "/away", folder) == 0)
            #expect(Poll.until(8) { follower.lines(containing: "is back: ") == round })
        }
        #expect(follower.lines(containing: "skipping \(folder)/broken.jpg") == 1, "\(follower.logged.withLock { $0 })")
    }

    @Test func aFolderMovedAwayAndReplacedByANewOne() throws {
        let base = try TemporaryFiles.folder()
        let folder = base + "/photos"
        try TestPhotos.write(["a.jpg"], in: folder)
        let follower = try FolderFollower(folder: folder)
        #expect(rename(folder, base + "/photos.old") == 0)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        // An empty folder in its place is an unmounted share's mount point, not a library emptied.
        #expect(Poll.until { follower.lines(containing: "shows no photos; taken as not there") == 1 })
        #expect(follower.names == ["a.jpg"])
        try TestPhotos.write(["new.jpg"], in: folder)
        #expect(follower.shows(["new.jpg"]))
        // The old folder's photos are not followed any more.
        try TestPhotos.write(["stray.jpg"], in: base + "/photos.old")
        #expect(!Poll.until(1) { follower.names.contains("stray.jpg") })
    }

    @Test func aSymlinkedRootSwappedToAnotherFolder() throws {
        let base = try TemporaryFiles.folder()
        try TestPhotos.write(["one.jpg"], in: base + "/a")
        try TestPhotos.write(["two.jpg", "three.jpg"], in: base + "/b")
        try FileManager.default.createSymbolicLink(atPath: base + "/current", withDestinationPath: base + "/a")
        let follower = try FolderFollower(folder: base + "/current")
        #expect(follower.names == ["one.jpg"])
        // As `ln -sfn b current` does: a new link renamed over the old one.
        try FileManager.default.createSymbolicLink(atPath: base + "/next", withDestinationPath: base + "/b")
        #expect(rename(base + "/next", base + "/current") == 0)
        #expect(follower.shows(["three.jpg", "two.jpg"]))
        let served = follower.library.withLock { $0.entries.map(\.path) }
        #expect(served.allSatisfy { $0.hasPrefix(base + "/b/") })
    }

    @Test func changesInotifyCannotSeeArriveWithTheRescan() throws {
        let folder = try TemporaryFiles.folder() + "/share"
        try TestPhotos.write(["a.jpg", "b.jpg"], in: folder)
        var timing = FolderFollower.quick
        timing.inotify = false
        timing.rescan = 0.3
        let follower = try FolderFollower(folder: folder, timing: timing)
        try TestPhotos.write(["2024/c.jpg"], in: folder)
        #expect(follower.shows(["a.jpg", "b.jpg", "2024/c.jpg"]))
        try FileManager.default.removeItem(atPath: folder + "/a.jpg")
        #expect(follower.shows(["b.jpg", "2024/c.jpg"]))
        #expect(follower.changes.withLock { $0.contains { $0.removed == [PhotoIDs.test.id(of: "a.jpg")] } })
    }

    @Test func aPhotoDeletedOnAShareIsNotServedAfterTheRescan() throws {
        let folder = try TemporaryFiles.folder() + "/share"
        try TestPhotos.write(["a.jpg", "b.jpg"], in: folder)
        let server = try TestServer {
            $0.photos = folder
            $0.rescan = 0.5
        }
        let id = server.photoID("a.jpg")
        #expect(try server.http.get("/photos/\(id)").status == 200)
        try FileManager.default.removeItem(atPath: folder + "/a.jpg")
        #expect(try Poll.until(5) { try server.snapshot()["count"] as? Int == 1 })
        #expect(try server.http.get("/photos/\(id)").status == 404)
    }

    /// A folder gone keeps the stack (its photos answer 503, "unavailable", not 404); a folder back
    /// with other photos is a library changed.
    @Test func aFolderGoneKeepsTheStackAndAnotherOneReplacesIt() throws {
        let folder = try TemporaryFiles.folder() + "/photos"
        try TestPhotos.write(["a.jpg", "b.jpg"], in: folder)
        let server = try TestServer { $0.photos = folder }
        #expect(try server.snapshot()["count"] as? Int == 2)
        try FileManager.default.removeItem(atPath: folder)
        let id = server.photoID("a.jpg")
        #expect(Poll.until(8) { (try? server.http.get("/photos/\(id)").status) == 503 })
        #expect(try server.snapshot()["count"] as? Int == 2)
        try TestPhotos.write(["c.jpg"], in: folder)
        #expect(try Poll.until(8) { try server.snapshot()["count"] as? Int == 1 })
    }
}
