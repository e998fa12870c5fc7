import Testing

@testable import StackModel

/// `current` is the front card's place in the stack's own cycle: how many cards went by since the
/// first card, so "photo current + 1 of count" never passes count; `goto` counts the same way.
@Suite struct StackCurrentTests {
    let now = Fixture.now

    @Test func afterAnInsertTheFrontIsStillWithinTheCount() throws {
        var stack = Fixture.stack(cards: 12)
        for step in 0..<3 { _ = try stack.handle(.command(.next), at: now + Millis(step)) }
        #expect(stack.current == 3)
        _ = try stack.handle(.command(.insert(photo: Photo(id: "new", width: 4, height: 3), at: 0)), at: now + 10)
        // The new card joins the cycle between c2 and c3: third after c0, as c3 was.
        #expect(stack.count == 13 && stack.current == 3)
        #expect(stack.drawnCards(at: now + 10)[0].id == "c12")
    }

    @Test func everyCommandKeepsCurrentWithinTheCountAndGotoLandsOnIt() throws {
        var stack = Fixture.stack(cards: 9)
        var random = SplitMix64(seed: 5)
        var time = now
        for _ in 0..<300 {
            time += 10
            let command: StackCommand =
                switch random.next(in: 0...6) {
                case 0: .next
                case 1: .previous
                case 2: .insert(photo: Photo(id: "n", width: 4, height: 3), at: random.next(in: 0...stack.count))
                case 3: stack.count > 1 ? .remove(cardID: stack.drawnCards(at: time)[0].id) : .next
                case 4: .shuffle(seed: UInt64(random.next(in: 0...1000)))
                case 5: .undo
                default: .goto(index: random.next(in: 0...(stack.count - 1)))
                }
            _ = try? stack.handle(.command(command), at: time)
            #expect(stack.current >= 0 && stack.current < stack.count)
            if case .goto(let index) = command { #expect(stack.current == index) }
            if case .shuffle = command { #expect(stack.current == 0) }
        }
    }

    @Test func gotoCountsFromTheFirstCardNotThePhotoList() throws {
        var stack = Fixture.stack(cards: 6)
        _ = try stack.handle(.command(.insert(photo: Photo(id: "new", width: 4, height: 3), at: 3)), at: now)
        _ = try stack.handle(.command(.goto(index: 3)), at: now + 10)
        #expect(stack.drawnCards(at: now + 10)[0].id == "c6" && stack.current == 3)
        #expect(throws: StackError.indexOutOfRange(index: 7, count: 7)) {
            try stack.handle(.command(.goto(index: 7)), at: now + 20)
        }
    }
}

/// The swipe's stacked mode is a choice made with the `style` command, kept in the stack.
@Suite struct StackStackedModeTests {
    let now = Fixture.now

    @Test func theStyleCommandSwitchesStackedModeOnAndOff() throws {
        var stack = Fixture.stack(.pile, cards: 5)
        let on = try stack.handle(.command(.style(.swipe, stacked: true)), at: now)
        #expect(on.summaryChanged && stack.swipeStacked && stack.style == .swipe)
        try stack.settle()
        #expect(stack.resting.map(\.transform.opacity) == [1, 0.5, 0.3])
        // Absent, it stays as it is.
        #expect(try stack.handle(.command(.style(.swipe)), at: now + 5000) == StackChange())
        let off = try stack.handle(.command(.style(.swipe, stacked: false)), at: now + 6000)
        #expect(off.summaryChanged && !stack.swipeStacked)
        #expect(off.cards.map { $0.animation?.to.opacity } == [1, 1])
        _ = try stack.handle(.command(.style(.deck, stacked: true)), at: now + 7000)
        #expect(stack.swipeStacked && stack.saved().swipeStacked)
        let restored = Stack(photos: Fixture.photos(5), saved: stack.saved(), seed: 1)
        #expect(restored.swipeStacked && restored.style == .deck)
    }
}
