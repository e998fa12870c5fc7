import Testing

@testable import StackModel

@Suite struct StackDeckTests {
    let now = Fixture.now
    static let layout = DeckLayout(stage: .default)
    static let maxLength = layout.maxLength
    /// A quarter of the card's short side (its width): the flick distance.
    static let flickDistance = layout.screen.cardWidth / 4

    static func layer(_ position: Int) -> CardTransform {
        layout.restTransform(of: Photo(id: "p", width: 4, height: 3), tilt: 0, position: position)
    }

    /// Layer `i` of `n` dragged by `dx`: (1 − i/n)·dx across, (1 − i/n)·(dx / maxLength)·15° of tilt.
    static func dragged(_ i: Int, of n: Int, by dx: Double) -> CardTransform {
        let share = 1 - Double(i) / Double(n)
        var moved = layer(i)
        moved.x += share * dx
        moved.rotation += share * (dx / maxLength) * (15 * Double.pi / 180)
        return moved
    }

    /// Down on the top card, then moves to `dx` (one per entry), server and page time 16 ms apart.
    static func drag(to offsets: [Double]) -> [(event: StackEvent, at: Millis)] {
        [(Fixture.pointer(.down, 512, 384, t: 1000), Fixture.now)]
            + offsets.enumerated().map { index, dx in
                let t = Millis(index + 1) * 16
                return (Fixture.pointer(.move, 512 + dx, 384, t: 1000 + t), Fixture.now + t)
            }
    }

    @Test func fiveLayersAreDrawn() {
        let stack = Fixture.stack(.deck, cards: 8)
        #expect(stack.drawnCards(at: now) == (0..<5).map { Fixture.drawn($0, position: $0, z: 8 - $0, Self.layer($0)) })
    }

