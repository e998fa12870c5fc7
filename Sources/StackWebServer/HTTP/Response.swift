/// An HTTP answer the router decides and the server sends.
struct Response: Sendable {
    enum Body: Sendable {
        case bytes([UInt8])
        /// A file already opened (off libmicrohttpd's thread), streamed from its descriptor, never
        /// read whole into memory.
        case file(OpenedFile)
        /// `length` bytes of a file from `offset` (a `Range` request's 206), sent from its
        /// descriptor the same way.
        case filePart(OpenedFile, offset: Int64, length: Int64)
        /// A Server-Sent Events stream: the closure is handed the sink once the stream is open.
        case eventStream(@Sendable (any EventSink) -> Void)
        /// An answer that takes time (an image conversion): the server parks the connection, runs
        /// the closure, and sends what it hands back, without holding up any other request.
        case deferred(@Sendable (_ complete: @escaping @Sendable (Response) -> Void) -> Void)
        /// An answer given again and again unchanged, status and headers included.
        case shared(SharedAnswer)
    }

    var status: Int
    var headers: [(String, String)]
    var body: Body

    init(status: Int, headers: [(String, String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init(shared answer: SharedAnswer) {
        self.init(status: answer.status, headers: answer.headers, body: .shared(answer))
    }

    /// A JSON answer; `json` must already be encoded.
    static func json(_ json: [UInt8], status: Int = 200) -> Response {
        Response(
            status: status,
            headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
            body: .bytes(json)
        )
    }

    /// The contract's error shape: `{"error": "…"}` with the given status.
    static func error(_ status: Int, _ message: String) -> Response {
        var writer = JSONWriter()
        writer.object { $0.field("error", message) }
        return .json(writer.bytes, status: status)
    }
}

/// An answer that never changes (a page file, its 304): the server builds it into a
/// libmicrohttpd response the first time and queues that same response for every later request,
/// copying nothing. Status and headers live here, not in the `Response`, so they cannot differ
/// between two uses of one answer.
final class SharedAnswer: Sendable {
    let status: Int
    let headers: [(String, String)]
    let bytes: [UInt8]

    init(status: Int, headers: [(String, String)], bytes: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.bytes = bytes
    }
}

/// Where a stream's bytes go: one viewer's connection. Implemented by the server.
protocol EventSink: AnyObject, Sendable {
    /// Queues bytes for the viewer. Returns false when the stream is closed (the viewer is gone
    /// or was too slow) and will take nothing more.
    @discardableResult func send(_ bytes: [UInt8]) -> Bool
    /// Ends the stream after what is queued.
    func close()
    /// Called once, on any thread, when the connection is gone.
    func onClose(_ handler: @escaping @Sendable () -> Void)
}
