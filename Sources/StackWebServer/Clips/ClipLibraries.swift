import CFFmpeg

/// FFmpeg's libraries are set up once per process before any clip is read.
enum ClipLibraries {
    /// The largest single allocation FFmpeg may make: a decoded 8K frame is 50 MB in 4:2:0, so this
    /// only refuses a crafted header's size field.
    static let maxAllocation = 256 << 20

    /// Swift runs a static initialiser exactly once, even when many threads ask at the same time.
    private static let started: Void = CFFmpeg_init(maxAllocation)

    static func start() { started }
}
