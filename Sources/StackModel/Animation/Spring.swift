/// The springs the stack animates with, and how to turn one into a card's motion.
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
