/// A motion curve: maps time since an animation's start to progress (0 at the start, 1 at rest).
///
/// The page evaluates the same formulas (`Resources/web/curve.js`, after docs/wire-protocol.md); test
/// vectors written by the Swift tests keep the two in step.
public enum Curve: Sendable, Equatable {
    /// A damped spring from 0 to 1: `m·x'' + c·x' + k·(x − 1) = 0`, `x(0) = 0`, `x'(0) = velocity`
    /// (progress per second). Settles at the animation's `duration`, where progress is exactly 1.
    case spring(stiffness: Double, damping: Double, mass: Double, velocity: Double)
    /// Cubic ease-out over the animation's duration: `1 − (1 − p)³`.
    case easeOut
    /// Cubic ease-in-out over the animation's duration.
    case easeInOut
    /// Straight progress `p`.
    case linear

    /// Progress `elapsed` milliseconds into an animation of `duration` milliseconds: 0 before the
    /// start, exactly 1 at and after the end, the document's formula in between.
    public func progress(elapsed: Millis, duration: Millis) -> Double {
        if elapsed < 0 { return 0 }
        if elapsed >= duration { return 1 }
        let p = (elapsed / 1000) / (duration / 1000)
        switch self {
        case .linear:
            return p
        case .easeOut:
            let rest = 1 - p
            return 1 - rest * rest * rest
        case .easeInOut:
            let tail = -2 * p + 2
            return p < 0.5 ? 4 * p * p * p : 1 - tail * tail * tail / 2
        case .spring(let stiffness, let damping, let mass, let velocity):
            let solution = SpringSolution(stiffness: stiffness, damping: damping, mass: mass, velocity: velocity)
            return 1 + solution.displacement(at: elapsed / 1000)
        }
    }

    /// Within this distance of rest (in progress units) a spring counts as settled.
    static let settleTolerance = 0.001
    /// Below this speed (progress units per second) a spring counts as settled.
    static let settleVelocityTolerance = 0.01
    /// The longest settle duration reported, for springs too weakly damped to settle sooner.
    static let settleLimit: Millis = 60_000

    /// The whole milliseconds after which a spring stays within 0.001 of rest, moving slower than
    /// 0.01 progress units per second: the duration to give its animation, so that the jump to
    /// exactly 1 at the end is never visible. At most 60 s, for springs too weakly damped to settle.
    public static func springSettleDuration(
        stiffness: Double, damping: Double, mass: Double, velocity: Double
    ) -> Millis {
        SpringSolution(stiffness: stiffness, damping: damping, mass: mass, velocity: velocity)
            .settleMillis(
                displacementTolerance: settleTolerance, velocityTolerance: settleVelocityTolerance,
                limit: settleLimit)
    }
}
