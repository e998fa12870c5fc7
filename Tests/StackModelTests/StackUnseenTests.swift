import Testing

@testable import StackModel

/// A stack restored before its photos are known again (a server whose cache was deleted): the saved
/// order waits for them, each card taking its saved place as its photo comes.
@Suite struct StackUnseenTests {
    static let photos = Fixture.photos(12)

    /// Shuffled, turned to its sixth card (`current` 5), at rest: what a restart finds.
    static func savedShuffled() throws -> SavedStack {
        var stack = Stack(photos: photos, seed: 7)
        _ = try stack.handle(.command(.shuffle(seed: 42)), at: 0)
        _ = try stack.handle(.command(.goto(index: 5)), at: 0)
        _ = try stack.handle(.tick, at: 100_000)
        #expect(stack.current == 5)
        return stack.saved()
    }

    /// The photos come in `batches` (by index in `photos`), each at rest before the next.
    static func arrive(_ stack: inout Stack, _ batches: [[Int]]) {
        var now: Millis = 200_000
        for batch in batches {
            let (_, unknown) = stack.placeSaved(batch.map { photos[$0] }, at: now)
            #expect(unknown.isEmpty)
            now += 100_000
            _ = try? stack.handle(.tick, at: now)
        }
    }

    @Test func anEmptyRestoreTakesBackItsOrderFrontAndCurrentAsThePhotosCome() throws {
        let saved = try Self.savedShuffled()
        #expect(saved.first != nil)
        for batches in [[Array(0..<12)], [[3, 0], [11, 7, 1], [2, 4, 5, 6, 8, 9, 10]], (0..<12).map { [$0] }] {
            var stack = Stack(photos: [], saved: saved, seed: 1)
            #expect(stack.count == 0)
            #expect(stack.saved() == saved)
            Self.arrive(&stack, batches)
            #expect(stack.saved() == saved)
            #expect(stack.current == 5)
            #expect(!stack.isAwaitingPhotos)
        }
    }

    @Test func aPartialRestoreKeepsTheMissingInTheirPlacesUntilTheyCome() throws {
        let saved = try Self.savedShuffled()
        // Every other photo known at the start.
        var stack = Stack(
            photos: Self.photos.enumerated().filter { $0.offset % 2 == 0 }.map(\.element), saved: saved, seed: 1)
        #expect(stack.count == 6)
        #expect(stack.saved() == saved)
        Self.arrive(&stack, [[1, 5], [3, 7, 9, 11]])
        #expect(stack.saved() == saved)
        #expect(stack.photoIDs(at: 0..<1) == [saved.order[0]])
        #expect(stack.current == 5)
    }

    /// A person who turns the stack meanwhile keeps the card they turned to; the photos that come
    /// take their places in the ring around it.
    @Test func turningWhileWaitingKeepsTheFrontAndTheRing() throws {
        let saved = try Self.savedShuffled()
        var stack = Stack(photos: [], saved: saved, seed: 1)
        let first = Self.photos.firstIndex { $0.id == saved.order[4] }!
        let second = Self.photos.firstIndex { $0.id == saved.order[8] }!
        Self.arrive(&stack, [[first, second]])
        #expect(stack.photoIDs(at: 0..<2) == [saved.order[4], saved.order[8]])
        _ = try stack.handle(.command(.next), at: 500_000)
        _ = try stack.handle(.tick, at: 600_000)
        #expect(stack.photoIDs(at: 0..<1) == [saved.order[8]])
        Self.arrive(&stack, [Array(0..<12).filter { $0 != first && $0 != second }])
        // The same ring, turned to the card the person chose.
        let ring = Array(saved.order[8...] + saved.order[..<8])
        #expect(stack.saved().order == ring)
        #expect(stack.photoIDs(at: 0..<1) == [saved.order[8]])
    }

    /// What is saved while waiting keeps the unseen cards; once the folder has been read whole,
    /// those that never came are dropped, and the others keep their order.
    @Test func photosThatNeverComeAreDroppedOnlyWhenTold() throws {
        let saved = try Self.savedShuffled()
        var stack = Stack(photos: [], saved: saved, seed: 1)
        let gone = Self.photos.firstIndex { $0.id == saved.order[3] }!
        Self.arrive(&stack, [Array(0..<12).filter { $0 != gone }])
        #expect(stack.count == 11)
        #expect(stack.saved().order == saved.order)
        let forgot = stack.forgetUnseen()
        #expect(forgot)
        #expect(stack.saved().order == saved.order.filter { $0 != saved.order[3] })
        #expect(stack.photoIDs(at: 0..<1) == [saved.order[0]])
        #expect(!stack.isAwaitingPhotos)
    }

    @Test func aRemovedPhotoThatComesLaterStaysOut() throws {
        var stack = Stack(photos: Self.photos, seed: 3)
        _ = try stack.handle(.command(.remove(cardID: "c2")), at: 0)
        _ = try stack.handle(.tick, at: 100_000)
        let saved = stack.saved()
        var restored = Stack(photos: [], saved: saved, seed: 3)
        Self.arrive(&restored, [Array(0..<12)])
        #expect(restored.count == 11)
        #expect(restored.saved() == saved)
        let forgot = restored.forgetUnseen()
        #expect(!forgot)
        #expect(restored.saved().removed == ["p2"])
    }

