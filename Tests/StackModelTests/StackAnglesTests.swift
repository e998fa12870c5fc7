import Testing

@testable import StackModel

@Suite struct StackAnglesTests {
    let now = Fixture.now

    static func angled(_ position: Int) -> CardTransform {
        let side = AnglesLayout(stage: .default).itemSize
        return CardTransform(x: 512, y: 384, w: side, h: side, rotation: AnglesLayout.angles[position % 5])
    }

    @Test func theTopTenAreDrawnCentredAtTheOriginalAngles() {
        let stack = Fixture.stack(.angles, cards: 12)
        #expect(
            stack.drawnCards(at: now)
                == (0..<10).map { Fixture.drawn($0, position: $0, z: 12 - $0, Self.angled($0)) })
    }

    @Test func aTapOnTheTopCardDeletesItAndTheOthersTurnForward() throws {
        var stack = Fixture.stack(.angles, cards: 7)
        let change = try stack.apply(Fixture.tap(512, 384, t: 1000))
        let at = now + 1060
        let expected =
            (1..<7).map { number in
                Fixture.drawn(
                    number, position: number - 1, z: 7 - number, Self.angled(number - 1),
                    animation: Fixture.settle(from: Self.angled(number), to: Self.angled(number - 1), start: at))
            } + [
                Fixture.drawn(
                    0, position: 0, z: 7, Fixture.faded(Self.angled(0)),
                    animation: Fixture.settle(from: Self.angled(0), to: Fixture.faded(Self.angled(0)), start: at))
            ]
        // The tapping screen is named, so that it (and only it) offers to undo.
        #expect(change == StackChange(cards: expected, summaryChanged: true, removedBy: ["v1"]))
        // The first card went: the next one is first now.
        #expect(stack.count == 6 && stack.current == 0 && stack.orderIDs.first == "c1")
    }

    @Test func aTapOnTheCornerOfALowerCardDeletesThatCard() throws {
        var stack = Fixture.stack(.angles, cards: 8)
        // (78, 23) from the centre, on 120-pt cards, lies on the −0.5-rad corners of positions 2 and 7,
        // outside positions 0, 1, 3, 4, 5, 6; the cards are larger on the stage by `scale`.
        let scale = AnglesLayout(stage: .default).itemSize / 120
        try stack.apply(Fixture.tap(512 + 78 * scale, 384 + 23 * scale, t: 1000))
        #expect(stack.orderIDs == ["c0", "c1", "c3", "c4", "c5", "c6", "c7"])
    }

    @Test func aTapOnEmptyStageBringsBackTheCardLastRemovedInFront() throws {
        var stack = Fixture.stack(.angles, cards: 3)
        try stack.apply(Fixture.tap(512, 384, t: 1000))
        try stack.settle()
        let change = try stack.apply(Fixture.tap(100, 100, t: 2000))
        let at = now + 2060
        #expect(
            change
                == StackChange(
                    cards: [
                        DrawnCard(
                            id: "c0", photo: "p0", position: 0, z: 3, transform: Self.angled(0),
                            animation: Fixture.settle(
                                from: Fixture.faded(Self.angled(0)), to: Self.angled(0), start: at))
                    ]
                        + (1..<3).map { number in
                            Fixture.drawn(
                                number, position: number, z: 3 - number, Self.angled(number),
                                animation: Fixture.settle(
                                    from: Self.angled(number - 1), to: Self.angled(number), start: at))
                        }, summaryChanged: true))
        #expect(stack.orderIDs == ["c0", "c1", "c2"])
    }

    @Test func aTapOnEmptyStageWithEveryPhotoInTheStackAddsNoDuplicate() throws {
        var stack = Fixture.stack(.angles, cards: 3)
        let change = try stack.apply(Fixture.tap(100, 100, t: 1000))
        #expect(change == StackChange() && stack.orderIDs == ["c0", "c1", "c2"])
    }

    @Test func onlyTheFirstTapOfADoubleTapDeletes() throws {
        var stack = Fixture.stack(.angles, cards: 5)
        try stack.apply(Fixture.tap(512, 384, t: 1000) + Fixture.tap(512, 384, t: 1100))
        #expect(stack.orderIDs == ["c1", "c2", "c3", "c4"])
    }

    @Test func aDragMovesNothing() throws {
        var stack = Fixture.stack(.angles, cards: 5)
        let change = try stack.apply(Fixture.drag(speed: 1500, duration: 100))
        #expect(change == StackChange() && stack.current == 0)
        #expect(stack.nextDeadline == nil)
    }

    @Test func tapsAreUndone() throws {
        var stack = Fixture.stack(.angles, cards: 5)
        let original = stack.resting
        try stack.apply(Fixture.tap(512, 384, t: 1000) + Fixture.tap(10, 10, t: 2000))
        #expect(stack.orderIDs == ["c0", "c1", "c2", "c3", "c4"])
        _ = try stack.handle(.command(.undo), at: now + 3000)
        #expect(stack.orderIDs == ["c1", "c2", "c3", "c4"])
        _ = try stack.handle(.command(.undo), at: now + 3010)
        try stack.settle()
        #expect(stack.resting == original)
    }

    @Test func nextFliesTheTopCardOffAndItSlidesBackUnder() throws {
        var stack = Fixture.stack(.angles, cards: 12)
        let change = try stack.handle(.command(.next), at: now)
        let flight = try #require(change.cards.last?.animation)
        #expect(change.cards.last?.id == "c0" && flight.from == Self.angled(0))
        #expect(flight.to == Fixture.offLeft(Self.angled(0)))
        let landing = try stack.handle(.tick, at: flight.end)
        #expect(landing.cards.map(\.id) == ["c0"] && landing.cards[0].transform == Self.angled(11))
        try stack.settle()
        #expect(stack.resting.map(\.id) == (1..<11).map { "c\($0)" })
    }
}
