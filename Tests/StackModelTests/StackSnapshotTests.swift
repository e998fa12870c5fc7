import Testing

@testable import StackModel

/// A viewer joining mid-animation gets, with each moving card, the rest of its motion: evaluating it
/// at any later time gives what the viewers already watching see.
@Suite struct StackSnapshotTests {
    let now = Fixture.now

    @Test(arguments: StyleName.allCases)
    func aSnapshotMidAnimationCarriesEachMotionToItsEnd(style: StyleName) throws {
        var stack = Fixture.stack(style, cards: 8)
        let change = try stack.handle(.command(.next), at: now)
        let joinAt = now + 120
        let snapshot = stack.drawnCards(at: joinAt)
        for card in change.cards {
            let joined = try #require(snapshot.first { $0.id == card.id })
            #expect(joined.transform == card.transform && joined.animation == card.animation)
            for later in stride(from: joinAt, through: joinAt + 1000, by: 50) {
                #expect(joined.animation?.value(at: later) == card.animation?.value(at: later))
            }
        }
    }

    @Test func aSnapshotAfterTheEndCarriesNoMotion() throws {
        var stack = Fixture.stack(cards: 8)
        let change = try stack.handle(.command(.previous), at: now)
        let end = try #require(change.cards.compactMap(\.animation).map(\.end).max())
        #expect(stack.drawnCards(at: end).allSatisfy { $0.animation == nil })
        #expect(stack.drawnCards(at: end - 1).contains { $0.animation != nil })
    }

    @Test func aSwipesDelayedShiftIsInTheSnapshotBeforeItStarts() throws {
        var stack = Fixture.stack(.swipe, cards: 8)
        _ = try stack.handle(.command(.next), at: now)
        let shifting = try #require(stack.drawnCards(at: now + 100).first?.animation)
        #expect(shifting.start == now + 300 && shifting.value(at: now + 100) == shifting.from)
    }

    /// Ids are written digit by digit rather than interpolated: the same text at every digit count.
    @Test(arguments: [0, 7, 9, 10, 99, 100, 12_345, 999_999, 1_000_000, Int.max, -3])
    func aCardIDIsTheLetterCAndTheNumber(number: Int) {
        #expect(Stack.id(of: number) == "c\(number)")
    }
}
