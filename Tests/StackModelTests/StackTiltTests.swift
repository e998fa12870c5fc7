import Testing

@testable import StackModel

@Suite struct StackTiltTests {
    @Test(arguments: [0, 1, 7, 12_345, UInt64.max])
    func everyTiltIsAWholeDegreeWithinFourAndTheTopIsStraight(seed: UInt64) {
        let stack = Fixture.stack(cards: 300, seed: seed)
        #expect(stack.cards.allSatisfy { (-4...4).contains($0.tilt) })
        let drawn = stack.drawnCards(at: Fixture.now)
        #expect(drawn.count == 10)
        #expect(drawn[0].transform.rotation == 0)
        for card in drawn.dropFirst() {
            let degrees = card.transform.rotation * 180 / .pi
            #expect(abs(degrees - degrees.rounded()) < 1e-9 && abs(degrees) <= 4)
        }
    }

    @Test func theDrawnCardsAreTheTopTenCentredWithZFallingByPosition() {
        let stack = Fixture.stack(cards: 12)
        let expected = (0..<10).map { number in
            Fixture.drawn(
                number, position: number, z: 12 - number, Fixture.rest(of: number, in: stack, position: number))
        }
        #expect(stack.drawnCards(at: Fixture.now) == expected)
        #expect(stack.count == 12 && stack.current == 0 && stack.nextDeadline == nil)
    }

    @Test func sameSeedSameStackOtherSeedOtherTilts() throws {
        var first = Fixture.stack(cards: 50, seed: 99)
        var second = Fixture.stack(cards: 50, seed: 99)
        #expect(first.cards == second.cards)
        let events =
            Fixture.drag(speed: 1500, duration: 80) + [
                (.command(.next), Fixture.now + 200), (.tick, Fixture.now + 5000),
            ]
        for (event, time) in events {
            #expect(try first.handle(event, at: time) == second.handle(event, at: time))
        }
        #expect(first.drawnCards(at: Fixture.now + 5000) == second.drawnCards(at: Fixture.now + 5000))
        #expect(first.cards == second.cards)
        #expect(
            Fixture.stack(cards: 50, seed: 99).cards.map(\.tilt)
                != Fixture.stack(cards: 50, seed: 100).cards.map(\.tilt))
    }

    @Test(arguments: [0, 3, 5])
    func insertionKeepsEveryExistingTilt(position: Int) throws {
        var stack = Fixture.stack(cards: 5)
        let tilts = stack.cards.map(\.tilt)
        _ = try stack.handle(
            .command(.insert(photo: Photo(id: "new", width: 300, height: 400), at: position)), at: Fixture.now)
        #expect(Array(stack.cards.prefix(5).map(\.tilt)) == tilts)
        for card in stack.drawnCards(at: Fixture.now) where card.id != "c5" && card.position > 0 {
            let number = Int(card.id.dropFirst())!
            #expect(card.transform.rotation == Double(tilts[number]) * .pi / 180)
        }
    }

    @Test func reorderingKeepsTiltsAndAFlickedCardGetsANewOne() throws {
        var stack = Fixture.stack(cards: 8)
        let tilts = stack.cards.map(\.tilt)
        _ = try stack.handle(.command(.goto(index: 5)), at: Fixture.now)
        _ = try stack.handle(.command(.previous), at: Fixture.now + 10)
        _ = try stack.handle(.command(.goto(index: 2)), at: Fixture.now + 20)
        #expect(stack.cards.map(\.tilt) == tilts)
        // `next` flicks card 2 to the bottom: it takes the generator's next draw.
        var random = stack.random
        let expected = Int8(random.next(in: -4...4))
        _ = try stack.handle(.command(.next), at: Fixture.now + 30)
        #expect(stack.cards[2].tilt == expected)
        #expect(stack.random == random)
    }
}
