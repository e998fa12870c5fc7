import Testing

@testable import StackModel

/// `highlight`, `flip` and `fullscreen`: commands on the front card, in every style.
@Suite struct StackFrontCardTests {
    let now = Fixture.now
    let rest = Fixture.rest()
    /// 400 × 300 fitted in the stage less 24 pt on every side (976 × 720).
    /// 400 × 300 fitted above the control bar (976 × 672 from (24, 24)): 896 × 672.
    let fullStage = StageSize.default.fullscreen(Photo(id: "p", width: 400, height: 300))

    @Test func highlightTogglesTheFrontCardsHighlight() throws {
        var stack = Fixture.stack()
        #expect(
            try stack.handle(.command(.highlight), at: now)
                == StackChange(cards: [Fixture.drawn(0, position: 0, z: 5, rest, highlight: true)]))
        #expect(
            try stack.handle(.command(.highlight), at: now + 10)
                == StackChange(cards: [Fixture.drawn(0, position: 0, z: 5, rest)]))
    }

    @Test func flipTurnsTheFrontCardOverInHalfASecondAndBack() throws {
        var stack = Fixture.stack()
        let back = Fixture.flipped(rest)
        #expect(
            try stack.handle(.command(.flip), at: now)
                == StackChange(cards: [
                    Fixture.drawn(
                        0, position: 0, z: 5, back,
                        animation: Fixture.tween(from: rest, to: back, start: now, duration: 500))
                ]))
        // Halfway through, the card is edge-on: the page foreshortens it to nothing.
        #expect(stack.drawnCards(at: now + 250)[0].animation?.value(at: now + 250).flip == .pi / 2)
        let again = try stack.handle(.command(.flip), at: now + 1000)
        #expect(
            again.cards == [
                Fixture.drawn(
                    0, position: 0, z: 5, rest,
                    animation: Fixture.tween(from: back, to: rest, start: now + 1000, duration: 500))
            ])
    }

    @Test func aFlippedCardStaysFlippedWhenItLeavesAndComesBack() throws {
        var stack = Fixture.stack()
        try stack.apply([(.command(.flip), now), (.command(.next), now + 600)])
        try stack.settle()
        #expect(stack.resting.last?.transform.flip == .pi)
        _ = try stack.handle(.command(.previous), at: now + 10_000)
        #expect(stack.drawnCards(at: now + 10_000)[0].transform == Fixture.flipped(rest))
    }

    @Test func fullscreenFitsTheFrontPhotoToTheStageAndBack() throws {
        var stack = Fixture.stack()
        #expect(
            try stack.handle(.command(.fullscreen), at: now)
                == StackChange(cards: [
                    Fixture.drawn(
                        0, position: 0, z: 5, fullStage,
                        animation: Fixture.settle(from: rest, to: fullStage, start: now))
                ]))
        #expect(stack.isFullscreen)
        let back = try stack.handle(.command(.fullscreen), at: now + 2000)
        #expect(
            back.cards == [
                Fixture.drawn(
                    0, position: 0, z: 5, rest, animation: Fixture.settle(from: fullStage, to: rest, start: now + 2000))
            ])
        #expect(!stack.isFullscreen)
    }

    @Test(arguments: [
        // (photo width, height, fullscreen card width, height): inside 976 × 672 (24 pt left, right
        // and top, 72 pt at the bottom for the page's control bar)
        (400, 300, 896.0, 672.0), (3000, 4000, 504, 672), (1000, 100, 976, 97.6), (0, 0, 672, 672),
    ])
    func theFullscreenCardIsThePhotoFittedAboveTheControlBar(
        width: Int, height: Int, cardWidth: Double, cardHeight: Double
    ) {
        let card = StageSize.default.fullscreen(Photo(id: "p", width: width, height: height))
        #expect(card.x == 512 && card.y == 24 + 672 / 2 && card.rotation == 0)
        #expect(card.y + card.h / 2 <= 768 - 72)
        #expect(abs(card.w - cardWidth) < 1e-9 && abs(card.h - cardHeight) < 1e-9)
    }

    @Test func inFullscreenTheNextCardTakesTheStage() throws {
        var stack = Fixture.stack()
        try stack.apply([(.command(.fullscreen), now)])
        let before = stack
        let change = try stack.handle(.command(.next), at: now + 2000)
        let newTop = try #require(change.cards.first)
        #expect(newTop.id == "c1" && newTop.transform == fullStage)
        #expect(
            newTop.animation
                == Fixture.settle(from: Fixture.rest(of: 1, in: before, position: 1), to: fullStage, start: now + 2000))
        let flown = try #require(change.cards.last?.animation)
        #expect(change.cards.last?.id == "c0" && flown.from == fullStage)
    }

    @Test(arguments: StyleName.allCases)
    func everyStyleHasTheFrontCardCommands(style: StyleName) throws {
        var stack = Fixture.stack(style)
        let top = stack.drawnCards(at: now)[0]
        let highlighted = try stack.handle(.command(.highlight), at: now)
        #expect(highlighted.cards.map(\.id) == ["c0"] && highlighted.cards[0].highlight)
        let flipped = try stack.handle(.command(.flip), at: now + 10)
        #expect(flipped.cards.map(\.id) == ["c0"] && flipped.cards[0].transform == Fixture.flipped(top.transform))
        let full = try stack.handle(.command(.fullscreen), at: now + 1000)
        #expect(full.cards.map(\.id) == ["c0"] && full.cards[0].transform == Fixture.flipped(fullStage))
    }

    @Test(arguments: [StackCommand.highlight, .flip])
    func frontCardCommandsOnAnEmptyStackThrow(command: StackCommand) {
        var stack = Stack(photos: [], seed: 1)
        #expect(throws: StackError.emptyStack) { try stack.handle(.command(command), at: now) }
    }

    @Test func fullscreenOnAnEmptyStackOnlySetsTheMode() throws {
        var stack = Stack(photos: [], seed: 1)
        #expect(try stack.handle(.command(.fullscreen), at: now) == StackChange())
        #expect(stack.isFullscreen)
    }
}
