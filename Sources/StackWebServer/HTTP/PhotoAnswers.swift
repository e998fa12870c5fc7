import Foundation
import StackModel

/// Answers for `/photos/{id}`, worked out off libmicrohttpd's thread: every open, stat and
/// conversion of a photo happens on a fixed pool of threads, so a slow share, a FIFO or a device
/// swapped in for a photo can hold up only its own request, and a burst of requests neither grows
/// the process's threads nor queues without end (past `maxQueuedRequests`: 503, come back later).
///
/// Also makes ahead of time the variants of the photos a room shows next (`prefetch`), at the sizes
/// pages asked for lately.
final class PhotoAnswers: Sendable {
    /// Threads that open photos and read their headers: enough that one slow share does not hold up
    /// the others, few enough to stay a fixed, small cost.
    static let fileThreads = 4
    /// Photo requests waiting for a file thread at most.
    static let maxQueuedRequests = 256
    /// How long a refused client is told to wait before it asks again, in seconds.
    static let retryAfter = 1

    let variants: PhotoVariants
    private let files = WorkerPool(
        name: "stackweb-files", threads: PhotoAnswers.fileThreads, capacity: PhotoAnswers.maxQueuedRequests)

    /// Failed conversions, said to the operator: at most one line a minute, with how many more.
    private let failures: ThrottledLog

    /// Whether the photo folder is there (`ServerStatus.folderPresent`): a photo that cannot be
    /// opened while it is away is unavailable (503, come back), not gone (404).
    private let folderPresent: Locked<Bool>
    /// The photo folder: looked at when a photo cannot be opened while the watcher still takes the
    /// folder as there (the first moments of an unmount, before its next look).
    private let photoFolder: String?

    init(
        variants: PhotoVariants, folderPresent: Locked<Bool> = Locked(true), photoFolder: String? = nil,
        log: OperatorLog = .silent
    ) {
        self.variants = variants
        self.folderPresent = folderPresent
        self.photoFolder = photoFolder
        failures = ThrottledLog(log: log, event: "photo.conversion.failed", interval: 60)
    }

    /// What a request asked of one photo.
    struct Ask: Sendable {
        var entry: PhotoLibrary.Entry
        /// The box asked for, each side snapped up to the ladder (`Int.max`: unbounded); `nil` for
        /// the original.
        var box: (width: Int, height: Int)?
        var acceptsWebP: Bool
        var ifNoneMatch: String?
    }

    /// A deferred answer: the connection waits while the photo is opened (and converted if need be).
    func answer(_ ask: Ask) -> Response {
        Response(
            status: 200,
            body: .deferred { [self] complete in
                let queued = files.submit { [self] in work(ask, complete: complete) }
                if !queued { complete(Self.busy(503, "too many photo requests at once")) }
            })
    }

    /// Makes the variants of `photoIDs` (a room's next cards) at the sizes asked for lately, in the
    /// background, and only while few conversions wait: most of the queue stays for requests someone
    /// is waiting for.
    func prefetch(_ photoIDs: [String], library: Locked<PhotoLibrary>) {
        let sizes = variants.asked.recent()
        guard !sizes.isEmpty, !photoIDs.isEmpty else { return }
        files.submit { [self] in
            let entries = library.withLock { library in photoIDs.compactMap { library.entry(id: $0) } }
            for entry in entries {
                for size in sizes where !variants.isBusy {
                    guard let (original, variant) = open(entry, box: (size.width, size.height), webP: size.acceptsWebP)
                    else { break }
                    guard !FileManager.default.fileExists(atPath: variant.path) else { continue }
                    variants.make(variant, from: Self.source(original)) { _ in withExtendedLifetime(original) {} }
                }
            }
        }
    }

