/// The springs the stack animates with, and how to turn one into a card's motion (their origins:
/// docs/styles.md).
struct Spring: Sendable, Equatable {
    var stiffness: Double
    var damping: Double
    var mass: Double

    /// Cards coming to rest (spring back, straightening, sliding under the pile): react-spring's
    /// default, ζ ≈ 0.997, a brisk settle with no visible overshoot.
    static let settle = Spring(stiffness: 170, damping: 26, mass: 1)
    /// A card flying off the stage: critically damped (ζ = 1 exactly, ω0 = 15/s) so it keeps the
    /// thrown speed without wobbling; its end, when the card joins the bottom, comes about 0.7 s later.
    static let flight = Spring(stiffness: 225, damping: 30, mass: 1)
    /// The deck's layers moving forward or back (the original card animation's
    /// `usingSpringWithDamping: 0.4`, duration 0.5 s; docs/styles.md).
    ///
    /// UIKit finishes such an animation at its duration, so its envelope `exp(−ζ·ω0·t)` has died down
    /// by then; taking "died down" as our settle tolerance, 0.001, gives `ζ·ω0·0.5 s = ln 1000`:
    /// `ω0 = 6.9078 / (0.4 · 0.5) = 34.539 /s`, `stiffness = ω0² ≈ 1193`, `damping = 2ζω0 ≈ 27.63`
    /// (mass 1). It overshoots by `exp(−ζπ/√(1 − ζ²)) ≈ 25 %`, the original's visible bounce.
    static let deck = Spring(stiffness: 1193, damping: 27.63, mass: 1)

    /// A motion from `from` to `to` starting at `start` with initial speed `velocity` (progress units
    /// per second), lasting until the spring settles; nil when there is nowhere to go.
    func animation(from: CardTransform, to: CardTransform, start: Millis, velocity: Double = 0) -> CardAnimation? {
        guard from != to else { return nil }
        return CardAnimation(
            start: start,
            duration: Curve.springSettleDuration(
                stiffness: stiffness, damping: damping, mass: mass, velocity: velocity),
            curve: .spring(stiffness: stiffness, damping: damping, mass: mass, velocity: velocity),
            from: from, to: to)
    }
}
