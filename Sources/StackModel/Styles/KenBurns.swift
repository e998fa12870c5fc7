/// The `frame` style's slow zoom and pan over a shown photo (the Ken Burns effect): the photo grows
/// from its fitted size, about its middle or drifting toward one of eight sides and corners, or
/// shrinks back from there to its fitted size. Which of these a pass shows follows from the card's tilt, a whole
/// number the stack draws from its seed (anew each time the card goes to the back), so every viewer
/// sees the same motion and each pass of a photo may differ. See docs/styles.md.
struct KenBurns: Sendable, Equatable {
    /// How far the photo zooms: the zoomed photo is this many times its fitted size.
    static let zoom = 1.15
    /// The motion's length: a calm drift, as long as the slideshow's default interval.
    static let duration: Millis = 10_000
    /// Steady speed: a Ken Burns pan neither starts nor stops visibly.
    static let transition = Transition.tween(.linear, duration: duration)

    var start: CardTransform
    var end: CardTransform

    /// The motion over `fitted`, the photo fitted where it shows, chosen by `tilt` (−4…4): 0 grows
    /// about the middle; 1…4 grow drifting left, up-left, up and up-right; −1…−4 start grown and
    /// drifted right, down-right, down and down-left, and shrink back to fitted.
    ///
    /// The card keeps the zoomed size throughout (`w`, `h`), its scale going between 1/zoom and 1, so
    /// a viewer makes its picture once at the larger size. Zoomed toward a side, the photo moves by
    /// at most the room zooming made there, so it still covers its fitted place.
    init(over fitted: CardTransform, tilt: Int8) {
        let z = Self.zoom
        var small = fitted
        small.w = fitted.w * z
        small.h = fitted.h * z
        small.scaleX = 1 / z
        small.scaleY = 1 / z
        var large = small
        large.scaleX = 1
        large.scaleY = 1
        if tilt != 0 {
            // Eight directions, 45° apart (y down): 1 left, 2 upper left, 3 up, 4 upper right, and
            // −1…−4 the opposite ones.
            let angle = Double(abs(Int(tilt)) - 1) * .pi / 4 + (tilt > 0 ? .pi : 0)
            large.x += (z - 1) / 2 * fitted.w * Elementary.cos(angle)
            large.y += (z - 1) / 2 * fitted.h * Elementary.sin(angle)
        }
        (start, end) = tilt >= 0 ? (small, large) : (large, small)
    }
}
