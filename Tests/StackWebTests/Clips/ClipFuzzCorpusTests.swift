import Foundation
import Testing

@testable import StackWebServer

/// The clip fuzz target's seed corpus (Tests/Fuzz/corpus/clip): tiny clips `ffmpeg` makes, one of
/// each container and codec the probe reads, and broken ones. `STACKWEB_UPDATE_FUZZ_CORPUS=1`
/// writes them again; otherwise the committed seeds must still probe as they did when made.
@Suite(.enabled(if: TestClips.isInstalled, "needs ffmpeg"))
struct ClipFuzzCorpusTests {
    static let folder = TestServer.repositoryRoot.appending(path: "Tests/Fuzz/corpus/clip").path
    /// A seed larger than this slows every fuzz run that starts from it.
    static let maxSeedBytes = 16 << 10

    /// Each seed: its file name, how ffmpeg makes it, and its video codec when it probes whole.
    static let seeds: [(name: String, arguments: [String], codec: String)] = [
        (
            "h264.mp4", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart"],
            "h264"
        ),
        (
            "hevc.mov", ["-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p", "-f", "mov"],
            "hevc"
        ),
        ("vp9.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"], "vp9"),
        ("vp8.mkv", ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8"], "vp8"),
    ]

    @Test func theCommittedSeedsProbeAsMade() throws {
        if ProcessInfo.processInfo.environment["STACKWEB_UPDATE_FUZZ_CORPUS"] == "1" { try write() }
        for seed in Self.seeds {
            let path = Self.folder + "/" + seed.name
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? .max
            #expect(size <= Self.maxSeedBytes, "\(seed.name) is \(size) bytes")
            #expect(try ClipProbe.read(path: path).get().videoCodec == seed.codec)
            // An MP4's index names frames past the cut; a WebM's header leads and still reads whole.
            let truncated = ClipProbe.read(path: Self.folder + "/truncated-" + seed.name)
            if case .success(let probe) = truncated { #expect(probe.container == .matroska) }
        }
    }

    /// Makes every seed, and each one cut in half.
    private func write() throws {
        try FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
        for seed in Self.seeds {
            let path = Self.folder + "/" + seed.name
            try? FileManager.default.removeItem(atPath: path)
            try TestClips.tiny(seed.arguments, at: path)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: Self.folder + "/truncated-" + seed.name))
        }
    }
}
