import Foundation

@testable import StackWebServer

/// A viewer's end of an event stream that keeps what the room sends, for tests (as text) and the
/// router's fuzz target (as bytes) to check, and that the test can disconnect as a closed tab does.
///
/// Rooms send from their own timer threads too (animation ends, presence), hence the lock.
final class RecordingSink: EventSink {
    /// What a viewer lets queue before it counts as too slow, as the server's streams do.
    static let maxQueuedBytes = 1 << 20

    private struct State {
        var events: [String] = []
        var pending: [UInt8] = []
        var closed = false
        var closeHandlers: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())

    /// Every send so far, as text: whole events, as the room frames each one before sending.
    var events: [String] { state.withLock { $0.events } }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// The JSON of an event's `data:` line (the last one, for an opening that holds several).
    static func json(of event: String) -> [String: Any]? {
        guard let line = event.split(separator: "\n").last(where: { $0.hasPrefix("data: ") }) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any]
    }

    @discardableResult func send(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.closed, state.pending.count + bytes.count <= Self.maxQueuedBytes else { return false }
            state.pending += bytes
            state.events.append(String(decoding: bytes, as: UTF8.self))
            return true
        }
    }

    func close() {
        state.withLock { $0.closed = true }
    }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.closeHandlers.append(handler) }
    }

    /// Takes everything received so far, as bytes, and forgets it (`events` too): a long fuzz run
    /// keeps a viewer open across many inputs.
    func takeReceived() -> [UInt8] {
        state.withLock { state in
            defer {
                state.pending = []
                state.events = []
            }
            return state.pending
        }
    }

    /// The connection goes away, as when the browser tab closes: the room forgets the viewer.
    func disconnect() {
        let handlers = state.withLock { state in
            state.closed = true
            defer { state.closeHandlers = [] }
            return state.closeHandlers
        }
        for handler in handlers { handler() }
    }
}
