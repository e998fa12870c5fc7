import StackModel

/// A room's automatic advance: every `interval`, the next photo, with the style's own motion.
///
/// Any gesture or command from a person holds it off: it advances only after a whole interval of
/// quiet, so a viewer who is looking around is never interrupted.
struct Slideshow: Equatable {
    /// Time between advances: `--interval`, or `RoomSettings.defaultSlideshowInterval` on a server
    /// started without one (where the slideshow waits for ▶).
    let interval: Millis
    var playing: Bool
    /// Server time of the last advance or the last thing a person did.
    var quietSince: Millis

    /// Playing from the start when the server has an `interval`; paused until ▶ otherwise.
    init(interval: Millis?, now: Millis) {
        self.interval = interval ?? RoomSettings.defaultSlideshowInterval
        self.playing = interval != nil
        self.quietSince = now
    }

    /// When the next advance is due, or `nil` when paused.
    var nextAdvance: Millis? {
        guard playing else { return nil }
        return quietSince + interval
    }

    mutating func personActed(at now: Millis) { quietSince = now }

    /// Whether to advance now; if so, the next one is counted from now.
    mutating func advanceIfDue(at now: Millis) -> Bool {
        guard let due = nextAdvance, now >= due else { return false }
        quietSince = now
        return true
    }
}
