import CMicroHTTPD
import CMicroHTTPDSystem
import Dispatch
import Glibc

/// Counts the open connections and holds each to its deadlines, two things libmicrohttpd does
/// not do the way a server facing a hostile LAN needs.
///
/// - **The cap answered.** At its own connection limit libmicrohttpd stops accepting: new clients
///   wait in the kernel's backlog, silently, until one leaves. So libmicrohttpd's limit is set one
///   above the cap, and the accept policy closes every connection past the cap at once.
/// - **Deadlines.** libmicrohttpd's timeout is idle time: a client that sends one header byte every
///   few seconds holds its connection forever (slowloris). A sweep closes every connection whose
///   request head, or body, is not complete in time. It shuts the socket down (libmicrohttpd then
///   sees the end of the stream and closes the connection itself); the descriptor stays valid
///   while this runs because libmicrohttpd announces a closed connection, which removes it here
///   under the same lock, before it closes the descriptor.
final class ConnectionGuard: Sendable {
    enum Phase: Sendable {
        /// Waiting for the request line and headers (since the connection opened or the last answer).
        case head
        /// Headers in, body still arriving.
        case body
        /// A streamed body (an upload) arriving: its clock restarts with every piece, so it is held
        /// to progress rather than to a whole-body deadline a slow phone could not meet.
        case upload
        /// A streamed body refused while it arrived, its answer written (`EarlyAnswer`): the rest
        /// is read and dropped for a moment, so that the close does not reset the answer away.
        case draining
        /// The request is complete: answering, streaming or parked. No deadline: the idle timeout
        /// and the heartbeats look after these.
        case answering
    }

    private struct Entry: @unchecked Sendable {
        let socket: Int32
        let address: String
        var phase: Phase
        var since: UInt64
        var cut = false
        /// Whether a request head has come in: over TLS, the handshake is done.
        var requested = false
        /// For an upload: when its head came, and the bytes of its body so far (`UploadPace`).
        var uploadStarted: UInt64?
        var uploadBytes: Int64 = 0
        /// The TLS handshake budget to release when it closes (`CMicroHTTPD_limitHandshake`).
        var budget: UnsafeMutableRawPointer?
    }

    /// Connections not past their first request head (over TLS: their handshake), in all and by
    /// address, and each address's handshake bucket.
    private struct Handshakes {
        var pending = 0
        var pendingByAddress: [String: Int] = [:]
        var buckets: [String: (tokens: Double, at: UInt64)] = [:]
    }

    let limits: ServerLimits
    private let entries = Locked<[Int: Entry]>([:])
    private let handshakes = Locked(Handshakes())
    nonisolated(unsafe) private let sweeper: any DispatchSourceTimer

