import Foundation

/// Answers for `/clips/{id}`, worked out off libmicrohttpd's thread: the clip is opened beneath
/// the photo folder, probed once (its probe kept by its identity), and sent from its descriptor —
/// the original when browsers play it as it is, else its rendition, made first in the rendition
/// lane (until then: 503 with `Retry-After`). `Range` and `If-Range` give 206 or 416
/// (`ByteRange`), never reading the file into memory.
final class ClipAnswers: Sendable {
    /// Threads that open and probe clips, and requests waiting for one at most (503 past that).
    static let fileThreads = 2
    static let maxQueuedRequests = 256
    /// Seconds a client waits before asking again for a clip being converted.
    static let retryAfter = 5
    /// Probes kept in memory at most; past that all are dropped, and each is read again when asked.
    static let maxProbes = 10_000

    let shelf: Locked<ClipShelf>
    let renditions: ClipRenditions
    let posters: ClipPosters
    private let probes = Locked<[String: Result<ClipProbe, ClipProbe.Failure>]>([:])
    let files = WorkerPool(
        name: "stackweb-clips", threads: ClipAnswers.fileThreads, capacity: ClipAnswers.maxQueuedRequests)
    let failures: ThrottledLog

    init(shelf: Locked<ClipShelf>, renditions: ClipRenditions, posters: ClipPosters, log: OperatorLog = .silent) {
        self.shelf = shelf
        self.renditions = renditions
        self.posters = posters
        failures = ThrottledLog(log: log, event: "clip.failed", interval: 60)
    }

    /// A deferred answer: the connection waits while the clip is opened and probed.
    func answer(id: String, request: Request) -> Response {
        guard let relative = shelf.withLock({ $0.relative(id: id) }) else {
            return .error(404, "no clip \(id.prefix(40))")
        }
        let conditions = Conditions(
            range: request.header(.range), ifRange: request.header(.ifRange),
            ifNoneMatch: request.header(.ifNoneMatch))
        return Response(
            status: 200,
            body: .deferred { [self] complete in
                let queued = files.submit { [self] in complete(work(relative, conditions)) }
                if !queued { complete(Self.later(503, "too many clip requests at once")) }
            })
    }

    /// What a request asked beside the clip.
    private struct Conditions: Sendable {
        var range: String?
        var ifRange: String?
        var ifNoneMatch: String?
    }

    /// A clip opened beneath the folder, with what is known of it.
    struct OpenedClip {
        var file: OpenedFile
        var identity: FileIdentity
        var probe: ClipProbe
        /// Where FFmpeg and libvips read it: the descriptor opened, not the path.
        var source: String { ClipAnswers.source(file) }
    }

    /// Opens and probes the clip at `relative`; the answer to give instead when it cannot be shown.
    func open(_ relative: String) -> Result<OpenedClip, ClipRefusal> {
        let root = shelf.withLock { $0.root }
        guard let file = OpenedFile.open(relative, beneath: root), let identity = FileIdentity.of(Self.source(file))
        else {
            return .failure(ClipRefusal(answer: .error(404, "this clip is gone")))
        }
        switch probed(file, key: PhotoVariants.key(of: identity)) {
        case .success(let probe): return .success(OpenedClip(file: file, identity: identity, probe: probe))
        case .failure(let failure):
            failures.record("cannot show clip \(relative): \(failure.description)")
            return .failure(ClipRefusal(answer: .error(500, "this clip cannot be shown")))
        }
    }

    private func work(_ relative: String, _ conditions: Conditions) -> Response {
        let clip: OpenedClip
        switch open(relative) {
        case .success(let opened): clip = opened
        case .failure(let refusal): return refusal.answer
        }
        let (file, identity, probe, key) = (clip.file, clip.identity, clip.probe, PhotoVariants.key(of: clip.identity))
        if probe.playsAsIs {
            return Self.send(file, etag: "\"\(key)\"", type: probe.contentType, conditions)
        }
        let rendition = renditions.path(identity: identity)
        if let made = OpenedFile.open(path: rendition) {
            renditions.cache.used(URL(fileURLWithPath: rendition).lastPathComponent)
            let etag = "\"\(URL(fileURLWithPath: rendition).deletingPathExtension().lastPathComponent)\""
            return Self.send(made, etag: etag, type: "video/mp4", conditions)
        }
        // A clip whose conversion failed is not converted again at every request.
        if renditions.failure(identity: identity) != nil {
            return .error(500, "this clip cannot be converted for browsers")
        }
        renditions.make(from: Self.source(file), identity: identity) { [failures] result in
            withExtendedLifetime(file) {}
            if case .failure(.failed(let failure)) = result {
                failures.record("cannot convert clip \(relative): \(failure.description)")
            }
        }
        return Self.later(503, "this clip is being converted for browsers; ask again shortly")
    }

    /// The clip's probe, read once per identity.
    private func probed(_ file: OpenedFile, key: String) -> Result<ClipProbe, ClipProbe.Failure> {
        if let known = probes.withLock({ $0[key] }) { return known }
        let result = ClipProbe.read(path: Self.source(file))
        probes.withLock { probes in
            if probes.count >= Self.maxProbes { probes.removeAll() }
            probes[key] = result
        }
        return result
    }

    /// 200, 206, 304 or 416 for `file` as the request's conditions ask.
    private static func send(_ file: OpenedFile, etag: String, type: String, _ conditions: Conditions) -> Response {
        let headers = [
            ("ETag", etag), ("Accept-Ranges", "bytes"), ("Cache-Control", "public, max-age=3600"),
        ]
        if conditions.ifNoneMatch?.contains(etag) == true { return Response(status: 304, headers: headers) }
        let range =
            ByteRange.applies(ifRange: conditions.ifRange, etag: etag)
            ? ByteRange(header: conditions.range, size: file.size) : .whole
        switch range {
        case .whole:
            return Response(status: 200, headers: headers + [("Content-Type", type)], body: .file(file))
        case .partial(let offset, let length):
            let span = "bytes \(offset)-\(offset + length - 1)/\(file.size)"
            return Response(
                status: 206, headers: headers + [("Content-Type", type), ("Content-Range", span)],
                body: .filePart(file, offset: offset, length: length))
        case .unsatisfiable:
            var response = Response.error(416, "the range asked for starts past the clip's \(file.size) bytes")
            response.headers += headers + [("Content-Range", "bytes */\(file.size)")]
            return response
        }
    }

    /// FFmpeg reads the very file opened (through its descriptor), not whatever the path names by
    /// the time it looks.
    static func source(_ file: OpenedFile) -> String { "/proc/self/fd/\(file.descriptorNumber)" }

    static func later(_ status: Int, _ message: String) -> Response {
        var response = Response.error(status, message)
        response.headers.append(("Retry-After", String(retryAfter)))
        return response
    }
}

/// The answer for a clip that cannot be opened or shown.
struct ClipRefusal: Error {
    var answer: Response
}
