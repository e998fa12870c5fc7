import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// An animated GIF keeps its frames in the variants that can hold them (WebP), so that the frame
/// style plays it; JPEG variants show its first frame.
@Suite struct AnimatedVariantTests {
    static let frames: Int32 = 3

    static func server() throws -> TestServer {
        CVipsSetup.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anim-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(CVipsTest_writeAnimatedGIF(folder + "/clip.gif", 320, 240, frames) == 0)
        return try TestServer.caching(photos: folder)
    }

    static func pages(of bytes: [UInt8], suffix: String) throws -> Int32 {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("v-\(UUID().uuidString).\(suffix)")
            .path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return CVipsTest_pages(path)
    }

    @Test func aWebPVariantOfAnAnimatedGIFKeepsEveryFrame() throws {
        let server = try Self.server()
        let cards = try #require(try server.snapshot()["cards"] as? [[String: Any]])
        let clip = try #require(cards.first?["photo"] as? String)
        let webp = try server.http.get("/photos/\(clip)?w=256", headers: ["Accept": "image/webp,*/*"])
        #expect(webp.status == 200)
        #expect(webp.header("Content-Type") == "image/webp")
        #expect(try Self.pages(of: webp.body, suffix: "webp") == Self.frames)
        let jpeg = try server.http.get("/photos/\(clip)?w=256", headers: ["Accept": "image/jpeg"])
        #expect(jpeg.header("Content-Type") == "image/jpeg")
        #expect(try Self.pages(of: jpeg.body, suffix: "jpg") == 1)
    }

    @Test func anAnimationTooLargeToDecodeWholeKeepsOnlyItsFirstFrame() {
        let keeps = { (pages: Int, loader: String, format: PhotoVariants.Format) in
            PhotoVariants.keepsFrames(pages: pages, width: 1000, height: 1000, loader: loader, format: format)
        }
        #expect(keeps(3, "gifload", .webp))
        #expect(!keeps(100, "gifload", .webp), "100 MP decoded: its first frame")
        #expect(!keeps(3, "gifload", .jpeg), "JPEG holds one picture")
        #expect(!keeps(3, "heifload", .webp), "a HEIC's pages are other pictures")
        #expect(!keeps(1, "webpload", .webp))
    }
}
