/// Where and how a card is drawn: centre, size, rotation (radians, clockwise), scale, opacity and
/// flip (radians about the vertical axis; 0 face up, π back showing).
public struct CardTransform: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var w: Double
    public var h: Double
    public var rotation: Double
    public var scaleX: Double
    public var scaleY: Double
    public var opacity: Double
    public var flip: Double

    public init(
        x: Double, y: Double, w: Double, h: Double,
        rotation: Double = 0, scaleX: Double = 1, scaleY: Double = 1, opacity: Double = 1, flip: Double = 0
    ) {
        self.x = x
        self.y = y
        self.w = w
        self.h = h
        self.rotation = rotation
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.opacity = opacity
        self.flip = flip
    }

    /// Component-wise `from + (to − from)·p`; `p` may leave [0, 1] (spring overshoot).
    public static func interpolate(_ from: CardTransform, _ to: CardTransform, progress p: Double) -> CardTransform {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * p }
        return CardTransform(
            x: mix(from.x, to.x), y: mix(from.y, to.y), w: mix(from.w, to.w), h: mix(from.h, to.h),
            rotation: mix(from.rotation, to.rotation), scaleX: mix(from.scaleX, to.scaleX),
            scaleY: mix(from.scaleY, to.scaleY), opacity: mix(from.opacity, to.opacity),
            flip: mix(from.flip, to.flip)
        )
    }
}
