import CVips
import Foundation
import Glibc

/// Resized, upright variants of the photos, made by libvips and kept in a disk cache.
///
/// A variant is keyed by the original's identity on disk (device, inode, size, modification time —
/// a replaced file gets a new key without reading it), the long side it is made at and its format.
/// Whatever box a request asks for, the long side is the ladder step at or above what the photo
/// fitted into that box needs, and never more than the step that holds the whole photo; the format
/// is one per `Accept` class. So a photo has at most `ladder.count` JPEG variants and the WebP ones
/// up to `largestWebP`, however many sizes guests try.
///
/// Conversions run on a fixed number of threads, at most `maxConversions` at once and within a
/// budget of decoded megapixels (`PixelBudget`); at most `maxWaitingConversions` wait, and a request
/// past that is told to come back (`Failure.busy`). Two requests for the same variant share one
/// conversion. The folder is kept under a size limit (`VariantCache`).
final class PhotoVariants: Sendable {
    /// Long sides a variant may have.
    static let ladder = [128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096]
    static let quality: Int32 = 82
    static let maxConversions = 2
    /// Decoded megapixels in flight at most: two 24 MP JPEGs at full size, or one 48 MP PNG. A 24 MP
    /// JPEG fitted to 1536 px decodes at half size: 6 MP.
    static let megapixelBudget = 48.0
    /// Conversions that decode more megapixels than this (a 24 MP JPEG at 4096 px, a 20 MP PNG at
    /// any size: a second or more here) run in a lane of their own, one at a time (`PixelBudget`),
    /// so that ordinary photos never wait behind them; at most `maxWaitingLargeConversions` wait.
    static let largeConversion = 16.0
    static let maxWaitingLargeConversions = 4
    /// Conversions waiting for their turn at most. A page asks for a few photos at a time; a burst
    /// past this is a guest trying sizes, and gets 429 with `Retry-After` rather than a queue that
    /// grows without end.
    static let maxWaitingConversions = 16
    /// Variants made ahead (`PhotoAnswers.prefetch`) are queued only while fewer than this many
    /// conversions wait: the rest of the queue stays for requests someone is waiting for.
    static let maxWaitingToMakeAhead = 4
    /// The largest long side made as WebP. Its encoder's cost grows faster than JPEG's with the
    /// output's size: from a 24 MP JPEG (`vips thumbnail`, libvips 8.14, Q 82) a 1536-px variant
    /// took 1.3× JPEG's time as WebP, a 2048-px one 2×, a 4096-px one 4×; and the bytes WebP saves
    /// matter most for the small variants a frame fetches often.
    static let largestWebP = 1536
    /// The most decoded pixels, all frames together, of an animation (GIF, WebP) whose WebP variants
    /// keep every frame; a longer or larger one shows its first frame. libvips decodes every frame
    /// whole to resize it (no shrink-on-load): a 320×240 clip of 100 frames is 7.7 MP.
    static let largestAnimation = 24_000_000
    /// The loaders whose pages are an animation's frames (a HEIC's or a TIFF's are other pictures).
    static let animationLoaders: Set<String> = ["gifload", "webpload"]

    /// What a variant is encoded as.
    enum Format: String, Sendable {
        case jpeg = "jpg"
        case webp

        var contentType: String { self == .webp ? "image/webp" : "image/jpeg" }

        /// WebP for a browser that says it takes it, up to `largestWebP`; JPEG otherwise.
        static func chosen(acceptsWebP: Bool, longSide: Int) -> Format {
            acceptsWebP && longSide <= PhotoVariants.largestWebP ? .webp : .jpeg
        }
    }

    struct Variant: Equatable, Sendable {
        var path: String
        var etag: String
        var format: Format
        /// The ladder step it is made at: its long side, or the photo's when that is smaller.
        var longSide: Int
    }

    enum Failure: Error, Equatable, CustomStringConvertible {
        /// Too many conversions wait already: ask again in a moment.
        case busy
        /// The cache folder cannot be written (read-only, permissions): nothing the photo did, and
        /// it may pass (`/healthz` says so too).
        case cacheUnwritable(String)
        case failed(String)

