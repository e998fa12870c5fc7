import Testing

@testable import StackModel

@Suite struct StackStyleSwitchTests {
    let now = Fixture.now

    static let pairs: [(StyleName, StyleName)] = StyleName.allCases.flatMap { from in
        StyleName.allCases.filter { $0 != from }.map { (from, $0) }
    }

    /// Where card `number` (at `position`) rests in `style` on the default stage.
    private func rest(_ number: Int, at position: Int, in style: StyleName, of stack: Stack) -> CardTransform {
        Stack.layout(for: style, stage: .default, swipeStacked: false, count: stack.count)
            .restTransform(of: stack.photos[number], tilt: stack.cards[number].tilt, position: position)
    }

    @Test(arguments: pairs)
    func everyCardDrawnInEitherStyleMovesFromItsOldPlaceToItsNewOne(from: StyleName, to: StyleName) throws {
        var stack = Fixture.stack(from, cards: 150)
        let before = stack.drawnCards(at: now)
        let change = try stack.handle(.command(.style(to)), at: now)
        #expect(stack.style == to && change.summaryChanged && change.removed.isEmpty)
        let newLimit = Stack.layout(for: to, stage: .default, swipeStacked: false, count: 150).drawnLimit
        let moving = Set(before.map(\.id)).union((0..<newLimit).map { "c\($0)" })
        let drawn = stack.drawnCards(at: now)
        #expect(Set(drawn.map(\.id)) == moving && drawn.count == moving.count)
        for card in drawn {
            let number = card.position
            let target = rest(number, at: number, in: to, of: stack)
            let start = rest(number, at: number, in: from, of: stack)
            #expect(card.transform == target)
            #expect(card.animation == (start == target ? nil : Fixture.settle(from: start, to: target, start: now)))
        }
        #expect(Set(change.cards.map(\.id)) == Set(drawn.filter { $0.animation != nil }.map(\.id)))
        // Cards outside the new drawn places are drawn until they get there, then dropped.
        var removed: [CardID] = []
        while let deadline = stack.nextDeadline {
            removed += try stack.handle(.tick, at: deadline).removed
        }
        #expect(Set(removed) == moving.subtracting((0..<newLimit).map { "c\($0)" }))
        #expect(stack.resting.map(\.id) == (0..<newLimit).map { "c\($0)" })
    }

    @Test func aSwitchMidFlightTakesTheCardStraightToItsNewPlace() throws {
        var stack = Fixture.stack()
        let flick = try stack.apply(Fixture.drag(speed: 1500, duration: 60))
        let flight = try #require(flick.cards.last?.animation)
        let change = try stack.handle(.command(.style(.grid)), at: now + 160)
        let flown = try #require(change.cards.first { $0.id == "c0" })
        let slot = rest(0, at: 4, in: .grid, of: stack)
        #expect(flown.position == 4 && flown.transform == slot)
        #expect(flown.animation == Fixture.settle(from: flight.value(at: now + 160), to: slot, start: now + 160))
        #expect(stack.nextDeadline == nil)
    }

    @Test func aSwitchMidSwitchStartsEveryCardWhereItIs() throws {
        var stack = Fixture.stack(cards: 12)
        _ = try stack.handle(.command(.style(.grid)), at: now)
        let halfway = stack.drawnCards(at: now).map { $0.animation?.value(at: now + 100) ?? $0.transform }
        let change = try stack.handle(.command(.style(.deck)), at: now + 100)
        for (index, card) in stack.drawnCards(at: now).prefix(10).enumerated() {
            #expect(card.animation?.from == halfway[index])
        }
        #expect(change.cards.count == 12)
    }

    @Test func aSwitchEndsTheDragAndTheCardGoesFromWhereItIsHeld() throws {
        var stack = Fixture.stack()
        try stack.apply([
            (Fixture.pointer(.down, 512, 384, t: 1000), now), (Fixture.pointer(.move, 562, 384, t: 1016), now + 16),
        ])
        let change = try stack.handle(.command(.style(.angles)), at: now + 20)
        #expect(change.cards.first?.animation?.from == Fixture.moved(Fixture.rest(), 50))
        #expect(try stack.handle(Fixture.pointer(.up, 600, 384, t: 1030), at: now + 30) == StackChange())
    }

    @Test func switchingToTheSameStyleChangesNothing() throws {
        var stack = Fixture.stack(.deck)
        #expect(try stack.handle(.command(.style(.deck)), at: now) == StackChange())
    }

    @Test func anEmptyStackSwitchesStyleAndSaysSo() throws {
        var stack = Stack(photos: [], seed: 1)
        #expect(try stack.handle(.command(.style(.swipe)), at: now) == StackChange(summaryChanged: true))
        #expect(stack.style == .swipe)
    }
}