    init(limits: ServerLimits) {
        self.limits = limits
        sweeper = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "stackweb.connection-deadlines"))
    }

    /// Sweeps often enough that a connection is closed within a quarter of its deadline past it
    /// (at most a second late).
    func start() {
        let interval =
            min(1, min(limits.headerDeadlineSeconds, limits.bodyDeadlineSeconds, limits.uploadStallSeconds) / 4)
        let period = DispatchTimeInterval.milliseconds(max(20, Int(interval * 1000)))
        sweeper.schedule(deadline: .now() + period, repeating: period)
        sweeper.setEventHandler { [self] in sweep() }
        sweeper.resume()
    }

    func stop() { sweeper.cancel() }

    /// The number libmicrohttpd's own limit is set to: one above the cap, so it never reaches it.
    var daemonConnectionLimit: UInt32 { limits.connectionLimit + 1 }

    /// Whether one more connection may open from `address` (the accept policy; libmicrohttpd's
    /// thread): under the cap, and — where the limits set them (over TLS) — under the connections
    /// still in their handshake, in all and from that address, and the address's handshake rate.
    func admitsAnother(from address: String) -> Bool {
        guard entries.withLock({ $0.count < Int(limits.connectionLimit) }) else { return false }
        guard limits.handshakesPerSecondPerAddress > 0 else { return true }
        let now = Self.now()
        return handshakes.withLock { handshakes in
            if handshakes.pending >= limits.pendingHandshakeLimit { return false }
            if handshakes.pendingByAddress[address, default: 0] >= limits.pendingHandshakesPerAddress { return false }
            let rate = limits.handshakesPerSecondPerAddress
            let burst = Double(limits.pendingHandshakesPerAddress) * 2
            let tokens =
                handshakes.buckets[address].map { min(burst, $0.tokens + Double(now &- $0.at) / 1e9 * rate) } ?? burst
            guard tokens >= 1 else { return false }
            handshakes.buckets[address] = (tokens - 1, now)
            if handshakes.buckets.count > 4096 {
                handshakes.buckets = handshakes.buckets.filter { Double(now &- $0.value.at) / 1e9 < burst / rate }
            }
            return true
        }
    }

    func opened(_ connection: OpaquePointer, from address: String, budget: UnsafeMutableRawPointer?) {
        let entry = Entry(
            socket: CMicroHTTPD_connectionSocket(connection), address: address, phase: .head, since: Self.now(),
            budget: budget)
        entries.withLock { $0[Self.key(connection)] = entry }
        handshakes.withLock { handshakes in
            handshakes.pending += 1
            handshakes.pendingByAddress[address, default: 0] += 1
        }
    }

    /// Forgets the connection; returns its handshake budget for the caller to release.
    func closed(_ connection: OpaquePointer) -> UnsafeMutableRawPointer? {
        guard let entry = entries.withLock({ $0.removeValue(forKey: Self.key(connection)) }) else { return nil }
        if !entry.requested { handshakeEnded(from: entry.address) }
        return entry.budget
    }

    private func handshakeEnded(from address: String) {
        handshakes.withLock { handshakes in
            handshakes.pending -= 1
            let left = handshakes.pendingByAddress[address, default: 1] - 1
            handshakes.pendingByAddress[address] = left > 0 ? left : nil
        }
    }

    /// The connection moves to `phase`; its clock restarts.
    func enter(_ phase: Phase, _ connection: OpaquePointer) {
        let now = Self.now()
        let first: String? = entries.withLock { entries in
            let key = Self.key(connection)
            guard let entry = entries[key] else { return nil }
            entries[key]?.phase = phase
            entries[key]?.since = now
            guard phase != .head, !entry.requested else { return nil }
            entries[key]?.requested = true
            return entry.address
        }
        if let first { handshakeEnded(from: first) }
    }

    /// A piece of `bytes` of the connection's upload arrived: its stall clock restarts, and the
    /// bytes count toward its pace.
    func uploadProgressed(_ connection: OpaquePointer, bytes: Int) {
        enter(.upload, connection)
        entries.withLock { entries in
            let key = Self.key(connection)
            guard entries[key] != nil else { return }
            if entries[key]?.uploadStarted == nil { entries[key]?.uploadStarted = Self.now() }
            entries[key]?.uploadBytes += Int64(bytes)
        }
    }

    var openConnections: Int { entries.withLock { $0.count } }

    /// Shuts down every connection past its phase's deadline.
    private func sweep() {
        entries.withLock { entries in
            // Read under the lock: every entry's clock was read before it was put in, so none is
            // later than this (a clock read before the lock could be, and would look overdue).
            let now = Self.now()
            for (key, entry) in entries
            where !entry.cut
                && (Self.isOverdue(entry.phase, since: entry.since, now: now, limits: limits)
                    || Self.isBehind(entry, now: now, limits: limits))
            {
                // Under the lock: the descriptor cannot be closed (and reused) meanwhile.
                shutdown(entry.socket, Int32(SHUT_RDWR))
                entries[key]?.cut = true
            }
        }
    }

    /// Whether a connection in `phase` since `since` is past its deadline at `now`. A `since`
    /// later than `now` is not (an unsigned difference would wrap to ages and cut a new connection).
    static func isOverdue(_ phase: Phase, since: UInt64, now: UInt64, limits: ServerLimits) -> Bool {
        let seconds: Double
        switch phase {
        case .head: seconds = limits.headerDeadlineSeconds
        case .body: seconds = limits.bodyDeadlineSeconds
        case .upload: seconds = limits.uploadStallSeconds
        case .draining: seconds = limits.drainSeconds
        case .answering: return false
        }
        return now > since && now - since > UInt64(seconds * 1e9)
    }

    /// Whether an upload has fallen behind its pace by a second: one that sends a byte now and
    /// then is answered 408 by its sink when the byte comes (`UploadPace`); one that sends none is
    /// closed here, a second later.
    private static func isBehind(_ entry: Entry, now: UInt64, limits: ServerLimits) -> Bool {
        guard entry.phase == .upload, let started = entry.uploadStarted, now > started else { return false }
        return limits.uploadPace.isBehind(received: entry.uploadBytes, elapsed: Double(now - started) / 1e9 - 1)
    }

    private static func key(_ connection: OpaquePointer) -> Int { Int(bitPattern: connection) }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
