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
        _ = try stack.handle(.command(.goto(index: 1_000_000)), at: now + 10_040)
        let next = stack.drawnCards(at: now + 10_040).prefix(2).map(\.id)
        #expect(next == ["c1000000", "c500000"])
    }
}
