/// One reply from Redis, copied out of hiredis's reply object.
enum RedisReply: Equatable, Sendable {
    case string([UInt8])
    case status(String)
    case integer(Int)
    case array([RedisReply])
    case null
    /// An error reply (`-ERR …`, `-NOSCRIPT …`): the command ran and Redis refused it.
    case error(String)

    var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var bytes: [UInt8]? {
        switch self {
        case .string(let bytes): bytes
        case .status(let text): Array(text.utf8)
        default: nil
        }
    }

    var text: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    var array: [RedisReply]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}

/// Why a Redis call did not get an answer, or got a refusal.
enum RedisError: Error, Equatable, CustomStringConvertible {
    /// The connection broke or timed out with the commands sent: whether they ran is unknown.
    case unavailable(String)
    /// Redis could not be reached: nothing was sent, so nothing ran.
    case notSent(String)
    /// Redis answered with an error reply.
    case refused(String)
    /// The reply does not have the shape the command promises.
    case unexpected(String)

    /// Whether the commands surely did not run (nothing reached Redis, or it refused them).
    var surelyNotRun: Bool {
        switch self {
        case .notSent, .refused: true
        case .unavailable, .unexpected: false
        }
    }

    var description: String {
        switch self {
        case .unavailable(let reason): "Redis unavailable: \(reason)"
        case .notSent(let reason): "Redis unreachable: \(reason)"
        case .refused(let message): "Redis refused: \(message)"
        case .unexpected(let what): "unexpected Redis reply: \(what)"
        }
    }
}
