/// Milliseconds. Server time is milliseconds since the Unix epoch; pointer time is the page's own
/// clock (`performance.now()`), used only for differences within one gesture.
public typealias Millis = Double

/// The room's drawing surface in stage points, origin top-left, y down.
public struct StageSize: Sendable, Equatable, Hashable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let `default` = StageSize(width: 1024, height: 768)
}

/// A point on the stage.
public struct Point: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
