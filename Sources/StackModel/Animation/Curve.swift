/// A motion curve: maps seconds since an animation's start to progress (0 at the start, 1 at rest).
///
/// The page evaluates the same formulas (`Resources/web/curve.js`); test vectors written by the Swift
/// tests keep the two in step.
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
}
