import Testing

@testable import StackModel

/// A million cards: correctness only; timing belongs to the benchmarks. Expectations take plain
/// values, never the stack, so that a failure does not print a million cards.
@Suite struct StackScaleTests {
    @Test func aMillionCardsDragFlickAndReorder() throws {
        let now = Fixture.now
        var stack = Fixture.stack(cards: 1_000_000)
        let initial = (count: stack.count, drawn: stack.drawnCards(at: now).count)
        #expect(initial == (1_000_000, 10))
        _ = try stack.handle(Fixture.pointer(.down, 512, 384, t: 1000), at: now)
        for step in 1...300 {
            let change = try stack.handle(
                Fixture.pointer(.move, 512 + Double(step % 40), 384, t: 1000 + Millis(step)), at: now + Millis(step))
            #expect(change.cards.count == 1 && change.removed.isEmpty && !change.summaryChanged)
        }
        // A clean throw at 2000 pt/s filling the whole velocity window.
        for step in 1...24 {
            _ = try stack.handle(
                Fixture.pointer(.move, 532 + Double(step) * 10, 384, t: 1300 + Millis(step) * 5),
                at: now + 300 + Millis(step))
        }
        let flick = try stack.handle(Fixture.pointer(.up, 772, 384, t: 1420), at: now + 325)
        let flown = flick.cards.last.map { "\($0.id) \($0.position)" }
        #expect(flick.summaryChanged && flown == "c0 999999")
        #expect(stack.current == 1)

        let flightEnd = try #require(flick.cards.last?.animation?.end)
        let landing = try stack.handle(.tick, at: flightEnd)
        let slideEnd = try #require(landing.cards.first?.animation?.end)
        let removed = try stack.handle(.tick, at: slideEnd).removed
        #expect(removed == ["c0"])
        let settled = (deadline: stack.nextDeadline, drawn: stack.drawnCards(at: slideEnd).count)
        #expect(settled.deadline == nil && settled.drawn == 10)

        _ = try stack.handle(.command(.goto(index: 500_000)), at: now + 10_000)
        #expect(stack.current == 500_000)
        _ = try stack.handle(.command(.previous), at: now + 10_010)
        #expect(stack.current == 499_999)
        _ = try stack.handle(.command(.goto(index: 0)), at: now + 10_020)
        // The cycle is intact: c0 is back in front of c1, c2…
        let front = stack.drawnCards(at: now + 10_020).map(\.id)
        #expect(front == (0..<10).map { "c\($0)" })
        _ = try stack.handle(
            .command(.insert(photo: Photo(id: "new", width: 4, height: 3), at: 500_000)), at: now + 10_030)
        let grown = (count: stack.count, current: stack.current)
        #expect(grown == (1_000_001, 0))
        // `goto` counts places from the first card (c0): the new card took place 500 000.
        _ = try stack.handle(.command(.goto(index: 500_000)), at: now + 10_040)
        let next = stack.drawnCards(at: now + 10_040).prefix(2).map(\.id)
        #expect(next == ["c1000000", "c500000"] && stack.current == 500_000)
    }
}

/// A pointer move lays out only the drawn cards, in every style: it costs the same in a million cards
/// as in a thousand. Timing is compared, never absolute, and with a wide margin: a layout of the whole
/// stack would be a thousand times slower, not a few.
@Suite struct StackScaleAcrossStylesTests {
    let now = Fixture.now

    /// Seconds for 100 pointer moves over the top card (a press, moves, a cancel), and the largest
    /// number of cards one move redrew.
    private func timeMoves(_ stack: inout Stack, at start: Millis) throws -> (seconds: Double, redrawn: Int) {
        let top = stack.drawnCards(at: start)[0].transform
        _ = try stack.handle(Fixture.pointer(.down, top.x, top.y, t: start), at: start)
        var redrawn = 0
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for step in 1...100 {
                let t = start + Millis(step)
                let change = try stack.handle(Fixture.pointer(.move, top.x - Double(step % 30), top.y, t: t), at: t)
                redrawn = max(redrawn, change.cards.count)
            }
        }
        _ = try stack.handle(Fixture.pointer(.cancel, top.x, top.y, t: start + 101), at: start + 101)
        try stack.settle()
        let parts = elapsed.components
        return (Double(parts.seconds) + Double(parts.attoseconds) * 1e-18, redrawn)
    }

    @Test func aPointerMoveCostsTheSameInAMillionCardsAsInAThousand() throws {
        var big = Fixture.stack(cards: 1_000_000)
        var small = Fixture.stack(cards: 1_000)
        var time = now
        for style in StyleName.allCases {
            time += 100_000
            _ = try big.handle(.command(.style(style)), at: time)
            _ = try small.handle(.command(.style(style)), at: time)
            try big.settle()
            try small.settle()
            var bigBest = Double.infinity
            var smallBest = Double.infinity
            for round in 0..<3 {
                let start = time + 10_000 * Millis(round + 1)
                let bigRun = try timeMoves(&big, at: start)
                let smallRun = try timeMoves(&small, at: start)
                bigBest = min(bigBest, bigRun.seconds)
                smallBest = min(smallBest, smallRun.seconds)
                let limit = big.layout.drawnLimit
                #expect(bigRun.redrawn <= limit && smallRun.redrawn <= limit, "\(style)")
            }
            #expect(bigBest < 4 * smallBest + 0.02, "\(style): \(bigBest) s vs \(smallBest) s for 100 moves")
            #expect(big.count == 1_000_000 && big.drawnCards(at: time + 50_000).count == big.layout.drawnLimit)
        }
    }

    @Test func aMillionCardsGoRoundAndBackInEveryStyle() throws {
        var stack = Fixture.stack(cards: 1_000_000)
        for (index, style) in StyleName.allCases.enumerated() {
            let start = now + 10_000 + Millis(index) * 100_000
            _ = try stack.handle(.command(.style(style)), at: start - 10_000)
            try stack.settle()
            _ = try stack.handle(.command(.goto(index: 0)), at: start + 10)
            _ = try stack.handle(.command(.previous), at: start + 20)
            let previous = stack.current
            if style != .swipe { _ = try stack.handle(.command(.undo), at: start + 30) }
            _ = try stack.handle(.command(.next), at: start + 40)
            let next = stack.current
            _ = try stack.handle(.command(.remove(cardID: "c2")), at: start + 50)
            _ = try stack.handle(.command(.undo), at: start + 60)
            _ = try stack.handle(.command(.goto(index: 999_999)), at: start + 70)
            let far = stack.current
            // Swiping back stops at the first card; everywhere else the back card comes to the front.
            #expect(previous == (style == .swipe ? 0 : 999_999) && next == 1 && far == 999_999, "\(style)")
            #expect(stack.count == 1_000_000 && stack.drawnCards(at: start + 70).count <= stack.layout.drawnLimit + 10)
            try stack.settle()
        }
    }
}
