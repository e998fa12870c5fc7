import Testing

@testable import StackModel

/// The one recognizer in every style: nobody hijacks a drag, a cancel or a lost up returns the
/// cards, samples out of order give the same result, and presses in tap-only styles drag nothing.
@Suite struct GestureAcrossStylesTests {
    let now = Fixture.now
    static let draggable: [StyleName] = [.pile, .deck, .swipe]

    /// The centre of the top card in `style` on the default stage.
    private func topCentre(_ stack: Stack) -> Point {
        let top = stack.drawnCards(at: now)[0].transform
        return Point(x: top.x, y: top.y)
    }

    @Test(arguments: draggable)
    func aSecondPointerOrViewerCannotHijackTheDrag(style: StyleName) throws {
        var stack = Fixture.stack(style, cards: 8)
        let centre = topCentre(stack)
        let rest = stack.drawnCards(at: now)[0].transform
        try stack.apply([(Fixture.pointer(.down, centre.x, centre.y, t: 1000), now)])
        let intruders: [StackEvent] = [
            Fixture.pointer(.down, centre.x, centre.y, t: 1005, pointer: 2),
            Fixture.pointer(.move, centre.x - 150, centre.y, t: 1010, pointer: 2),
            Fixture.pointer(.up, centre.x - 300, centre.y, t: 1015, pointer: 2),
            Fixture.pointer(.down, centre.x, centre.y, t: 50, viewer: "v2"),
            Fixture.pointer(.move, centre.x - 300, centre.y, t: 60, viewer: "v2"),
            Fixture.pointer(.cancel, centre.x - 300, centre.y, t: 70, viewer: "v2"),
        ]
        for (index, event) in intruders.enumerated() {
            #expect(try stack.handle(event, at: now + Millis(index + 1)) == StackChange())
        }
        let own = try stack.handle(Fixture.pointer(.move, centre.x - 30, centre.y, t: 1030), at: now + 30)
        #expect(own.cards.first?.id == "c0" && own.cards.first?.transform != rest)
        #expect(stack.current == 0)
    }

    @Test(arguments: draggable, [true, false])
    func aCancelOrASilentPointerReturnsEveryCard(style: StyleName, cancels: Bool) throws {
        var stack = Fixture.stack(style, cards: 8)
        let original = stack.drawnCards(at: now)
        let centre = topCentre(stack)
        try stack.apply([
            (Fixture.pointer(.down, centre.x, centre.y, t: 1000), now),
            (Fixture.pointer(.move, centre.x - 60, centre.y + 20, t: 1016), now + 16),
        ])
        if cancels {
            _ = try stack.handle(Fixture.pointer(.cancel, centre.x - 60, centre.y, t: 1020), at: now + 20)
        } else {
            #expect(stack.nextDeadline == now + 16 + 3000)
        }
        try stack.settle()
        #expect(stack.resting == original)
        // Over: the pointer's late samples change nothing.
        #expect(
            try stack.handle(Fixture.pointer(.up, centre.x - 90, centre.y, t: 9000), at: now + 9000) == StackChange())
    }

    @Test(arguments: draggable)
    func samplesArrivingOutOfOrderGiveTheSameResult(style: StyleName) throws {
        let centre = topCentre(Fixture.stack(style, cards: 8))
        // A left throw at 1500 pt/s, sampled every 8 ms.
        let moves = (1...8).map { step in
            PointerInput(
                viewer: "v1", phase: .move, pointer: 1, x: centre.x - Double(step) * 12, y: centre.y,
                t: 1000 + Millis(step) * 8)
        }
        let down = Fixture.input(.down, centre.x, centre.y, t: 1000)
        let up = Fixture.input(.up, centre.x - 96, centre.y, t: 1064)
        // The page's batches can arrive in another order than their samples' times.
        let shuffled = [moves[1], moves[0], moves[3], moves[2], moves[6], moves[4], moves[5], moves[7]]
        var results: [[DrawnCard]] = []
        for order in [moves, shuffled] {
            var stack = Fixture.stack(style, cards: 8)
            for (index, input) in ([down] + order + [up]).enumerated() {
                _ = try stack.handle(.pointer(input), at: now + Millis(index) * 8)
            }
            #expect(stack.current == 1)
            results.append(stack.drawnCards(at: now + 100))
        }
        #expect(results[0] == results[1])
    }

    @Test(arguments: [StyleName.angles, .grid])
    func inTapOnlyStylesADragMovesNothingAndStillEnds(style: StyleName) throws {
        var stack = Fixture.stack(style, cards: 8)
        let events = Fixture.drag(speed: 2000, duration: 100).dropLast()
        #expect(try stack.apply(Array(events)) == StackChange())
        #expect(stack.nextDeadline == now + 100 + 3000)
        #expect(try stack.handle(.tick, at: now + 3100) == StackChange())
        #expect(stack.nextDeadline == nil && stack.current == 0)
    }
}
