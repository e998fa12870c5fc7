import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// Photo bombs (issue #25, finding 4): a photo over the pixel limit, or declaring more pixels than
/// its bytes hold, is skipped when found and shown nowhere; and a conversion that takes seconds
/// never holds up the ordinary ones.
@Suite struct PhotoBombTests {
    /// Over the default limit (50 MP): not in any stack, and its id is not served.
    @Test func aPhotoOverTheDefaultPixelLimitIsShownNowhere() throws {
        let folder = try TemporaryFiles.folder()
        #expect(CVipsTest_writeJPEG(folder + "/a.jpg", 640, 480, 1) == 0)
        #expect(CVipsTest_writeJPEG(folder + "/huge.jpg", 7200, 7000, 1) == 0)
        let server = try TestServer { $0.photos = folder }
        #expect(try server.captionNames().sorted() == ["a.jpg"])
        #expect(try server.http.get("/photos/\(server.photoID("huge.jpg"))").status == 404)
    }

    /// A JPEG declaring 7,000 × 7,000 (within the pixel limit) that holds a 64 × 48 picture's few
    /// bytes: libjpeg only warns of the missing rest, so without the size check it would be shown and
    /// converted at full cost. Refused from its header and size.
    @Test func aTruncatedBombIsRefused() throws {
        let folder = try TemporaryFiles.folder()
        #expect(CVipsTest_writeJPEG(folder + "/a.jpg", 640, 480, 1) == 0)
        try TestPhotos.writeTruncatedBomb(folder + "/bomb.jpg", width: 7000, height: 7000, bytes: .max)
        let server = try TestServer { $0.photos = folder }
        #expect(try server.captionNames().sorted() == ["a.jpg"])
    }

    /// `--max-pixels` as set, and one log line per photo, once.
    @Test func theLimitIsLoggedOncePerPhoto() throws {
        let folder = try TemporaryFiles.folder()
        #expect(CVipsTest_writeJPEG(folder + "/a.jpg", 640, 480, 1) == 0)
        #expect(CVipsTest_writeJPEG(folder + "/big.jpg", 1600, 1200, 1) == 0)
        let lines = Locked<[String]>([])
        var scanner = try #require(
            PhotoScanner(folder: folder, order: .name, ids: .test, maxPixels: 1_000_000) { line in
                lines.withLock { $0.append(line) }
            })
        _ = scanner.scanAll(now: .infinity)
        _ = scanner.scanAll(now: .infinity)
        #expect(scanner.library.entries.map(\.relative) == ["a.jpg"])
        #expect(lines.withLock { $0 }.count == 1)
        #expect(lines.withLock { $0 }.first?.contains("big.jpg: 1600×1200 is more than --max-pixels 1000000") == true)
    }

    @Test(arguments: [("50M", 50_000_000), ("8m", 8_000_000), ("1000000", 1_000_000)])
    func theOptionTakesMillions(value: String, pixels: Int) throws {
        guard
            case .run(let configuration) = try Configuration.parse(
                arguments: ["--max-pixels", value], environment: [:])
        else {
            Issue.record("not parsed")
            return
        }
        #expect(configuration.maxPixels == pixels)
    }

    /// A conversion that decodes the whole budget runs in a lane of its own: an ordinary one
    /// queued after it starts at once instead of waiting for it.
    @Test func anOrdinaryConversionDoesNotWaitBehindAHugeOne() throws {
        let variants = PhotoVariants(cacheFolder: try TemporaryFiles.folder())
        let release = DispatchSemaphore(value: 0)
        let started = Locked<Date?>(nil)
        #expect(variants.budget.run(cost: 48) { release.wait() })
        let queued = Date()
        #expect(variants.budget.run(cost: 1) { started.withLock { $0 = Date() } })
        #expect(Poll.until(2) { started.withLock { $0 } != nil })
        if let started = started.withLock({ $0 }) { #expect(started.timeIntervalSince(queued) < 0.5) }
        release.signal()
    }
}
