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
    /// The peer's IP address as the socket reports it ("" when unknown, as in tests without one).
    var client: String
    /// The protocol version of the request line (`HTTP/1.1`); "" when unknown, as in tests.
    var version = ""

    init(
        method: String, path: String, rawTarget: String? = nil, query: [String: String] = [:],
        headers: [String: String] = [:], body: [UInt8] = [], client: String = ""
    ) {
        self.method = method
        self.path = path
        self.rawTarget = rawTarget ?? path
        self.query = query
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
        self.client = client
    }

    /// The query arguments some handler reads; the server looks up only these (collecting every
    /// header and argument would cost a tenth of a static request's time).
    static let knownQueryArguments = ["page", "w", "h", "shape"]

    /// A request whose header names are lower-cased already (the server's lookups).
    init(
        method: String, path: String, rawTarget: String, query: [String: String], lowercasedHeaders: [String: String],
        client: String
    ) {
        self.method = method
        self.path = path
        self.rawTarget = rawTarget
        self.query = query
        self.headers = lowercasedHeaders
        self.body = []
        self.client = client
    }

    func header(_ name: HeaderName) -> String? { headers[name.rawValue] }
}

/// The request headers some handler reads, by their lower-case names: the server looks up only
/// these, so a handler that needs another one adds it here.
enum HeaderName: String, CaseIterable, Sendable {
    case host, origin, authorization, accept
    case contentType = "content-type"
    case contentLength = "content-length"
    case transferEncoding = "transfer-encoding"
    case lastEventID = "last-event-id"
    case ifNoneMatch = "if-none-match"
    case range
    case ifRange = "if-range"
    case idempotencyKey = "idempotency-key"
    case photoName = "x-photo-name"
    case photoSender = "x-photo-sender"
    case forwardedProto = "x-forwarded-proto"

    static let names = allCases.map(\.rawValue)
}
