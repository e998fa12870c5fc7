import Testing

@testable import StackModel

/// A batch of samples the page sent once but the server heard twice.
@Suite struct GestureRecognizerReplayTests {
    @Test func aDownNoNewerThanTheDragsNewestSampleIsIgnored() {
        var recognizer = GestureRecognizer()
        let inputs = [
            Fixture.input(.down, 100, 100, t: 1000), Fixture.input(.move, 140, 100, t: 1016),
            Fixture.input(.down, 100, 100, t: 1000), Fixture.input(.down, 140, 100, t: 1016),
            Fixture.input(.move, 160, 100, t: 1032),
        ]
        let outcomes = inputs.enumerated().map { index, input in
            recognizer.handle(input, at: Fixture.now + Millis(index) * 10) { _ in true }
        }
        #expect(
            outcomes == [
                .began(at: Point(x: 100, y: 100)), .moved(to: Point(x: 140, y: 100)), .none, .none,
                .moved(to: Point(x: 160, y: 100)),
            ])
    }
}
