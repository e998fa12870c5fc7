/// Limits the daemon enforces, all explicit (libmicrohttpd's default timeout is none). The table
/// at the end of docs/architecture.md lists each with what a client sees past it.
struct ServerLimits: Sendable, Equatable {
    /// Open connections in all; each viewer holds one. The process raises its descriptor limit.
    /// Past it a new connection is closed at once (not left waiting in the kernel's backlog).
    var connectionLimit: UInt32 = 16_384
    /// Open connections from one address; 0 is none. Past it a new connection is closed at once.
    var perIPConnectionLimit: UInt32 = 0
    /// A connection that sends or takes nothing for this long is closed (a stalled upload, a
    /// half-open peer). Parked event streams are exempt: heartbeats reap those.
    var connectionTimeoutSeconds: UInt32 = 60
    /// A request's line and headers must all arrive within this long of the connection opening (or
    /// of the previous answer on a kept-alive connection), however the bytes trickle in: the idle
    /// timeout alone lets a client that sends a byte every few seconds hold a connection forever.
    var headerDeadlineSeconds: Double = 10
    /// A request body must all arrive within this long of its headers (64 KiB needs ~2 KiB/s).
    var bodyDeadlineSeconds: Double = 30
    /// An upload (a streamed body) is closed when no byte of it arrives for this long: a phone on slow
    /// Wi-Fi may take minutes over 50 MB, but one that stopped sending holds a slot no longer.
    var uploadStallSeconds: Double = 20
    /// How fast an upload must arrive on average, and how soon it must be whole: a trickle is cut
    /// with 408 (within a second of falling behind) and its slot freed.
    var uploadPace = UploadPace()
    /// An upload refused while its body arrives is answered at once; the rest is read and dropped
    /// for this long (time for the guest to read the answer), then the connection is closed.
    var drainSeconds: Double = 2
    /// Uploads at once from one address, and in all; past either, 429 with `Retry-After`.
    var uploadsPerAddress = 4
    var uploadLimit = 16
    /// Photos one address may upload: a burst of this many, then this many a minute; 429 past it.
    var uploadsPerMinute: Double = 30
    /// libmicrohttpd's buffer for one connection's request head and reply head.
    var connectionMemoryLimit: Int = 16 * 1024
    /// The largest TLS handshake message one connection buffers (GnuTLS's default lets a
    /// ClientHello declare 16 MiB and be buffered whole); a larger one ends the handshake.
    var tlsHandshakeMaxBytes: Int = 64 * 1024
    /// Over TLS, connections still in their handshake (not past their first request head): at
    /// most this many from one address and in all, and new ones from one address at most this
    /// many a second (after a burst of twice the per-address count). A handshake costs the one
    /// polling thread milliseconds of CPU: this keeps one guest from slowing everyone. A rate of 0
    /// is no limit (plain HTTP).
    var pendingHandshakesPerAddress = 16
    var pendingHandshakeLimit = 1024
    var handshakesPerSecondPerAddress: Double = 0
    /// Largest request body accepted; larger ones get 413.
    var maxBodyBytes: Int = 64 * 1024
    /// Command POSTs one address may send at once, and per second over time (`CommandRateLimiter`);
    /// a per-second rate of 0 is no limit.
    var commandBurst: Double = 30
    var commandsPerSecond: Double = 0

    /// On loopback every client is this machine, so one address may hold many viewers (a bench, a
    /// wall of tabs) and send commands as fast as it likes; on a LAN one device gets at most 256
    /// connections, so it cannot take them all, and 10 commands a second after a burst of 30.
    static func standard(loopbackOnly: Bool) -> ServerLimits {
        var limits = ServerLimits()
        limits.perIPConnectionLimit = loopbackOnly ? 0 : 256
        limits.commandsPerSecond = loopbackOnly ? 0 : 10
        return limits
    }
}
