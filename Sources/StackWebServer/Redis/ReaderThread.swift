import Dispatch
import Foundation

/// A thread of its own for a reader that goes round until stopped (a blocking `XREAD` each round),
/// with a rest between rounds that a stop cuts short.
final class ReaderThread: Sendable {
    private let running = Locked(false)
    private let finished = DispatchSemaphore(value: 0)
    private let pause = DispatchSemaphore(value: 0)

    /// Whether the loop should go round again.
    var isRunning: Bool { running.withLock { $0 } }

    /// Runs `loop` on a new thread; `loop` returns once `isRunning` is false.
    func start(_ loop: @escaping @Sendable () -> Void) {
        running.withLock { $0 = true }
        Thread.detachNewThread { [finished] in
            loop()
            finished.signal()
        }
    }

    /// Stops the loop and waits for its thread to end (at most one blocking read).
    func stop() {
        let wasRunning = running.withLock { state in
            defer { state = false }
            return state
        }
        guard wasRunning else { return }
        pause.signal()
        finished.wait()
    }

    /// Waits `milliseconds` before the next round, or less when stopped meanwhile.
    func rest(milliseconds: Int) {
        _ = pause.wait(timeout: .now() + .milliseconds(milliseconds))
    }
}
