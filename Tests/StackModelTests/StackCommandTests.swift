import Testing

@testable import StackModel

@Suite struct StackCommandTests {
    let now = Fixture.now

    @Test func nextFliesTheTopCardOutLeftLikeAFlick() throws {
        var stack = Fixture.stack()
        let before = stack
        let change = try stack.handle(.command(.next), at: now)
        let target = Fixture.offLeft(Fixture.rest())
        // Past what a 21:9 window shows left of the stage, by half the card's diagonal and 24 pt.
        let halfDiagonal =
            (Fixture.cardWidth * Fixture.cardWidth + Fixture.cardHeight * Fixture.cardHeight)
            .squareRoot() / 2
        #expect(abs(target.x - (512 - 768 * 21 / 18 - halfDiagonal - 24)) < 1e-9 && target.y == 384)
        #expect(
            change
                == StackChange(
                    cards: [
                        Fixture.drawn(
                            1, position: 0, z: 5, Fixture.rest(),
                            animation: Fixture.settled(
                                from: Fixture.rest(of: 1, in: before, position: 1), to: Fixture.rest(), start: now)),
                        Fixture.drawn(2, position: 1, z: 4, Fixture.rest(of: 2, in: stack, position: 1)),
                        Fixture.drawn(3, position: 2, z: 3, Fixture.rest(of: 3, in: stack, position: 2)),
                        Fixture.drawn(4, position: 3, z: 2, Fixture.rest(of: 4, in: stack, position: 3)),
                        Fixture.drawn(
                            0, position: 4, z: 6, target,
                            animation: Fixture.flight(from: Fixture.rest(), to: target, start: now)),
                    ], summaryChanged: true))
        #expect(stack.current == 1)
    }

    @Test func previousBringsTheBottomCardInFromTheLeft() throws {
        var stack = Fixture.stack()
        let change = try stack.handle(.command(.previous), at: now)
        let tilted = Fixture.rest(of: 0, in: stack, position: 1)
        #expect(
            change
                == StackChange(
                    cards: [
                        Fixture.drawn(
                            4, position: 0, z: 5, Fixture.rest(),
                            animation: Fixture.settle(
                                from: Fixture.offLeft(Fixture.rest()), to: Fixture.rest(), start: now)),
                        Fixture.drawn(
                            0, position: 1, z: 4, tilted,
                            animation: Fixture.settled(from: Fixture.rest(), to: tilted, start: now)),
                        Fixture.drawn(1, position: 2, z: 3, Fixture.rest(of: 1, in: stack, position: 2)),
                        Fixture.drawn(2, position: 3, z: 2, Fixture.rest(of: 2, in: stack, position: 3)),
                        Fixture.drawn(3, position: 4, z: 1, Fixture.rest(of: 3, in: stack, position: 4)),
                    ], summaryChanged: true))
        #expect(stack.current == 4)
    }

    @Test(arguments: [
        // (index, order afterwards, cards that fly out, cards that come in)
        (1, [1, 2, 3, 4, 0], ["c0"], [String]()), (2, [2, 3, 4, 0, 1], ["c0", "c1"], []),
        (3, [3, 4, 0, 1, 2], [], ["c3", "c4"]), (4, [4, 0, 1, 2, 3], [], ["c4"]),
    ])
    func gotoRotatesTheShorterWayKeepingTheCycle(index: Int, order: [Int], flying: [String], arriving: [String]) throws
    {
        var stack = Fixture.stack()
        let before = stack.drawnCards(at: now)
        let change = try stack.handle(.command(.goto(index: index)), at: now)
        #expect(stack.current == index && change.summaryChanged)
        let drawn = stack.drawnCards(at: now)
        #expect(drawn.map(\.id) == order.map { "c\($0)" })
        #expect(drawn.filter { $0.z > 5 }.map(\.id) == flying)
        // Each flies out from where it was, tilt included, not from the top's straight pose.
        for card in drawn where card.z > 5 {
            #expect(card.animation?.from == before.first { $0.id == card.id }?.transform)
        }
        #expect(
            drawn.filter {
                $0.animation?.from
                    == Fixture.offLeft(Fixture.rest(of: Int($0.id.dropFirst())!, in: stack, position: $0.position))
            }.map(\.id) == arriving)
    }

    @Test func gotoInABigStackDrawsTheCardsThatArrive() throws {
        var stack = Fixture.stack(cards: 20)
        let change = try stack.handle(.command(.goto(index: 15)), at: now)
        #expect(stack.drawnCards(at: now).map(\.id) == (Array(15..<20) + Array(0..<5)).map { "c\($0)" })
        #expect(change.removed == ["c5", "c6", "c7", "c8", "c9"])
        #expect(
            change.cards.prefix(5).allSatisfy { card in
                card.animation?.from
                    == Fixture.offLeft(Fixture.rest(of: Int(card.id.dropFirst())!, in: stack, position: card.position))
            })
    }

    @Test func gotoTheFrontCardChangesNothing() throws {
        var stack = Fixture.stack()
        #expect(try stack.handle(.command(.goto(index: 0)), at: now) == StackChange())
    }

    @Test(arguments: [
        (StackCommand.goto(index: 5), StackError.indexOutOfRange(index: 5, count: 5)),
        (.goto(index: -1), .indexOutOfRange(index: -1, count: 5)),
        (.insert(photo: Photo(id: "x", width: 1, height: 1), at: 6), .indexOutOfRange(index: 6, count: 5)),
        (.insert(photo: Photo(id: "x", width: 1, height: 1), at: -1), .indexOutOfRange(index: -1, count: 5)),
    ])
    func outOfRangeCommandsThrowAndChangeNothing(command: StackCommand, error: StackError) throws {
        var stack = Fixture.stack()
        let before = stack.drawnCards(at: now)
        #expect(throws: error) { try stack.handle(.command(command), at: now) }
        #expect(stack.drawnCards(at: now) == before && stack.count == 5)
    }

    @Test(arguments: [StackCommand.next, .previous, .goto(index: 0)])
    func commandsOnAnEmptyStackThrow(command: StackCommand) {
        var stack = Stack(photos: [], seed: 1)
        #expect(throws: StackError.emptyStack) { try stack.handle(.command(command), at: now) }
    }

    @Test func insertAddsTheNextCardNumberFadingInOnTop() throws {
        var stack = Fixture.stack()
        let photo = Photo(id: "new", width: 400, height: 300)
        let change = try stack.handle(.command(.insert(photo: photo, at: 0)), at: now)
        var transparent = Fixture.rest()
        transparent.opacity = 0
        let tilted = Fixture.rest(of: 0, in: stack, position: 1)
        #expect(
            change
                == StackChange(
                    cards: [
                        DrawnCard(
                            id: "c5", photo: "new", position: 0, z: 6, transform: Fixture.rest(),
                            animation: Fixture.settle(from: transparent, to: Fixture.rest(), start: now)),
                        Fixture.drawn(
                            0, position: 1, z: 5, tilted,
                            animation: Fixture.settled(from: Fixture.rest(), to: tilted, start: now)),
                        Fixture.drawn(1, position: 2, z: 4, Fixture.rest(of: 1, in: stack, position: 2)),
                        Fixture.drawn(2, position: 3, z: 3, Fixture.rest(of: 2, in: stack, position: 3)),
                        Fixture.drawn(3, position: 4, z: 2, Fixture.rest(of: 3, in: stack, position: 4)),
                        Fixture.drawn(4, position: 5, z: 1, Fixture.rest(of: 4, in: stack, position: 5)),
                    ], summaryChanged: true))
        #expect(stack.count == 6 && stack.current == 5)
        _ = try stack.handle(.command(.goto(index: 3)), at: now + 10)
        #expect(stack.drawnCards(at: now + 10).map(\.id) == ["c3", "c4", "c5", "c0", "c1", "c2"])
    }

    @Test func insertIntoAnEmptyStack() throws {
        var stack = Stack(photos: [], seed: 1)
        let change = try stack.handle(.command(.insert(photo: Photo(id: "a", width: 4, height: 3), at: 0)), at: now)
        #expect(change.cards.map(\.id) == ["c0"] && change.summaryChanged && stack.count == 1)
    }

    @Test func aCommandEndsTheDragInProgress() throws {
        var stack = Fixture.stack()
        try stack.apply([
            (Fixture.pointer(.down, 512, 384, t: 1000), now), (Fixture.pointer(.move, 562, 384, t: 1016), now + 16),
        ])
        let change = try stack.handle(.command(.next), at: now + 20)
        let flight = try #require(change.cards.first { $0.id == "c0" }?.animation)
        #expect(flight.from == Fixture.moved(Fixture.rest(), 50))
        #expect(try stack.handle(Fixture.pointer(.move, 600, 384, t: 1030), at: now + 30) == StackChange())
        #expect(try stack.handle(Fixture.pointer(.up, 600, 384, t: 1040), at: now + 40) == StackChange())
    }
}
