import Testing

@testable import StackModel

@Suite struct StackRemoveTests {
    let now = Fixture.now

    @Test func aRemovedCardFadesOutWhereItWasWhileTheOthersCloseUp() throws {
        var stack = Fixture.stack()
        let before = stack
        let change = try stack.handle(.command(.remove(cardID: "c2")), at: now)
        let tilted = Fixture.rest(of: 2, in: before, position: 2)
        let fade = Fixture.settle(from: tilted, to: Fixture.faded(tilted), start: now)
        #expect(
            change
                == StackChange(
                    cards: [
                        Fixture.drawn(0, position: 0, z: 4, Fixture.rest()),
                        Fixture.drawn(1, position: 1, z: 3, Fixture.rest(of: 1, in: stack, position: 1)),
                        Fixture.drawn(3, position: 2, z: 2, Fixture.rest(of: 3, in: stack, position: 2)),
                        Fixture.drawn(4, position: 3, z: 1, Fixture.rest(of: 4, in: stack, position: 3)),
                        // Its place and z as before: the page draws it under c1 (same z, larger position).
                        Fixture.drawn(2, position: 2, z: 3, Fixture.faded(tilted), animation: fade),
                    ], summaryChanged: true))
        #expect(stack.count == 4 && stack.nextDeadline == fade.end)
        #expect(try stack.handle(.tick, at: fade.end - 1) == StackChange())
        #expect(try stack.handle(.tick, at: fade.end) == StackChange(removed: ["c2"]))
        #expect(stack.nextDeadline == nil && stack.orderIDs == ["c0", "c1", "c3", "c4"])
    }

    @Test func removingTheFrontCardStraightensTheNextAndKeepsEveryTilt() throws {
        var stack = Fixture.stack()
        let tilts = stack.cards.map(\.tilt)
        let change = try stack.handle(.command(.remove(cardID: "c0")), at: now)
        #expect(change.cards.first?.id == "c1" && change.cards.first?.transform == Fixture.rest())
        // c1 follows the removed first card as the first: the front is place 0 again.
        #expect(change.cards.last?.id == "c0" && change.cards.last?.z == 5 && stack.current == 0)
        #expect(stack.cards.map(\.tilt) == tilts)
    }

    @Test(arguments: [
        // (cards, position removed): both sides of the ring's shorter-side renumbering
        (20, 3), (20, 17), (20, 0), (20, 19), (1, 0),
    ])
    func removalAnywhereKeepsTheOrder(cards: Int, position: Int) throws {
        var stack = Fixture.stack(cards: cards)
        _ = try stack.handle(.command(.goto(index: 5 % cards)), at: now)
        var expected = stack.orderIDs
        let id = expected.remove(at: position)
        _ = try stack.handle(.command(.remove(cardID: id)), at: now + 10)
        #expect(stack.orderIDs == expected && stack.count == cards - 1)
        try stack.settle()
        #expect(stack.resting.filter { $0.id != id }.map(\.position) == Array(0..<min(10, cards - 1)))
    }

    @Test(arguments: ["c5", "c-1", "c01", "x1", "", "c", "c2"])
    func removingAnUnknownOrRemovedCardThrows(id: CardID) throws {
        var stack = Fixture.stack()
        _ = try stack.handle(.command(.remove(cardID: "c2")), at: now)
        let before = stack.orderIDs
        #expect(throws: StackError.unknownCard(id: id)) {
            try stack.handle(.command(.remove(cardID: id)), at: now + 10)
        }
        #expect(stack.orderIDs == before)
    }

    /// `goto` counts places in the stack, so after a remove the last place is gone, not a card id.
    @Test func gotoPastTheStackAfterARemoveThrows() throws {
        var stack = Fixture.stack()
        _ = try stack.handle(.command(.remove(cardID: "c3")), at: now)
        #expect(throws: StackError.indexOutOfRange(index: 4, count: 4)) {
            try stack.handle(.command(.goto(index: 4)), at: now + 10)
        }
        _ = try stack.handle(.command(.goto(index: 3)), at: now + 20)
        #expect(stack.orderIDs.first == "c4")
    }

    @Test func removingTheLastCardEmptiesTheStack() throws {
        var stack = Fixture.stack(cards: 1)
        let change = try stack.handle(.command(.remove(cardID: "c0")), at: now)
        #expect(change.summaryChanged && stack.count == 0 && stack.current == 0)
        try stack.settle()
        #expect(stack.resting.isEmpty)
        #expect(throws: StackError.emptyStack) { try stack.handle(.command(.next), at: now + 5000) }
    }

    @Test func aCardNotDrawnGoesWithoutAFade() throws {
        var stack = Fixture.stack(cards: 20)
        let change = try stack.handle(.command(.remove(cardID: "c15")), at: now)
        #expect(change.removed.isEmpty && change.cards.allSatisfy { $0.animation == nil })
        #expect(stack.nextDeadline == nil && stack.count == 19)
    }

    @Test func removingTheHeldCardEndsTheDrag() throws {
        var stack = Fixture.stack()
        try stack.apply([
            (Fixture.pointer(.down, 512, 384, t: 1000), now), (Fixture.pointer(.move, 562, 384, t: 1016), now + 16),
        ])
        let change = try stack.handle(.command(.remove(cardID: "c0")), at: now + 20)
        #expect(change.cards.last?.animation?.from == Fixture.moved(Fixture.rest(), 50))
        #expect(try stack.handle(Fixture.pointer(.move, 600, 384, t: 1030), at: now + 30) == StackChange())
    }
}
