import Foundation

/// One event that may repeat many times a second (every resized photo failing at once with an
/// unwritable cache): the first line is written, then at most one per `interval` seconds, saying
/// how many were left out since, so that the journal shows the problem without being flooded by it.
final class ThrottledLog: Sendable {
    private let log: OperatorLog
    private let event: String
    private let interval: Double
    /// When the last line was written, and how many were left out since.
    private let state = Locked<(last: Double, skipped: Int)>((-.infinity, 0))

    init(log: OperatorLog, event: String, interval: Double) {
        self.log = log
        self.event = event
        self.interval = interval
    }

    func record(_ message: String, now: Double = FolderWatcher.monotonicSeconds()) {
        let skipped = state.withLock { state -> Int? in
            guard now - state.last >= interval else {
                state.skipped += 1
                return nil
            }
            defer { state = (now, 0) }
            return state.skipped
        }
        guard let skipped else { return }
        let more = skipped == 0 ? "" : " (and \(skipped) more like it since the last line)"
        log.record(event, message + more, ["skipped": .int(skipped)])
    }
}
