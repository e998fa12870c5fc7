/// Why a guest's photo was not kept, with the status and words the guest gets.
enum UploadFailure: Error, Equatable, Sendable {
    case tooLarge(Int64)
    case quotaReached
    case notAPhoto(String)
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// Truncated, corrupt, or declaring more pixels than its bytes hold (a bomb).
    case damaged(String)
    case busy
    case storage(String)

    var response: Response {
        var response: Response
        switch self {
        case .tooLarge(let limit):
            response = .error(413, "this photo is larger than the \(limit / 1_000_000) MB this server takes")
        case .quotaReached:
            response = .error(507, "the space for guests' photos is full")
        case .notAPhoto(let what):
            response = .error(415, "not a photo this server shows (\(what)): send a JPEG, PNG, WebP, GIF or HEIC")
        case .tooManyPixels(let width, let height, let limit):
            response = .error(
                413, "this photo's \(width)×\(height) pixels are more than the \(limit) this server shows")
        case .damaged(let reason):
            response = .error(422, "this photo is damaged or incomplete (\(reason.prefix(120)))")
        case .busy:
            response = .error(503, "too many photos are being checked; try again shortly")
            response.headers.append(("Retry-After", "2"))
        case .storage:
            // The details (a path, errno) go to the log, not to a guest.
            response = .error(500, "this photo could not be stored")
        }
        return response
    }
}
