import Foundation

extension ClipAnswers {
    /// `GET /clips/ID/poster`: the clip's first frame, fitted in the `?w=`/`?h=` box as a photo's
    /// variant is (the ladder, WebP or JPEG by `Accept`, cached, `ETag`); the largest step without
    /// a box. Worked out on the clip threads; the variant in the photo conversions' budget.
    func poster(id: String, request: Request) -> Response {
        guard let relative = shelf.withLock({ $0.relative(id: id) }) else {
            return .error(404, "no clip \(id.prefix(40))")
        }
        let box: (width: Int, height: Int)
        switch AskedBox(request) {
        case .invalid: return AskedBox.invalidAnswer
        case .original: box = (Int.max, Int.max)
        case .box(let width, let height): box = (width, height)
        }
        let webP = request.header(.accept)?.contains("image/webp") == true
        let ifNoneMatch = request.header(.ifNoneMatch)
        return Response(
            status: 200,
            body: .deferred { [self] complete in
                let queued = files.submit { [self] in
                    posterWork(relative, box: box, webP: webP, ifNoneMatch: ifNoneMatch, complete: complete)
                }
                if !queued { complete(Self.later(503, "too many clip requests at once")) }
            })
    }

    private func posterWork(
        _ relative: String, box: (width: Int, height: Int), webP: Bool, ifNoneMatch: String?,
        complete: @escaping @Sendable (Response) -> Void
    ) {
        let clip: OpenedClip
        switch open(relative) {
        case .success(let opened): clip = opened
        case .failure(let refusal): return complete(refusal.answer)
        }
        let longSide = PhotoVariants.longSide(box: box, photoWidth: clip.probe.width, photoHeight: clip.probe.height)
        let format = PhotoVariants.Format.chosen(acceptsWebP: webP, longSide: longSide)
        posters.variant(
            of: clip.source, identity: clip.identity, probe: clip.probe, box: box, format: format
        ) { [failures] result in
            withExtendedLifetime(clip.file) {}
            switch result {
            case .success(let variant):
                let headers = [
                    ("ETag", variant.etag), ("Cache-Control", "public, max-age=2592000"), ("Vary", "Accept"),
                ]
                if ifNoneMatch?.contains(variant.etag) == true {
                    return complete(Response(status: 304, headers: headers))
                }
                guard let file = OpenedFile.open(path: variant.path) else {
                    return complete(.error(500, "the clip's poster went missing"))
                }
                complete(
                    Response(
                        status: 200, headers: headers + [("Content-Type", variant.format.contentType)],
                        body: .file(file)))
            case .failure(.busy):
                complete(Self.later(429, PhotoVariants.Failure.busy.description))
            case .failure(let failure):
                failures.record("cannot make the poster of clip \(relative): \(failure.description)")
                complete(.error(500, "this clip's poster could not be made"))
            }
        }
    }
}
