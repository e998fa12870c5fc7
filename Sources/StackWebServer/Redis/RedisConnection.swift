import CHiredis
import Dispatch
import Glibc

/// One connection to Redis through hiredis (its blocking API). Every call blocks its caller until
/// Redis answers or `timeout` passes, so it is made only on threads of the group's own (a store's
/// queue, the lease keeper, a stream reader), never on libmicrohttpd's thread or under a room's lock.
///
/// A connection that breaks is dropped; the next call connects again, so a Redis restart costs the
/// calls made while it was down and nothing after. Calls from several threads take turns.
final class RedisConnection: Sendable {
    let url: RedisURL
    /// Seconds a connect, a write or a reply may take.
    let timeout: Double
    private let context = Locked<UnsafeMutablePointer<redisContext>?>(nil)

    init(url: RedisURL, timeout: Double = 2) {
        self.url = url
        self.timeout = timeout
    }

    deinit {
        context.withLock { context in
            if let context { redisFree(context) }
        }
    }

    /// Runs one command; an error reply is thrown as `.refused`.
    @discardableResult
    func command(_ words: String...) throws(RedisError) -> RedisReply {
        try command(words.map { Array($0.utf8) })
    }

    /// Runs one command of binary-safe arguments; an error reply is thrown as `.refused`.
    @discardableResult
    func command(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        let reply = try pipeline([arguments])[0]
        if case .error(let message) = reply { throw .refused(message) }
        return reply
    }

    /// Sends every command at once and reads their replies, in order (one round trip). Error replies
    /// come back in place, as `.error`.
    func pipeline(_ commands: [[[UInt8]]]) throws(RedisError) -> [RedisReply] {
        try context.withLock { (context) throws(RedisError) -> [RedisReply] in
            let connected: UnsafeMutablePointer<redisContext>
            if let context {
                connected = context
            } else {
                do throws(RedisError) {
                    connected = try connect()
                } catch {
                    Metrics.standard.redisErrors.add("unavailable")
                    if case .unavailable(let reason) = error { throw .notSent(reason) }
                    throw error
                }
                context = connected
            }
            let started = DispatchTime.now().uptimeNanoseconds
            do throws(RedisError) {
                let replies = try Self.exchange(commands, on: connected)
                Self.measure(commands, replies, since: started)
                return replies
            } catch {
                Metrics.standard.redisErrors.add("unavailable")
                redisFree(connected)
                context = nil
                throw error
            }
        }
    }

    /// Counts error replies, and the round trip unless a command waited for stream entries on purpose.
    private static func measure(_ commands: [[[UInt8]]], _ replies: [RedisReply], since started: UInt64) {
        for case .error in replies { Metrics.standard.redisErrors.add("refused") }
        let blocking = commands.contains { $0.contains(Array("BLOCK".utf8)) }
        guard !blocking else { return }
        Metrics.standard.redisDuration.observe(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
    }

    private static func exchange(
        _ commands: [[[UInt8]]], on context: UnsafeMutablePointer<redisContext>
    ) throws(RedisError) -> [RedisReply] {
        for arguments in commands {
            let appended = withArgv(arguments) { argc, argv, lengths in
                redisAppendCommandArgv(context, argc, argv, lengths)
            }
            // Appending only fills hiredis's output buffer: nothing has reached Redis yet.
            guard appended == REDIS_OK else { throw .notSent(errorText(context)) }
        }
        var replies: [RedisReply] = []
        replies.reserveCapacity(commands.count)
        for _ in commands {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else { throw .unavailable(errorText(context)) }
            let reply = raw.assumingMemoryBound(to: redisReply.self)
            replies.append(copy(reply))
            freeReplyObject(raw)
        }
        return replies
    }

    private func connect() throws(RedisError) -> UnsafeMutablePointer<redisContext> {
        let limit = Self.timeval(seconds: timeout)
        guard let context = redisConnectWithTimeout(url.host, url.port, limit) else {
            throw .unavailable("cannot allocate a connection")
        }
        guard context.pointee.err == 0 else {
            let reason = Self.errorText(context)
            redisFree(context)
            throw .unavailable(reason)
        }
        redisSetTimeout(context, limit)
        redisEnableKeepAlive(context)
        var hello: [[[UInt8]]] = []
        if let password = url.password {
            hello.append((url.user.map { ["AUTH", $0] } ?? ["AUTH"]).map { Array($0.utf8) } + [Array(password.utf8)])
        }
        if url.database != 0 { hello.append([Array("SELECT".utf8), Array(String(url.database).utf8)]) }
        do throws(RedisError) {
            for reply in try Self.exchange(hello, on: context) {
                if case .error(let message) = reply { throw RedisError.refused(message) }
            }
        } catch {
            redisFree(context)
            throw error
        }
        return context
    }

    /// Calls `body` with C's view of `arguments`: pointers into one buffer, and their lengths.
    private static func withArgv<Result>(
        _ arguments: [[UInt8]],
        _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> Result
    ) -> Result {
        var flat: [UInt8] = []
        flat.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var offsets: [Int] = []
        for argument in arguments {
            offsets.append(flat.count)
            flat += argument
        }
        flat.append(0)  // so that the buffer has an address even when every argument is empty
        let lengths = arguments.map(\.count)
        return flat.withUnsafeBytes { buffer in
            var pointers: [UnsafePointer<CChar>?] = offsets.map {
                buffer.baseAddress!.advanced(by: $0).assumingMemoryBound(to: CChar.self)
            }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { body(Int32(arguments.count), argv.baseAddress!, $0.baseAddress!) }
            }
        }
    }

    private static func copy(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let value = reply.pointee
        let bytes = { Array(UnsafeRawBufferPointer(start: value.str, count: value.len)) }
        switch value.type {
        case REDIS_REPLY_STRING: return .string(bytes())
        case REDIS_REPLY_STATUS: return .status(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_INTEGER: return .integer(Int(value.integer))
        case REDIS_REPLY_ARRAY:
            return .array((0..<value.elements).map { copy(value.element[$0]!) })
        default: return .null
        }
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        let text = withUnsafeBytes(of: context.pointee.errstr) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "connection lost" : text
    }

    /// `struct timeval` made from its two fields by layout (seconds, then microseconds, each a C
    /// `long`): which module Swift credits with the struct's members depends on which C headers the
    /// compiler read first (libvips' bring it in too), so its members are not named here.
    private static func timeval(seconds: Double) -> Glibc.timeval {
        precondition(MemoryLayout<Glibc.timeval>.size == MemoryLayout<(Int, Int)>.size)
        let fields = (Int(seconds), Int((seconds - seconds.rounded(.down)) * 1_000_000))
        return unsafeBitCast(fields, to: Glibc.timeval.self)
    }
}
