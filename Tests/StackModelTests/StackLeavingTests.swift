import Testing

@testable import StackModel

/// Every card that leaves ends where no window shows it, whatever the window's aspect from 9:21 to
/// 21:9 around a stage fitted into it (contain, centred).
@Suite struct StackLeavingTests {
    static let stages = [
        StageSize.default, StageSize(width: 768, height: 1024), StageSize(width: 1920, height: 1080),
        StageSize(width: 400, height: 900),
    ]
    static let aspects = [9.0 / 21, 0.5, 0.75, 1, 4.0 / 3, 16.0 / 9, 21.0 / 9]

    /// Whether `card` is out of sight in a window of every aspect: fully transparent, or every corner
    /// beyond one edge of what that window shows.
    static func isOutOfEveryWindow(_ card: CardTransform, on stage: StageSize) -> Bool {
        if card.opacity <= 0 { return true }
        let c = Elementary.cos(card.rotation)
        let s = Elementary.sin(card.rotation)
        let hw = card.w * card.scaleX / 2
        let hh = card.h * card.scaleY / 2
        let corners = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { dx, dy in
            Point(x: card.x + dx * c - dy * s, y: card.y + dx * s + dy * c)
        }
        return aspects.allSatisfy { aspect in
            let width = max(stage.width, stage.height * aspect)
            let height = max(stage.height, stage.width / aspect)
            let (minX, maxX) = (stage.width / 2 - width / 2, stage.width / 2 + width / 2)
            let (minY, maxY) = (stage.height / 2 - height / 2, stage.height / 2 + height / 2)
            return corners.allSatisfy { $0.x <= minX } || corners.allSatisfy { $0.x >= maxX }
                || corners.allSatisfy { $0.y <= minY } || corners.allSatisfy { $0.y >= maxY }
        }
    }

    static func photos(_ count: Int) -> [Photo] { Fixture.photos(count) }

    /// A fast drag of the front card from its centre by (dx, dy) over 100 ms, released.
    static func throwCard(_ stack: inout Stack, dx: Double, dy: Double, at start: Millis) throws -> StackChange {
        let top = stack.drawnCards(at: start)[0].transform
        _ = try stack.handle(Fixture.pointer(.down, top.x, top.y, t: 1000), at: start)
        for step in 1...10 {
            let share = Double(step) / 10
            _ = try stack.handle(
                Fixture.pointer(.move, top.x + dx * share, top.y + dy * share, t: 1000 + Millis(step) * 10),
                at: start + Millis(step) * 10)
        }
        return try stack.handle(Fixture.pointer(.up, top.x + dx, top.y + dy, t: 1100), at: start + 100)
    }

    /// The card flying at `now` (drawn above the pile: its z is the largest).
    static func flown(_ stack: Stack, at now: Millis) throws -> CardAnimation {
        try #require(stack.drawnCards(at: now).max { $0.z < $1.z }?.animation)
    }

    @Test(arguments: stages)
    func aPileFlickLeavesEveryWindowAnyWay(stage: StageSize) throws {
        for (dx, dy) in [(250.0, 0.0), (-250, 0), (0, -250), (0, 250), (180, 180)] {
            var stack = Stack(photos: Self.photos(5), stage: stage, style: .pile, seed: 3)
            _ = try Self.throwCard(&stack, dx: dx, dy: dy, at: Fixture.now)
            let flight = try Self.flown(stack, at: Fixture.now + 100)
            #expect(Self.isOutOfEveryWindow(flight.to, on: stage), "\(stage) \(dx), \(dy): \(flight.to)")
            #expect(stage.isOutOfView(flight.to))
        }
    }

    @Test(arguments: stages)
    func theDeckFlyOutLeavesEveryWindow(stage: StageSize) throws {
        for dx in [400.0, -400] {
            var stack = Stack(photos: Self.photos(6), stage: stage, style: .deck, seed: 3)
            _ = try Self.throwCard(&stack, dx: dx, dy: 0, at: Fixture.now)
            let flight = try Self.flown(stack, at: Fixture.now + 100)
            #expect(Self.isOutOfEveryWindow(flight.to, on: stage), "\(stage) \(dx): \(flight.to)")
        }
    }

    @Test(arguments: stages)
    func aSwipeAndANextLeaveEveryWindowAndAPreviousArrivesFromOutOfSight(stage: StageSize) throws {
        var stack = Stack(photos: Self.photos(5), stage: stage, style: .swipe, seed: 3)
        _ = try Self.throwCard(&stack, dx: -200, dy: 0, at: Fixture.now)
        let swipe = try Self.flown(stack, at: Fixture.now + 100)
        #expect(Self.isOutOfEveryWindow(swipe.to, on: stage), "\(stage): \(swipe.to)")
        try stack.settle()
        _ = try stack.handle(.command(.next), at: Fixture.now + 5000)
        let next = try Self.flown(stack, at: Fixture.now + 5000)
        #expect(Self.isOutOfEveryWindow(next.to, on: stage))
        try stack.settle()
        let previous = try stack.handle(.command(.previous), at: Fixture.now + 10_000)
        let arrival = try #require(previous.cards.first { $0.position == 0 }?.animation)
        #expect(Self.isOutOfEveryWindow(arrival.from, on: stage), "\(stage): \(arrival.from)")
    }

    @Test(arguments: stages)
    func aRemovedCardFadesOutAndAFramePhotoFadesOut(stage: StageSize) throws {
        var angles = Stack(photos: Self.photos(5), stage: stage, style: .angles, seed: 3)
        let change = try angles.handle(.command(.remove(cardID: "c0")), at: Fixture.now)
        let fade = try #require(change.cards.first { $0.id == "c0" }?.animation)
        #expect(Self.isOutOfEveryWindow(fade.to, on: stage))
        var frame = Stack(photos: Self.photos(5), stage: stage, style: .frame, seed: 3)
        _ = try frame.handle(.command(.next), at: Fixture.now)
        let faded = try Self.flown(frame, at: Fixture.now)
        #expect(Self.isOutOfEveryWindow(faded.to, on: stage))
    }

    @Test func theFarthestVisibleAreaIsTheStageWidenedToTwentyOneByNineBothWays() {
        let area = StageSize.default.farthestVisibleArea
        // 768·21/9 = 1792 wide, 1024·21/9 = 2389.33 tall, centred on (512, 384).
        #expect(abs(area.minX - (512 - 896)) < 1e-9 && abs(area.maxX - (512 + 896)) < 1e-9)
        #expect(abs(area.minY - (384 - 1024 * 21.0 / 18)) < 1e-9 && abs(area.maxY - (384 + 1024 * 21.0 / 18)) < 1e-9)
    }
}
