/// A card's motion: from one transform to another along a curve, starting at a server time.
public struct CardAnimation: Sendable, Equatable {
    /// Server time the motion starts, in milliseconds since the Unix epoch.
    public var start: Millis
    /// How long the motion lasts; at `start + duration` the card is exactly at `to`.
    public var duration: Millis
    public var curve: Curve
    public var from: CardTransform
    public var to: CardTransform

    public init(start: Millis, duration: Millis, curve: Curve, from: CardTransform, to: CardTransform) {
        self.start = start
        self.duration = duration
        self.curve = curve
        self.from = from
        self.to = to
    }

    public var end: Millis { start + duration }

    /// Where the card is at server time `now`: `from` before the start, exactly `to` from the end on.
    public func value(at now: Millis) -> CardTransform {
        if now >= end { return to }
        if now < start { return from }
        return .interpolate(from, to, progress: curve.progress(elapsed: now - start, duration: duration))
    }
}
