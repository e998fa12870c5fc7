import StackModel

@testable import StackWebServer

/// Virtual time for rooms: nothing runs until a test advances the clock, and then every wake-up due
/// runs at its own deadline, in order, on the test's thread. No real waiting.
final class VirtualScheduler: RoomScheduler {
    private struct Pending {
        var deadline: Millis
        var order: Int
        var work: @Sendable () -> Void
    }

    private let state: Locked<(now: Millis, pending: [Pending], made: Int)>

    init(now: Millis = 1_000_000) {
        state = Locked((now, [], 0))
    }

    func now() -> Millis { state.withLock { $0.now } }

    func schedule(at deadline: Millis, _ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.pending.append(Pending(deadline: deadline, order: state.made, work: work))
            state.made += 1
        }
    }

    /// Wake-ups asked for and not yet run.
    var pendingDeadlines: [Millis] { state.withLock { $0.pending.map(\.deadline).sorted() } }

    func advance(by duration: Millis) { advance(to: now() + duration) }

    /// Moves the clock to `time`, running each wake-up due by then at its deadline (work that asks
    /// for more wake-ups before `time` gets those run too).
    func advance(to time: Millis) {
        while let due = takeNext(until: time) { due() }
        state.withLock { $0.now = max($0.now, time) }
    }

    private func takeNext(until time: Millis) -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard
                let next = state.pending.indices.filter({ state.pending[$0].deadline <= time })
                    .min(by: {
                        (state.pending[$0].deadline, state.pending[$0].order) < (
                            state.pending[$1].deadline, state.pending[$1].order
                        )
                    })
            else { return nil }
            let pending = state.pending.remove(at: next)
            state.now = max(state.now, pending.deadline)
            return pending.work
        }
    }
}

/// A store that keeps saves in memory and records them, for room tests.
final class RecordingStore: RoomStore {
    private let state = Locked<(saved: [String: SavedStack], log: [(String, SaveUrgency)])>(([:], []))

    func load(room: String) -> SavedStack? { state.withLock { $0.saved[room] } }

    func save(
        _ saved: SavedStack, room: String, urgency: SaveUrgency,
        whenDurable: (@Sendable (Durability.Outcome) -> Void)?
    ) {
        state.withLock {
            $0.saved[room] = saved
            $0.log.append((room, urgency))
        }
        whenDurable?(.success(()))
    }

    func flush() {}

    var failure: StoreFailure? { nil }

    /// The urgency of every save so far, in order.
    var urgencies: [SaveUrgency] { state.withLock { $0.log.map(\.1) } }
}

extension Room {
    /// A room of `count` photos (ids p0, p1, …) on a virtual clock, for tests.
    static func forTests(
        photos count: Int = 12, settings: RoomSettings = RoomSettings(),
        scheduler: VirtualScheduler = VirtualScheduler(),
        store: any RoomStore = RecordingStore(), asleep: Bool = false, group: (any RoomGroup)? = nil
    ) -> Room {
        let photos = (0..<count).map { Photo(id: "p\($0)", width: 4, height: 3) }
        return Room(
            name: "r", settings: settings, library: PhotoLibrary(entries: []), asleep: asleep, scheduler: scheduler,
            store: store, group: group,
            restore: { saved in
                saved.map { Stack(photos: photos, saved: $0, seed: 1) } ?? Stack(photos: photos, seed: 1)
            })
    }
}