    /// Whether the photo folder is away: as the watcher last saw it, or as it looks now. Looked at
    /// only once a photo cannot be opened: a folder not there, or showing nothing (an unmounted
    /// stick's bare mount point), is away before the watcher's next look sees it.
    private func folderAway() -> Bool {
        guard folderPresent.withLock({ $0 }), let photoFolder else { return !folderPresent.withLock { $0 } }
        guard let directory = opendir(photoFolder) else { return true }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { return false }
        }
        return true
    }

    /// The answer for a photo the rooms show that cannot be opened: 503 (come back) while its
    /// folder is away, else 404 (gone, or swapped for what is not served: a link, a FIFO).
    private static func missing(_ ask: Ask, away: Bool) -> Response {
        away
            ? busy(503, "photos unavailable: the photo folder is not there")
            : Response.error(404, "photo \(ask.entry.photo.id.prefix(40)) is gone")
    }

    private func work(_ ask: Ask, complete: @escaping @Sendable (Response) -> Void) {
        // In the library but not to be opened while its folder is away (unplugged, unmounted):
        // the room keeps its card, and the page is told to come back (`missing`).
        guard let box = ask.box else {
            guard let original = Self.open(ask.entry) else { return complete(Self.missing(ask, away: folderAway())) }
            return complete(Self.original(ask.entry, original))
        }
        variants.asked.note(AskedSizes.Size(width: box.width, height: box.height, acceptsWebP: ask.acceptsWebP))
        guard let (original, variant) = open(ask.entry, box: box, webP: ask.acceptsWebP) else {
            let away = folderAway()
            // A variant made while it was there still shows it.
            if away, let variant = cachedVariant(ask.entry, box: box, webP: ask.acceptsWebP),
                let cached = OpenedFile.open(path: variant.path)
            {
                Metrics.standard.variantHits.add()
                return complete(
                    Response(
                        status: 200,
                        headers: [
                            ("ETag", variant.etag), ("Cache-Control", "public, max-age=2592000"), ("Vary", "Accept"),
                            ("Content-Type", variant.format.contentType),
                        ], body: .file(cached)))
            }
            return complete(Self.missing(ask, away: away))
        }
        // Long-lived: a replaced file gets a new `?v=` in its card's src, so its URL changes.
        let headers = [("ETag", variant.etag), ("Cache-Control", "public, max-age=2592000"), ("Vary", "Accept")]
        if ask.ifNoneMatch?.contains(variant.etag) == true { return complete(Response(status: 304, headers: headers)) }
        let ready: @Sendable (OpenedFile) -> Response = { file in
            Response(
                status: 200, headers: headers + [("Content-Type", variant.format.contentType)], body: .file(file))
        }
        if let cached = OpenedFile.open(path: variant.path) {
            Metrics.standard.variantHits.add()
            return complete(ready(cached))
        }
        variants.make(variant, from: Self.source(original)) { result in
            withExtendedLifetime(original) {}
            switch result {
            case .success:
                complete(
                    OpenedFile.open(path: variant.path).map(ready) ?? .error(500, "the resized photo went missing"))
            case .failure(.busy):
                complete(Self.busy(429, PhotoVariants.Failure.busy.description))
            case .failure(let failure) where failure.isCacheUnwritable:
                // The server's state, not the photo's: come back (503), as /healthz's cache check says.
                self.failures.record("cannot resize photo \(ask.entry.relative): \(failure.description)")
                complete(Self.busy(503, "photos cannot be resized now: the cache of resized photos cannot be written"))
            case .failure(let failure):
                // The details (paths, libvips' words) are for the operator's log, not for a client.
                self.failures.record("cannot resize photo \(ask.entry.relative): \(failure.description)")
                complete(.error(500, "this photo could not be resized"))
            }
        }
    }

    /// The photo opened safely, and the variant that serves `box` in the chosen format.
    private func open(_ entry: PhotoLibrary.Entry, box: (width: Int, height: Int), webP: Bool)
        -> (OpenedFile, PhotoVariants.Variant)?
    {
        guard let original = Self.open(entry) else { return nil }
        let longSide = PhotoVariants.longSide(box: box, photoWidth: entry.photo.width, photoHeight: entry.photo.height)
        let format = PhotoVariants.Format.chosen(acceptsWebP: webP, longSide: longSide)
        guard let variant = variants.variant(of: Self.source(original), longSide: longSide, format: format) else {
            return nil
        }
        return (original, variant)
    }

    /// The variant made earlier of `entry` as it was when last seen, found by its identity then.
    private func cachedVariant(_ entry: PhotoLibrary.Entry, box: (width: Int, height: Int), webP: Bool)
        -> PhotoVariants.Variant?
    {
        let longSide = PhotoVariants.longSide(box: box, photoWidth: entry.photo.width, photoHeight: entry.photo.height)
        let format = PhotoVariants.Format.chosen(acceptsWebP: webP, longSide: longSide)
        return variants.variant(identity: entry.identity, longSide: longSide, format: format)
    }

    /// The photo folder is a guest's playground: no link below it is followed, nothing but a regular
    /// file is opened, and a FIFO does not block the open. A photo of a folder mounted into it
    /// (`PhotoTree`), whose real path does not end with its path below the photo folder, is opened
    /// beneath the mounted folder.
    private static func open(_ entry: PhotoLibrary.Entry) -> OpenedFile? {
        var below = Substring(entry.relative)
        while !entry.path.hasSuffix("/" + below), let slash = below.firstIndex(of: "/") {
            below = below[below.index(after: slash)...]
        }
        return OpenedFile.open(String(below), beneath: String(entry.path.dropLast(below.utf8.count)))
    }

    /// libvips reads the very file opened (through its descriptor), not whatever the path names by
    /// the time it looks.
    private static func source(_ file: OpenedFile) -> String {
        "/proc/self/fd/\(file.descriptorNumber)"
    }

    private static func busy(_ status: Int, _ message: String) -> Response {
        var response = Response.error(status, message)
        response.headers.append(("Retry-After", String(retryAfter)))
        return response
    }

    private static func original(_ entry: PhotoLibrary.Entry, _ file: OpenedFile) -> Response {
        let ext = entry.path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let type = PhotoLibrary.contentTypes[ext] ?? "application/octet-stream"
        return Response(
            status: 200, headers: [("Content-Type", type), ("Cache-Control", "public, max-age=3600")],
            body: .file(file))
    }
}
