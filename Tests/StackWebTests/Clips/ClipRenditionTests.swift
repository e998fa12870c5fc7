import Foundation
import Glibc
import Testing

@testable import StackWebServer

/// What browsers cannot play as it is becomes, once, an H.264 MP4 with its index first, at most
/// 1080p and `--max-clip-seconds` long, without the original's location.
@Suite(.enabled(if: TestClips.isInstalled, "needs ffmpeg"))
struct ClipRenditionTests {
    /// The rendition of `kind`, made in a fresh cache, and the nice value of the thread that made it.
    private func rendition(_ kind: TestClips.Kind, maxSeconds: Int = 60) throws -> (
        result: Result<String, ClipRenditions.Failure>, niceness: Int32
    ) {
        let folder = try TemporaryFiles.folder()
        let renditions = ClipRenditions(
            cacheFolder: folder, cache: VariantCache(folder: folder), maxSeconds: maxSeconds)
        let clip = try TestClips.path(kind)
        let made = Locked<(Result<String, ClipRenditions.Failure>, Int32)?>(nil)
        renditions.make(from: clip, identity: try #require(FileIdentity.of(clip))) { result in
            let niceness = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            made.withLock { $0 = (result, niceness) }
        }
        #expect(Poll.until(120) { made.withLock { $0 } != nil })
        let (result, niceness) = try #require(made.withLock { $0 })
        return (result, niceness)
    }

    @Test func anHEVCMOVBecomesAnH264MP4EveryBrowserPlays() throws {
        let (result, niceness) = try rendition(.hevcMOV)
        let path = try result.get()
        let probe = try ClipProbe.read(path: path).get()
        #expect(probe.videoCodec == "h264" && probe.audioCodec == "aac" && probe.faststart && probe.playsAsIs)
        // Still held upright: the display matrix is copied, the pixels are not turned.
        #expect(probe.rotation == 270 && probe.width == 240 && probe.height == 320)
        #expect(abs(probe.duration - 2) < 0.15)
        #expect(niceness == ClipRenditions.niceness)
    }

    @Test func theRenditionCarriesNeitherLocationNorDate() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: TestClips.path(.hevcMOV)))
        let location = Data(TestClips.location.utf8)
        #expect(original.range(of: location) != nil)
        let path = try rendition(.hevcMOV).result.get()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: location) == nil)
        #expect(try ClipProbe.read(path: path).get().taken == nil)
    }

    @Test func aMOVWithoutFaststartGetsItsIndexFirst() throws {
        let path = try rendition(.slowMOV).result.get()
        let probe = try ClipProbe.read(path: path).get()
        #expect(probe.faststart && probe.playsAsIs && probe.width == 320 && probe.height == 240)
    }

    @Test func aLargeLongClipIsCutTo1080pAndItsFirstSeconds() throws {
        let path = try rendition(.longHEVC, maxSeconds: 1).result.get()
        let probe = try ClipProbe.read(path: path).get()
        #expect(probe.width == 1920 && probe.height == 1080)
        #expect(probe.duration > 0.8 && probe.duration < 1.2)
    }

    @Test func aFileThatIsNoClipIsRefused() throws {
        let result = try rendition(.textMP4).result
        #expect(result == .failure(.failed(.refused("not a clip: neither MP4/QuickTime nor Matroska/WebM"))))
    }
}
