/// What an image request's `?w=` and `?h=` ask for: the original, or a box to fit (each side given
/// snapped up to the variant ladder, a missing side unbounded), or nothing valid. Photos and clip
/// posters read them alike.
enum AskedBox: Equatable {
    case original
    case box(width: Int, height: Int)
    case invalid

    /// The error an invalid ask gets.
    static let invalidAnswer = Response.error(400, "w and h must be whole numbers of pixels")

    init(_ request: Request) {
        let width = request.query["w"]
        let height = request.query["h"]
        guard width != nil || height != nil else {
            self = .original
            return
        }
        let sizes = [width, height].map { $0.map { Int($0) } }
        guard !sizes.contains(where: { $0 == .some(nil) }),
            sizes.allSatisfy({ ($0 ?? 1).map { (1...100_000).contains($0) } ?? false })
        else {
            self = .invalid
            return
        }
        // A missing side is unbounded; the others are snapped up to the ladder (a handful of boxes).
        let box = sizes.map { side in (side ?? nil).map(PhotoVariants.snapped) ?? Int.max }
        self = .box(width: box[0], height: box[1])
    }
}
