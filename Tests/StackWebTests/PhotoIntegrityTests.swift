import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// Only whole, real photos are shown: not half-copied files, not truncated ones, not the junk a
/// NAS or another system leaves beside them; odd but valid ones (CMYK, 16-bit) are converted.
@Suite struct PhotoIntegrityTests {
    /// A photo's bytes, made in a scratch file.
    static func jpegBytes(width: Int32 = 640, height: Int32 = 480) throws -> Data {
        CVipsSetup.start()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("whole-\(UUID().uuidString).jpg")
        #expect(CVipsTest_writeJPEG(scratch.path, width, height, 1) == 0)
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try Data(contentsOf: scratch)
    }

    @Test func aSlowlyWrittenPhotoIsNeverShownPartial() throws {
        let folder = try PhotoFolderLifecycleTests.base()
        try PhotoFolderLifecycleTests.photos(folder, ["a.jpg"])
        let follower = try PhotoFolderLifecycleTests.Follower(folder: folder)
        let bytes = try Self.jpegBytes()
        FileManager.default.createFile(atPath: folder + "/slow.jpg", contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: folder + "/slow.jpg"))
        try handle.write(contentsOf: bytes.prefix(bytes.count / 2))
        // Half the file, still open and written to now and then: never in the library.
        for _ in 0..<3 {
            #expect(!PersistenceTests.eventually(0.5) { follower.names.contains("slow.jpg") })
            try handle.write(contentsOf: Data())
        }
        try handle.write(contentsOf: bytes.dropFirst(bytes.count / 2))
        try handle.close()
        #expect(follower.shows(["a.jpg", "slow.jpg"]))
    }

    @Test func truncatedFilesAreSkippedAndLoggedOnce() throws {
        let folder = try PhotoFolderLifecycleTests.base()
        try PhotoFolderLifecycleTests.photos(folder, ["good.jpg"])
        #expect(CVipsTest_writeImage(folder + "/cut.png", 400, 300) == 0)
        try Data(try Self.jpegBytes().prefix(9000)).write(to: URL(fileURLWithPath: folder + "/cut.jpg"))
        let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/cut.png"))
        try png.prefix(png.count * 2 / 3).write(to: URL(fileURLWithPath: folder + "/cut.png"))
        try Data("<html>not a photo</html>".utf8).write(to: URL(fileURLWithPath: folder + "/fake.jpg"))
        let logged = Locked<[String]>([])
        let log: @Sendable (String) -> Void = { line in logged.withLock { $0.append(line) } }
        var scanner = try #require(PhotoScanner(folder: folder, order: .name, ids: .test, log: log))
        _ = scanner.scanAll(now: .infinity)
        #expect(scanner.library.entries.map(\.relative) == ["good.jpg"])
        // Scanned again (a periodic rescan): not read, not logged again.
        #expect(scanner.scanAll(now: .infinity) == nil)
        let lines = logged.withLock { $0 }
        #expect(lines.count == 3, "\(lines)")
        for name in ["cut.jpg", "cut.png", "fake.jpg"] { #expect(lines.filter { $0.contains(name) }.count == 1) }
        // Through the server: never a card, never served.
        let server = try TestServer { $0.photos = folder }
        #expect(try server.snapshot()["count"] as? Int == 1)
        #expect(try server.http.get("/photos/\(server.photoID("cut.png"))?w=256").status == 404)
    }

    @Test func junkAndHiddenFoldersAreIgnored() throws {
        let folder = try PhotoFolderLifecycleTests.base()
        try PhotoFolderLifecycleTests.photos(
            folder,
            [
                "2024/beach.jpg", "2024/@eaDir/beach.jpg/SYNOPHOTO_THUMB_XL.jpg", "$RECYCLE.BIN/old.jpg",
                "#recycle/older.jpg", ".Trash-1000/files/gone.jpg",
                ".thumbnails/normal/x.png".replacingOccurrences(
                    of: ".png", with: ".jpg"), "lost+found/#1234.jpg", "System Volume Information/x.jpg", ".hidden.jpg",
            ])
        let follower = try PhotoFolderLifecycleTests.Follower(folder: folder)
        #expect(follower.names == ["2024/beach.jpg"])
        // Junk arriving later is ignored too (Synology writes @eaDir after each upload).
        try PhotoFolderLifecycleTests.photos(folder, ["2024/@eaDir/sea.jpg/SYNOPHOTO_THUMB_M.jpg", "2024/sea.jpg"])
        #expect(follower.shows(["2024/beach.jpg", "2024/sea.jpg"]))
        #expect(!PersistenceTests.eventually(0.5) { follower.names.count > 2 })
    }

    @Test func cmykAndSixteenBitPhotosAreConverted() throws {
        let folder = try PhotoFolderLifecycleTests.base()
        CVipsSetup.start()
        #expect(CVipsTest_writeCMYK(folder + "/print.jpg", 1200, 800) == 0)
        #expect(CVipsTest_writePNG16(folder + "/scan.png", 900, 600) == 0)
        let server = try PhotoVariantTests.server(photos: folder)
        for (name, size) in [("print.jpg", (256, 171)), ("scan.png", (256, 171))] {
            let reply = try server.http.get("/photos/\(server.photoID(name))?w=256")
            #expect(reply.status == 200, "\(name): \(reply.text.prefix(200))")
            #expect(try PhotoVariantTests.size(of: reply.body) == size, "\(name)")
        }
    }
}
