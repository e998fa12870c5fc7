import Testing

@testable import StackModel

@Suite struct StackGridTests {
    let now = Fixture.now
    static let layout = GridLayout(stage: .default)

    static func slot(_ position: Int) -> CardTransform {
        layout.restTransform(of: Photo(id: "p", width: 400, height: 300), tilt: 0, position: position)
    }

    /// The place of `position` in a grid of `count` cards, whose tiles grow to fit them all.
    static func slot(_ position: Int, of count: Int) -> CardTransform {
        GridLayout(stage: .default, count: count)
            .restTransform(of: Photo(id: "p", width: 400, height: 300), tilt: 0, position: position)
    }

    @Test func onlyTheCardsOnTheStageAreDrawn() {
        let stack = Fixture.stack(.grid, cards: 200)
        #expect(
            stack.drawnCards(at: now)
                == (0..<140).map { Fixture.drawn($0, position: $0, z: 200 - $0, Self.slot($0)) })
    }

    @Test func nextShiftsEveryCardBackOnePlaceAndTheNextOneFadesInAtTheEnd() throws {
        var stack = Fixture.stack(.grid, cards: 200)
        let change = try stack.handle(.command(.next), at: now)
        #expect(change.cards.count == 141 && change.summaryChanged && change.removed.isEmpty)
        for card in change.cards.dropLast() {
            let number = Int(card.id.dropFirst())!
            let expected =
                number == 140
                ? Fixture.settle(from: Fixture.faded(Self.slot(139)), to: Self.slot(139), start: now)
                : Fixture.settle(from: Self.slot(number), to: Self.slot(number - 1), start: now)
            #expect(card.transform == Self.slot(number - 1) && card.animation == expected)
        }
        let flown = try #require(change.cards.last)
        let flight = try #require(flown.animation)
        #expect(flown.id == "c0" && flown.position == 199 && flight.from == Self.slot(0))
        // Its place at the back is off the stage: it stops being drawn when the flight ends.
        #expect(try stack.handle(.tick, at: flight.end) == StackChange(removed: ["c0"]))
        #expect(stack.nextDeadline == nil)
    }

    @Test func inASmallGridTheFlownCardSlidesIntoTheLastPlace() throws {
        var stack = Fixture.stack(.grid, cards: 5)
        let flight = try #require(try stack.handle(.command(.next), at: now).cards.last?.animation)
        let landing = try stack.handle(.tick, at: flight.end)
        #expect(
            landing
                == StackChange(cards: [
                    Fixture.drawn(
                        0, position: 4, z: 1, Self.slot(4, of: 5),
                        animation: Fixture.settle(from: flight.to, to: Self.slot(4, of: 5), start: flight.end))
                ]))
    }

    @Test func aCardPushedOffTheLastRowSlidesBelowTheStageBeforeItGoes() throws {
        var stack = Fixture.stack(.grid, cards: 200)
        let change = try stack.handle(
            .command(.insert(photo: Photo(id: "new", width: 4, height: 3), at: 0)), at: now)
        let pushed = try #require(change.cards.first { $0.id == "c139" })
        let glide = Fixture.settle(from: Self.slot(139), to: Self.slot(140), start: now)
        #expect(pushed.position == 140 && pushed.animation == glide && pushed.transform.y > 768)
        #expect(change.cards.first?.id == "c200" && change.removed.isEmpty)
        #expect(stack.nextDeadline == glide.end)
        #expect(try stack.handle(.tick, at: glide.end) == StackChange(removed: ["c139"]))
    }

    @Test func aTapOnATileOpensItsPhotoFullStageAndTheNextTapClosesIt() throws {
        var stack = Fixture.stack(.grid, cards: 20)
        let third = Self.slot(3, of: 20)
        try stack.apply(Fixture.tap(third.x + third.w / 2 - 5, third.y - third.h / 2 + 5, t: 1000))
        // Nothing deleted: the tile comes to the front, full-stage.
        #expect(stack.count == 20 && stack.orderIDs.prefix(2) == ["c3", "c4"] && stack.current == 3)
        #expect(stack.isFullscreen)
        #expect(stack.resting[0].id == "c3" && stack.resting[0].transform.w > third.w * 4)
        try stack.settle()
        // A tap anywhere goes back to the grid.
        try stack.apply(Fixture.tap(20, 20, t: 2000))
        #expect(!stack.isFullscreen && stack.count == 20 && stack.orderIDs.first == "c3")
    }

    @Test func aTapOnTheGapOrADoubleTapChangesNothingLasting() throws {
        var stack = Fixture.stack(.grid, cards: 20)
        // Between the first two columns, 10 pt wide.
        let first = Self.slot(0, of: 20)
        let change = try stack.apply(Fixture.tap(first.x + first.w / 2 + 5, first.y, t: 1000))
        #expect(change == StackChange() && stack.count == 20 && !stack.isFullscreen)
        // The first tap opens the tile, the second of the double tap does not close it.
        try stack.apply(Fixture.tap(first.x, first.y, t: 2000) + Fixture.tap(first.x, first.y, t: 2100))
        #expect(stack.count == 20 && stack.isFullscreen && stack.orderIDs.first == "c0")
    }
}
