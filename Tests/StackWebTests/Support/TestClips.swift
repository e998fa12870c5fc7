import Foundation

/// Real clips made by Debian's `ffmpeg` CLI (a test tool only), once per test process, in a folder
/// of their own: each kind a probe, a poster or a rendition must handle.
enum TestClips {
    static let ffmpeg = "/usr/bin/ffmpeg"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: ffmpeg) }

    /// The location written into the clips that carry one: it must never leave the server.
    static let location = "+48.8577+002.2945/"
    static let creationTime = "2024-06-01T10:20:30Z"

    /// The clips by kind, made on first use.
    enum Kind: String, CaseIterable, Sendable {
        /// H.264 and AAC in a faststart MP4: served as it is.
        case h264MP4 = "h264.mp4"
        /// HEVC in a QuickTime MOV, held upright (a display matrix of a quarter turn), with a
        /// location and a creation date, as a phone writes it.
        case hevcMOV = "hevc.mov"
        /// VP9 and Opus in WebM.
        case vp9WebM = "vp9.webm"
        /// H.264 in a MOV whose `moov` comes after its `mdat`.
        case slowMOV = "slow.mov"
        /// A faststart MP4 cut in half: its index names frames past the end.
        case truncatedMP4 = "truncated.mp4"
        /// An MP4 cut before its index (`moov` at the end, never written).
        case headlessMP4 = "headless.mp4"
        /// Millions of empty `free` boxes and no `moov`: the demuxer reads on and on.
        case loopingMOV = "looping.mov"
        /// Not a clip: a text file named like one.
        case textMP4 = "text.mp4"
        /// An H.264 MOV without faststart whose frames are zeros: its index reads, nothing decodes.
        case blankMOV = "blank.mov"
        /// 1440p HEVC of 3 s: larger and longer than the tests' rendition limits.
        case longHEVC = "long.mov"
    }

    static let folder: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stackweb-clips-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }()

    private static let made = LockedKinds()

    /// The path of a clip of `kind`, made now if it is not yet.
    static func path(_ kind: Kind) throws -> String {
        let path = folder + "/" + kind.rawValue
        try made.once(kind) { try make(kind, at: path) }
        return path
    }

    private static func make(_ kind: Kind, at path: String) throws {
        let source = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2"]
        let sound = ["-f", "lavfi", "-i", "sine=frequency=440:duration=2"]
        let x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        switch kind {
        case .h264MP4:
            try run(source + sound + x264 + ["-c:a", "aac", "-movflags", "+faststart", path])
        case .hevcMOV:
            let plain = path + ".plain.mov"
            try run(
                source + sound + [
                    "-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-pix_fmt", "yuv420p",
                    "-c:a", "aac", "-metadata", "creation_time=\(creationTime)", "-metadata", "location=\(location)",
                    "-f", "mov", plain,
                ])
            // ffmpeg 5.1 writes the display matrix from a stream's `rotate` tag on a stream copy only.
            try run([
                "-i", plain, "-c", "copy", "-map_metadata", "0", "-metadata:s:v:0", "rotate=90", "-f", "mov", path,
            ])
            try FileManager.default.removeItem(atPath: plain)
        case .vp9WebM:
            try run(
                source + sound + [
                    "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus", path,
                ])
        case .slowMOV:
            try run(source + x264 + ["-f", "mov", path])
        case .truncatedMP4:
            try run(source + x264 + ["-movflags", "+faststart", path + ".whole.mp4"])
            try cut(path + ".whole.mp4", to: path)
        case .headlessMP4:
            try run(source + x264 + [path + ".whole.mp4"])
            try cut(path + ".whole.mp4", to: path)
        case .loopingMOV:
            var bytes: [UInt8] = [0, 0, 0, 20] + Array("ftypqt  ".utf8) + [UInt8](repeating: 0, count: 8)
            let free: [UInt8] = [0, 0, 0, 8] + Array("free".utf8)
            bytes.reserveCapacity(bytes.count + free.count * (4 << 20))
            for _ in 0..<(4 << 20) { bytes += free }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        case .blankMOV:
            try run(source + x264 + ["-f", "mov", path + ".whole.mov"])
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + ".whole.mov")))
            // mdat comes first here: everything between its header and moov's becomes zeros.
            guard let mdat = bytes.firstRange(of: Array("mdat".utf8))?.upperBound,
                let moov = bytes.firstRange(of: Array("moov".utf8)).map({ $0.lowerBound - 4 }), mdat < moov
            else { throw CocoaError(.fileReadCorruptFile) }
            for index in mdat..<moov { bytes[index] = 0 }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            try FileManager.default.removeItem(atPath: path + ".whole.mov")
        case .textMP4:
            try Data("not a clip at all\n".utf8).write(to: URL(fileURLWithPath: path))
        case .longHEVC:
            try run([
                "-f", "lavfi", "-i", "testsrc2=size=2560x1440:rate=25:duration=3",
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-tag:v", "hvc1",
                "-pix_fmt", "yuv420p", "-f", "mov", path,
            ])
        }
    }

    /// The first frame of `kind` as FFmpeg's CLI decodes it, as a PNG: the reference a poster is
    /// checked against.
    static func firstFrame(_ kind: Kind) throws -> String {
        let path = folder + "/" + kind.rawValue + ".first.png"
        if !FileManager.default.fileExists(atPath: path) {
            try run(["-i", try self.path(kind), "-frames:v", "1", path])
        }
        return path
    }

    /// A clip of two 64 × 48 frames made with `codecArguments` into `path` (a fuzz target's seed).
    static func tiny(_ codecArguments: [String], at path: String) throws {
        try run(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10:duration=0.2"] + codecArguments + [path])
    }

    /// Keeps the first half of `whole` at `path`.
    private static func cut(_ whole: String, to path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: whole)
    }

    static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-nostdin", "-y"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "ffmpeg \(arguments) failed"])
        }
    }
}

/// Which clips are made: each once, however many tests ask at the same time.
private final class LockedKinds: @unchecked Sendable {
    private let lock = NSLock()
    private var done: Set<TestClips.Kind> = []

    func once(_ kind: TestClips.Kind, _ make: () throws -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        guard !done.contains(kind) else { return }
        try make()
        done.insert(kind)
    }
}
