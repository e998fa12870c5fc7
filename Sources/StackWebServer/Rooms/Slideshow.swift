import StackModel

/// A room's automatic advance: every `interval`, the next photo, with the style's own motion.
///
/// Any gesture or command from a person holds it off: it advances only after a whole interval of
/// quiet, so a viewer who is looking around is never interrupted.
struct Slideshow: Equatable {
    /// Time between advances: `--interval`, or `RoomSettings.defaultSlideshowInterval` on a server
    /// started without one (where the slideshow waits for ▶).
    let interval: Millis
    private(set) var playing: Bool
    /// What a person last chose, ▶ (false) or ❚❚ (true), kept with the room's lasting state so that
    /// a restart or an upgrade leaves the frame as it was left; nil until someone chooses.
    private(set) var chosenPaused: Bool?
    /// Whether it plays when nobody chose: the server was started with an `interval`.
    private let playsByDefault: Bool
    /// Server time of the last advance or the last thing a person did.
    var quietSince: Millis
    /// Whether the photo folder is away (a stick unplugged, a share unmounted): the slideshow holds
    /// its place, as if paused, and goes on a whole interval after the folder is back. Not a
    /// person's choice: `playing` and what is kept stay as they are.
    var photosAway = false

    /// Playing from the start when the server has an `interval`; paused until ▶ otherwise.
    init(interval: Millis?, now: Millis) {
        self.interval = interval ?? RoomSettings.defaultSlideshowInterval
        self.playsByDefault = interval != nil
        self.playing = playsByDefault
        self.quietSince = now
    }

    /// A person pressed ▶ or ❚❚: the choice is kept, and the next advance is a whole interval away.
    /// Returns whether it changed anything.
    mutating func choose(playing: Bool, at now: Millis) -> Bool {
        guard self.playing != playing else { return false }
        self.playing = playing
        chosenPaused = !playing
        quietSince = now
        return true
    }

    /// Back to what was kept: `paused` as saved, or the server's default when nobody chose.
    mutating func restore(paused: Bool?) {
        chosenPaused = paused
        playing = paused.map { !$0 } ?? playsByDefault
    }

    /// When the next advance is due, or `nil` when paused.
    var nextAdvance: Millis? {
        guard playing else { return nil }
        return quietSince + interval
    }

    mutating func personActed(at now: Millis) { quietSince = now }

    /// Whether to advance now; if so, or if it is held (`photosAway`), the next one is counted
    /// from now.
    mutating func advanceIfDue(at now: Millis) -> Bool {
        guard let due = nextAdvance, now >= due else { return false }
        quietSince = now
        return !photosAway
    }
}
