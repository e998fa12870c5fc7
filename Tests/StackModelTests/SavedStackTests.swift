import Testing

@testable import StackModel

@Suite struct SavedStackTests {
    static let photos = (0..<6).map { Photo(id: "p\($0)", width: 4, height: 3) }

    @Test func aRestoredStackHasTheSameOrderTiltsAndCards() throws {
        var stack = Stack(photos: Self.photos, seed: 7)
        _ = try stack.handle(.command(.goto(index: 3)), at: 0)
        _ = try stack.handle(.tick, at: 100_000)
        let saved = stack.saved()
        #expect(saved.order == ["p3", "p4", "p5", "p0", "p1", "p2"])
        let restored = Stack(photos: Self.photos, saved: saved, seed: 99)
        #expect(restored.saved() == saved)
        #expect(restored.current == 3)
        #expect(restored.drawnCards(at: 200_000) == stack.drawnCards(at: 200_000))
    }

    @Test func aPhotoInsertedTwiceComesBackAsTwoCards() throws {
        var stack = Stack(photos: Self.photos, seed: 7)
        _ = try stack.handle(.command(.insert(photo: Self.photos[2], at: 0)), at: 0)
        _ = try stack.handle(.command(.insert(photo: Self.photos[2], at: 4)), at: 0)
        _ = try stack.handle(.tick, at: 100_000)
        let saved = stack.saved()
        #expect(saved.order.filter { $0 == "p2" }.count == 3)
        let restored = Stack(photos: Self.photos, saved: saved, seed: 99)
        #expect(restored.count == 8)
        #expect(restored.saved().order == saved.order)
        #expect(restored.saved().tilts == saved.tilts)
    }

    @Test func newPhotosJoinTheBackAndVanishedOnesAreDroppedOnceForgotten() {
        // p2 saved twice is a photo inserted again: it keeps both cards.
        let saved = SavedStack(style: .pile, order: ["p2", "gone", "p0", "p2"], tilts: [3, 1, -2, 4])
        var restored = Stack(photos: Self.photos, saved: saved, seed: 1)
        // Until the folder is known whole, a saved photo not among those given keeps its place.
        #expect(restored.count == 7)
        #expect(restored.saved().order == ["p2", "gone", "p0", "p2", "p1", "p3", "p4", "p5"])
        restored.forgetUnseen()
        let after = restored.saved()
        #expect(after.order == ["p2", "p0", "p2", "p1", "p3", "p4", "p5"])
        #expect(Array(after.tilts.prefix(3)) == [3, -2, 4])
        #expect(after.tilts.allSatisfy { (-4...4).contains($0) })
    }

    @Test func outOfRangeTiltsAreClamped() {
        let saved = SavedStack(style: .pile, order: ["p0", "p1"], tilts: [90, -1000])
        #expect(Array(Stack(photos: Self.photos, saved: saved, seed: 1).saved().tilts.prefix(2)) == [4, -4])
    }

    @Test func aRemovedCardStaysRemovedAfterARestart() throws {
        var stack = Stack(photos: Self.photos, seed: 3)
        _ = try stack.handle(.command(.remove(cardID: "c2")), at: 0)
        _ = try stack.handle(.tick, at: 100_000)
        let saved = stack.saved()
        #expect(saved.removed == ["p2"])
        #expect(!saved.order.contains("p2"))
        let restored = Stack(photos: Self.photos, saved: saved, seed: 3)
        #expect(restored.count == 5)
        #expect(restored.saved() == saved)
    }
}
