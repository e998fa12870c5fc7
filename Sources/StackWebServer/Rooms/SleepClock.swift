import Dispatch
import Foundation

/// The server's sleep schedule, applied: whether the screens are dark now, and a wall-clock timer
/// at each boundary that tells the rooms.
final class SleepClock: Sendable {
    let schedule: SleepSchedule
    private let state: Locked<Bool>
    private let queue = DispatchQueue(label: "stackweb.sleep")
    private let timer: Locked<(any DispatchSourceTimer)?> = Locked(nil)

    init(schedule: SleepSchedule, now: Date = Date()) {
        self.schedule = schedule
        state = Locked(schedule.contains(now))
    }

    var asleep: Bool { state.withLock { $0 } }

    /// Calls `changed` with the new value after each boundary.
    func start(changed: @escaping @Sendable (_ asleep: Bool) -> Void) {
        arm(changed: changed)
    }

    func stop() {
        timer.withLock { $0?.cancel() }
    }

    private func arm(changed: @escaping @Sendable (Bool) -> Void) {
        let now = Date()
        let boundary = schedule.nextBoundary(after: now)
        let source = DispatchSource.makeTimerSource(queue: queue)
        // Wall time, not uptime: a machine suspended overnight still wakes its screens at 07:00.
        source.schedule(wallDeadline: .now() + boundary.timeIntervalSince(now) + 0.05)
        source.setEventHandler { [weak self] in
            guard let self else { return }
            let asleep = schedule.contains(Date())
            let flipped = state.withLock { state in
                defer { state = asleep }
                return state != asleep
            }
            if flipped { changed(asleep) }
            arm(changed: changed)
        }
        timer.withLock { old in
            old?.cancel()
            old = source
        }
        source.resume()
    }
}
