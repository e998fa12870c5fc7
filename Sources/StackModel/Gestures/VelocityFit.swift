/// A pointer position at a time on the page's clock.
struct PointerSample: Sendable, Equatable {
    var point: Point
    var t: Millis
}

/// Release velocity as the least-squares slope of `x(t)` and `y(t)` over the samples of the last
/// `window` milliseconds: a fit rides over the jitter and uneven spacing of pointer samples, where the
/// last two samples alone can give nearly any speed.
struct VelocityFit: Sendable, Equatable {
    static let standard = VelocityFit(window: 100)

    /// How far back from the release samples count, in page milliseconds (inclusive).
    var window: Millis

    /// Points per second over the samples with `end − window ≤ t ≤ end`; zero with fewer than two
    /// samples there, or when they all share one time.
    func velocity(of samples: [PointerSample], endingAt end: Millis) -> Point {
        let recent = samples.filter { $0.t >= end - window && $0.t <= end }
        guard recent.count >= 2 else { return .zero }
        let meanT = recent.reduce(0) { $0 + $1.t } / Double(recent.count)
        // Positions are taken relative to the first sample rather than to their mean: the slope is the
        // same, since the time deviations sum to zero, and a resting finger gives exactly zero.
        let origin = recent[0].point
        var spreadT = 0.0
        var covarianceX = 0.0
        var covarianceY = 0.0
        for sample in recent {
            let dt = sample.t - meanT
            spreadT += dt * dt
            covarianceX += dt * (sample.point.x - origin.x)
            covarianceY += dt * (sample.point.y - origin.y)
        }
        guard spreadT > 0 else { return .zero }
        // Slopes are in points per millisecond.
        return Point(x: covarianceX / spreadT * 1000, y: covarianceY / spreadT * 1000)
    }
}
