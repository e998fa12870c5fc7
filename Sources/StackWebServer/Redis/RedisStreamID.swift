/// A stream entry's id as a group uses it: `SEQ-0` for a room's change or takeover snapshot,
/// `SEQ-1` for the snapshot published after change `SEQ` (see `RedisKeys.events`).
struct RedisStreamID: Equatable, Sendable {
    var seq: Int
    var part: Int

    init(seq: Int, part: Int) {
        self.seq = seq
        self.part = part
    }

    init?(_ text: String) {
        let fields = text.split(separator: "-")
        guard fields.count == 2, let seq = Int(fields[0]), let part = Int(fields[1]) else { return nil }
        self.init(seq: seq, part: part)
    }

    var text: String { "\(seq)-\(part)" }

    /// The id an entry is asked to be published under (a base goes after the entries of its seq: the
    /// publishing script makes it one part further than the last, `RoomPublisher.publish`).
    init(_ entry: RoomRelay.Entry) {
        if case .base = entry { self.init(seq: entry.seq, part: 1) } else { self.init(seq: entry.seq, part: 0) }
    }
}
