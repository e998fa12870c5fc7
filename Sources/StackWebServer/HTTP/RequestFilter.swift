import Glibc

/// Refuses requests that no page of ours would send, before anything else looks at them:
/// an HTTP/1.1 request without `Host`, a `Host` we are not known by (DNS rebinding), a POST from
/// another `Origin`, a raw target that tries to smuggle a path past the once-decoding of
/// libmicrohttpd, and a body framing libmicrohttpd would not read as the client means it.
struct RequestFilter: Sendable {
    /// Names (lower-cased, without port) this server answers to besides IP literals.
    let allowedHosts: Set<String>
    /// `https` when the server speaks TLS: its pages' Origin says so.
    var scheme = "http"

    /// `localhost`, this machine's name and `name.local`, and the names given with `--allowed-host`.
    static func standard(extraHosts: [String], hostname: String?, scheme: String = "http") -> RequestFilter {
        var hosts: Set<String> = ["localhost"]
        if let hostname, !hostname.isEmpty {
            let short = hostname.lowercased()
            hosts.insert(short)
            hosts.insert(short.hasSuffix(".local") ? short : short + ".local")
        }
        for host in extraHosts { hosts.insert(host.lowercased()) }
        return RequestFilter(allowedHosts: hosts, scheme: scheme)
    }

    func refusal(for request: Request) -> Response? {
        // RFC 9112 §3.2: an HTTP/1.1 request without Host is malformed (and would dodge the check below).
        if request.version == "HTTP/1.1", request.header(.host) == nil {
            return .error(400, "an HTTP/1.1 request must carry a Host header")
        }
        if let host = request.header(.host), !isAllowed(hostHeader: host) {
            return .error(403, "this server is not known by the name in the Host header")
        }
        if let problem = Self.pathProblem(request.rawTarget) {
            return .error(400, "malformed request path: \(problem)")
        }
        if request.method == "POST", let origin = request.header(.origin),
            !Self.origin(origin, matchesHost: request.header(.host), scheme: originScheme(of: request))
        {
            return .error(403, "cross-origin requests may not control this server")
        }
        // Both framings at once is how requests are smuggled past proxies: refuse, do not guess.
        if request.header(.contentLength) != nil, request.header(.transferEncoding) != nil {
            return .error(400, "a request may not carry both Content-Length and Transfer-Encoding")
        }
        return request.header(.transferEncoding).flatMap(Self.transferCodingRefusal)
    }

