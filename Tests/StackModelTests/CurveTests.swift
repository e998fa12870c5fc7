import Testing

@testable import StackModel

@Suite struct CurveTests {
    @Test(arguments: [
        (Curve.linear, 0.25, 0.25),
        (Curve.linear, 0.5, 0.5),
        (Curve.easeOut, 0.5, 0.875),
        (Curve.easeOut, 0.25, 1 - 0.75 * 0.75 * 0.75),
        (Curve.easeInOut, 0.25, 0.0625),
        (Curve.easeInOut, 0.5, 0.5),
        (Curve.easeInOut, 0.75, 0.9375),
    ])
    func easedCurvesFollowTheDocumentedFormulas(curve: Curve, fraction: Double, expected: Double) {
        #expect(abs(curve.progress(elapsed: 400 * fraction, duration: 400) - expected) < 1e-15)
    }

    @Test(arguments: [
        Curve.linear, .easeOut, .easeInOut, .spring(stiffness: 170, damping: 26, mass: 1, velocity: 0),
        .spring(stiffness: 100, damping: 20, mass: 1, velocity: 3),
        .spring(stiffness: 100, damping: 40, mass: 1, velocity: 0),
    ])
    func progressIsZeroBeforeTheStartAndExactlyOneFromTheEnd(curve: Curve) {
        #expect(curve.progress(elapsed: -10, duration: 400) == 0)
        #expect(abs(curve.progress(elapsed: 0, duration: 400)) < 1e-15)
        #expect(curve.progress(elapsed: 400, duration: 400) == 1)
        #expect(curve.progress(elapsed: 1000, duration: 400) == 1)
    }

    @Test func springStartsAtTheGivenVelocity() {
        for (damping, velocity) in [(12.0, 0.0), (12, 4), (20, 0), (20, -3), (40, 0), (40, 6)] {
            let curve = Curve.spring(stiffness: 100, damping: damping, mass: 1, velocity: velocity)
            let slope =
                (curve.progress(elapsed: 0.001, duration: 10_000) - curve.progress(elapsed: 0, duration: 10_000)) / 1e-6
            #expect(abs(slope - velocity) < 1e-3, "damping \(damping), velocity \(velocity)")
        }
    }

    @Test func criticallyDampedSpringMatchesItsClosedForm() {
        let curve = Curve.spring(stiffness: 100, damping: 20, mass: 1, velocity: 0)
        // ω0 = 10: x(t) = 1 − e^(−10t)(1 + 10t).
        let expected = 1 - Elementary.exp(-2) * 3
        #expect(abs(curve.progress(elapsed: 200, duration: 10_000) - expected) < 1e-15)
    }

    @Test(arguments: [
        (170.0, 26.0, 1.0, 0.0), (170, 12, 1, 0), (170, 12, 1, 5), (225, 30, 1, 0), (225, 30, 1, 12),
        (225, 30, 1, 40), (100, 40, 1, 0), (100, 40, 1, -4), (300, 10, 2, 0),
    ])
    func springSettleDurationIsAWholeMillisecondAfterWhichTheSpringRests(
        stiffness: Double, damping: Double, mass: Double, velocity: Double
    ) {
        let duration = Curve.springSettleDuration(
            stiffness: stiffness, damping: damping, mass: mass, velocity: velocity)
        let curve = Curve.spring(stiffness: stiffness, damping: damping, mass: mass, velocity: velocity)
        #expect(duration == duration.rounded() && duration > 0 && duration < 5000)
        func x(_ elapsed: Millis) -> Double { curve.progress(elapsed: elapsed, duration: .infinity) }
        for elapsed in stride(from: duration, through: duration + 3000, by: 1) {
            #expect(abs(x(elapsed) - 1) < Curve.settleTolerance)
            #expect(abs(x(elapsed + 0.01) - x(elapsed)) / 1e-5 < Curve.settleVelocityTolerance * 1.01)
        }
    }

    @Test func settleDurationIsNotFarPastTheLastVisibleMotion() {
        // react-spring's default spring visibly settles in roughly 0.6 s.
        let duration = Curve.springSettleDuration(stiffness: 170, damping: 26, mass: 1, velocity: 0)
        #expect(duration > 500 && duration < 900)
    }

    @Test func undampedSpringReportsTheLimit() {
        #expect(Curve.springSettleDuration(stiffness: 100, damping: 0, mass: 1, velocity: 0) == Curve.settleLimit)
    }
}

@Suite struct CardAnimationTests {
    static let from = CardTransform(x: 0, y: 100, w: 200, h: 100, rotation: 0.5)
    static let to = CardTransform(x: 1000, y: 300, w: 200, h: 100, rotation: -0.5, opacity: 0.5)
    static let animation = CardAnimation(start: 5000, duration: 400, curve: .easeOut, from: from, to: to)

    @Test func valueIsFromBeforeTheStartAndExactlyToFromTheEnd() {
        #expect(Self.animation.value(at: 4000) == Self.from)
        #expect(Self.animation.value(at: 5000) == Self.from)
        #expect(Self.animation.value(at: 5400) == Self.to)
        #expect(Self.animation.value(at: 9000) == Self.to)
    }

    @Test func valueInterpolatesEveryKeyByTheCurvesProgress() {
        let value = Self.animation.value(at: 5200)
        #expect(value == CardTransform(x: 875, y: 275, w: 200, h: 100, rotation: -0.375, opacity: 0.5625))
    }
}
