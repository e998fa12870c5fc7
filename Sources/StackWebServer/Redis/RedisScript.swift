/// A Lua script Redis runs atomically, called by its SHA-1 (`EVALSHA`). Redis forgets scripts when
/// it restarts, so a `NOSCRIPT` answer loads it again (`SCRIPT LOAD`) and the call is repeated once.
final class RedisScript: Sendable {
    let source: String
    private let sha = Locked<[UInt8]?>(nil)

    init(_ source: String) { self.source = source }

    /// The `EVALSHA` command for these keys and arguments (for a pipeline), loading the script first
    /// if this process has not yet.
    func call(keys: [[UInt8]], arguments: [[UInt8]], on connection: RedisConnection) throws(RedisError) -> [[UInt8]] {
        var sha = self.sha.withLock { $0 }
        if sha == nil { sha = try load(on: connection) }
        return [Array("EVALSHA".utf8), sha!, Array(String(keys.count).utf8)] + keys + arguments
    }

    /// Runs the script once; an error reply is thrown as `.refused`.
    func run(keys: [[UInt8]], arguments: [[UInt8]], on connection: RedisConnection) throws(RedisError) -> RedisReply {
        let reply = try connection.pipeline([call(keys: keys, arguments: arguments, on: connection)])[0]
        guard Self.isUnknown(reply) else {
            if case .error(let message) = reply { throw .refused(message) }
            return reply
        }
        _ = try load(on: connection)
        return try connection.command(call(keys: keys, arguments: arguments, on: connection))
    }

    /// Whether Redis answered that it does not know the script (it restarted since it was loaded).
    static func isUnknown(_ reply: RedisReply) -> Bool {
        if case .error(let message) = reply { return message.hasPrefix("NOSCRIPT") }
        return false
    }

    /// Loads the script into Redis and remembers its SHA-1.
    @discardableResult
    func load(on connection: RedisConnection) throws(RedisError) -> [UInt8] {
        guard let sha = try connection.command("SCRIPT", "LOAD", source).bytes else {
            throw .unexpected("SCRIPT LOAD gave no SHA-1")
        }
        self.sha.withLock { $0 = sha }
        return sha
    }
}
