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

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}