        var isCacheUnwritable: Bool {
            if case .cacheUnwritable = self { return true }
            return false
        }

        var description: String {
            switch self {
            case .busy: "too many photos are being resized; try again shortly"
            case .cacheUnwritable(let problem): "cannot write in the cache folder: \(problem)"
            case .failed(let reason): reason
            }
        }
    }

    let cacheFolder: String
    let cache: VariantCache
    let budget = PixelBudget(
        budget: PhotoVariants.megapixelBudget, maxRunning: PhotoVariants.maxConversions,
        maxWaiting: PhotoVariants.maxWaitingConversions, largeCost: PhotoVariants.largeConversion,
        maxWaitingLarge: PhotoVariants.maxWaitingLargeConversions)
    /// The sizes pages asked for lately: what the next photos are made at ahead of time.
    let asked = AskedSizes()
    /// Waiting requests for each variant being made (by path): the first one's conversion serves all.
    private let inFlight = Locked<[String: [@Sendable (Result<Variant, Failure>) -> Void]]>([:])

    init(cacheFolder: String, cacheLimit: Int64 = VariantCache.defaultLimit) {
        self.cacheFolder = cacheFolder
        cache = VariantCache(folder: cacheFolder, limit: cacheLimit)
    }

    /// The ladder step at or above `size` (the largest step for anything bigger).
    static func snapped(_ size: Int) -> Int {
        ladder.first { $0 >= size } ?? ladder[ladder.count - 1]
    }

    /// The long side of the variant that serves a `box` (either side may be `Int.max`: unbounded)
    /// for an upright photo of `width` × `height`: the photo fitted into the box (never enlarged),
    /// its long side snapped up to the ladder. A photo of unknown size gets the box's short side.
    static func longSide(box: (width: Int, height: Int), photoWidth width: Int, photoHeight height: Int) -> Int {
        guard width > 0, height > 0 else { return snapped(min(box.width, box.height)) }
        let scale = min(1, Double(box.width) / Double(width), Double(box.height) / Double(height))
        let long = Double(max(width, height)) * scale
        return snapped(Int(long.rounded(.up)))
    }

    /// Where the variant of `original` at `longSide` lives (made or not), or `nil` when the
    /// original cannot be read.
    func variant(of original: String, longSide: Int, format: Format = .jpeg) -> Variant? {
        var info = stat()
        guard stat(original, &info) == 0 else { return nil }
        return variant(identity: FileIdentity(info), longSide: longSide, format: format)
    }

    /// Marks WebP variants made without the original's metadata: those cached before kept its EXIF
    /// (GPS included, libvips' webpsave ignoring `strip`), and are never served again.
    static let webPRecipe = "-m2"

    /// The variant of the file that had `identity`, whether or not that file can be opened now.
    func variant(identity file: FileIdentity, longSide: Int, format: Format = .jpeg) -> Variant? {
        let name = "\(Self.key(of: file))-\(longSide)\(format == .webp ? Self.webPRecipe : "").\(format.rawValue)"
        cache.used(name)
        return Variant(path: "\(cacheFolder)/\(name)", etag: "\"\(name)\"", format: format, longSide: longSide)
    }

    /// What names every file the cache keeps of one original (its variants, a clip's poster and
    /// rendition): a hash of the original's identity, so a replaced file gets new names unread.
    static func key(of file: FileIdentity) -> String {
        FNV1a.hex(Array("\(file.device)-\(file.inode)-\(file.size)-\(file.seconds).\(file.nanoseconds)".utf8))
    }

