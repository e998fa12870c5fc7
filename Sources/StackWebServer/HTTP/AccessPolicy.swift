/// Who may change a room: anyone, or only requests carrying the control token — and who may add
/// photos: the control token's holder, or a guest with the add token, which does nothing else.
///
/// Viewing (every GET) stays open either way. The tokens travel only in the `Authorization`
/// header of POSTs: they are never written into the page or an event stream.
struct AccessPolicy: Sendable {
    /// The SHA-256 of the control token; `nil` when anyone may control (bound to loopback, or
    /// `--no-token`). A digest, not the token: an instance of a group may know only the digest of
    /// the token another instance drew (`GroupToken`).
    let tokenDigest: [UInt8]?
    /// The SHA-256 of the add token (`--add-token`); `nil`: only who may control adds.
    var addTokenDigest: [UInt8]?
    /// How many commands each holder may send; `nil`: no limit (the fuzzers' routers).
    var commands: CommandRateLimiter?

    init(token: String?, addToken: String? = nil, commands: CommandRateLimiter? = nil) {
        self.init(
            tokenDigest: token.map { Digest.sha256(Array($0.utf8)) },
            addTokenDigest: addToken.map { Digest.sha256(Array($0.utf8)) }, commands: commands)
    }

    init(tokenDigest: [UInt8]?, addTokenDigest: [UInt8]? = nil, commands: CommandRateLimiter? = nil) {
        self.tokenDigest = tokenDigest
        self.addTokenDigest = addTokenDigest
        self.commands = commands
    }

    static let open = AccessPolicy(token: nil)

    /// 401 without a bearer token, 403 with a wrong one, 429 past the command rate; `nil` when
    /// the request may go on.
    func refusal(for request: Request) -> Response? {
        guard request.method == "POST" || Route(path: request.path).readsNeedControl else { return nil }
        if let refusal = tokenRefusal(for: request) { return refusal }
        guard let commands, case .commands = Route(path: request.path) else { return nil }
        return commands.refusal(for: request)
    }

    private func tokenRefusal(for request: Request) -> Response? {
        guard let tokenDigest else { return nil }
        let adds = if case .uploads = Route(path: request.path) { true } else { false }
        guard let authorization = request.header(.authorization) else {
            let what = adds ? "adding photos" : "controlling this server"
            var response = Response.error(401, "\(what) needs Authorization: Bearer <token>")
            response.headers.append(("WWW-Authenticate", "Bearer"))
            return response
        }
        let credentials = Digest.sha256(Self.bearerCredentials(authorization).map { Array($0) } ?? [])
        if Self.constantTimeEqual(credentials, tokenDigest) { return nil }
        guard let addTokenDigest, Self.constantTimeEqual(credentials, addTokenDigest) else {
            return .error(403, adds ? "wrong token: adding photos needs the add token" : "wrong control token")
        }
        return adds ? nil : .error(403, "the add token only adds photos; this needs the control token")
    }

    /// Whether `request` carries the control token itself: not merely comes where anyone controls
    /// (loopback, `--no-token`), which gives no token to carry.
    func carriesControlToken(_ request: Request) -> Bool {
        guard let tokenDigest, let authorization = request.header(.authorization) else { return false }
        let credentials = Digest.sha256(Self.bearerCredentials(authorization).map { Array($0) } ?? [])
        return Self.constantTimeEqual(credentials, tokenDigest)
    }

    /// What follows `Bearer` and its spaces; the scheme's case does not matter (RFC 9110 §11.1).
    static func bearerCredentials(_ authorization: String) -> Substring.UTF8View? {
        let utf8 = authorization.utf8
        let scheme = "bearer".utf8
        guard utf8.count > scheme.count,
            utf8.prefix(scheme.count).map({ (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }).elementsEqual(scheme)
        else { return nil }
        let rest = authorization[authorization.index(authorization.startIndex, offsetBy: scheme.count)...].utf8
        guard rest.first == UInt8(ascii: " ") else { return nil }
        return Substring(rest.drop { $0 == UInt8(ascii: " ") }).utf8
    }

    /// Compares without an early exit, so response times do not reveal how much of a guess matched.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }

    /// 32 hex digits from the system's cryptographic generator.
    static func generateToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let value = String(generator.next() as UInt32, radix: 16)
            return String(repeating: "0", count: 8 - value.count) + value
        }.joined()
    }
}
