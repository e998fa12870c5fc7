import CMicroHTTPD

/// What libmicrohttpd says about itself — a malformed request it refused, a TLS handshake that
/// failed, a connection it closed because an answer ended in error — as lines of the operator log
/// (`--log-format`), rather than raw lines on standard error that a JSON collector cannot read.
///
/// Rate-limited: a hostile client makes one message per bad connection, and a viewer leaving
/// mid-stream one more; the first is written, then at most one a second, saying how many were left
/// out. The log redacts the control token; libmicrohttpd's messages carry no request bytes, and
/// each is cut at 511 bytes by the shim.
final class LibraryMessages: Sendable {
    /// The event name of these lines.
    static let event = "http.library"
    /// At most one line per this many seconds.
    static let interval = 1.0

    private let throttled: ThrottledLog

    init(log: OperatorLog) {
        throttled = ThrottledLog(log: log, event: Self.event, interval: Self.interval)
    }

    func record(_ message: String) {
        throttled.record("libmicrohttpd: " + message)
    }
}

/// The shim's logger: recovers the server's context (which owns the `LibraryMessages`).
let libraryMessageLogger: CMicroHTTPD_MessageLogger = { context, message in
    guard let context, let message else { return }
    Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue().libraryMessages.record(String(cString: message))
}
