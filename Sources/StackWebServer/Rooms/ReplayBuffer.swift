/// The most recent encoded change events of a room, so a viewer that reconnects with
/// `Last-Event-ID` gets exactly what it missed instead of a fresh snapshot.
struct ReplayBuffer {
    let capacity: Int
    private var events: [(seq: Int, bytes: [UInt8])] = []
    private var head = 0

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    mutating func append(seq: Int, bytes: [UInt8]) {
        if events.count < capacity {
            events.append((seq, bytes))
        } else {
            events[head] = (seq, bytes)
            head = (head + 1) % capacity
        }
    }

    /// The events after `seq`, oldest first; `nil` when the buffer no longer reaches back that far
    /// (or `seq` is from the future), so the caller must send a snapshot instead.
    /// - Complexity: O(capacity)
    func events(after seq: Int, latest: Int) -> [[UInt8]]? {
        guard seq <= latest else { return nil }
        if seq == latest { return [] }
        let ordered = events[head...] + events[..<head]
        guard let oldest = ordered.first, oldest.seq <= seq + 1 else { return nil }
        return ordered.filter { $0.seq > seq }.map(\.bytes)
    }
}
