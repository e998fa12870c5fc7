/// Decides whether a released drag throws its card away, and which way.
///
/// A flick is `(speed ≥ minimumSpeed or distance ≥ minimumDistance)` and not
/// `(speed ≥ restingSpeed and velocity · translation < 0)`: a throw is fast or far, but a finger
/// still moving back toward where it started is bringing the card home, not throwing it. The
/// thresholds' origins: docs/styles.md.
///
/// Each threshold holds in stage points and in the screen's CSS pixels alike: a phone shows a
/// stage point in 0.38 px, and a 50-px drag there is 131 points, past a quarter of a pile card; the
/// thresholds are then raised by 1 / 0.38, so that the phone springs back where a laptop (about one
/// pixel a point) does. A screen with more pixels than points (a TV) keeps them in points.
struct FlickRule: Sendable, Equatable {
    /// 800 pt/s: a deliberate throw. Repositioning drags stay well below it, while a quick throw
    /// across a 1024-pt stage easily passes it; card-swipe libraries settle on the same 500–1000 range.
    static let minimumSpeed = 800.0
    /// Below 100 pt/s a finger is resting: within the 100 ms velocity window it moves less than the
    /// 10-pt tap slop, so its direction is noise and is neither trusted nor held against the throw.
    static let restingSpeed = 100.0

    /// A quarter of the card's short side: dragged this far, the card goes even without speed.
    var minimumDistance: Double
    /// How much the thresholds grow on a screen with fewer pixels than points (1 elsewhere).
    var screenFactor: Double

    init(cardWidth: Double, cardHeight: Double, pixelsPerPoint: Double = 1) {
        minimumDistance = min(cardWidth, cardHeight) / 4
        screenFactor = 1 / min(1, max(pixelsPerPoint, PointerInput.pixelsPerPointRange.lowerBound))
    }

    /// The unit direction the card flies in, or nil when it springs back: the velocity's direction,
    /// or the drag's when the finger was resting.
    func flightDirection(translation: Point, velocity: Point) -> Point? {
        let speed = velocity.length
        let distance = translation.length
        let moving = speed >= Self.restingSpeed * screenFactor
        if moving && velocity.dot(translation) < 0 { return nil }
        guard speed >= Self.minimumSpeed * screenFactor || distance >= minimumDistance * screenFactor else {
            return nil
        }
        if moving { return velocity * (1 / speed) }
        return distance > 0 ? translation * (1 / distance) : nil
    }
}
