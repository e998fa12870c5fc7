import StackModel

/// What the room tells about itself: snapshots and the summary every message carries.
extension RoomState {
    var viewerCount: Int { viewers.count }

    /// The room's current snapshot as JSON, laid out for a screen of `shape` (nil: the room's stage).
    /// - Precondition: the stack is loaded.
    func snapshot(at now: Millis, keptThrough: Int? = nil, shape: ShapeClass? = nil) -> [UInt8] {
        var summary = summary(at: now)
        summary.keptThrough = keptThrough
        summary.stage = stack!.stage(for: shape)
        summary.shape = shape
        return RoomEncoder.snapshot(summary, cards: stack!.drawnCards(at: now, on: shape), photos: library)
    }

    /// What the room says of itself in every snapshot and change.
    func summary(at now: Millis) -> RoomEncoder.Summary {
        let stack = stack!
        return RoomEncoder.Summary(
            room: name, seq: seq, serverTime: now, style: stack.style, stage: stack.stage, count: stack.count,
            current: stack.current, playing: slideshow.playing, asleep: asleep,
            viewers: viewers.count + viewersElsewhere,
            heldBy: stack.holder, stacked: stack.swipeStacked, captionFolders: settings.captionFolders,
            senders: senders)
    }
}
