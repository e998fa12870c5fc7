import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// Only whole, real photos are shown: not half-copied files, not truncated ones, not the junk a
/// NAS or another system leaves beside them; odd but valid ones (CMYK, 16-bit) are converted.
@Suite struct PhotoIntegrityTests {
    @Test func aSlowlyWrittenPhotoIsNeverShownPartial() throws {
        let folder = try TemporaryFiles.folder()
        try TestPhotos.write(["a.jpg"], in: folder)
        let follower = try FolderFollower(folder: folder)
        let bytes = try TestPhotos.jpegBytes()
        _ = FileManager.default.createFile(atPath: folder + "/slow.jpg", contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: folder + "/slow.jpg"))
        try handle.write(contentsOf: bytes.prefix(bytes.count / 2))
        // Half the file, still open and written to now and then: never in the library.
        for _ in 0..<3 {
            #expect(!Poll.until(0.5) { follower.names.contains("slow.jpg") })
            try handle.write(contentsOf: Data())
        }
        try handle.write(contentsOf: bytes.dropFirst(bytes.count / 2))
        try handle.close()
        #expect(follower.shows(["a.jpg", "slow.jpg"]))
    }

    @Test func truncatedFilesAreSkippedAndLoggedOnce() throws {
        let folder = try TemporaryFiles.folder()
        try TestPhotos.write(["good.jpg"], in: folder)
        #expect(CVipsTest_writeImage(folder + "/cut.png", 400, 300) == 0)
        try Data(try TestPhotos.jpegBytes().prefix(9000)).write(to: URL(fileURLWithPath: folder + "/cut.jpg"))
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
        let folder = try TemporaryFiles.folder()
        try TestPhotos.write(
            [
                "2024/beach.jpg", "2024/@eaDir/beach.jpg/SYNOPHOTO_THUMB_XL.jpg", "$RECYCLE.BIN/old.jpg",
                "#recycle/older.jpg", ".Trash-1000/files/gone.jpg",
                ".thumbnails/normal/x.png".replacingOccurrences(
                    of: ".png", with: ".jpg"), "lost+found/#1234.jpg", "System Volume Information/x.jpg", ".hidden.jpg",
            ], in: folder)
        let follower = try FolderFollower(folder: folder)
        #expect(follower.names == ["2024/beach.jpg"])
        // Junk arriving later is ignored too (Synology writes @eaDir after each upload).
        try TestPhotos.write(["2024/@eaDir/sea.jpg/SYNOPHOTO_THUMB_M.jpg", "2024/sea.jpg"], in: folder)
        #expect(follower.shows(["2024/beach.jpg", "2024/sea.jpg"]))
        #expect(!Poll.until(0.5) { follower.names.count > 2 })
    }

    @Test func cmykAndSixteenBitPhotosAreConverted() throws {
        let folder = try TemporaryFiles.folder()
        CVipsSetup.start()
        #expect(CVipsTest_writeCMYK(folder + "/print.jpg", 1200, 800) == 0)
        #expect(CVipsTest_writePNG16(folder + "/scan.png", 900, 600) == 0)
        let server = try TestServer.caching(photos: folder)
        for (name, size) in [("print.jpg", (256, 171)), ("scan.png", (256, 171))] {
            let reply = try server.http.get("/photos/\(server.photoID(name))?w=256")
            #expect(reply.status == 200, "\(name): \(reply.text.prefix(200))")
            #expect(try TestPhotos.uprightSize(of: reply.body) == size, "\(name)")
        }
    }
}
