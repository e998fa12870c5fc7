/// A room as an instance of a group that does not run it sees it: what the owner published to the
/// group, fanned out to this instance's viewers. Pure: `receive` and `join` return the effects.
///
/// The owner publishes every change once, and now and then the room's whole snapshot (when it takes
/// the room over, and every `RoomRelay.baseInterval` changes), so a viewer joining here gets the
/// latest snapshot and the changes after it — or, resuming with `Last-Event-ID`, only what it missed.
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

    /// The latest snapshot published, if any has been seen yet.
    private(set) var base: (seq: Int, bytes: [UInt8])?
    private var replay = ReplayBuffer(capacity: RoomSettings.replayCapacity)
    /// The id of the last event received.
    private(set) var latest = 0
    /// Viewers that have had their opening, and those waiting for one they can be given.
    private(set) var watching: Set<ViewerID> = []
    private(set) var waiting: [ViewerID: Pending] = [:]

    /// A viewer waiting for its opening: the last id it has seen, and whether it needs `retry:` first
    /// (a viewer handed over from this instance's own run of the room has its stream open already).
    struct Pending: Equatable {
        var lastEventID: Int?
        var opensStream: Bool
        /// A heartbeat has come since it began to wait.
        var waitedAHeartbeat = false
    }

    /// A viewer joined here: its opening now, or once one can be given.
    mutating func join(_ viewer: ViewerID, lastEventID: Int?) -> [RoomEffect] {
        waiting[viewer] = Pending(lastEventID: lastEventID, opensStream: true)
        return openWaiting()
    }

    /// Viewers this instance showed the room while it ran it, having seen events up to `lastEventID`,
    /// now shown what the owner publishes: what they missed, or a snapshot newer than what they saw —
    /// at once if the room's history was read already (it can be, just before this instance hears
    /// that it lost the room), else when it comes. Never an older snapshot: their ids only grow.
    mutating func watch(_ viewers: Set<ViewerID>, lastEventID: Int) -> [RoomEffect] {
        for viewer in viewers where !watching.contains(viewer) {
            waiting[viewer] = Pending(lastEventID: lastEventID, opensStream: false)
        }
        return openWaiting()
    }

    /// At a heartbeat: a viewer that joined here with an id the group does not have (out of nowhere,
    /// or from events never kept) and has waited a whole heartbeat since gets the latest snapshot,
    /// older than its id or not, rather than wait longer. Viewers handed over from this instance's
    /// own run wait for the next owner's snapshot, whose ids are above theirs.
    mutating func heartbeat() -> [RoomEffect] {
        var effects: [RoomEffect] = []
        for (viewer, pending) in waiting.sorted(by: { $0.key.number < $1.key.number }) where pending.opensStream {
            guard pending.waitedAHeartbeat else {
                waiting[viewer]?.waitedAHeartbeat = true
                continue
            }
            guard let opening = opening(after: nil) else { continue }
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
            guard let opening = opening(after: pending.lastEventID) else { continue }
            waiting[viewer] = nil
            watching.insert(viewer)
            effects.append(.send((pending.opensStream ? Array("retry: 1000\n\n".utf8) : []) + opening, to: viewer))
        }
        return effects
    }

    mutating func leave(_ viewer: ViewerID) {
        watching.remove(viewer)
        waiting[viewer] = nil
    }

    /// Entries as read from the group, in order. `catchingUp`: the history found when this instance
    /// began to follow the room; those watching already are brought up to date with one snapshot.
    mutating func receive(_ entries: [Entry], catchingUp: Bool = false) -> [RoomEffect] {
        var effects: [RoomEffect] = []
        for entry in entries where entry.seq > latest || (entry.seq == latest && isBase(entry)) {
            latest = entry.seq
            switch entry {
            case .change(let seq, let bytes):
                replay.append(seq: seq, bytes: bytes)
                if !catchingUp { effects += watching.map { .send(bytes, to: $0) } }
            case .takeover(let seq, let bytes):
                base = (seq, bytes)
                replay = ReplayBuffer(capacity: RoomSettings.replayCapacity)
                if !catchingUp { effects += watching.map { .send(bytes, to: $0) } }
            case .base(let seq, let bytes):
                base = (seq, bytes)
            }
        }
        effects += openWaiting()
        return effects
    }

    private func isBase(_ entry: Entry) -> Bool {
        if case .base = entry { return true }
        return false
    }

    /// The events after `lastEventID` when they are all here; else the latest snapshot and the
    /// changes after it, if that snapshot is newer than what the viewer saw; else `nil` (the viewer
    /// saw events the group does not have, or none has come yet: it waits for a newer snapshot).
    private func opening(after lastEventID: Int?) -> [UInt8]? {
        guard let base else { return nil }
        if let lastEventID, let missed = replay.events(after: lastEventID, latest: latest),
            missed.reduce(0, { $0 + $1.count }) <= RoomSettings.maxReplayBytes
        {
            return missed.flatMap { $0 }
        }
        if let lastEventID, base.seq <= lastEventID { return nil }
        return base.bytes + (replay.events(after: base.seq, latest: latest) ?? []).flatMap { $0 }
    }
}
