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
