import Testing

@testable import StackModel

/// The `frame` style: one photo fitted to the stage, two portraits side by side on a landscape
/// stage, photos changing by cross-fade.
@Suite struct StackFrameTests {
    let now = Fixture.now

    static func photos(_ shapes: String) -> [Photo] {
        shapes.enumerated().map { index, shape in
            shape == "P"
                ? Photo(id: "p\(index)", width: 300, height: 400) : Photo(id: "p\(index)", width: 400, height: 300)
        }
    }

    @Test func oneLandscapePhotoFillsTheStageAndTheOthersWaitTransparent() {
        let stack = Stack(photos: Self.photos("LLLLL"), style: .frame, seed: 1)
        let drawn = stack.drawnCards(at: now)
        #expect(drawn.map(\.transform.opacity) == [1, 0, 0, 0])
        #expect(drawn[0].transform == CardTransform(x: 512, y: 384, w: 1024, h: 768))
    }

    @Test func twoPortraitsShareALandscapeStageSideBySide() {
        let stack = Stack(photos: Self.photos("PPLL"), style: .frame, seed: 1)
        let drawn = stack.drawnCards(at: now).map(\.transform)
        #expect(drawn.map(\.opacity) == [1, 1, 0, 0])
        let half = (1024 - 16) / 2.0
        // Each fitted in half the stage: 504 wide allows 672 tall, so 504 × 672.
        #expect(drawn[0] == CardTransform(x: half / 2, y: 384, w: 504, h: 672))
        #expect(drawn[1] == CardTransform(x: 1024 - half / 2, y: 384, w: 504, h: 672))
        #expect(drawn[1].x - drawn[1].w / 2 - (drawn[0].x + drawn[0].w / 2) == 16)
    }

    @Test(arguments: ["PL", "LP"])
    func aPortraitBesideALandscapeIsShownAlone(shapes: String) {
        let stack = Stack(photos: Self.photos(shapes + "PP"), style: .frame, seed: 1)
        #expect(stack.drawnCards(at: now).map(\.transform.opacity) == [1, 0, 0, 0])
    }

    @Test func twoPortraitsOnAPortraitStageAreShownOneAtATime() {
        let stack = Stack(
            photos: Self.photos("PPPP"), stage: StageSize(width: 768, height: 1024), style: .frame, seed: 1)
        let drawn = stack.drawnCards(at: now).map(\.transform)
        #expect(drawn.map(\.opacity) == [1, 0, 0, 0])
        #expect(drawn[0] == CardTransform(x: 384, y: 512, w: 768, h: 1024))
    }

    @Test func nextGoesByTwoWhenPairedAndByOneOtherwiseAndPreviousComesBackTheSameWay() throws {
        var stack = Stack(photos: Self.photos("PPLPP"), style: .frame, seed: 1)
        _ = try stack.handle(.command(.next), at: now)
        #expect(stack.current == 2)
        try stack.settle()
        _ = try stack.handle(.command(.next), at: now + 5000)
        #expect(stack.current == 3)
        #expect(stack.drawnCards(at: now + 5000).prefix(2).map(\.transform.opacity) == [1, 1])
        try stack.settle()
        _ = try stack.handle(.command(.next), at: now + 10_000)
        #expect(stack.current == 0, "p3 and p4 went together")
        try stack.settle()
        _ = try stack.handle(.command(.previous), at: now + 15_000)
        #expect(stack.current == 3, "and come back together")
        _ = try stack.handle(.command(.undo), at: now + 20_000)
        #expect(stack.current == 0)
    }

    @Test func theChangeIsACrossFadeOfOneSecond() throws {
        var stack = Stack(photos: Self.photos("LLLLL"), style: .frame, seed: 1)
        let change = try stack.handle(.command(.next), at: now)
        let full = CardTransform(x: 512, y: 384, w: 1024, h: 768)
        var clear = full
        clear.opacity = 0
        let outgoing = try #require(change.cards.first { $0.id == "c0" }?.animation)
        let incoming = try #require(change.cards.first { $0.id == "c1" }?.animation)
        #expect(outgoing == CardAnimation(start: now, duration: 1000, curve: .easeInOut, from: full, to: clear))
        #expect(incoming == CardAnimation(start: now, duration: 1000, curve: .easeInOut, from: clear, to: full))
        // The outgoing photo is drawn over the incoming one while they cross.
        let z = Dictionary(uniqueKeysWithValues: change.cards.map { ($0.id, $0.z) })
        #expect(try #require(z["c0"]) > #require(z["c1"]))
        try stack.settle()
        #expect(stack.resting.map(\.transform.opacity) == [1, 0, 0, 0])
    }

    @Test func aFlickAnywhereGoesNextOrPrevious() throws {
        var stack = Stack(photos: Self.photos("LLLLL"), style: .frame, seed: 1)
        // From a corner of the stage, far from any card's middle.
        _ = try stack.handle(Fixture.pointer(.down, 900, 100, t: 1000), at: now)
        for step in 1...5 {
            _ = try stack.handle(
                Fixture.pointer(.move, 900 - Double(step) * 30, 100, t: 1000 + Millis(step) * 10),
                at: now + Millis(step) * 10)
        }
        let left = try stack.handle(Fixture.pointer(.up, 750, 100, t: 1050), at: now + 50)
        #expect(left.summaryChanged && stack.current == 1)
        try stack.settle()
        let start = now + 5000
        _ = try stack.handle(Fixture.pointer(.down, 100, 700, t: 9000), at: start)
        for step in 1...5 {
            _ = try stack.handle(
                Fixture.pointer(.move, 100 + Double(step) * 30, 700, t: 9000 + Millis(step) * 10),
                at: start + Millis(step) * 10)
        }
        _ = try stack.handle(Fixture.pointer(.up, 250, 700, t: 9050), at: start + 50)
        #expect(stack.current == 0)
    }

    @Test func aTapDoesNothing() throws {
        var stack = Stack(photos: Self.photos("LLL"), style: .frame, seed: 1)
        let change = try stack.apply(Fixture.tap(512, 384, t: 1000))
        #expect(change == StackChange() && stack.current == 0)
    }

    @Test func switchingToAndFromTheFrameAnimatesEveryCard() throws {
        var stack = Stack(photos: Self.photos("LLLLL"), style: .pile, seed: 1)
        let to = try stack.handle(.command(.style(.frame)), at: now)
        #expect(to.summaryChanged && !to.cards.isEmpty && to.cards.allSatisfy { $0.animation != nil })
        try stack.settle()
        let from = try stack.handle(.command(.style(.deck)), at: now + 5000)
        #expect(from.cards.filter { $0.position < 4 }.allSatisfy { $0.animation != nil })
    }
}
