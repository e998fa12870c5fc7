import Testing

@testable import StackModel

@Suite struct StackShuffleTests {
    let now = Fixture.now

    @Test func aSeedGivesTheSameOrderOnEveryToolchain() throws {
        var stack = Fixture.stack(cards: 8)
        let change = try stack.handle(.command(.shuffle(seed: 1)), at: now)
        // Pinned: SplitMix64 and the Fisher–Yates below are written out, so a seed means one order.
        #expect(stack.orderIDs == ["c4", "c3", "c2", "c7", "c5", "c6", "c0", "c1"])
        // A shuffle makes the new front card the first: place 0 of the new cycle, as before it, so
        // the room-level fields (count, current, style) did not change.
        #expect(stack.current == 0 && !change.summaryChanged && !change.cards.isEmpty)
    }

    @Test(arguments: [0, 1, 2, 99, UInt64.max])
    func aShuffleIsAPermutationThatDependsOnlyOnItsSeed(seed: UInt64) throws {
        var first = Fixture.stack(cards: 30)
        var second = Fixture.stack(cards: 30, seed: 1234)
        _ = try first.handle(.command(.shuffle(seed: seed)), at: now)
        _ = try second.handle(.command(.shuffle(seed: seed)), at: now)
        #expect(first.orderIDs == second.orderIDs)
        #expect(first.orderIDs.sorted() == (0..<30).map { "c\($0)" }.sorted())
        #expect(first.orderIDs != (0..<30).map { "c\($0)" })
        #expect((0..<30).allSatisfy { first.position(of: first.order[$0]) == $0 })
    }

    @Test func newlyDrawnCardsFadeInAndTheOthersMoveToTheirNewPlaces() throws {
        var stack = Fixture.stack(cards: 30)
        let before = stack.drawnCards(at: now)
        let change = try stack.handle(.command(.shuffle(seed: 5)), at: now)
        let drawn = stack.drawnCards(at: now)
        #expect(drawn.map(\.position) == Array(0..<10))
        #expect(Set(change.removed) == Set(before.map(\.id)).subtracting(drawn.map(\.id)))
        for card in drawn {
            if let earlier = before.first(where: { $0.id == card.id }) {
                let expected =
                    earlier.transform == card.transform
                    ? nil : Fixture.settle(from: earlier.transform, to: card.transform, start: now)
                #expect(card.animation == expected)
            } else {
                #expect(
                    card.animation
                        == Fixture.settle(from: Fixture.faded(card.transform), to: card.transform, start: now))
            }
        }
    }
}
