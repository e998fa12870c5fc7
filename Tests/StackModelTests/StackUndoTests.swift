import Testing

@testable import StackModel

@Suite struct StackUndoTests {
    let now = Fixture.now

    /// Reorders of each kind, by gesture or command, on a 12-card pile.
    static let reorders: [(name: String, events: [(event: StackEvent, at: Millis)])] = [
        ("flick", Fixture.drag(speed: 1500, duration: 60)),
        ("slow drag past a quarter of the short side", Fixture.drag(speed: 700, duration: 200, hold: 150)),
        ("next", [(.command(.next), Fixture.now)]),
        ("previous", [(.command(.previous), Fixture.now)]),
        ("goto forward", [(.command(.goto(index: 4)), Fixture.now)]),
        ("goto backward", [(.command(.goto(index: 9)), Fixture.now)]),
        ("insert on top", [(.command(.insert(photo: Photo(id: "new", width: 4, height: 3), at: 0)), Fixture.now)]),
        ("insert below", [(.command(.insert(photo: Photo(id: "new", width: 4, height: 3), at: 7)), Fixture.now)]),
        ("remove the top", [(.command(.remove(cardID: "c0")), Fixture.now)]),
        ("remove below", [(.command(.remove(cardID: "c6")), Fixture.now)]),
        ("remove the bottom", [(.command(.remove(cardID: "c11")), Fixture.now)]),
    ]

    @Test(arguments: reorders)
    func undoPutsEveryCardBackWithItsTilt(name: String, events: [(event: StackEvent, at: Millis)]) throws {
        var stack = Fixture.stack(cards: 12)
        let original = (order: stack.orderIDs, drawn: stack.resting, tilts: stack.cards.map(\.tilt))
        try stack.apply(events)
        #expect(stack.orderIDs != original.order)
        // Mid-motion: the flown card is still in the air.
        _ = try stack.handle(.command(.undo), at: now + 400)
        try stack.settle()
        #expect(stack.orderIDs == original.order)
        #expect(stack.resting == original.drawn)
        #expect(Array(stack.cards.prefix(12).map(\.tilt)) == original.tilts)
    }

    @Test func undoingAFlickBringsTheCardBackFromWhereItFlies() throws {
        var stack = Fixture.stack()
        let flick = try stack.apply(Fixture.drag(speed: 1500, duration: 60))
        let flight = try #require(flick.cards.last?.animation)
        let change = try stack.handle(.command(.undo), at: now + 300)
        let back = try #require(change.cards.first)
        #expect(back.id == "c0" && back.position == 0 && back.transform == Fixture.rest())
        #expect(
            back.animation == Fixture.settle(from: flight.value(at: now + 300), to: Fixture.rest(), start: now + 300))
        #expect(stack.current == 0 && change.summaryChanged)
    }

    @Test func undoGoesBackOneStepAtATime() throws {
        var stack = Fixture.stack()
        let steps: [StackCommand] = [
            .next, .next, .remove(cardID: "c3"), .previous, .insert(photo: Photo(id: "n", width: 4, height: 3), at: 2),
            .goto(index: 4),
        ]
        var orders = [stack.orderIDs]
        for (index, step) in steps.enumerated() {
            _ = try stack.handle(.command(step), at: now + Millis(index) * 10)
            orders.append(stack.orderIDs)
        }
        for index in steps.indices.reversed() {
            _ = try stack.handle(.command(.undo), at: now + 1000 + Millis(index) * 10)
            #expect(stack.orderIDs == orders[index])
        }
        #expect(throws: StackError.nothingToUndo) { try stack.handle(.command(.undo), at: now + 2000) }
    }

    @Test func theHistoryKeepsTheLastFifty() throws {
        var stack = Fixture.stack(cards: 100)
        for step in 0..<60 { _ = try stack.handle(.command(.next), at: now + Millis(step)) }
        #expect(stack.current == 60)
        for step in 0..<50 { _ = try stack.handle(.command(.undo), at: now + 100 + Millis(step)) }
        #expect(stack.current == 10)
        #expect(throws: StackError.nothingToUndo) { try stack.handle(.command(.undo), at: now + 200) }
    }

    @Test func nothingToUndoAtTheStartOrAfterAShuffle() throws {
        var stack = Fixture.stack()
        #expect(throws: StackError.nothingToUndo) { try stack.handle(.command(.undo), at: now) }
        _ = try stack.handle(.command(.next), at: now)
        _ = try stack.handle(.command(.shuffle(seed: 3)), at: now + 10)
        let shuffled = stack.orderIDs
        #expect(throws: StackError.nothingToUndo) { try stack.handle(.command(.undo), at: now + 20) }
        #expect(stack.orderIDs == shuffled)
    }

    @Test(arguments: [StackCommand.highlight, .flip, .fullscreen, .style(.angles), .goto(index: 0)])
    func commandsThatDoNotReorderAreNotUndone(command: StackCommand) throws {
        var stack = Fixture.stack()
        _ = try stack.handle(.command(command), at: now)
        #expect(throws: StackError.nothingToUndo) { try stack.handle(.command(.undo), at: now + 10) }
    }

    @Test func undoEndsTheDragInProgress() throws {
        var stack = Fixture.stack()
        try stack.apply([
            (.command(.next), now), (Fixture.pointer(.down, 512, 384, t: 1000), now + 1000),
            (Fixture.pointer(.move, 562, 384, t: 1016), now + 1016),
        ])
        let change = try stack.handle(.command(.undo), at: now + 1020)
        #expect(stack.current == 0)
        #expect(change.cards.first { $0.id == "c1" }?.animation?.from == Fixture.moved(Fixture.rest(), 50))
        #expect(try stack.handle(Fixture.pointer(.up, 600, 384, t: 1030), at: now + 1030) == StackChange())
    }
}
