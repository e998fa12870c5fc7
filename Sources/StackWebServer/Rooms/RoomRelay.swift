import StackModel

/// A room as an instance of a group that does not run it sees it: what the owner published to the
/// group, fanned out to this instance's viewers. Pure: `receive` and `join` return the effects.
///
/// The owner publishes every change once, and now and then the room's whole snapshot (when it takes
/// the room over, and every `RoomRelay.baseInterval` changes), so a viewer joining here gets the
/// latest snapshot and the changes after it — or, resuming with `Last-Event-ID`, only what it missed.
///
/// Each entry comes laid out for every shape class the group's viewers reported (the owner learns
/// them with the viewer counts): a viewer here is sent its class's bytes. One whose class an entry
/// lacks (its class is new to the group, and the owner has not heard of it yet) waits for the next
/// snapshot that has it, which the owner publishes as soon as it hears.
struct RoomRelay {
    /// Changes between two published snapshots: a joining viewer gets at most this many after one.
    static let baseInterval = 32

    /// What the owner publishes for a room, in order; the bytes are the event as viewers get it.
    enum Entry: Equatable, Sendable {
        /// A numbered change, sent to every viewer.
        case change(seq: Int, bytes: [UInt8])
        /// The room's snapshot after a takeover: sent to every viewer (what they saw may be stale).
        case takeover(seq: Int, bytes: [UInt8])
        /// The room's snapshot as a starting point for viewers who join; sent to nobody already watching.
        case base(seq: Int, bytes: [UInt8])

        var seq: Int {
            switch self {
            case .change(let seq, _), .takeover(let seq, _), .base(let seq, _): seq
            }
        }
    }

    /// An entry with its bytes for each shape class the owner laid it out for (a class shown the
    /// room's own stage has the entry's bytes).
    struct Published: Equatable, Sendable {
        var entry: Entry
        var shaped: [ShapeClass: [UInt8]] = [:]

        /// The bytes a viewer of `shape` is sent (nil: the room's stage); `nil` if it has none for it.
        func bytes(for shape: ShapeClass?) -> [UInt8]? {
            guard let shape else { return entry.bytes }
            return shaped[shape]
        }
    }

    /// The latest snapshot published, if any has been seen yet.
    private(set) var base: Published?
    private var replay = ReplayBuffer(capacity: RoomSettings.replayCapacity)
    /// The id of the last event received.
    private(set) var latest = 0
    /// Viewers that have had their opening, and those waiting for one they can be given.
    private(set) var watching: Set<ViewerID> = []
    private(set) var waiting: [ViewerID: Pending] = [:]
    /// The shape class each viewer here reported, if any.
    private var shapes: [ViewerID: ShapeClass] = [:]

    /// A viewer waiting for its opening: the last id it has seen, and whether it needs `retry:` first
    /// (a viewer handed over from this instance's own run of the room has its stream open already).
    struct Pending: Equatable {
        var lastEventID: Int?
        var opensStream: Bool
        /// A heartbeat has come since it began to wait.
        var waitedAHeartbeat = false
    }

    /// A viewer joined here, from a screen of `shape`: its opening now, or once one can be given.
    mutating func join(_ viewer: ViewerID, lastEventID: Int?, shape: ShapeClass? = nil) -> [RoomEffect] {
        shapes[viewer] = shape
        waiting[viewer] = Pending(lastEventID: lastEventID, opensStream: true)
        return openWaiting()
    }

    /// Viewers this instance showed the room while it ran it, having seen events up to `lastEventID`,
    /// now shown what the owner publishes: what they missed, or a snapshot newer than what they saw —
    /// at once if the room's history was read already (it can be, just before this instance hears
    /// that it lost the room), else when it comes. Never an older snapshot: their ids only grow.
    /// `viewers`: each with the shape class it reported.
    mutating func watch(_ viewers: [ViewerID: ShapeClass?], lastEventID: Int) -> [RoomEffect] {
        for (viewer, shape) in viewers where !watching.contains(viewer) {
            shapes[viewer] = shape
            waiting[viewer] = Pending(lastEventID: lastEventID, opensStream: false)
        }
        return openWaiting()
    }

