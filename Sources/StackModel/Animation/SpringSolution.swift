/// The normalised damped spring of docs/wire-protocol.md in closed form: the displacement
/// `e(t) = x(t) − 1` from `e(0) = −1` with `e'(0) = velocity`, `t` in seconds.
///
/// The page evaluates the same three formulas; keep them written as the document writes them.
struct SpringSolution: Sendable {
    private enum Regime: Sendable {
        case underDamped(decay: Double, omegaD: Double, sineCoefficient: Double, omega0: Double)
        case criticallyDamped(omega0: Double, slope: Double, velocity: Double)
        case overDamped(r1: Double, r2: Double, c1: Double, c2: Double)
    }

    private let regime: Regime

    /// `stiffness` and `mass` must be positive.
    init(stiffness: Double, damping: Double, mass: Double, velocity: Double) {
        let omega0 = Elementary.squareRoot(stiffness / mass)
        let zeta = damping / (2 * Elementary.squareRoot(stiffness * mass))
        if abs(zeta - 1) < 1e-6 {
            regime = .criticallyDamped(omega0: omega0, slope: velocity - omega0, velocity: velocity)
        } else if zeta < 1 {
            let omegaD = omega0 * Elementary.squareRoot(1 - zeta * zeta)
            regime = .underDamped(
                decay: zeta * omega0, omegaD: omegaD, sineCoefficient: (velocity - zeta * omega0) / omegaD,
                omega0: omega0)
        } else {
            let root = Elementary.squareRoot(zeta * zeta - 1)
            let r1 = -omega0 * (zeta - root)
            let r2 = -omega0 * (zeta + root)
            let c2 = (velocity + r1) / (r2 - r1)
            regime = .overDamped(r1: r1, r2: r2, c1: -1 - c2, c2: c2)
        }
    }

    /// `e(t)`; progress is `1 + e(t)`.
    func displacement(at t: Double) -> Double {
        switch regime {
        case .underDamped(let decay, let omegaD, let sineCoefficient, _):
            return Elementary.exp(-decay * t)
                * (-Elementary.cos(omegaD * t) + sineCoefficient * Elementary.sin(omegaD * t))
        case .criticallyDamped(let omega0, let slope, _):
            return Elementary.exp(-omega0 * t) * (-1 + slope * t)
        case .overDamped(let r1, let r2, let c1, let c2):
            return c1 * Elementary.exp(r1 * t) + c2 * Elementary.exp(r2 * t)
        }
    }

    /// Seconds after which `|e| < displacementTolerance` and `|e'| < velocityTolerance` for good,
    /// rounded up to a whole millisecond, at most `limit` (an undamped spring never settles).
    ///
    /// Found on upper bounds of `|e|` and `|e'|` rather than on `e` itself, so an under-damped spring
    /// passing through 1 mid-swing does not count as settled.
    func settleMillis(displacementTolerance: Double, velocityTolerance: Double, limit: Millis) -> Millis {
        let (displacementBound, velocityBound) = bounds
        let terms = displacementBound + velocityBound
        guard terms.allSatisfy({ $0.rate > 0 }) else { return limit }
        func isSettled(_ millis: Millis) -> Bool {
            let t = millis / 1000
            return displacementBound.reduce(0) { $0 + $1.value(at: t) } < displacementTolerance
                && velocityBound.reduce(0) { $0 + $1.value(at: t) } < velocityTolerance
        }
        // Past every term's peak the bounds only fall, so "settled" stays true once true: search there.
        var late = Elementary.ceiling((terms.map(\.peak).max() ?? 0) * 1000)
        if isSettled(late) { return min(late, limit) }
        var early = late
        var step: Millis = 1
        while !isSettled(late) {
            early = late
            late += step
            step *= 2
            if late >= limit { return limit }
        }
        while late - early > 1 {
            let middle = Elementary.floor((early + late) / 2)
            if isSettled(middle) { late = middle } else { early = middle }
        }
        return late
    }

    /// Upper bounds on `|e(t)|` and `|e'(t)|`.
    private var bounds: (displacement: [DecayingTerm], velocity: [DecayingTerm]) {
        switch regime {
        case .underDamped(let decay, _, let sineCoefficient, let omega0):
            let amplitude = Elementary.squareRoot(1 + sineCoefficient * sineCoefficient)
            return (
                [DecayingTerm(constant: amplitude, linear: 0, rate: decay)],
                [DecayingTerm(constant: amplitude * omega0, linear: 0, rate: decay)]
            )
        case .criticallyDamped(let omega0, let slope, let velocity):
            return (
                [DecayingTerm(constant: 1, linear: abs(slope), rate: omega0)],
                [DecayingTerm(constant: abs(velocity), linear: omega0 * abs(slope), rate: omega0)]
            )
        case .overDamped(let r1, let r2, let c1, let c2):
            return (
                [
                    DecayingTerm(constant: abs(c1), linear: 0, rate: -r1),
                    DecayingTerm(constant: abs(c2), linear: 0, rate: -r2),
                ],
                [
                    DecayingTerm(constant: abs(c1 * r1), linear: 0, rate: -r1),
                    DecayingTerm(constant: abs(c2 * r2), linear: 0, rate: -r2),
                ]
            )
        }
    }
}

/// `(constant + linear·t)·exp(−rate·t)`, with non-negative coefficients.
private struct DecayingTerm {
    var constant: Double
    var linear: Double
    var rate: Double

    func value(at t: Double) -> Double { (constant + linear * t) * Elementary.exp(-rate * t) }

    /// Seconds after which the term only decreases.
    var peak: Double { linear > 0 ? max(0, 1 / rate - constant / linear) : 0 }
}
