import CVips
import Dispatch
import Glibc

/// The previews of photos waiting for review: small upright JPEGs made by the variant machinery
/// (libvips' thumbnail, its metadata stripped, so no GPS position), served only to the control
/// token's holder — a waiting photo is not public: it may be the one about to be rejected.
extension PhotoUploads {
    /// The box a preview fits into: a ladder step, so that an approved photo's preview is also
    /// the library's variant of that size (the file keeps its identity when it moves).
    static let previewSide = 256

    /// `GET /api/rooms/ROOM/uploads/ID/preview`: the preview of the waiting photo `id`, made off
    /// libmicrohttpd's thread; 404 for an id that waits in no queue of `room`.
    func preview(id: String, room: String) -> Response {
        Response(
            status: 200,
            body: .deferred { [self] complete in
                DispatchQueue.global().async { [self] in
                    let missing = Response.error(404, "no photo \(id.prefix(40)) waits for review in room \(room)")
                    guard let (file, _) = waitingFile(id: id, room: room),
                        let original = OpenedFile.open(file, beneath: reviewFolder(of: room))
                    else { return complete(missing) }
                    let source = "/proc/self/fd/\(original.descriptorNumber)"
                    guard let variant = previewVariant(of: source) else { return complete(missing) }
                    variants.make(variant, from: source) { result in
                        withExtendedLifetime(original) {}
                        complete(Self.previewAnswer(variant, result))
                    }
                }
            })
    }

    /// The preview's variant of the photo at `path` (its size read from its header), made or not.
    func previewVariant(of path: String) -> PhotoVariants.Variant? {
        var header = CVipsHeader()
        guard CVips_readHeader(path, &header) == 0 else { return nil }
        let side = PhotoVariants.longSide(
            box: (Self.previewSide, Self.previewSide), photoWidth: Int(header.width), photoHeight: Int(header.height))
        return variants.variant(of: path, longSide: side, format: .jpeg)
    }

    private static func previewAnswer(
        _ variant: PhotoVariants.Variant, _ result: Result<PhotoVariants.Variant, PhotoVariants.Failure>
    ) -> Response {
        switch result {
        case .success:
            guard let file = OpenedFile.open(path: variant.path) else {
                return .error(500, "the preview went missing")
            }
            // Never kept by a shared cache, nor by the browser past the page: it is not public.
            return Response(
                status: 200, headers: [("Content-Type", "image/jpeg"), ("Cache-Control", "private, no-store")],
                body: .file(file))
        case .failure(.busy):
            var response = Response.error(503, PhotoVariants.Failure.busy.description)
            response.headers.append(("Retry-After", "1"))
            return response
        case .failure:
            return .error(500, "this photo's preview could not be made")
        }
    }
}
