import Testing

@testable import StackModel

/// A card removed before a restart is out of the stack after it: a client's retry of the removal
/// (its answer lost in the restart) is refused, and never takes another card or a position past
/// the ring's ends.
@Suite struct StackRestoreRemoveTests {
    /// As many as the demo photos.
    static let photos = Fixture.photos(12)

    /// The stack `stack` saved comes back from the same photos, as after a restart.
    static func restarted(_ stack: Stack, seed: UInt64 = 7) -> Stack {
        Stack(photos: photos, saved: stack.saved(), seed: seed)
    }

    @Test func aRetriedRemovalAfterARestartAndTurnsIsRefused() throws {
        // The sequence a history check found: `remove c3` acknowledged, the server killed and
        // restored from its saved stack, four `next`, then the client's retry of `remove c3`.
        var stack = Stack(photos: Self.photos, seed: 7)
        var now = Fixture.now
        _ = try stack.handle(.command(.remove(cardID: "c3")), at: now)
        var restored = Self.restarted(stack)
        try #require(restored.ringViolations == [])
        for _ in 0..<4 {
            now += 50
            _ = try restored.handle(.command(.next), at: now)
        }
        try #require(restored.ringViolations == [])
        let order = restored.orderIDs
        #expect(throws: StackError.unknownCard(id: "c3")) {
            try restored.handle(.command(.remove(cardID: "c3")), at: now + 50)
        }
        #expect(restored.orderIDs == order)
        #expect(restored.count == 11)
    }

    @Test func aRetriedRemovalRightAfterARestartTakesNoOtherCard() throws {
        var stack = Stack(photos: Self.photos, seed: 7)
        _ = try stack.handle(.command(.remove(cardID: "c1")), at: Fixture.now)
        var restored = Self.restarted(stack)
        try #require(restored.ringViolations == [])
        #expect(throws: StackError.unknownCard(id: "c1")) {
            try restored.handle(.command(.remove(cardID: "c1")), at: Fixture.now + 50)
        }
        #expect(restored.orderIDs.contains("c2"))
        #expect(restored.saved().removed == ["p1"])
    }

    /// Random commands — removals of any card ever made among them, in the stack or not — with
    /// restarts between them, some from part of the photos (the rest coming later, or never): after
    /// every step each card in the ring is where its slot says, and each card marked in the stack is
    /// in the ring.
    @Test(arguments: [1, 7, 33, 2026] as [UInt64])
    func theRingAndTheCardsAgreeAcrossCommandsAndRestarts(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var stack = Stack(photos: Self.photos, seed: seed)
        var now = Fixture.now
        var steps: [String] = []
        for _ in 0..<400 {
            now += 50
            let step = Self.randomStep(&random, stack: stack)
            steps.append(step.name)
            switch step {
            case .command(let command):
                _ = try? stack.handle(.command(command), at: now)
            case .restart(let given):
                stack = Stack(photos: Array(Self.photos.prefix(given)), saved: stack.saved(), seed: random.next())
            case .photosCome(let complete):
                let rest = Array(Self.photos.dropFirst(random.next(in: 0...Self.photos.count)))
                _ = stack.placeSaved(rest, at: now)
                if complete { stack.forgetUnseen() }
            case .tick:
                _ = try stack.handle(.tick, at: stack.nextDeadline ?? now)
            }
            try #require(stack.ringViolations == [], "after \(steps.suffix(12))")
        }
    }

    enum Step {
        case command(StackCommand)
        /// A restart that finds the first `given` photos.
        case restart(given: Int)
        /// Some photos come after a restart; `complete`: the folder has been read whole.
        case photosCome(complete: Bool)
        case tick

        var name: String {
            switch self {
            case .command(let command): "\(command)"
            case .restart(let given): "restart with \(given) photos"
            case .photosCome(let complete): complete ? "photos come, folder read" : "photos come"
            case .tick: "tick"
            }
        }
    }

    static func randomStep(_ random: inout SplitMix64, stack: Stack) -> Step {
        let styles: [StyleName] = [.pile, .angles, .grid, .deck, .swipe, .frame]
        switch random.next(in: 0...19) {
        case 0...2: return .command(.next)
        case 3...4: return .command(.previous)
        case 5: return .command(.goto(index: random.next(in: 0...max(0, stack.count - 1))))
        case 6...7:
            let photo = photos[random.next(in: 0...(photos.count - 1))]
            return .command(.insert(photo: photo, at: random.next(in: 0...min(2, stack.count))))
        case 8...10: return .command(.remove(cardID: "c\(random.next(in: 0...(stack.cards.count)))"))
        case 11: return .command(.shuffle(seed: random.next()))
        case 12: return .command(.style(styles[random.next(in: 0...(styles.count - 1))]))
        case 13: return .command(.undo)
        case 14: return .tick
        case 15...16:
            let partly = random.next(in: 0...3) == 0
            return .restart(given: partly ? random.next(in: 0...photos.count) : photos.count)
        default: return .photosCome(complete: random.next(in: 0...1) == 0)
        }
    }
}
