import Testing

@testable import StackModel

/// A swipe drag follows the finger: the point grabbed stays under the pointer with a modest tilt,
/// the next card eases toward the front slot without turning, and nothing stays turned after.
@Suite struct StackSwipeDragTests {
    let now = Fixture.now
    static let layout = SwipeLayout(stage: .default, stacked: false)
    static func slot(_ position: Int) -> CardTransform { layout.slot(position) }
    /// Off the front card's centre, low and right, where a thumb takes it.
    static let grab = Point(x: 560, y: 520)

    /// The point `local` (in the card's own frame, from its centre) where `card` puts it.
    static func place(_ local: Point, on card: CardTransform) -> Point {
        let c = Elementary.cos(card.rotation)
        let s = Elementary.sin(card.rotation)
        return Point(x: card.x + local.x * c - local.y * s, y: card.y + local.x * s + local.y * c)
    }

    /// A slow drag from `grab` by `dx` over 1.5 s in 10-ms steps; checks each frame with `check`.
    static func slowDrag(
        _ stack: inout Stack, dx: Double, start: Millis, check: (Stack, Point, Millis) -> Void
    ) throws -> Millis {
        _ = try stack.handle(Fixture.pointer(.down, grab.x, grab.y, t: 1000), at: start)
        for step in 1...150 {
            let point = Point(x: grab.x + dx * Double(step) / 150, y: grab.y)
            let at = start + Millis(step) * 10
            _ = try stack.handle(Fixture.pointer(.move, point.x, point.y, t: 1000 + Millis(step) * 10), at: at)
            check(stack, point, at)
        }
        return start + 1500
    }

    @Test func aSlowDragLeftKeepsTheGrabbedPointUnderThePointerAndEasesTheNextCardIn() throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        let local = Point(x: Self.grab.x - Self.slot(0).x, y: Self.grab.y - Self.slot(0).y)
        var lastWidth = Self.slot(1).w
        let release = try Self.slowDrag(&stack, dx: -150, start: now) { stack, pointer, at in
            let drawn = stack.drawnCards(at: at)
            let front = drawn[0].transform
            #expect((Self.place(local, on: front) - pointer).length < 8, "under the pointer")
            #expect(abs(front.rotation) <= 15 * Double.pi / 180 + 1e-12)
            let next = drawn[1].transform
            #expect(next.rotation == 0, "the next card never fans")
            #expect(next.w >= lastWidth && next.w <= Self.slot(0).w, "it grows toward the front slot")
            lastWidth = next.w
        }
        #expect(stack.drawnCards(at: release)[0].transform.rotation < 0, "a left drag turns it a little left")
        // 150 pt is more than a quarter of the card's width: the release sends it on.
        let change = try stack.handle(Fixture.pointer(.up, Self.grab.x - 150, Self.grab.y, t: 2500), at: release)
        #expect(change.summaryChanged && stack.current == 1)
        let next = try #require(change.cards.first { $0.id == "c1" }?.animation)
        #expect(next.start == release && next.from.rotation == 0 && next.to == Self.slot(0), "on at once, straight")
        let flown = try #require(change.cards.first { $0.id == "c0" }?.animation)
        #expect(flown.to.rotation == 0)
        try stack.settle()
        #expect(stack.resting.allSatisfy { $0.transform.rotation == 0 })
    }

    @Test func aShortDragSpringsBackStraight() throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        _ = try stack.handle(Fixture.pointer(.down, Self.grab.x, Self.grab.y, t: 1000), at: now)
        _ = try stack.handle(Fixture.pointer(.move, Self.grab.x - 40, Self.grab.y, t: 1400), at: now + 400)
        _ = try stack.handle(Fixture.pointer(.move, Self.grab.x - 40, Self.grab.y, t: 1600), at: now + 600)
        let change = try stack.handle(Fixture.pointer(.up, Self.grab.x - 40, Self.grab.y, t: 1700), at: now + 700)
        #expect(!change.summaryChanged)
        #expect(change.cards.map { $0.animation?.to } == [Self.slot(0), Self.slot(1)])
    }

    @Test func atTheFirstCardARightDragRubberBandsAndSpringsBack() throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        let release = try Self.slowDrag(&stack, dx: 150, start: now) { stack, pointer, at in
            let front = stack.drawnCards(at: at)[0].transform
            let moved = front.x - Self.slot(0).x
            let dragged = pointer.x - Self.grab.x
            #expect(moved > 0 && moved <= 0.3 * dragged + 1e-9, "it resists")
            #expect(front.rotation == 0 && front.y == Self.slot(0).y)
        }
        let change = try stack.handle(Fixture.pointer(.up, Self.grab.x + 150, Self.grab.y, t: 2500), at: release)
        #expect(!change.summaryChanged && stack.current == 0)
        let back = try #require(change.cards.first { $0.id == "c0" }?.animation)
        #expect(back.to == Self.slot(0) && back.from.x > Self.slot(0).x)
    }

    @Test func previousAtTheFirstCardNudgesOutAndBackWithoutChangingTheStack() throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        let change = try stack.handle(.command(.previous), at: now)
        var out = Self.slot(0)
        out.x += 24
        #expect(
            change
                == StackChange(cards: [
                    Fixture.drawn(
                        0, position: 0, z: 5, out,
                        animation: CardAnimation(
                            start: now, duration: 120, curve: .easeOut, from: Self.slot(0), to: out))
                ]))
        #expect(stack.current == 0 && stack.nextDeadline == now + 120)
        let back = try stack.handle(.tick, at: now + 120)
        #expect(
            back
                == StackChange(cards: [
                    Fixture.drawn(
                        0, position: 0, z: 5, Self.slot(0),
                        animation: CardAnimation(
                            start: now + 120, duration: 200, curve: .easeInOut, from: out, to: Self.slot(0)))
                ]))
        try stack.settle()
        #expect(stack.resting[0].transform == Self.slot(0) && stack.nextDeadline == nil)
    }

    @Test func aSwipeStartingBesideTheCardDrivesTheFrontCard() throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        let front = Self.slot(0)
        // Left of the card, on the empty stage beside it, where a phone's thumb lands.
        let start = Point(x: front.x - front.w / 2 - 80, y: front.y)
        _ = try stack.handle(Fixture.pointer(.down, start.x, start.y, t: 1000), at: now)
        var at = now
        for step in 1...6 {
            at = now + Millis(step) * 16
            let move = Fixture.pointer(.move, start.x - 60 * Double(step), start.y, t: 1000 + Millis(step) * 16)
            _ = try stack.handle(move, at: at)
        }
        let held = stack.drawnCards(at: at)[0]
        #expect(held.id == "c0" && held.transform.x < front.x - 300, "the front card follows the finger")
        // Turned about the point of its edge nearest the grab, which moves with the finger (not
        // about the grab itself, off the card).
        let edge = Self.place(Point(x: -front.w / 2, y: 0), on: held.transform)
        #expect(abs(edge.x - (front.x - front.w / 2 - 360)) < 0.5 && abs(edge.y - front.y) < 0.5)
        _ = try stack.handle(Fixture.pointer(.up, start.x - 360, start.y, t: 1000 + 112), at: at + 16)
        try stack.settle()
        #expect(stack.current == 1 && stack.orderIDs.first == "c1")
    }
}
