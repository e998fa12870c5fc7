import Foundation
import Testing

@testable import StackWebServer

/// Each kind of clip a folder may hold, made by `ffmpeg`, probes as it should or is refused with
/// one clear reason.
@Suite(.enabled(if: TestClips.isInstalled, "needs ffmpeg"))
struct ClipProbeTests {
    @Test func anH264MP4PlaysAsItIs() throws {
        let probe = try ClipProbe.read(path: TestClips.path(.h264MP4)).get()
        #expect(probe.width == 320 && probe.height == 240 && probe.rotation == 0)
        #expect(probe.container == .mov && probe.videoCodec == "h264" && probe.audioCodec == "aac")
        #expect(probe.faststart && probe.playsAsIs)
        #expect(abs(probe.duration - 2) < 0.1)
        #expect(probe.taken == nil)
    }

    @Test func anHEVCMOVHeldUprightIsShownUprightAndConverted() throws {
        let probe = try ClipProbe.read(path: TestClips.path(.hevcMOV)).get()
        // The matrix ffprobe reports as "rotation=90" (its angles turn counter-clockwise).
        #expect(probe.rotation == 270)
        #expect(probe.width == 240 && probe.height == 320)
        #expect(probe.videoCodec == "hevc" && !probe.playsAsIs)
        #expect(probe.taken == "2024-06-01 10:20:30")
    }

    @Test func aVP9WebMPlaysAsItIs() throws {
        let probe = try ClipProbe.read(path: TestClips.path(.vp9WebM)).get()
        #expect(probe.container == .matroska && probe.videoCodec == "vp9" && probe.audioCodec == "opus")
        #expect(probe.playsAsIs && probe.contentType == "video/webm")
        #expect(probe.width == 320 && probe.height == 240)
    }

    @Test func aMOVWithoutFaststartIsConverted() throws {
        let probe = try ClipProbe.read(path: TestClips.path(.slowMOV)).get()
        #expect(probe.videoCodec == "h264" && !probe.faststart && !probe.playsAsIs)
    }

    @Test func aTruncatedMP4IsBroken() throws {
        let result = ClipProbe.read(path: try TestClips.path(.truncatedMP4))
        #expect(result == .failure(.broken("truncated: its frames run past the end of the file")))
    }

    @Test func anMP4CutBeforeItsIndexIsBroken() throws {
        guard case .failure(.broken(let reason)) = ClipProbe.read(path: try TestClips.path(.headlessMP4)) else {
            Issue.record("an MP4 without moov was not refused as broken")
            return
        }
        #expect(reason.contains("moov atom not found"))
    }

    @Test func aTextFileNamedLikeAClipIsRefused() throws {
        let result = ClipProbe.read(path: try TestClips.path(.textMP4))
        #expect(result == .failure(.refused("not a clip: neither MP4/QuickTime nor Matroska/WebM")))
    }

    @Test func aProbeThatWouldReadOnEndsAtItsTimeLimit() throws {
        let path = try TestClips.path(.loopingMOV)
        let started = Date()
        let result = ClipProbe.read(path: path, timeLimit: 0.3)
        #expect(result == .failure(.timedOut("reading its header took longer than the time limit")))
        #expect(Date().timeIntervalSince(started) < 2)
    }

    /// Found by the fuzz target: a header whose pixel aspect made a clip 0 pixels wide.
    @Test func aCraftedPixelAspectIsShownSquare() throws {
        let probe = try ClipProbe.read(path: ClipFuzzCorpusTests.folder + "/crafted-pixel-aspect.mp4").get()
        #expect(probe.width > 0 && probe.height > 0 && probe.pixelAspect == 1)
    }

    @Test(
        arguments: [
            ("2024-06-01T10:20:30.000000Z", "2024-06-01 10:20:30"),
            ("2024-06-01 10:20:30", "2024-06-01 10:20:30"),
            ("1904-01-01T00:00:00.000000Z", nil),
            ("2024-06-01", nil),
            ("2024-06-01T10:20:3x", nil),
            ("", nil),
        ] as [(String, String?)])
    func creationTimes(_ text: String, _ taken: String?) {
        #expect(ClipProbe.taken(fromCreationTime: text) == taken)
    }
}
