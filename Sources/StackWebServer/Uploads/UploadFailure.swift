/// Why a guest's photo was not kept, with the status and words the guest gets.
enum UploadFailure: Error, Equatable, Sendable {
    case tooLarge(Int64)
    case quotaReached
    /// A file of a kind the server does not show, told by its first bytes.
    case notAPhoto
    /// More bytes than its pixels can need, by this many (blob hosting in APP segments or chunks).
    case tooMuchMetadata(Int64)
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
        case .notAPhoto:
            // Said in words: which parser would have read it is none of a guest's business.
            response = .error(415, "this file is not a photo this server shows: send a JPEG, PNG, WebP, GIF or HEIC")
        case .tooMuchMetadata(let bytes):
            response = .error(
                413,
                "this photo carries \(bytes / 1024) KiB besides its picture; at most "
                    + "\(PhotoMetadataSize.maxBytes / 1024) KiB is taken")
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