    /// The answer to a `Transfer-Encoding` value libmicrohttpd would not decode, or `nil` for the
    /// one it does: `chunked` exactly, in any case (it has dropped the spaces before the value).
    ///
    /// Anything else gets an answer now: without one libmicrohttpd reads the body until the
    /// connection closes, and the client waits for nothing. The value is split as RFC 9110 §5.6.1
    /// says (commas, optional spaces and tabs around each item) only to tell a malformed list (400)
    /// from a coding we cannot undo (501, RFC 9112 §6.1) — including `chunked` with a trailing space
    /// or an empty item, which the RFC reads as chunked but libmicrohttpd does not.
    static func transferCodingRefusal(_ value: String) -> Response? {
        let lowered = value.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        if lowered.elementsEqual("chunked".utf8) { return nil }
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let items = lowered.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            $0.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        }.filter { !$0.isEmpty }
        // (Any control byte but a tab was refused with the head already.)
        if items.isEmpty { return .error(400, "an empty Transfer-Encoding") }
        if items.filter({ $0.elementsEqual("chunked".utf8) }).count > 1 {
            return .error(400, "Transfer-Encoding names chunked more than once")
        }
        let shown = String(decoding: value.utf8.prefix(40), as: UTF8.self).debugDescription
        return .error(501, "Transfer-Encoding \(shown) is not supported; send exactly chunked, or Content-Length")
    }

    func isAllowed(hostHeader: String) -> Bool {
        guard var name = Self.hostName(hostHeader) else { return false }
        // `localhost.` is `localhost` written fully qualified (RFC 1034 §3.1): one root dot.
        if name.utf8.count > 1, name.utf8.last == UInt8(ascii: "."), !name.hasSuffix("..") { name.removeLast() }
        return Self.isIPLiteral(name) || allowedHosts.contains(name)
    }

    /// The host part of a `Host` header, lower-cased, without port or IPv6 brackets; `nil` if malformed.
    /// Bytes, not Characters: this runs for every request.
    static func hostName(_ header: String) -> String? {
        let utf8 = header.utf8
        let name: Substring.UTF8View
        var port: Substring.UTF8View
        if utf8.first == UInt8(ascii: "[") {
            guard let close = utf8.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            name = header[header.index(after: header.startIndex)..<close].utf8
            port = header[close...].utf8.dropFirst()
            if port.isEmpty { return lowercased(name) }
            guard port.first == UInt8(ascii: ":") else { return nil }
            port = port.dropFirst()
        } else {
            let colon = utf8.firstIndex(of: UInt8(ascii: ":")) ?? utf8.endIndex
            name = header[..<colon].utf8
            guard !name.isEmpty else { return nil }
            if colon == utf8.endIndex { return lowercased(name) }
            port = header[colon...].utf8.dropFirst()
            guard !port.isEmpty else { return nil }
        }
        guard port.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return lowercased(name)
    }

    private static func lowercased(_ name: Substring.UTF8View) -> String {
        // ASCII, the common case, without Unicode case mapping; anything else the full way.
        guard name.allSatisfy({ $0 < 0x80 }) else { return String(Substring(name)).lowercased() }
        guard name.contains(where: { (0x41...0x5A).contains($0) }) else { return String(Substring(name)) }
        return String(decoding: name.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    static func isIPLiteral(_ name: String) -> Bool {
        withUnsafeTemporaryAllocation(byteCount: 16, alignment: 4) { buffer in
            inet_pton(AF_INET, name, buffer.baseAddress) == 1 || inet_pton(AF_INET6, name, buffer.baseAddress) == 1
        }
    }

    /// The scheme a page's Origin names: a proxy that terminates TLS in front of this server says
    /// `X-Forwarded-Proto: https`. Trusting it weakens nothing: a page of another site cannot add
    /// that header to a request without a CORS preflight, which this server never grants.
    private func originScheme(of request: Request) -> String {
        switch request.header(.forwardedProto) {
        case "https": "https"
        case "http": "http"
        default: scheme
        }
    }

    /// A page's own POSTs carry `Origin: <scheme>://<the Host it loaded from>`, the scheme being
    /// `https` when the server speaks TLS (compared without regard to ASCII case, over bytes: this
    /// runs for every POST).
    static func origin(_ origin: String, matchesHost host: String?, scheme: String = "http") -> Bool {
        guard let host else { return false }
        let folded = { (byte: UInt8) in (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        let prefix = (scheme + "://").utf8
        guard origin.utf8.count == prefix.count + host.utf8.count else { return false }
        return origin.utf8.lazy.map(folded).elementsEqual(prefix.lazy.map(folded) + host.utf8.lazy.map(folded))
    }

    /// Why a raw request-target is refused, or `nil`. MHD decodes `%XX` once: an encoded `/`, `\`,
    /// NUL or `%` would otherwise turn into a different path after that, and `..`, `//` and `\` have
    /// no business in any of our paths.
    static func pathProblem(_ rawTarget: String) -> String? {
        // Bytes, not Characters: the String searches cost tens of microseconds per request.
        let path = Array(rawTarget.utf8.prefix { $0 != UInt8(ascii: "?") })
        guard path.first == UInt8(ascii: "/") else { return "it must start with /" }
        let hex: [(String, UInt8, UInt8)] = [
            ("%00", 0x30, 0x30), ("%2f", 0x32, 0x66), ("%5c", 0x35, 0x63), ("%25", 0x32, 0x35), ("%2e", 0x32, 0x65),
        ]
        for (name, first, second) in hex {
            var index = 0
            while index + 2 < path.count {
                if path[index] == UInt8(ascii: "%"), path[index + 1] == first, path[index + 2] | 0x20 == second | 0x20 {
                    return "encoded \(name) is not allowed"
                }
                index += 1
            }
        }
        var index = 0
        while index + 1 < path.count {
            if path[index] == UInt8(ascii: "/"), path[index + 1] == UInt8(ascii: "/") { return "empty segment" }
            index += 1
        }
        if path.contains(UInt8(ascii: "\\")) { return "backslash" }
        for segment in path.split(separator: UInt8(ascii: "/")) {
            if segment.count <= 2, segment.allSatisfy({ $0 == UInt8(ascii: ".") }) { return "dot segment" }
        }
        return nil
    }
}
