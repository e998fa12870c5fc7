import Testing

@testable import StackModel

@Suite struct VelocityFitTests {
    private func samples(_ points: [(t: Millis, x: Double, y: Double)]) -> [PointerSample] {
        points.map { PointerSample(point: Point(x: $0.x, y: $0.y), t: $0.t) }
    }

    @Test func noiseFreeLineGivesItsSlope() {
        // x moves 0.5 pt/ms, y −0.25 pt/ms, at uneven times.
        let line = samples([0, 7, 16, 33, 41, 58, 66, 83, 100].map { t in (t, 3 + 0.5 * t, 10 - 0.25 * t) })
        let velocity = VelocityFit.standard.velocity(of: line, endingAt: 100)
        #expect(abs(velocity.x - 500) < 1e-9)
        #expect(abs(velocity.y + 250) < 1e-9)
    }

    @Test func noisySamplesGiveTheLeastSquaresSlope() {
        let noise: [Double] = [1.5, -2, 0.5, 2, -1, -1.5, 1]
        let points: [(t: Millis, x: Double, y: Double)] = noise.indices.map { index in
            let t = Millis(index) * 16
            return (t, 1.2 * t + noise[index], 0)
        }
        let velocity = VelocityFit.standard.velocity(of: samples(points), endingAt: 96)
        // Textbook normal equations, written independently of the centred sums the fit uses.
        let n = Double(points.count)
        let sumT = points.reduce(0) { $0 + $1.t }
        let sumX = points.reduce(0) { $0 + $1.x }
        let sumTT = points.reduce(0) { $0 + $1.t * $1.t }
        let sumTX = points.reduce(0) { $0 + $1.t * $1.x }
        let slope = (n * sumTX - sumT * sumX) / (n * sumTT - sumT * sumT)
        #expect(abs(velocity.x - slope * 1000) < 1e-9)
        // The last two samples alone would say 1.2 + 2.5/16 pt/ms; the fit stays near the true 1.2.
        #expect(abs(velocity.x - 1200) < 60)
        #expect(velocity.y == 0)
    }

    @Test func samplesOlderThanTheWindowAreLeftOut() {
        // Fast at first, then steady at 0.2 pt/ms over the last 100 ms.
        let early = [(0.0, 0.0, 0.0), (20, 80, 0), (40, 160, 0), (99.5, 300, 0)]
        let late = [100.0, 130, 160, 200].map { t in (t, 300 + 0.2 * (t - 100), 0.0) }
        let velocity = VelocityFit.standard.velocity(of: samples(early + late), endingAt: 200)
        #expect(abs(velocity.x - 200) < 1e-9)
    }

    @Test func aSampleExactlyAtTheWindowEdgeCounts() {
        let points = samples([(100, 0, 0), (200, 50, 0)])
        #expect(VelocityFit.standard.velocity(of: points, endingAt: 200) == Point(x: 500, y: 0))
    }

    @Test func aRestingFingerGivesExactlyZero() {
        let resting = samples((0..<8).map { index in (Millis(index) * 13, 630.94, 384.1) })
        #expect(VelocityFit.standard.velocity(of: resting, endingAt: 91) == .zero)
    }

    @Test func fewerThanTwoSamplesOrOneInstantGiveZero() {
        #expect(VelocityFit.standard.velocity(of: samples([(0, 0, 0), (150, 30, 0)]), endingAt: 150) == .zero)
        #expect(VelocityFit.standard.velocity(of: samples([(150, 0, 0), (150, 30, 0)]), endingAt: 150) == .zero)
        #expect(VelocityFit.standard.velocity(of: [], endingAt: 150) == .zero)
    }
}

@Suite struct FlickRuleTests {
    /// The fixture's 4:3 card: short side 476.16, so a quarter is 119.04.
    static let rule = FlickRule(cardWidth: 634.88, cardHeight: 476.16)

    @Test(arguments: [
        // (translation x, velocity x, velocity y, flies)
        (50.0, 799.0, 0.0, false),  // slow and short
        (50, 801, 0, true),  // fast enough
        (119.03, 0, 0, false),  // just short of a quarter of the short side
        (119.05, 0, 0, true),  // just past it
        (200, -300, 0, false),  // far, but moving back home
        (50, -900, 0, false),  // fast, but back against the drag
        (200, -99, 0, true),  // drifting back below the resting speed: the distance counts
        (200, -101, 0, false),  // moving back above it
        (50, 0, 801, true),  // fast across the drag: the dot product is zero, not negative
    ])
    func decidesAtTheBoundaries(translation: Double, velocityX: Double, velocityY: Double, flies: Bool) {
        let direction = Self.rule.flightDirection(
            translation: Point(x: translation, y: 0), velocity: Point(x: velocityX, y: velocityY))
        #expect((direction != nil) == flies)
    }

    @Test func fliesAlongTheVelocityOrTheDragWhenTheFingerRested() {
        let thrown = Self.rule.flightDirection(translation: Point(x: 30, y: 0), velocity: Point(x: 600, y: 800))
        #expect(thrown == Point(x: 0.6, y: 0.8))
        let pushed = Self.rule.flightDirection(translation: Point(x: 0, y: -150), velocity: Point(x: 50, y: 0))
        #expect(pushed == Point(x: 0, y: -1))
    }
}
