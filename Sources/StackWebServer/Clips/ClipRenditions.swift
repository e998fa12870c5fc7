import CFFmpeg
import Foundation
import Glibc

/// Copies of clips every browser plays: a clip that does not play as it is (HEVC from a phone, a
/// MOV without faststart) is converted once into an H.264 MP4 with its index first, at most 1080p
/// and its first `maxSeconds`, and kept in the variant cache beside the photo variants (pruned with
/// them, least recently used first).
///
/// Conversions run in one lane: a single thread at the lowest CPU priority (`nice` 19, which the
/// decoder's and encoder's own threads inherit), each conversion with `threads` threads, a time
/// limit and FFmpeg's allocation cap, at most `maxWaiting` waiting. Two requests for one rendition
/// share its conversion.
final class ClipRenditions: Sendable {
    /// The longest and shortest side a rendition has at most: 1080p, whichever way it is held.
    static let maxLongSide = 1920
    static let maxShortSide = 1080
    /// Seconds of a clip kept by default (`--max-clip-seconds`).
    static let defaultMaxSeconds = 60
    /// Threads each conversion's decoder and encoder use.
    static let threads = 2
    /// Wall-clock seconds one conversion may take: a minute of 4K HEVC takes about a minute and a
    /// half on two busy cores; ten is a conversion stuck on a crafted file or a hanging disk.
    static let timeLimit = 600.0
    /// Conversions waiting at most; past that, a request is told to come back.
    static let maxWaiting = 8
    /// The CPU priority of the lane's thread: the lowest, so rooms and photos always come first.
    static let niceness: Int32 = 19

    enum Failure: Error, Equatable, CustomStringConvertible {
        /// The lane is full: ask again later.
        case busy
        case failed(ClipProbe.Failure)

        var description: String {
            switch self {
            case .busy: "too many clips are being converted; try again later"
            case .failed(let failure): failure.description
            }
        }
    }

    let cacheFolder: String
    let cache: VariantCache
    /// Seconds of a clip a rendition keeps.
    let maxSeconds: Int
    private let lane = WorkerPool(name: "stackweb-renditions", threads: 1, capacity: ClipRenditions.maxWaiting)
    /// Conversions that failed, by rendition path: not tried again until the clip changes (its
    /// identity, so the path) or the server restarts.
    private let failures = Locked<[String: ClipProbe.Failure]>([:])
    /// Failed conversions remembered at most; past that all are forgotten (and tried again once).
    static let maxFailures = 10_000
    /// Waiting requests for each rendition being made (by path): the first one's conversion serves all.
    private let inFlight = Locked<[String: [@Sendable (Result<String, Failure>) -> Void]]>([:])

    init(cacheFolder: String, cache: VariantCache, maxSeconds: Int = ClipRenditions.defaultMaxSeconds) {
        self.cacheFolder = cacheFolder
        self.cache = cache
        self.maxSeconds = maxSeconds
    }

    /// Where the rendition of the clip that had `identity` lives, made or not. The length kept is in
    /// the name: another `--max-clip-seconds` makes another rendition.
    func path(identity: FileIdentity) -> String {
        "\(cacheFolder)/\(PhotoVariants.key(of: identity))-h264-\(maxSeconds)s.mp4"
    }

    /// Makes the rendition of the clip at `clip` (a path the caller opened safely, kept open until
    /// `completion`) unless it is there; reports on the lane's thread, or on the caller's when
    /// nothing needs doing or the lane is full.
    func make(
        from clip: String, identity: FileIdentity, completion: @escaping @Sendable (Result<String, Failure>) -> Void
    ) {
        let path = path(identity: identity)
        let first = inFlight.withLock { flights -> Bool in
            let waiting = flights[path]
            flights[path, default: []].append(completion)
            return waiting == nil
        }
        guard first else { return }
        if FileManager.default.fileExists(atPath: path) {
            cache.used(URL(fileURLWithPath: path).lastPathComponent)
            return finish(path, .success(path))
        }
        let queued = lane.submit { [self] in finish(path, convert(clip, to: path)) }
        if !queued { finish(path, .failure(.busy)) }
    }

    /// Why the rendition of the clip that had `identity` could not be made, if it was tried and failed.
    func failure(identity: FileIdentity) -> ClipProbe.Failure? {
        let path = path(identity: identity)
        return failures.withLock { $0[path] }
    }

    private func finish(_ path: String, _ result: Result<String, Failure>) {
        if case .failure(.failed(let failure)) = result {
            failures.withLock { failures in
                if failures.count >= Self.maxFailures { failures.removeAll() }
                failures[path] = failure
            }
        }
        let waiting = inFlight.withLock { $0.removeValue(forKey: path) ?? [] }
        for completion in waiting { completion(result) }
    }

    private func convert(_ clip: String, to path: String) -> Result<String, Failure> {
        ClipLibraries.start()
        // On Linux `who` 0 is the calling thread, not the process: only the lane (and the threads
        // FFmpeg starts from it, which inherit it) runs at this priority.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
        // Written beside and renamed into place, so a reader never sees half a file.
        let temporary = "\(path).tmp-\(UUID().uuidString).mp4"
        let limits = CFFmpeg_RenditionLimits(
            maxLongSide: Int32(Self.maxLongSide), maxShortSide: Int32(Self.maxShortSide),
            maxSeconds: Double(maxSeconds), timeLimit: Self.timeLimit, threads: Int32(Self.threads))
        var message = [CChar](repeating: 0, count: 256)
        let status = CFFmpeg_rendition(clip, temporary, limits, &message, message.count)
        if let failure = ClipProbe.Failure(status, message: message) {
            unlink(temporary)
            return .failure(.failed(failure))
        }
        var info = stat()
        guard stat(temporary, &info) == 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            return .failure(.failed(.broken("cannot write its rendition in the cache folder")))
        }
        cache.added(URL(fileURLWithPath: path).lastPathComponent, bytes: Int64(info.st_blocks) * 512)
        return .success(path)
    }
}
