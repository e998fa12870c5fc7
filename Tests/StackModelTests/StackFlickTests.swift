import Testing

@testable import StackModel

@Suite struct StackFlickTests {
    let now = Fixture.now

    /// A 1500 pt/s throw to the right, released 90 pt out at `now + 60`.
    private func flicked(cards: Int = 5, seed: UInt64 = 7) throws -> (stack: Stack, change: StackChange, before: Stack)
    {
        var stack = Fixture.stack(cards: cards, seed: seed)
        let before = stack
        let change = try stack.apply(Fixture.drag(speed: 1500, duration: 60))
        return (stack, change, before)
    }

    @Test func aFlickSendsTheCardOffStageAlongTheThrowAndStraightensTheNewTop() throws {
        let (stack, change, before) = try flicked()
        let held = Fixture.moved(Fixture.rest(), 90)
        // Past what a 21:9 window shows right of the stage (768·21/9 wide, centred) by half the
        // card's diagonal plus the 24-pt shadow margin, at the same height.
        let halfDiagonal =
            (Fixture.cardWidth * Fixture.cardWidth + Fixture.cardHeight * Fixture.cardHeight)
            .squareRoot() / 2
        let target = CardTransform(
            x: 512 + 768 * 21 / 18 + halfDiagonal + 24, y: 384, w: Fixture.cardWidth, h: Fixture.cardHeight)
        let flight = try #require(change.cards.last?.animation)
        guard case .spring(225, 30, 1, let velocity) = flight.curve else { throw Unexpected.curve }
        // Release speed over the distance to travel, in progress units per second.
        #expect(abs(velocity - 1500 / (target.x - held.x)) < 1e-9)
        let release = now + 60
        let tilt1 = Fixture.rest(of: 1, in: before, position: 1)
        #expect(
            change
                == StackChange(
                    cards: [
                        Fixture.drawn(
                            1, position: 0, z: 5, Fixture.rest(),
                            animation: Fixture.settled(from: tilt1, to: Fixture.rest(), start: release)),
                        Fixture.drawn(2, position: 1, z: 4, Fixture.rest(of: 2, in: stack, position: 1)),
                        Fixture.drawn(3, position: 2, z: 3, Fixture.rest(of: 3, in: stack, position: 2)),
                        Fixture.drawn(4, position: 3, z: 2, Fixture.rest(of: 4, in: stack, position: 3)),
                        Fixture.drawn(
                            0, position: 4, z: 6, target,
                            animation: Fixture.flight(from: held, to: target, start: release, velocity: velocity)),
                    ], summaryChanged: true))
        #expect(stack.current == 1 && stack.count == 5)
        #expect(stack.nextDeadline == flight.end)
    }

    @Test func theFlightsEndSlidesTheCardUnderThePileWithANewTilt() throws {
        var (stack, change, before) = try flicked()
        let flight = try #require(change.cards.last?.animation)
        #expect(try stack.handle(.tick, at: flight.end - 1) == StackChange())
        var random = before.random
        let newTilt = Int8(random.next(in: -4...4))
        let home = Fixture.rest(degrees: newTilt)
        var offStage = flight.to
        offStage.rotation = home.rotation
        let landing = try stack.handle(.tick, at: flight.end + 5)
        #expect(
            landing
                == StackChange(cards: [
                    Fixture.drawn(
                        0, position: 4, z: 1, home,
                        animation: Fixture.settle(from: offStage, to: home, start: flight.end + 5))
                ]))
        #expect(stack.nextDeadline == nil)
        #expect(stack.drawnCards(at: flight.end + 5).map(\.id) == ["c1", "c2", "c3", "c4", "c0"])
        #expect(stack.drawnCards(at: flight.end + 5)[0].transform.rotation == 0)
        #expect(try stack.handle(.tick, at: flight.end + 6) == StackChange())
    }

    @Test func inABigStackTheCardIsDrawnUntilItHasSlidUnderThePile() throws {
        var (stack, change, _) = try flicked(cards: 20)
        #expect(change.cards.map(\.id) == ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c0"])
        #expect(change.cards.last?.position == 19 && change.cards.last?.z == 21)
        let flight = try #require(change.cards.last?.animation)
        let landing = try stack.handle(.tick, at: flight.end)
        let slide = try #require(landing.cards.first?.animation)
        #expect(landing.cards.map(\.id) == ["c0"] && landing.cards[0].z == 1)
        #expect(stack.nextDeadline == slide.end)
        #expect(try stack.handle(.tick, at: slide.end) == StackChange(removed: ["c0"]))
        #expect(stack.nextDeadline == nil && stack.drawnCards(at: slide.end).count == 10)
    }

    /// A seed whose card 1 is tilted, so it has a visible straightening when it comes to the top.
    private var tiltedSecondCardSeed: UInt64 {
        (0...).first { Fixture.stack(seed: $0).cards[1].tilt != 0 }!
    }

    @Test func whileACardFliesTheNextOneCanBeGrabbedFromWhereItIs() throws {
        var (stack, change, _) = try flicked(seed: tiltedSecondCardSeed)
        let straighten = try #require(change.cards.first?.animation)
        var held = straighten.value(at: now + 100)
        #expect(held.rotation != 0)
        held.rotation = 0
        let grab = try stack.handle(Fixture.pointer(.down, 512, 384, t: 2000), at: now + 100)
        #expect(grab == StackChange(cards: [Fixture.drawn(1, position: 0, z: 5, held)]))
        let drag = try stack.handle(Fixture.pointer(.move, 500, 384, t: 2016), at: now + 116)
        #expect(drag.cards == [Fixture.drawn(1, position: 0, z: 5, Fixture.moved(held, -12))])
    }

    @Test func aCardAlreadyMovingStartsItsNextMotionWhereItIs() throws {
        var (stack, change, _) = try flicked(seed: tiltedSecondCardSeed)
        let straighten = try #require(change.cards.first?.animation)
        let next = try stack.handle(.command(.next), at: now + 110)
        let flight = try #require(next.cards.first { $0.id == "c1" }?.animation)
        #expect(flight.from == straighten.value(at: now + 110))
        #expect(flight.start == now + 110)
    }

    @Test func aOneCardStackFliesAndComesBack() throws {
        var stack = Fixture.stack(cards: 1)
        let change = try stack.apply(Fixture.drag(speed: 1500, duration: 60))
        #expect(change.cards.map { "\($0.id) \($0.position) \($0.z)" } == ["c0 0 2"] && !change.summaryChanged)
        // It cannot be caught mid-flight.
        #expect(try stack.handle(Fixture.pointer(.down, 1000, 384, t: 3000), at: now + 100) == StackChange())
        let end = try #require(stack.nextDeadline)
        let landing = try stack.handle(.tick, at: end)
        #expect(landing.cards.map(\.transform) == [Fixture.rest()] && stack.nextDeadline == nil)
    }

    enum Unexpected: Error { case curve }
}
