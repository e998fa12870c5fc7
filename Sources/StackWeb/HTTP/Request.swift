/// An HTTP request as the router sees it: no socket, no libmicrohttpd types.
struct Request: Sendable {
    var method: String
    /// The path as libmicrohttpd hands it over: already %-decoded once.
    var path: String
    /// The request-target exactly as the client sent it, query included.
    var rawTarget: String
    /// Query arguments, decoded.
    var query: [String: String]
    /// Header values by lower-cased name.
    var headers: [String: String]
    var body: [UInt8]

    init(
        method: String, path: String, rawTarget: String? = nil, query: [String: String] = [:],
        headers: [String: String] = [:], body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.rawTarget = rawTarget ?? path
        self.query = query
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// What the server reads from libmicrohttpd, by lower-cased name: only the headers and query
    /// arguments some handler asks for are looked up (collecting all of them was a tenth of a
    /// static request). A handler that reads another one must add it here; `header(_:)` checks.
    static let knownHeaders = [
        "host", "origin", "content-type", "content-length", "transfer-encoding", "authorization", "last-event-id",
        "accept", "if-none-match",
    ]
    static let knownQueryArguments = ["page", "w", "h"]

    /// A request whose header names are lower-cased already (the server's lookups).
    init(method: String, path: String, rawTarget: String, query: [String: String], lowercasedHeaders: [String: String])
    {
        self.method = method
        self.path = path
        self.rawTarget = rawTarget
        self.query = query
        self.headers = lowercasedHeaders
        self.body = []
    }

    func header(_ name: String) -> String? {
        let key = name.lowercased()
        assert(Self.knownHeaders.contains(key), "add \(key) to Request.knownHeaders")
        return headers[key]
    }
}
