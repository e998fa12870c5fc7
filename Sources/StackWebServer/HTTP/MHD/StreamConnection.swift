import CMicroHTTPD
import CMicroHTTPDSystem
import Foundation
import Glibc

/// One Server-Sent Events connection: a queue of bytes the room fills and libmicrohttpd drains.
///
/// The reader never returns 0 without suspending the connection first (that would busy-loop the
/// daemon). The `parked` flag is ours because resuming a connection that is not suspended is
/// undefined in libmicrohttpd.
///
/// A parked stream is written directly: `send` puts the bytes on the socket itself, as a plain
/// epoll server would, and resumes the connection only when the socket is full (libmicrohttpd
/// then drains the rest as the peer reads) or broken (libmicrohttpd then closes it). Resuming per
/// event costs an eventfd write, a wake-up and a reader call per viewer — most of the fan-out's
/// cost. This is safe because the body is close-delimited (no chunk framing for a partial write to
/// break), because libmicrohttpd asks the reader for more only once it has sent everything it was
/// given (so a parked connection has nothing of libmicrohttpd's in flight), and because it never
/// closes a suspended connection except when the daemon stops, after `close()` has ended every
/// stream. Over TLS there is no direct write: the bytes must pass through the TLS session that
/// libmicrohttpd holds, so a parked stream is resumed and libmicrohttpd writes them.
final class StreamConnection: EventSink {
    /// Bytes queued beyond this mark the viewer as too slow: the stream is closed and the page
    /// reconnects (getting a fresh snapshot) rather than stalling the room or growing memory.
    static let maxQueuedBytes = 1 << 20

    private struct State {
        var chunks: [[UInt8]] = []
        var firstChunkOffset = 0
        var queuedBytes = 0 {
            didSet { Metrics.standard.streamQueuedBytes.add(queuedBytes - oldValue) }
        }
        var parked = false
        /// The reader has handed libmicrohttpd bytes and been asked again, so the reply head and
        /// everything before are on the wire: from now on a parked stream may be written directly.
        var headSent = false
        var handedBytes = false
        /// A direct write failed for good (the peer is gone): the reader ends the stream.
        var broken = false
        var closed = false
        /// libmicrohttpd has destroyed the response: the connection is gone.
        var finished = false
        var closeHandlers: [@Sendable () -> Void] = []
    }

    /// Only used for suspend/resume, which libmicrohttpd allows from any thread.
    nonisolated(unsafe) private let connection: OpaquePointer
    /// The connection's socket; written only while the connection is parked, under the lock.
    private let socket: Int32
    private let context: ServerContext
    private let state = Locked(State())

    init(connection: OpaquePointer, context: ServerContext) {
        self.connection = connection
        self.socket = CMicroHTTPD_connectionSocket(connection)
        self.context = context
        context.register(self)
    }

