import Synchronization

/// Counts, over all event streams, the sends written straight to a parked viewer's socket and
/// the resumes libmicrohttpd had to do instead: the fast path should carry nearly every event.
final class StreamCounters: Sendable {
    struct Snapshot: Equatable {
        var directWrites: Int
        var resumes: Int
    }

    private let directWrites = Atomic<Int>(0)
    private let resumes = Atomic<Int>(0)

    func countDirectWrite() { directWrites.add(1, ordering: .relaxed) }
    func countResume() { resumes.add(1, ordering: .relaxed) }

    var snapshot: Snapshot {
        Snapshot(directWrites: directWrites.load(ordering: .relaxed), resumes: resumes.load(ordering: .relaxed))
    }
}
