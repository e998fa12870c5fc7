/// What happened to a stack: a pointer sample from a viewer, a command, or the clock reaching
/// `Stack.nextDeadline`.
public enum StackEvent: Sendable, Equatable {
    case pointer(PointerInput)
    case command(StackCommand)
    /// The room's timer fired: finish animations and gestures that are due.
    case tick
}

/// One pointer sample as the page posted it, in stage points.
public struct PointerInput: Sendable, Equatable {
    public enum Phase: String, Sendable, Equatable {
        case down, move, up, cancel
    }

    /// Which page sent it (the page's own id for itself).
    public var viewer: String
    public var phase: Phase
    /// The page's pointer id.
    public var pointer: Int
    public var x: Double
    public var y: Double
    /// The page's clock, in milliseconds.
    public var t: Millis

    public init(viewer: String, phase: Phase, pointer: Int, x: Double, y: Double, t: Millis) {
        self.viewer = viewer
        self.phase = phase
        self.pointer = pointer
        self.x = x
        self.y = y
        self.t = t
    }
}

/// Everything a finger can do, as a command a script can send.
public enum StackCommand: Sendable, Equatable {
    case next
    case previous
    /// Bring the card of this photo-list index to the front.
    case goto(index: Int)
    /// Add a card for `photo` at stack position `at` (0 = on top, `count` = at the bottom). The photo
    /// is appended to the photo list, so existing photo-list indices and card ids stay as they were.
    case insert(photo: Photo, at: Int)
}

/// Why a stack refused an event.
public enum StackError: Error, Sendable, Equatable {
    case indexOutOfRange(index: Int, count: Int)
    case emptyStack
}
