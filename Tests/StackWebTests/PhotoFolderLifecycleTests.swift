import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// The photo folder coming and going as a USB stick or a NAS share does: removed and re-created,
/// moved away and replaced, swapped behind a symbolic link, changed where inotify cannot see. Real
/// folders, real inotify; every wait is a poll with a deadline.
@Suite struct PhotoFolderLifecycleTests {
    /// A LiveFolder on `folder` with short timers, and what it logged and reported.
    final class Follower {
        let library: Locked<PhotoLibrary>
        let logged = Locked<[String]>([])
        let changes = Locked<[LibraryChange]>([])
        var live: LiveFolder!

        init(folder: String, timing: FolderWatcher.Timing = Follower.quick) throws {
            CVipsSetup.start()
            library = Locked(try PhotoLibrary.scan(folder: folder, ids: .test))
            live = try LiveFolder(
                folder: folder, order: .name, ids: .test, library: library, timing: timing,
                log: OperatorLog(format: .text) { [logged] line in logged.withLock { $0.append(line) } },
                onChange: { [changes] change, _ in changes.withLock { $0.append(change) } })
        }

        deinit { live.stop() }

        static var quick: FolderWatcher.Timing {
            var timing = FolderWatcher.Timing()
            timing.rootCheck = 0.2
            timing.rescan = nil
            return timing
        }

        var names: [String] { library.withLock { $0.entries.map(\.relative) } }

        func lines(containing text: String) -> Int { logged.withLock { $0.filter { $0.contains(text) }.count } }

        /// Polls until `names` equals `expected` (sorted), within `seconds`.
        func shows(_ expected: [String], within seconds: Double = 8) -> Bool {
            PersistenceTests.eventually(seconds) { names.sorted() == expected.sorted() }
        }
    }

    static func base() throws -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("frame-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        return base
    }

    static func photos(_ folder: String, _ names: [String]) throws {
        CVipsSetup.start()
        for name in names {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(CVipsTest_writeJPEG(path, 64, 48, 1) == 0)
        }
    }

    @Test func aFolderRemovedAndRecreatedComesBack() throws {
        let folder = try Self.base() + "/photos"
        try Self.photos(folder, ["a.jpg", "2024/07/b.jpg"])
        let follower = try Follower(folder: folder)
        #expect(follower.names.count == 2)
        try FileManager.default.removeItem(atPath: folder)
        #expect(PersistenceTests.eventually { follower.lines(containing: "is gone; waiting for it") == 1 })
        // Gone is unavailable, not empty: the library (and so every room) keeps its photos.
        #expect(follower.names.sorted() == ["2024/07/b.jpg", "a.jpg"])
        #expect(follower.changes.withLock { $0.isEmpty })
        try Self.photos(folder, ["c.jpg", "2025/01/d.jpg"])
        #expect(follower.shows(["c.jpg", "2025/01/d.jpg"]))
        // Logged once, with the photos there when the folder was found (the copy may still be going on).
        #expect(follower.lines(containing: "photo folder \(folder) is back: ") == 1)
        // Watched again below the new root: a photo added now is seen by inotify.
        try Self.photos(folder, ["2025/01/e.jpg"])
        #expect(follower.shows(["c.jpg", "2025/01/d.jpg", "2025/01/e.jpg"]))
        #expect(follower.lines(containing: "is gone") == 1)
    }

    @Test func aFolderMovedAwayAndReplacedByANewOne() throws {
        let base = try Self.base()
        let folder = base + "/photos"
        try Self.photos(folder, ["a.jpg"])
        let follower = try Follower(folder: folder)
        #expect(rename(folder, base + "/photos.old") == 0)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        // An empty folder in its place is an unmounted share's mount point, not a library emptied.
        #expect(PersistenceTests.eventually { follower.lines(containing: "shows no photos; taken as not there") == 1 })
        #expect(follower.names == ["a.jpg"])
        try Self.photos(folder, ["new.jpg"])
        #expect(follower.shows(["new.jpg"]))
        // The old folder's photos are not followed any more.
        try Self.photos(base + "/photos.old", ["stray.jpg"])
        #expect(!PersistenceTests.eventually(1) { follower.names.contains("stray.jpg") })
    }

    @Test func aSymlinkedRootSwappedToAnotherFolder() throws {
        let base = try Self.base()
        try Self.photos(base + "/a", ["one.jpg"])
        try Self.photos(base + "/b", ["two.jpg", "three.jpg"])
        try FileManager.default.createSymbolicLink(atPath: base + "/current", withDestinationPath: base + "/a")
        let follower = try Follower(folder: base + "/current")
        #expect(follower.names == ["one.jpg"])
        // As `ln -sfn b current` does: a new link renamed over the old one.
        try FileManager.default.createSymbolicLink(atPath: base + "/next", withDestinationPath: base + "/b")
        #expect(rename(base + "/next", base + "/current") == 0)
        #expect(follower.shows(["three.jpg", "two.jpg"]))
        let served = follower.library.withLock { $0.entries.map(\.path) }
        #expect(served.allSatisfy { $0.hasPrefix(base + "/b/") })
    }

    @Test func changesInotifyCannotSeeArriveWithTheRescan() throws {
        let folder = try Self.base() + "/share"
        try Self.photos(folder, ["a.jpg", "b.jpg"])
        var timing = Follower.quick
        timing.inotify = false
        timing.rescan = 0.3
        let follower = try Follower(folder: folder, timing: timing)
        try Self.photos(folder, ["2024/c.jpg"])
        #expect(follower.shows(["a.jpg", "b.jpg", "2024/c.jpg"]))
        try FileManager.default.removeItem(atPath: folder + "/a.jpg")
        #expect(follower.shows(["b.jpg", "2024/c.jpg"]))
        #expect(follower.changes.withLock { $0.contains { $0.removed == [PhotoIDs.test.id(of: "a.jpg")] } })
    }

    @Test func aPhotoDeletedOnAShareIsNotServedAfterTheRescan() throws {
        let folder = try Self.base() + "/share"
        try Self.photos(folder, ["a.jpg", "b.jpg"])
        let server = try TestServer {
            $0.photos = folder
            $0.rescan = 0.5
        }
        let id = server.photoID("a.jpg")
        #expect(try server.http.get("/photos/\(id)").status == 200)
        try FileManager.default.removeItem(atPath: folder + "/a.jpg")
        #expect(try PersistenceTests.eventually(5) { try server.snapshot()["count"] as? Int == 1 })
        #expect(try server.http.get("/photos/\(id)").status == 404)
    }

    /// A folder gone keeps the stack (its photos answer 503, "unavailable", not 404); a folder back
    /// with other photos is a library changed.
    @Test func aFolderGoneKeepsTheStackAndAnotherOneReplacesIt() throws {
        let folder = try Self.base() + "/photos"
        try Self.photos(folder, ["a.jpg", "b.jpg"])
        let server = try TestServer { $0.photos = folder }
        #expect(try server.snapshot()["count"] as? Int == 2)
        try FileManager.default.removeItem(atPath: folder)
        let id = server.photoID("a.jpg")
        #expect(PersistenceTests.eventually(8) { (try? server.http.get("/photos/\(id)").status) == 503 })
        #expect(try server.snapshot()["count"] as? Int == 2)
        try Self.photos(folder, ["c.jpg"])
        #expect(try PersistenceTests.eventually(8) { try server.snapshot()["count"] as? Int == 1 })
    }
}
