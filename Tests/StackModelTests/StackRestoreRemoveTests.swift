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
}