    /// Makes the variant file unless it is there, and reports on a conversion thread (or on the
    /// caller's, when nothing needs doing or the queue is full). Reads the original's header on the
    /// caller's thread, which must not be libmicrohttpd's.
    func make(
        _ variant: Variant, from original: String, completion: @escaping @Sendable (Result<Variant, Failure>) -> Void
    ) {
        let first = inFlight.withLock { flights -> Bool in
            let waiting = flights[variant.path]
            flights[variant.path, default: []].append(completion)
            return waiting == nil
        }
        guard first else { return }
        if FileManager.default.fileExists(atPath: variant.path) { return finish(variant, .success(variant)) }
        var header = CVipsHeader()
        guard CVips_readHeader(original, &header) == 0 else {
            Metrics.standard.conversions.add("failed")
            return finish(variant, .failure(.failed("cannot read its header")))
        }
        let allFrames = Self.keepsFrames(header, format: variant.format)
        let cost = Self.cost(of: header, longSide: variant.longSide) * Double(allFrames ? header.pages : 1)
        let queued = budget.run(cost: cost) { [self] in
            finish(
                variant, Self.convert(variant, from: original, allFrames: allFrames, cache: cache, folder: cacheFolder))
        }
        if !queued {
            Metrics.standard.conversions.add("busy")
            finish(variant, .failure(.busy))
        }
    }

    /// Whether a variant nobody waits for should not be queued now (see `maxWaitingToMakeAhead`).
    var isBusy: Bool { budget.waiting >= Self.maxWaitingToMakeAhead }

    private func finish(_ variant: Variant, _ result: Result<Variant, Failure>) {
        let waiting = inFlight.withLock { $0.removeValue(forKey: variant.path) ?? [] }
        for completion in waiting { completion(result) }
    }

    /// Whether a variant in `format` of a file of `pages` pages of `width` × `height` read by
    /// `loader` keeps every frame of its animation: WebP keeps them (JPEG cannot), for an animation
    /// within `largestAnimation`.
    static func keepsFrames(pages: Int, width: Int, height: Int, loader: String, format: Format) -> Bool {
        guard format == .webp, pages > 1, animationLoaders.contains(loader) else { return false }
        return pages * width * height <= largestAnimation
    }

    private static func keepsFrames(_ header: CVipsHeader, format: Format) -> Bool {
        keepsFrames(
            pages: Int(header.pages), width: Int(header.width), height: Int(header.height), loader: loader(of: header),
            format: format)
    }

    private static func loader(of header: CVipsHeader) -> String {
        withUnsafeBytes(of: header.loader) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private static func cost(of header: CVipsHeader, longSide: Int) -> Double {
        PixelBudget.decodedMegapixels(
            storedWidth: Int(header.storedWidth), storedHeight: Int(header.storedHeight),
            uprightWidth: Int(header.width), uprightHeight: Int(header.height), loader: loader(of: header),
            interlaced: header.interlaced != 0, width: longSide, height: longSide)
    }

    private static func convert(
        _ variant: Variant, from original: String, allFrames: Bool, cache: VariantCache, folder: String
    ) -> Result<Variant, Failure> {
        // A request for it may have come between the check and the conversion.
        if FileManager.default.fileExists(atPath: variant.path) { return .success(variant) }
        Metrics.standard.variantMisses.add()
        if let problem = ServerStatus.canWrite(folder: folder, naming: true) {
            Metrics.standard.conversions.add("failed")
            return .failure(.cacheUnwritable(problem))
        }
        // Written beside and renamed into place, so a reader never sees half a file.
        // The suffix names the format for libvips, so it stays last.
        let temporary = "\(variant.path).tmp-\(UUID().uuidString).\(variant.format.rawValue)"
        var message = [CChar](repeating: 0, count: 512)
        let side = Int32(variant.longSide)
        let started = DispatchTime.now().uptimeNanoseconds
        let status = CVips_thumbnailToFile(
            original, temporary, side, side, Self.quality, allFrames ? 1 : 0, &message, message.count)
        Metrics.standard.conversionDuration.observe(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        Metrics.standard.conversions.add(status == 0 ? "ok" : "failed")
        var info = stat()
        guard status == 0, stat(temporary, &info) == 0, rename(temporary, variant.path) == 0 else {
            unlink(temporary)
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.failed("cannot convert: \(text)"))
        }
        cache.added(URL(fileURLWithPath: variant.path).lastPathComponent, bytes: Int64(info.st_blocks) * 512)
        return .success(variant)
    }
}
