import Dispatch
import StackModel

/// Runs work at a server time. Rooms ask for wake-ups through it, so tests can replace real time
/// with a virtual clock they advance by hand.
protocol RoomScheduler: Sendable {
    /// Server time now, in ms since the Unix epoch.
    func now() -> Millis
    /// Runs `work` once, at `deadline` or soon after, on some thread other than the caller's.
    func schedule(at deadline: Millis, _ work: @escaping @Sendable () -> Void)
}

/// Real time: the system clock and Dispatch timers.
struct SystemRoomScheduler: RoomScheduler {
    private let queue = DispatchQueue(label: "stackweb.rooms.timers", attributes: .concurrent)

    func now() -> Millis { Clock.now() }

    func schedule(at deadline: Millis, _ work: @escaping @Sendable () -> Void) {
        // 1 ms late rather than early: a deadline's work finds its deadline passed.
        let delay = max(0, deadline - now()) + 1
        queue.asyncAfter(deadline: .now() + .microseconds(Int(delay * 1000)), execute: work)
    }
}