    /// At a heartbeat: a viewer that joined here with an id the group does not have (out of nowhere,
    /// or from events never kept) and has waited a whole heartbeat since gets the latest snapshot,
    /// older than its id or not, rather than wait longer — laid out for the room's own stage if its
    /// class has none yet (from then on it is sent that stage's bytes). Viewers handed over from
    /// this instance's own run wait for the next owner's snapshot, whose ids are above theirs.
    mutating func heartbeat() -> [RoomEffect] {
        var effects: [RoomEffect] = []
        for (viewer, pending) in waiting.sorted(by: { $0.key.number < $1.key.number }) where pending.opensStream {
            guard pending.waitedAHeartbeat else {
                waiting[viewer]?.waitedAHeartbeat = true
                continue
            }
            if opening(after: nil, shape: shapes[viewer]) == nil, opening(after: nil, shape: nil) != nil {
                shapes[viewer] = nil
            }
            guard let opening = opening(after: nil, shape: shapes[viewer]) else { continue }
            waiting[viewer] = nil
            watching.insert(viewer)
            effects.append(.send(Array("retry: 1000\n\n".utf8) + opening, to: viewer))
        }
        return effects
    }

    /// Gives every waiting viewer that can have one its opening.
    private mutating func openWaiting() -> [RoomEffect] {
        var effects: [RoomEffect] = []
        for (viewer, pending) in waiting.sorted(by: { $0.key.number < $1.key.number }) {
            guard let opening = opening(after: pending.lastEventID, shape: shapes[viewer]) else { continue }
            waiting[viewer] = nil
            watching.insert(viewer)
            effects.append(.send((pending.opensStream ? Array("retry: 1000\n\n".utf8) : []) + opening, to: viewer))
        }
        return effects
    }

    mutating func leave(_ viewer: ViewerID) {
        watching.remove(viewer)
        waiting[viewer] = nil
        shapes[viewer] = nil
    }

    /// Entries as read from the group, in order. `catchingUp`: the history found when this instance
    /// began to follow the room; those watching already are brought up to date with one snapshot.
    mutating func receive(_ entries: [Published], catchingUp: Bool = false) -> [RoomEffect] {
        var effects: [RoomEffect] = []
        for published in entries
        where published.entry.seq > latest || (published.entry.seq == latest && isBase(published.entry)) {
            let previous = latest
            latest = published.entry.seq
            switch published.entry {
            case .change(let seq, let bytes):
                replay.append(seq: seq, bytes: bytes, shaped: published.shaped)
            case .takeover:
                base = published
                replay = ReplayBuffer(capacity: RoomSettings.replayCapacity)
            case .base:
                base = published
                continue
            }
            guard !catchingUp else { continue }
            for viewer in watching.sorted(by: { $0.number < $1.number }) {
                if let bytes = published.bytes(for: shapes[viewer]) {
                    effects.append(.send(bytes, to: viewer))
                } else {
                    // Its class is not laid out (yet): it waits for a snapshot that has it.
                    watching.remove(viewer)
                    waiting[viewer] = Pending(lastEventID: previous, opensStream: false)
                }
            }
        }
        effects += openWaiting()
        return effects
    }

    /// Entries laid out for the room's stage only.
    mutating func receive(_ entries: [Entry], catchingUp: Bool = false) -> [RoomEffect] {
        receive(entries.map { Published(entry: $0) }, catchingUp: catchingUp)
    }

    private func isBase(_ entry: Entry) -> Bool {
        if case .base = entry { return true }
        return false
    }

    /// The events after `lastEventID` when they are all here (for `shape`); else the latest
    /// snapshot and the changes after it, if that snapshot is newer than what the viewer saw; else
    /// `nil` (the viewer saw events the group does not have, none has come yet, or its class has
    /// not been laid out since: it waits for a newer snapshot).
    private func opening(after lastEventID: Int?, shape: ShapeClass?) -> [UInt8]? {
        guard let base else { return nil }
        if let lastEventID, let missed = replay.events(after: lastEventID, latest: latest, shape: shape),
            missed.reduce(0, { $0 + $1.count }) <= RoomSettings.maxReplayBytes
        {
            return missed.flatMap { $0 }
        }
        if let lastEventID, base.entry.seq <= lastEventID { return nil }
        guard let snapshot = base.bytes(for: shape) else { return nil }
        let after = replay.events(after: base.entry.seq, latest: latest, shape: shape)
        // A class missing from a change after the snapshot waits for the next snapshot.
        if after == nil, shape != nil { return nil }
        return snapshot + (after ?? []).flatMap { $0 }
    }
}
