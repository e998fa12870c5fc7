import Dispatch
import Foundation
import StackModel

/// Answers for `/photos/{id}`, worked out off libmicrohttpd's thread: every open, stat and
/// conversion of a photo happens on `files`, so a slow share, a FIFO or a device swapped in for a
/// photo can hold up only its own request.
struct PhotoAnswers: Sendable {
    let variants: PhotoVariants
    private static let files = DispatchQueue(label: "stackweb.files", attributes: .concurrent)

    init(variants: PhotoVariants) {
        self.variants = variants
    }

    /// What a request asked of one photo.
    struct Ask: Sendable {
        var entry: PhotoLibrary.Entry
        /// The variant's box, snapped to the ladder; `nil` for the original.
        var box: (width: Int, height: Int)?
        var format: PhotoVariants.Format
        var ifNoneMatch: String?
    }

    /// A deferred answer: the connection waits while the photo is opened (and converted if need be).
    func answer(_ ask: Ask) -> Response {
        Response(
            status: 200,
            body: .deferred { complete in
                Self.files.async { work(ask, complete: complete) }
            })
    }

    private func work(_ ask: Ask, complete: @escaping @Sendable (Response) -> Void) {
        let entry = ask.entry
        // The photo folder is a guest's playground: no link below it is followed, nothing but a
        // regular file is opened, and a FIFO does not block the open.
        let root = String(entry.path.dropLast(entry.relative.utf8.count))
        guard let original = OpenedFile.open(entry.relative, beneath: root) else {
            return complete(.error(404, "photo \(entry.photo.id.prefix(40)) is gone"))
        }
        guard let box = ask.box else { return complete(Self.original(entry, original)) }
        // libvips reads the very file opened above (through its descriptor), not whatever the path
        // names by the time it looks.
        let source = "/proc/self/fd/\(original.descriptorNumber)"
        guard let variant = variants.variant(of: source, width: box.width, height: box.height, format: ask.format)
        else {
            return complete(.error(404, "photo \(entry.photo.id.prefix(40)) is gone"))
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
        variants.make(variant, from: source, width: box.width, height: box.height) { result in
            withExtendedLifetime(original) {}
            switch result {
            case .success:
                complete(
                    OpenedFile.open(path: variant.path).map(ready) ?? .error(500, "the resized photo went missing"))
            case .failure(let failure):
                complete(.error(500, failure.description))
            }
        }
    }

    private static func original(_ entry: PhotoLibrary.Entry, _ file: OpenedFile) -> Response {
        let ext = entry.path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let type = PhotoLibrary.contentTypes[ext] ?? "application/octet-stream"
        return Response(
            status: 200, headers: [("Content-Type", type), ("Cache-Control", "public, max-age=3600")],
            body: .file(file))
    }
}
