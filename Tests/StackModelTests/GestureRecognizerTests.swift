import Testing

@testable import StackModel

@Suite struct GestureRecognizerTests {
    typealias Outcome = GestureRecognizer.Outcome

    /// Feeds `inputs` at server times 10 ms apart; the target covers `grabbable`.
    private func outcomes(
        _ inputs: [PointerInput], into recognizer: inout GestureRecognizer, grabbable: Bool = true
    ) -> [Outcome] {
        inputs.enumerated().map { index, input in
            recognizer.handle(input, at: Fixture.now + Millis(index) * 10) { _ in grabbable }
        }
    }

    private func outcomes(_ inputs: [PointerInput], grabbable: Bool = true) -> [Outcome] {
        var recognizer = GestureRecognizer()
        return outcomes(inputs, into: &recognizer, grabbable: grabbable)
    }

    private let origin = Point(x: 100, y: 100)

    @Test(arguments: [
        // (farthest movement, press duration, is a tap)
        (9.9, 100.0, true), (10.1, 100, false), (0, 299, true), (0, 301, false),
    ])
    func tapNeedsLittleMovementAndAShortPress(movement: Double, duration: Millis, isTap: Bool) {
        let result = outcomes([
            Fixture.input(.down, 100, 100, t: 1000),
            Fixture.input(.move, 100 + movement, 100, t: 1000 + duration / 2),
            Fixture.input(.up, 100 + movement, 100, t: 1000 + duration),
        ])
        #expect(result[0] == .began(at: origin))
        if isTap {
            #expect(result[2] == .tapped(at: origin))
        } else {
            let velocity = VelocityFit.standard.velocity(
                of: [
                    PointerSample(point: origin, t: 1000),
                    PointerSample(point: Point(x: 100 + movement, y: 100), t: 1000 + duration / 2),
                    PointerSample(point: Point(x: 100 + movement, y: 100), t: 1000 + duration),
                ],
                endingAt: 1000 + duration)
            #expect(result[2] == .released(start: origin, end: Point(x: 100 + movement, y: 100), velocity: velocity))
        }
    }

