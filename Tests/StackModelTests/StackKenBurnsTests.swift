import Testing

@testable import StackModel

/// The `frame` style with `--transition kenburns`: the incoming photo lies whole under the outgoing
/// one as that fades, then slowly zooms and pans, as the card's seeded tilt chose.
@Suite struct StackKenBurnsTests {
    let now = Fixture.now
    let full = CardTransform(x: 512, y: 384, w: 1024, h: 768)

    static func stack(_ shapes: String = "LLLLLL", seed: UInt64 = 1) -> Stack {
        var stack = Stack(photos: StackFrameTests.photos(shapes), style: .frame, seed: seed)
        stack.frameTransition = .kenBurns
        return stack
    }

    /// The area a transform covers on the stage: (left, top, right, bottom).
    static func covered(_ t: CardTransform) -> (Double, Double, Double, Double) {
        let (w, h) = (t.w * t.scaleX, t.h * t.scaleY)
        return (t.x - w / 2, t.y - h / 2, t.x + w / 2, t.y + h / 2)
    }

    @Test(arguments: Int8(-4)...4)
    func everyMotionZoomsByAFixedFactorAndKeepsThePhotoOverItsFittedPlace(tilt: Int8) {
        let motion = KenBurns(over: full, tilt: tilt)
        let (small, large) = tilt >= 0 ? (motion.start, motion.end) : (motion.end, motion.start)
        // One size throughout, the scale going between 1/zoom and 1.
        #expect(small.w == 1024 * KenBurns.zoom && large.w == small.w && large.h == 768 * KenBurns.zoom)
        #expect(small.scaleX == 1 / KenBurns.zoom && small.scaleY == small.scaleX)
        #expect(large.scaleX == 1 && large.scaleY == 1)
        // At its fitted size the photo is exactly where it rests without motion.
        let fitted = Self.covered(small)
        #expect(abs(fitted.0 - 0) < 1e-9 && abs(fitted.2 - 1024) < 1e-9)
        #expect(abs(fitted.1 - 0) < 1e-9 && abs(fitted.3 - 768) < 1e-9)
        // Grown, it still covers every point of that place.
        let grown = Self.covered(large)
        #expect(grown.0 <= 1e-9 && grown.1 <= 1e-9 && grown.2 >= 1024 - 1e-9 && grown.3 >= 768 - 1e-9)
        #expect(motion.start.opacity == 1 && motion.end.opacity == 1)
    }

    @Test func theNineTiltsGiveNineDifferentMotions() {
        let motions = (Int8(-4)...4).map { KenBurns(over: full, tilt: $0) }
        for (i, a) in motions.enumerated() {
            for b in motions[(i + 1)...] { #expect(a != b) }
        }
        // Tilt 1 grows drifting left; −1 starts grown and drifted right.
        #expect(motions[5].end.x < 512 && motions[5].end.y == 384)
        #expect(motions[3].start.x > 512 && motions[3].end.x == 512)
    }

    @Test func nextLaysTheIncomingPhotoWholeUnderTheFadingOneThenZoomsAndPans() throws {
        var stack = Self.stack()
        let incomingTilt = stack.cards[1].tilt
        let shown = try #require(stack.drawnCards(at: now).first)
        #expect(shown.transform == KenBurns(over: full, tilt: stack.cards[0].tilt).end)
        let change = try stack.handle(.command(.next), at: now)
        let outgoing = try #require(change.cards.first { $0.id == "c0" })
        let incoming = try #require(change.cards.first { $0.id == "c1" })
        // The outgoing photo fades out where it is, over the incoming one.
        var faded = shown.transform
        faded.opacity = 0
        #expect(
            outgoing.animation
                == CardAnimation(start: now, duration: 1000, curve: .easeInOut, from: shown.transform, to: faded))
        #expect(outgoing.z > incoming.z)
        // The incoming one is whole from the start and moves for ten seconds at a steady speed.
        let motion = KenBurns(over: full, tilt: incomingTilt)
        #expect(
            incoming.animation
                == CardAnimation(start: now, duration: 10_000, curve: .linear, from: motion.start, to: motion.end))
        try stack.settle()
        #expect(stack.resting.first?.transform == motion.end)
        #expect(stack.resting.dropFirst().allSatisfy { $0.transform.opacity == 0 })
    }

    @Test func theMotionsFollowTheSeedAndAPhotoMovesAnewOnItsNextPass() throws {
        func motions(seed: UInt64) throws -> [CardAnimation?] {
            var stack = Self.stack("LLL", seed: seed)
            var seen: [CardAnimation?] = []
            for step in 0..<9 {
                let change = try stack.handle(.command(.next), at: now + Millis(step) * 20_000)
                var motion = change.cards.first { $0.position == 0 }?.animation
                motion?.start = 0
                seen.append(motion)
                try stack.settle()
            }
            return seen
        }
        let first = try motions(seed: 1)
        #expect(try motions(seed: 1) == first, "the same seed, the same motions")
        #expect(first.allSatisfy { $0 != nil })
        #expect(Set(first.map { "\(String(describing: $0))" }).count > 3, "passes differ: \(first)")
    }

    @Test func portraitPairsMoveEachInItsHalf() throws {
        var stack = Self.stack("LPPLL")
        let change = try stack.handle(.command(.next), at: now)
        let pair = change.cards.filter { $0.position < 2 }.sorted { $0.position < $1.position }
        #expect(pair.count == 2)
        for card in pair {
            let animation = try #require(card.animation)
            #expect(animation.duration == KenBurns.duration && animation.from.opacity == 1)
            #expect(animation.from.w == 504 * KenBurns.zoom && animation.from.h == 672 * KenBurns.zoom)
        }
    }

    @Test func previousCrossFadesToWhereTheMotionEnds() throws {
        var stack = Self.stack()
        _ = try stack.handle(.command(.next), at: now)
        try stack.settle()
        let change = try stack.handle(.command(.previous), at: now + 20_000)
        let back = try #require(change.cards.first { $0.id == "c0" }?.animation)
        #expect(back.duration == 1000 && back.from.opacity == 0 && back.to.opacity == 1)
        #expect(back.to == KenBurns(over: full, tilt: stack.cards[0].tilt).end)
    }

    @Test func theFadeIsTheDefault() throws {
        var stack = Stack(photos: StackFrameTests.photos("LLL"), style: .frame, seed: 1)
        #expect(stack.frameTransition == .fade)
        let change = try stack.handle(.command(.next), at: now)
        #expect(change.cards.compactMap(\.animation).allSatisfy { $0.duration == 1000 })
    }
}
