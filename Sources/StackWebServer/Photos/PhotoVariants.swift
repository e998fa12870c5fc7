import CVips
import Dispatch
import Foundation
import Glibc

/// Resized, upright JPEG variants of the photos, made by libvips and kept in a disk cache.
///
/// A variant is keyed by the original's identity on disk (device, inode, size, modification time —
/// a replaced file gets a new key without reading it) and the size asked for, snapped to a short
/// ladder so a few files serve every screen. Conversions run off libmicrohttpd's thread, at most
/// `maxConversions` at once and within a budget of decoded megapixels (`PixelBudget`); the
/// folder is kept under a size limit (`VariantCache`).
final class PhotoVariants: Sendable {
    /// Long sides a variant may have; a request is rounded up to the next one.
    static let ladder = [128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096]
    static let quality: Int32 = 82
    static let maxConversions = 2
    /// Decoded megapixels in flight at most: two 24 MP JPEGs at full size, or one 48 MP PNG. A 24 MP
    /// JPEG fitted to 1536 px decodes at half size: 6 MP.
    static let megapixelBudget = 48.0

    /// What a variant is encoded as: WebP for browsers that say they take it (smaller), else JPEG.
    enum Format: String, Sendable {
        case jpeg = "jpg"
        case webp

        var contentType: String { self == .webp ? "image/webp" : "image/jpeg" }
    }

    struct Variant: Equatable {
        var path: String
        var etag: String
        var format: Format
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let cacheFolder: String
    let cache: VariantCache
    let budget = PixelBudget(budget: PhotoVariants.megapixelBudget, maxRunning: PhotoVariants.maxConversions)
    /// Reads headers (to know a conversion's cost) before it is queued.
    private let workers = DispatchQueue(label: "stackweb.photos", qos: .utility)

    init(cacheFolder: String, cacheLimit: Int64 = VariantCache.defaultLimit) {
        self.cacheFolder = cacheFolder
        cache = VariantCache(folder: cacheFolder, limit: cacheLimit)
    }

    /// The ladder step at or above `size` (the largest step for anything bigger).
    static func snapped(_ size: Int) -> Int {
        ladder.first { $0 >= size } ?? ladder[ladder.count - 1]
    }

    /// Where the variant of `original` fitting `width` × `height` lives (made or not), or `nil`
    /// when the original cannot be read.
    func variant(of original: String, width: Int, height: Int, format: Format = .jpeg) -> Variant? {
        var info = stat()
        guard stat(original, &info) == 0 else { return nil }
        let identity = "\(info.st_dev)-\(info.st_ino)-\(info.st_size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        let key = FNV1a.hex(Array(identity.utf8))
        let name = "\(key)-\(width)x\(height).\(format.rawValue)"
        cache.used(name)
        return Variant(path: "\(cacheFolder)/\(name)", etag: "\"\(name)\"", format: format)
    }

    /// Makes the variant file if it is not cached yet, on a worker, and reports on that worker.
    func make(
        _ variant: Variant, from original: String, width: Int, height: Int,
        completion: @escaping @Sendable (Result<Variant, Failure>) -> Void
    ) {
        workers.async { [budget, cache, cacheFolder] in
            if FileManager.default.fileExists(atPath: variant.path) { return completion(.success(variant)) }
            var header = CVipsHeader()
            guard CVips_readHeader(original, &header) == 0 else {
                return completion(.failure(Failure(description: "cannot read \(original)")))
            }
            let loader = withUnsafeBytes(of: header.loader) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let cost = PixelBudget.decodedMegapixels(
                storedWidth: Int(header.storedWidth), storedHeight: Int(header.storedHeight),
                uprightWidth: Int(header.width), uprightHeight: Int(header.height), loader: loader,
                interlaced: header.interlaced != 0, width: width, height: height)
            budget.run(cost: cost) {
                completion(
                    Self.convert(
                        variant, from: original, width: width, height: height, cache: cache, folder: cacheFolder))
            }
        }
    }

    private static func convert(
        _ variant: Variant, from original: String, width: Int, height: Int, cache: VariantCache, folder: String
    )
        -> Result<Variant, Failure>
    {
        // Two requests for the same variant: the second finds it made.
        if FileManager.default.fileExists(atPath: variant.path) { return .success(variant) }
        Metrics.standard.variantMisses.add()
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return .failure(Failure(description: "cannot create \(folder): \(error)"))
        }
        // Written beside and renamed into place, so a reader never sees half a file.
        // The suffix names the format for libvips, so it stays last.
        let temporary = "\(variant.path).tmp-\(UUID().uuidString).\(variant.format.rawValue)"
        var message = [CChar](repeating: 0, count: 512)
        let started = DispatchTime.now().uptimeNanoseconds
        let status = CVips_thumbnailToFile(
            original, temporary, Int32(width), Int32(height), Self.quality, &message, message.count)
        Metrics.standard.conversionDuration.observe(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        Metrics.standard.conversions.add(status == 0 ? "ok" : "failed")
        var info = stat()
        guard status == 0, stat(temporary, &info) == 0, rename(temporary, variant.path) == 0 else {
            unlink(temporary)
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(Failure(description: "cannot convert: \(text)"))
        }
        cache.added(URL(fileURLWithPath: variant.path).lastPathComponent, bytes: Int64(info.st_blocks) * 512)
        return .success(variant)
    }
}
