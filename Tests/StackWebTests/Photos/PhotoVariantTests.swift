import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// Resized variants through libvips: upright, never enlarged, cached, bounded in memory.
@Suite struct PhotoVariantTests {
    /// A folder of generated photos: a landscape JPEG tagged "rotate 90°" (orientation 6), a plain
    /// one, a PNG in a subfolder and a text file that must be ignored.
    static func photoFolder() throws -> String {
        CVipsSetup.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photos-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        #expect(CVipsTest_writeJPEG(folder + "/a-rotated.jpg", 400, 200, 6) == 0)
        #expect(CVipsTest_writeJPEG(folder + "/b-plain.jpg", 300, 200, 1) == 0)
        #expect(CVipsTest_writeImage(folder + "/sub/c-nested.png", 120, 90) == 0)
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        return folder
    }

    func photoIDs(_ server: TestServer) throws -> [String] {
        let cards = try #require(try server.snapshot()["cards"] as? [[String: Any]])
        return cards.compactMap { $0["photo"] as? String }
    }

    @Test func theFolderIsScannedRecursivelyAndOtherFilesIgnored() throws {
        let server = try TestServer.caching(photos: try Self.photoFolder())
        #expect(try server.snapshot()["count"] as? Int == 3)
    }

    @Test func anEXIFRotatedPhotoIsServedUpright() throws {
        let server = try TestServer.caching(photos: try Self.photoFolder())
        let rotated = try photoIDs(server)[0]
        let variant = try server.http.get("/photos/\(rotated)?w=256&h=256")
        #expect(variant.status == 200)
        #expect(variant.header("Content-Type") == "image/jpeg")
        let (width, height) = try TestPhotos.uprightSize(of: variant.body)
        // Stored 400 × 200 and tagged "turn 90°": upright it is portrait, fitted into 256 × 256.
        #expect((width, height) == (128, 256))
    }

    @Test func variantsAreNeverEnlarged() throws {
        let server = try TestServer.caching(photos: try Self.photoFolder())
        let plain = try photoIDs(server)[1]
        let variant = try server.http.get("/photos/\(plain)?w=2000")
        #expect(try TestPhotos.uprightSize(of: variant.body) == (300, 200))
    }

    /// A cache that cannot be written (replaced by a file here: root writes through permissions)
    /// is the server's state, not the photo's: 503 with Retry-After, as /healthz says, never 500.
    @Test func anUnwritableCacheIs503WithRetryAfter() throws {
        let server = try TestServer.caching(photos: try Self.photoFolder())
        let plain = try photoIDs(server)[1]
        let cache = try #require(server.app.configuration.cache)
        try FileManager.default.removeItem(atPath: cache)
        #expect(FileManager.default.createFile(atPath: cache, contents: Data()))
        let answer = try server.http.get("/photos/\(plain)?w=100")
        #expect(answer.status == 503)
        #expect(answer.header("Retry-After") == "1")
        #expect(try server.http.get("/healthz").status == 503)
    }

    /// The cache folder's resized photos (the photo index lives there too).
    static func variantFiles(_ server: TestServer) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: server.app.configuration.cache!)) ?? []
        return names.filter { !$0.hasPrefix(PhotoIndex.fileName) }.sorted()
    }

    @Test func theSecondRequestIsACacheHitAndRevalidates() throws {
        let server = try TestServer.caching(photos: try Self.photoFolder())
        let plain = try photoIDs(server)[1]
        let first = try server.http.get("/photos/\(plain)?w=100")
        let etag = try #require(first.header("ETag"))
        #expect(first.header("Cache-Control") == "public, max-age=2592000")
        let files = Self.variantFiles(server)
        #expect(files.count == 1)
        let second = try server.http.get("/photos/\(plain)?w=100")
        #expect(second.body == first.body)
        #expect(try server.http.get("/photos/\(plain)?w=100", headers: ["If-None-Match": etag]).status == 304)
        #expect(Self.variantFiles(server) == files)
    }

    @Test func browsersThatTakeWebPGetWebP() throws {
        let server = try TestServer.caching(photos: try Self.photoFolder())
        let plain = try photoIDs(server)[1]
        let webp = try server.http.get("/photos/\(plain)?w=100", headers: ["Accept": "image/avif,image/webp,*/*"])
        #expect(webp.status == 200)
        #expect(webp.header("Content-Type") == "image/webp")
        #expect(webp.header("Vary") == "Accept")
        #expect(Array(webp.body.prefix(4)) == Array("RIFF".utf8))
        let jpeg = try server.http.get("/photos/\(plain)?w=100", headers: ["Accept": "image/jpeg"])
        #expect(jpeg.header("Content-Type") == "image/jpeg")
        #expect(jpeg.header("ETag") != webp.header("ETag"))
    }

    @Test func transparentAreasAreTheCardsPaperNotBlack() throws {
        CVipsSetup.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photos-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(CVipsTest_writeTransparentPNG(folder + "/logo.png", 200, 150) == 0)
        let server = try TestServer.caching(photos: folder)
        let logo = try #require(try photoIDs(server).first)
        for accept in ["image/jpeg", "image/webp,*/*"] {
            let variant = try server.http.get("/photos/\(logo)?w=100", headers: ["Accept": accept])
            #expect(variant.status == 200)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("v-\(UUID().uuidString)").path
            try Data(variant.body).write(to: URL(fileURLWithPath: path))
            var mean = 0.0
            #expect(CVipsTest_mean(path, &mean) == 0)
            // Wholly transparent black: white paper once flattened (255), not black (0).
            #expect(mean > 250, "\(accept): mean \(mean)")
        }
    }

    @Test(arguments: ["w=0", "w=-5", "w=abc", "h=1.5", "w=200&h=x"])
    func badSizesAre400(query: String) throws {
        let server = try TestServer.caching(photos: try Self.photoFolder())
        let reply = try server.http.get("/photos/\(try photoIDs(server)[1])?\(query)")
        #expect(reply.status == 400)
    }

    @Test func aLargeOriginalIsResizedWithBoundedMemory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        CVipsSetup.start()
        #expect(CVipsTest_writeJPEG(folder + "/big.jpg", 6000, 4000, 1) == 0)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)").path
        let server = try ServerProcess.start(arguments: ["--photos", folder, "--cache", cache])
        defer { server.stop() }
        #expect(server.shows(photos: 1))
        let http = HTTPTestClient(port: server.port)
        let id = try #require((try http.get("/api/rooms/main").json()["cards"] as? [[String: Any]])?.first?["photo"])
        let before = try server.peakMemoryKiB()
        let variant = try http.get("/photos/\(id)?w=200")
        #expect(variant.status == 200)
        #expect(try TestPhotos.uprightSize(of: variant.body) == (256, 171))
        // Decoded whole, 24 MP of RGB is 72 MB; shrink-on-load decodes an eighth of each side.
        let grown = try server.peakMemoryKiB() - before
        #expect(grown < 40 * 1024, "peak memory grew by \(grown) KiB")
    }
}