    @Test(arguments: [
        // (second down after first up, distance between the downs, viewer of the second tap, double)
        (299.0, 29.0, "v1", true), (301, 0, "v1", false), (100, 31, "v1", false), (100, 0, "v2", false),
    ])
    func doubleTapIsTwoTapsCloseInTimeAndPlace(interval: Millis, distance: Double, viewer: String, isDouble: Bool) {
        let result = outcomes([
            Fixture.input(.down, 100, 100, t: 1000),
            Fixture.input(.up, 100, 100, t: 1050),
            Fixture.input(.down, 100 + distance, 100, t: 1050 + interval, viewer: viewer, pointer: 2),
            Fixture.input(.up, 100 + distance, 100, t: 1100 + interval, viewer: viewer, pointer: 2),
        ])
        let second = Point(x: 100 + distance, y: 100)
        #expect(
            result == [
                .began(at: origin), .tapped(at: origin), .began(at: second),
                isDouble ? .doubleTapped(at: second) : .tapped(at: second),
            ])
    }

    @Test func aThirdTapStartsAfreshAfterADoubleTap() {
        let result = outcomes([
            Fixture.input(.down, 100, 100, t: 1000), Fixture.input(.up, 100, 100, t: 1050),
            Fixture.input(.down, 100, 100, t: 1100), Fixture.input(.up, 100, 100, t: 1150),
            Fixture.input(.down, 100, 100, t: 1200), Fixture.input(.up, 100, 100, t: 1250),
        ])
        #expect(
            result.filter { $0 != .began(at: origin) } == [
                .tapped(at: origin), .doubleTapped(at: origin), .tapped(at: origin),
            ])
    }

    @Test func otherPointersAndViewersCannotHijackAGesture() {
        let result = outcomes([
            Fixture.input(.down, 100, 100, t: 1000),
            Fixture.input(.down, 300, 300, t: 1010, pointer: 2),
            Fixture.input(.move, 320, 300, t: 1020, pointer: 2),
            Fixture.input(.down, 300, 300, t: 5, viewer: "v2"),
            Fixture.input(.move, 320, 300, t: 15, viewer: "v2"),
            Fixture.input(.up, 320, 300, t: 25, viewer: "v2"),
            Fixture.input(.cancel, 320, 300, t: 1030, pointer: 2),
            Fixture.input(.move, 150, 100, t: 1040),
        ])
        #expect(
            result == [.began(at: origin), .none, .none, .none, .none, .none, .none, .moved(to: Point(x: 150, y: 100))])
    }

    @Test func aDownOffTheTargetStartsNothing() {
        let result = outcomes(
            [
                Fixture.input(.down, 100, 100, t: 1000), Fixture.input(.move, 150, 100, t: 1010),
                Fixture.input(.up, 150, 100, t: 1020),
            ],
            grabbable: false)
        #expect(result == [.none, .none, .none])
    }

    @Test func cancelEndsTheGesture() {
        let result = outcomes([
            Fixture.input(.down, 100, 100, t: 1000), Fixture.input(.cancel, 100, 100, t: 1010),
            Fixture.input(.move, 150, 100, t: 1020), Fixture.input(.up, 150, 100, t: 1030),
        ])
        #expect(result == [.began(at: origin), .cancelled, .none, .none])
    }

    @Test func aSilentGestureTimesOutThreeSecondsAfterItsLastSample() {
        var recognizer = GestureRecognizer()
        #expect(recognizer.deadline == nil)
        _ = recognizer.handle(Fixture.input(.down, 100, 100, t: 1000), at: 5000) { _ in true }
        _ = recognizer.handle(Fixture.input(.move, 110, 100, t: 1016), at: 5020) { _ in true }
        #expect(recognizer.deadline == 8020)
        #expect(recognizer.expire(at: 8019) == .none)
        #expect(recognizer.expire(at: 8020) == .cancelled)
        #expect(recognizer.deadline == nil && !recognizer.isActive)
    }

    @Test func anOlderMoveJoinsTheFitButDoesNotMoveTheDrag() {
        var recognizer = GestureRecognizer()
        let result = outcomes(
            [
                Fixture.input(.down, 100, 100, t: 1000),
                Fixture.input(.move, 120, 100, t: 1020),
                Fixture.input(.move, 115, 100, t: 1010),
                Fixture.input(.up, 130, 100, t: 1030),
            ], into: &recognizer)
        let inTimeOrder = [(1000.0, 100.0), (1010, 115), (1020, 120), (1030, 130)].map {
            PointerSample(point: Point(x: $0.1, y: 100), t: $0.0)
        }
        let velocity = VelocityFit.standard.velocity(of: inTimeOrder, endingAt: 1030)
        #expect(
            result == [
                .began(at: origin), .moved(to: Point(x: 120, y: 100)), .none,
                .released(start: origin, end: Point(x: 130, y: 100), velocity: velocity),
            ])
    }

    @Test func anUpOlderThanTheNewestMoveReleasesAtTheNewest() {
        let result = outcomes([
            Fixture.input(.down, 100, 100, t: 1000),
            Fixture.input(.move, 130, 100, t: 1030),
            Fixture.input(.up, 120, 100, t: 1020),
        ])
        let samples = [(1000.0, 100.0), (1020, 120), (1030, 130)].map {
            PointerSample(point: Point(x: $0.1, y: 100), t: $0.0)
        }
        #expect(
            result.last
                == .released(
                    start: origin, end: Point(x: 130, y: 100),
                    velocity: VelocityFit.standard.velocity(of: samples, endingAt: 1030)))
    }

    @Test func aDownFromTheOwnerAfterALostUpRegrabsOrCancels() {
        let regrab = outcomes([
            Fixture.input(.down, 100, 100, t: 1000), Fixture.input(.move, 130, 100, t: 1020),
            Fixture.input(.down, 140, 100, t: 2000), Fixture.input(.move, 150, 100, t: 2010),
        ])
        #expect(
            regrab == [
                .began(at: origin), .moved(to: Point(x: 130, y: 100)), .began(at: Point(x: 140, y: 100)),
                .moved(to: Point(x: 150, y: 100)),
            ])

        var recognizer = GestureRecognizer()
        _ = recognizer.handle(Fixture.input(.down, 100, 100, t: 1000), at: 0) { _ in true }
        #expect(recognizer.handle(Fixture.input(.down, 900, 100, t: 2000), at: 10) { _ in false } == .cancelled)
        #expect(!recognizer.isActive)
    }
}
