@testable import StackWebServer

/// A viewer's end of an event stream that keeps what the room sends, for the harness to check.
///
/// Rooms send from their own timer threads too (animation ends, presence), hence the lock.
final class RecordingViewer: EventSink {
    /// What a viewer lets queue before it counts as too slow, as the server's streams do.
    static let maxQueuedBytes = 1 << 20

    private struct State {
        var pending: [UInt8] = []
        var closed = false
        var closeHandler: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    @discardableResult func send(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.closed, state.pending.count + bytes.count <= Self.maxQueuedBytes else { return false }
            state.pending += bytes
            return true
        }
    }

    func close() {
        state.withLock { $0.closed = true }
    }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.closeHandler = handler }
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Takes everything received so far: whole events, as the room frames each one before sending.
    func takeReceived() -> [UInt8] {
        state.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
    }

    /// The connection goes away, as when the browser tab closes: the room forgets the viewer.
    func disconnect() {
        let handler = state.withLock { state in
            state.closed = true
            defer { state.closeHandler = nil }
            return state.closeHandler
        }
        handler?()
    }
}
