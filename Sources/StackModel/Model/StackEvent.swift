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
    /// The sending screen's CSS pixels per stage point: a phone shows a 1024-point stage in 390
    /// pixels (0.38), a laptop about 1. The flick's thresholds hold in pixels as well as in points.
    public var pixelsPerPoint: Double

    /// What `pixelsPerPoint` may be: a stage on a watch to one on a wall of screens.
    public static let pixelsPerPointRange = 0.01...100.0

    public init(
        viewer: String, phase: Phase, pointer: Int, x: Double, y: Double, t: Millis, pixelsPerPoint: Double = 1
    ) {
        self.viewer = viewer
        self.phase = phase
        self.pointer = pointer
        self.x = x
        self.y = y
        self.t = t
        self.pixelsPerPoint = pixelsPerPoint
    }
}