    /// Makes the MHD response whose reader drains this stream; it holds a retain on `self` that
    /// its free callback releases.
    func makeResponse() -> OpaquePointer? {
        let response = MHD_create_response_from_callback(
            CMicroHTTPD_SIZE_UNKNOWN, 1024, streamReader, Unmanaged.passRetained(self).toOpaque(),
            streamFinished)
        if let response { CMicroHTTPD_useCloseDelimitedBody(response) }
        return response
    }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        let accepted: Bool = state.withLock { state in
            guard !state.closed else { return false }
            guard state.queuedBytes + bytes.count <= Self.maxQueuedBytes else {
                // Too slow: drop what is queued and end the stream; the page reconnects and
                // resumes from its last event id (or gets a fresh snapshot).
                state.chunks.removeAll()
                state.firstChunkOffset = 0
                state.queuedBytes = 0
                state.closed = true
                resumeIfParked(&state)
                Metrics.standard.viewersDropped.add()
                return false
            }
            Metrics.standard.streamEvents.add()
            Metrics.standard.streamBytes.add(bytes.count)
            state.chunks.append(bytes)
            state.queuedBytes += bytes.count
            if state.parked, state.headSent, state.chunks.count == 1, context.allowsDirectWrites {
                writeDirectly(&state)
                if state.chunks.isEmpty {
                    context.streamCounters.countDirectWrite()
                    return true
                }
            }
            resumeIfParked(&state)
            return true
        }
        return accepted
    }

    func close() {
        state.withLock { state in
            state.closed = true
            resumeIfParked(&state)
        }
    }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        // A stream that ended before anyone listened still tells its listener, once.
        let alreadyGone = state.withLock { state in
            if state.finished { return true }
            state.closeHandlers.append(handler)
            return false
        }
        if alreadyGone { handler() }
    }

    private func resumeIfParked(_ state: inout State) {
        if state.parked {
            state.parked = false
            context.streamCounters.countResume()
            MHD_resume_connection(connection)
        }
    }

    /// Puts queued bytes on the socket without blocking until it is full or they are all sent.
    private func writeDirectly(_ state: inout State) {
        while let chunk = state.chunks.first {
            let sent = chunk.withUnsafeBytes { bytes in
                Glibc.send(
                    socket, bytes.baseAddress!.advanced(by: state.firstChunkOffset),
                    chunk.count - state.firstChunkOffset, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { state.broken = true }
                return
            }
            state.queuedBytes -= sent
            state.firstChunkOffset += sent
            if state.firstChunkOffset == chunk.count {
                state.chunks.removeFirst()
                state.firstChunkOffset = 0
            }
        }
    }

    /// Copies queued bytes into libmicrohttpd's buffer; parks the connection when there are none.
    fileprivate func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        state.withLock { state in
            if state.broken { return CMicroHTTPD_CONTENT_READER_END_WITH_ERROR }
            // Asked again after a block: libmicrohttpd has sent the reply head and that block.
            if state.handedBytes { state.headSent = true }
            guard !state.chunks.isEmpty else {
                if state.closed { return CMicroHTTPD_CONTENT_READER_END_OF_STREAM }
                state.parked = true
                MHD_suspend_connection(connection)
                return 0
            }
            var written = 0
            while written < buffer.count, !state.chunks.isEmpty {
                let chunk = state.chunks[0]
                let available = chunk.count - state.firstChunkOffset
                let count = min(available, buffer.count - written)
                chunk.withUnsafeBytes { source in
                    let start = source.baseAddress!.advanced(by: state.firstChunkOffset)
                    buffer.baseAddress!.advanced(by: written).copyMemory(from: start, byteCount: count)
                }
                written += count
                state.firstChunkOffset += count
                if state.firstChunkOffset == chunk.count {
                    state.chunks.removeFirst()
                    state.firstChunkOffset = 0
                }
            }
            state.queuedBytes -= written
            state.handedBytes = true
            return written
        }
    }

    /// The connection is gone: run the close handlers once, outside the lock.
    fileprivate func finish() {
        let handlers = state.withLock { state in
            state.closed = true
            state.finished = true
            state.queuedBytes = 0
            defer { state.closeHandlers.removeAll() }
            return state.closeHandlers
        }
        context.unregister(self)
        for handler in handlers { handler() }
    }
}

private let streamReader: MHD_ContentReaderCallback = { streamPointer, _, buffer, max in
    guard let streamPointer, let buffer else { return CMicroHTTPD_CONTENT_READER_END_WITH_ERROR }
    let stream = Unmanaged<StreamConnection>.fromOpaque(streamPointer).takeUnretainedValue()
    return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max))
}

/// Balances the retain taken in `makeResponse`.
private let streamFinished: MHD_ContentReaderFreeCallback = { streamPointer in
    guard let streamPointer else { return }
    let stream = Unmanaged<StreamConnection>.fromOpaque(streamPointer).takeRetainedValue()
    stream.finish()
}
