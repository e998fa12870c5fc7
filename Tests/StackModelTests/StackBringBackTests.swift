import Testing

@testable import StackModel

/// What a tap on the angled stack's empty stage brings back: never a second card of a photo.
@Suite struct StackBringBackTests {
    let now = Fixture.now

    /// Taps the top card of an angled stack at `t`, removing it.
    static func removeTop(_ stack: inout Stack, t: Millis) throws {
        try stack.apply(Fixture.tap(512, 384, t: t))
    }

    @Test func theLatestRemovedComesBackFirstThenTheOneBefore() throws {
        var stack = Fixture.stack(.angles, cards: 4)
        try Self.removeTop(&stack, t: 1000)
        try Self.removeTop(&stack, t: 2000)
        #expect(stack.orderIDs == ["c2", "c3"])
        try stack.apply(Fixture.tap(10, 10, t: 3000))
        #expect(stack.orderIDs == ["c1", "c2", "c3"])
        try stack.apply(Fixture.tap(10, 10, t: 4000))
        #expect(stack.orderIDs == ["c0", "c1", "c2", "c3"])
        // Nothing is out any more: the third tap adds nothing.
        try stack.apply(Fixture.tap(10, 10, t: 5000))
        #expect(stack.count == 4)
    }

    @Test func aCardPutBackByUndoIsNotBroughtBackTwice() throws {
        var stack = Fixture.stack(.angles, cards: 4)
        try Self.removeTop(&stack, t: 1000)
        try Self.removeTop(&stack, t: 2000)
        _ = try stack.handle(.command(.undo), at: now + 2500)
        #expect(stack.orderIDs == ["c1", "c2", "c3"])
        try stack.apply(Fixture.tap(10, 10, t: 3000))
        #expect(stack.orderIDs == ["c0", "c1", "c2", "c3"])
    }

    @Test func withoutATapRemovalTheFirstCardOutOfTheStackComes() throws {
        var stack = Fixture.stack(.angles, cards: 4)
        _ = try stack.handle(.command(.remove(cardID: "c2")), at: now)
        _ = try stack.handle(.command(.remove(cardID: "c1")), at: now + 10)
        try stack.apply(Fixture.tap(10, 10, t: 1000))
        #expect(stack.orderIDs == ["c1", "c0", "c3"])
    }

    @Test func aPhotoGoneFromTheFolderNeverComesBack() throws {
        var stack = Fixture.stack(.angles, cards: 4)
        try Self.removeTop(&stack, t: 1000)
        try Self.removeTop(&stack, t: 2000)
        stack.photosLeftFolder(["p1"])
        try stack.apply(Fixture.tap(10, 10, t: 3000))
        #expect(stack.orderIDs == ["c0", "c2", "c3"])
        let change = try stack.apply(Fixture.tap(10, 10, t: 4000))
        #expect(change == StackChange() && stack.count == 3)
    }

    @Test func aRemovedCardWhosePhotoAnotherCardShowsStaysOut() throws {
        var stack = Fixture.stack(.angles, cards: 3)
        // A second card of p0 (an `insert` command may add one), then the first taken out.
        _ = try stack.handle(.command(.insert(photo: Photo(id: "p0", width: 400, height: 300), at: 3)), at: now)
        try Self.removeTop(&stack, t: 1000)
        let change = try stack.apply(Fixture.tap(10, 10, t: 2000))
        #expect(change == StackChange() && stack.orderIDs == ["c1", "c2", "c3"])
    }

    @Test func onlyTheTappingViewerIsNamed() throws {
        var stack = Fixture.stack(.angles, cards: 3)
        let tap: [(event: StackEvent, at: Millis)] = [
            (Fixture.pointer(.down, 512, 384, t: 1000, viewer: "v-phone"), now + 1000),
            (Fixture.pointer(.up, 512, 384, t: 1060, viewer: "v-phone"), now + 1060),
        ]
        #expect(try stack.apply(tap).removedBy == ["v-phone"])
        // A command or a tap that brings a card back names nobody.
        #expect(try stack.handle(.command(.undo), at: now + 2000).removedBy.isEmpty)
        #expect(try stack.handle(.command(.remove(cardID: "c1")), at: now + 3000).removedBy.isEmpty)
    }
}
