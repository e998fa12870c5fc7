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
        /// The request is complete: answering, streaming or parked. No deadline: the idle timeout
        /// and the heartbeats look after these.
        case answering
    }

    private struct Entry {
        let socket: Int32
        var phase: Phase
        var since: UInt64
        var cut = false
    }

    private let limits: ServerLimits
    private let entries = Locked<[Int: Entry]>([:])
    nonisolated(unsafe) private let sweeper: any DispatchSourceTimer

    init(limits: ServerLimits) {
        self.limits = limits
        sweeper = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "stackweb.connection-deadlines"))
    }

    /// Sweeps often enough that a connection is closed within a quarter of its deadline past it
    /// (at most a second late).
    func start() {
        let interval = min(1, min(limits.headerDeadlineSeconds, limits.bodyDeadlineSeconds) / 4)
        let period = DispatchTimeInterval.milliseconds(max(20, Int(interval * 1000)))
        sweeper.schedule(deadline: .now() + period, repeating: period)
        sweeper.setEventHandler { [self] in sweep() }
        sweeper.resume()
    }

    func stop() { sweeper.cancel() }

    /// The number libmicrohttpd's own limit is set to: one above the cap, so it never reaches it.
    var daemonConnectionLimit: UInt32 { limits.connectionLimit + 1 }

    /// Whether one more connection may open (the accept policy; libmicrohttpd's thread).
    func admitsAnother() -> Bool {
        entries.withLock { $0.count < Int(limits.connectionLimit) }
    }

    func opened(_ connection: OpaquePointer) {
        let entry = Entry(socket: CMicroHTTPD_connectionSocket(connection), phase: .head, since: Self.now())
        entries.withLock { $0[Self.key(connection)] = entry }
    }

    func closed(_ connection: OpaquePointer) {
        _ = entries.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    /// The connection moves to `phase`; its clock restarts.
    func enter(_ phase: Phase, _ connection: OpaquePointer) {
        let now = Self.now()
        entries.withLock { entries in
            let key = Self.key(connection)
            guard entries[key] != nil else { return }
            entries[key]?.phase = phase
            entries[key]?.since = now
        }
    }

    var openConnections: Int { entries.withLock { $0.count } }

    /// Shuts down every connection past its phase's deadline.
    private func sweep() {
        let now = Self.now()
        let headLimit = UInt64(limits.headerDeadlineSeconds * 1e9)
        let bodyLimit = UInt64(limits.bodyDeadlineSeconds * 1e9)
        entries.withLock { entries in
            for (key, entry) in entries where !entry.cut {
                let limit: UInt64
                switch entry.phase {
                case .head: limit = headLimit
                case .body: limit = bodyLimit
                case .answering: continue
                }
                guard now &- entry.since > limit else { continue }
                // Under the lock: the descriptor cannot be closed (and reused) meanwhile.
                shutdown(entry.socket, Int32(SHUT_RDWR))
                entries[key]?.cut = true
            }
        }
    }

    private static func key(_ connection: OpaquePointer) -> Int { Int(bitPattern: connection) }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