    @Test(arguments: [(8, 5), (3, 3)])
    func draggingMovesAndTiltsEveryLayerLessForEachBehind(cards: Int, layers: Int) throws {
        var stack = Fixture.stack(.deck, cards: cards)
        let change = try stack.apply(Self.drag(to: [100]))
        #expect(
            change
                == StackChange(
                    cards: (0..<layers).map {
                        Fixture.drawn($0, position: $0, z: cards - $0, Self.dragged($0, of: layers, by: 100))
                    }))
    }

    @Test func pastMaxLengthTheTopCardFliesOutOnTheDragsSideAndTheOthersSpringForward() throws {
        var stack = Fixture.stack(.deck, cards: 8)
        // As the stack measures it: the pointer's x less the x it went down at.
        let dx = (512 + (Self.maxLength + 0.1)) - 512
        let change = try stack.apply(Self.drag(to: [100, dx]))
        let at = now + 32
        let held = Self.dragged(0, of: 5, by: dx)
        let target = StageSize.default.offStage(held, direction: Point(x: 1, y: 0))
        let expected = StackChange(
            cards: (1..<5).map {
                Fixture.drawn(
                    $0, position: $0 - 1, z: 8 - ($0 - 1), Self.layer($0 - 1),
                    animation: Fixture.deckSpring(
                        from: Self.dragged($0, of: 5, by: dx), to: Self.layer($0 - 1), start: at))
            } + [
                Fixture.drawn(
                    5, position: 4, z: 4, Self.layer(4),
                    animation: Fixture.deckSpring(from: Self.layer(5), to: Self.layer(4), start: at)),
                Fixture.drawn(
                    0, position: 7, z: 9, target,
                    animation: Fixture.tween(from: held, to: target, start: at, duration: 500)),
            ], summaryChanged: true)
        #expect(change == expected, "\(Fixture.differences(change, expected))")
        #expect(target.x > 1024 && target.rotation == held.rotation)
        // The gesture is over: the pointer's next samples change nothing.
        #expect(try stack.handle(Fixture.pointer(.move, 900, 384, t: 1048), at: now + 48) == StackChange())
        #expect(try stack.handle(Fixture.pointer(.up, 900, 384, t: 1064), at: now + 64) == StackChange())
        // Recycled to the back, below the drawn layers: dropped when its flight ends.
        #expect(try stack.handle(.tick, at: at + 500) == StackChange(removed: ["c0"]))
    }

    @Test func justShortOfMaxLengthTheLayersFollowThePointer() throws {
        var stack = Fixture.stack(.deck, cards: 8)
        let dx = (512 - (Self.maxLength - 0.1)) - 512
        let change = try stack.apply(Self.drag(to: [-100, dx]))
        #expect(
            change.cards == (0..<5).map { Fixture.drawn($0, position: $0, z: 8 - $0, Self.dragged($0, of: 5, by: dx)) })
        #expect(stack.current == 0)
    }

    @Test func leftwardFlyOutAndAFiveCardDeckRecyclesTheCardAtTheBackAtOnce() throws {
        var stack = Fixture.stack(.deck, cards: 5)
        let change = try stack.apply(Self.drag(to: [-Self.maxLength - 1]))
        let flight = try #require(change.cards.last?.animation)
        #expect(change.cards.last?.id == "c0" && flight.to.x < 0)
        let landing = try stack.handle(.tick, at: flight.end)
        let expected = StackChange(cards: [Fixture.drawn(0, position: 4, z: 1, Self.layer(4))])
        #expect(landing == expected, "\(Fixture.differences(landing, expected))")
    }

    @Test(arguments: [(Self.flickDistance - 0.1, false), (Self.flickDistance + 0.1, true)])
    func aReleaseFarEnoughThrowsTheTopCardElseEveryLayerSpringsBack(distance: Double, isThrown: Bool) throws {
        var stack = Fixture.stack(.deck, cards: 8)
        // The finger rests at `distance` for 150 ms before the release: no speed.
        let hold = (1...10).map { _ in distance }
        var events = Self.drag(to: [distance / 2, distance] + hold)
        events.append((Fixture.pointer(.up, 512 + distance, 384, t: 1000 + 13 * 16), now + 13 * 16))
        let change = try stack.apply(events)
        #expect(stack.current == (isThrown ? 1 : 0))
        if !isThrown {
            let at = now + 13 * 16
            let expected = StackChange(
                cards: (0..<5).map {
                    Fixture.drawn(
                        $0, position: $0, z: 8 - $0, Self.layer($0),
                        animation: Fixture.deckSpring(
                            from: Self.dragged($0, of: 5, by: (512 + distance) - 512), to: Self.layer($0), start: at))
                })
            #expect(change == expected, "\(Fixture.differences(change, expected))")
        }
    }

    @Test(arguments: [(799.0, false), (801, true), (-801, true)])
    func aFastShortThrowFliesOut(speed: Double, isThrown: Bool) throws {
        var stack = Fixture.stack(.deck, cards: 8)
        let change = try stack.apply(Fixture.drag(speed: speed, duration: 60))
        #expect(stack.current == (isThrown ? 1 : 0))
        if isThrown {
            let flight = try #require(change.cards.last?.animation)
            #expect((flight.to.x > 1024) == (speed > 0) && flight.duration == 500)
        }
    }

    @Test func aTapTurnsTheTopCardOverAndAnotherTurnsItBack() throws {
        var stack = Fixture.stack(.deck, cards: 8)
        let back = Fixture.flipped(Self.layer(0))
        let first = try stack.apply(Fixture.tap(512, 384, t: 1000))
        #expect(
            first
                == StackChange(cards: [
                    Fixture.drawn(
                        0, position: 0, z: 8, back,
                        animation: Fixture.tween(from: Self.layer(0), to: back, start: now + 1060, duration: 500))
                ]))
        // The second tap of a double tap turns it back, as the original's single-tap recognizer would.
        let second = try stack.apply(Fixture.tap(512, 384, t: 1200))
        let halfway = try #require(first.cards[0].animation).value(at: now + 1200)
        #expect(second.cards.map(\.transform) == [Self.layer(0)])
        #expect(second.cards[0].animation?.from.flip == halfway.flip)
    }

    @Test func aCancelReturnsEveryLayerWithTheDeckSpring() throws {
        var stack = Fixture.stack(.deck, cards: 8)
        try stack.apply(Self.drag(to: [60]))
        let change = try stack.handle(Fixture.pointer(.cancel, 572, 384, t: 1020), at: now + 20)
        #expect(
            change.cards
                == (0..<5).map {
                    Fixture.drawn(
                        $0, position: $0, z: 8 - $0, Self.layer($0),
                        animation: Fixture.deckSpring(
                            from: Self.dragged($0, of: 5, by: 60), to: Self.layer($0), start: now + 20))
                })
    }

    @Test func aFlyOutIsUndoneWhileTheCardIsStillInTheAir() throws {
        var stack = Fixture.stack(.deck, cards: 8)
        let original = stack.resting
        let change = try stack.apply(Self.drag(to: [Self.maxLength + 1]))
        let flight = try #require(change.cards.last?.animation)
        let undo = try stack.handle(.command(.undo), at: now + 200)
        #expect(undo.cards.first?.id == "c0" && undo.cards.first?.animation?.from == flight.value(at: now + 200))
        #expect(undo.cards.first?.animation?.curve == .spring(stiffness: 1193, damping: 27.63, mass: 1, velocity: 0))
        try stack.settle()
        #expect(stack.resting == original)
    }
}
