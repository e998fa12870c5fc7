import StackModel

/// The most recent encoded change events of a room, so a viewer that reconnects with
/// `Last-Event-ID` gets exactly what it missed instead of a fresh snapshot.
///
/// Each event is kept as every shape class present when it happened got it (`shaped`), beside the
/// room's own stage's bytes: a viewer resumes with its own class's bytes, or, if its class was not
/// present for some event it missed, with a snapshot.
struct ReplayBuffer {
    struct Event {
        var seq: Int
        var bytes: [UInt8]
        var shaped: [ShapeClass: [UInt8]]

        func bytes(for shape: ShapeClass?) -> [UInt8]? {
            guard let shape else { return bytes }
            return shaped[shape]
        }
    }

    let capacity: Int
    private var events: [Event] = []
    private var head = 0

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    mutating func append(seq: Int, bytes: [UInt8], shaped: [ShapeClass: [UInt8]] = [:]) {
        let event = Event(seq: seq, bytes: bytes, shaped: shaped)
        if events.count < capacity {
            events.append(event)
        } else {
            events[head] = event
            head = (head + 1) % capacity
        }
    }

    /// The events after `seq`, oldest first, as `shape` got them (`nil`: the room's stage); `nil`
    /// when the buffer no longer reaches back that far, holds one of them without `shape`'s bytes
    /// (nobody of that shape watched then), or `seq` is from the future: the caller must send a
    /// snapshot instead. (An id from before a restart or a takeover is below the numbering's start,
    /// so below the oldest event kept.)
    /// - Complexity: O(capacity)
    func events(after seq: Int, latest: Int, shape: ShapeClass? = nil) -> [[UInt8]]? {
        guard seq <= latest else { return nil }
        if seq == latest { return [] }
        let ordered = events[head...] + events[..<head]
        guard let oldest = ordered.first, oldest.seq <= seq + 1 else { return nil }
        var missed: [[UInt8]] = []
        for event in ordered where event.seq > seq {
            guard let bytes = event.bytes(for: shape) else { return nil }
            missed.append(bytes)
        }
        return missed
    }
}