    @Test func photosTheSavedStackDidNotKnowAreLeftToTheCaller() throws {
        let saved = SavedStack(style: .pile, order: ["p1", "p0"], tilts: [2, -2], first: 1)
        var stack = Stack(photos: [], saved: saved, seed: 1)
        let (_, unknown) = stack.placeSaved([Self.photos[5], Self.photos[0], Self.photos[1]], at: 0)
        #expect(unknown == [Self.photos[5]])
        #expect(stack.photoIDs(at: 0..<2) == ["p1", "p0"])
        #expect(stack.saved().tilts == [2, -2])
        #expect(stack.current == 1)
    }

    /// A stack saved before the first card was kept counts `current` from its first photo's card,
    /// as it did then.
    @Test func aStackSavedWithoutItsFirstCardCountsFromTheFirstPhoto() {
        let saved = SavedStack(style: .pile, order: ["p2", "p3", "p0", "p1"], tilts: [0, 0, 0, 0])
        #expect(Stack(photos: Fixture.photos(4), saved: saved, seed: 1).current == 2)
    }

    /// A new photo joining the back while others wait goes behind the saved cards that wait at
    /// the back, and a card removed meanwhile hands its waiting cards to the next one.
    @Test func insertsAndRemovalsWhileWaitingKeepTheSavedRing() throws {
        let saved = SavedStack(style: .pile, order: ["p0", "p1", "p2", "p3", "p4"], tilts: [1, 2, 3, 4, 0], first: 0)
        var stack = Stack(photos: [Self.photos[2]], saved: saved, seed: 1)
        _ = try stack.handle(.command(.insert(photo: Self.photos[9], at: 1)), at: 0)
        #expect(stack.saved().order == ["p0", "p1", "p2", "p3", "p4", "p9"])
        // The front card (p2, card 0) removed: p9 is the front, the others wait behind it.
        _ = try stack.handle(.command(.remove(cardID: "c0")), at: 0)
        #expect(stack.saved().order == ["p9", "p0", "p1", "p3", "p4"])
        _ = try stack.handle(.tick, at: 100_000)
        Self.arrive(&stack, [[4, 1, 0, 3]])
        #expect(stack.photoIDs(at: 0..<5) == ["p9", "p0", "p1", "p3", "p4"])
        #expect(stack.saved().tilts.dropFirst() == [1, 2, 4, 0])
    }

    /// Whatever a person does while the photos come, nothing is lost or doubled: every saved card
    /// and every inserted one is in the order (saved or shown) at every step.
    @Test(arguments: 0..<40 as Range<UInt64>)
    func noCardIsLostWhateverHappensMeanwhile(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let saved = try Self.savedShuffled()
        var known = Self.photos.indices.filter { _ in random.next(in: 0...2) == 0 }
        var stack = Stack(photos: known.map { Self.photos[$0] }, saved: saved, seed: seed)
        var everSeen = Set(saved.order)
        var now: Millis = 1000
        while known.count < Self.photos.count {
            now += 700
            switch random.next(in: 0...7) {
            case 0: _ = try? stack.handle(.command(.next), at: now)
            case 1: _ = try? stack.handle(.command(.previous), at: now)
            case 2 where stack.count > 0:
                _ = try stack.handle(.command(.goto(index: random.next(in: 0...(stack.count - 1)))), at: now)
            case 3 where stack.count > 0:
                let photo = stack.photoIDs(at: random.next(in: 0...(stack.count - 1))..<stack.count).first!
                _ = try stack.handle(.command(.remove(cardID: stack.cardsByPhoto()[photo]!.id)), at: now)
            case 4:
                let photo = Photo(id: "new\(now)", width: 400, height: 300)
                _ = try stack.handle(.command(.insert(photo: photo, at: random.next(in: 0...stack.count))), at: now)
                everSeen.insert(photo.id)
            case 5: _ = try? stack.handle(.command(.shuffle(seed: UInt64(now))), at: now)
            case 6: _ = try? stack.handle(.command(.undo), at: now)
            default:
                let batch = Self.photos.indices.filter { !known.contains($0) && random.next(in: 0...1) == 0 }
                known += batch
                _ = stack.placeSaved(batch.map { Self.photos[$0] }, at: now)
            }
            let order = stack.saved().order
            let waiting = Set(saved.order).subtracting(known.map { Self.photos[$0].id })
            #expect(Set(order).isSubset(of: everSeen), "seed \(seed)")
            #expect(waiting.isSubset(of: Set(order)), "seed \(seed): lost \(waiting.subtracting(order))")
            #expect(order.count == stack.count + waiting.count, "seed \(seed)")
            #expect(Set(order).count == order.count, "seed \(seed): doubled")
        }
        _ = try stack.handle(.tick, at: now + 100_000)
        #expect(!stack.isAwaitingPhotos, "seed \(seed)")
        #expect(stack.saved().order.count == stack.count, "seed \(seed)")
    }
}
