import CVips
import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// A clip's poster is its first frame, upright, made into variants as a photo is.
@Suite(.enabled(if: TestClips.isInstalled, "needs ffmpeg"))
struct ClipPosterTests {
    /// The variant of `kind`'s poster that fits `box`, made in a fresh cache.
    private func variant(_ kind: TestClips.Kind, box: Int, format: PhotoVariants.Format) throws -> String {
        let clip = try TestClips.path(kind)
        let probe = try ClipProbe.read(path: clip).get()
        let posters = ClipPosters(variants: PhotoVariants(cacheFolder: try TemporaryFiles.folder()))
        let made = Locked<Result<PhotoVariants.Variant, PhotoVariants.Failure>?>(nil)
        posters.variant(
            of: clip, identity: try #require(FileIdentity.of(clip)), probe: probe, box: (box, box), format: format
        ) { result in made.withLock { $0 = result } }
        #expect(Poll.until(20) { made.withLock { $0 } != nil })
        return try #require(made.withLock { $0 }).get().path
    }

    private func header(_ path: String) -> CVipsHeader {
        var header = CVipsHeader()
        #expect(CVips_readHeader(path, &header) == 0)
        return header
    }

    @Test func aClipHeldUprightHasAnUprightPosterAtTheWidthAsked() throws {
        let poster = header(try variant(.hevcMOV, box: 256, format: .webp))
        #expect(poster.width == 192 && poster.height == 256)
        #expect(ClipPosterTests.loader(poster) == "webpload")
    }

    @Test func aWebMHasAJPEGPoster() throws {
        let poster = header(try variant(.vp9WebM, box: 128, format: .jpeg))
        #expect(poster.width == 128 && poster.height == 96)
        #expect(ClipPosterTests.loader(poster) == "jpegload")
    }

    @Test(arguments: [TestClips.Kind.h264MP4, .vp9WebM])
    func thePosterIsTheFirstFrameFFmpegsCLIDecodes(_ kind: TestClips.Kind) throws {
        let poster = try variant(kind, box: 320, format: .jpeg)
        let reference = try TestClips.firstFrame(kind)
        var made = 0.0
        var expected = 0.0
        #expect(CVipsTest_mean(poster, &made) == 0 && CVipsTest_mean(reference, &expected) == 0)
        #expect(abs(made - expected) < 2, "poster mean \(made), ffmpeg's first frame \(expected)")
    }

    @Test func noPosterOfAClipThatLeavesNoFrame() throws {
        let clip = try TestClips.path(.textMP4)
        let posters = ClipPosters(variants: PhotoVariants(cacheFolder: try TemporaryFiles.folder()))
        let identity = try #require(FileIdentity.of(clip))
        let probe = try ClipProbe.read(path: TestClips.path(.h264MP4)).get()
        guard case .failure = posters.makePoster(of: clip, identity: identity, probe: probe)
        else {
            Issue.record("a text file made a poster")
            return
        }
    }

    static func loader(_ header: CVipsHeader) -> String {
        withUnsafeBytes(of: header.loader) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
