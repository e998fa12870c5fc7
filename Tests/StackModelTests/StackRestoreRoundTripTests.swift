import Testing

@testable import StackModel

/// What a restart or a takeover does to a stack: saved at rest, restored from the saved state. Under
/// any sequence of commands — photos inserted twice, removals, undo, shuffles, style switches — the
/// restored stack has the same order, the same front card and the same `current`, and `current` is
/// a place in the stack (0 ≤ current < count, 0 when empty) at every step.
@Suite struct StackRestoreRoundTripTests {
    static let photos = Fixture.photos(9)
    static let styles: [StyleName] = [.pile, .angles, .grid, .deck, .swipe, .frame]

    static func front(_ stack: Stack) -> String? { stack.photoIDs(at: 0..<1).first }

    @Test(arguments: 0..<60 as Range<UInt64>)
    func aRestoredStackIsTheStackThatWasSaved(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var stack = Stack(photos: Self.photos, seed: seed)
        var now: Millis = 1000
        for step in 0..<120 {
            now += 50_000
            let count = stack.count
            switch random.next(in: 0...8) {
            case 0: _ = try? stack.handle(.command(.next), at: now)
            case 1: _ = try? stack.handle(.command(.previous), at: now)
            case 2 where count > 0:
                _ = try stack.handle(.command(.goto(index: random.next(in: 0...(count - 1)))), at: now)
            case 3 where count > 0:
                let position = random.next(in: 0...(count - 1))
                let photo = stack.photoIDs(at: position..<count).first!
                _ = try stack.handle(.command(.remove(cardID: stack.cardsByPhoto()[photo]!.id)), at: now)
            case 4:
                // A photo of the library again, perhaps one in the stack already (a second card of it).
                let photo = Self.photos[random.next(in: 0...(Self.photos.count - 1))]
                _ = try stack.handle(.command(.insert(photo: photo, at: random.next(in: 0...count))), at: now)
            case 5: _ = try stack.handle(.command(.shuffle(seed: random.next())), at: now)
            case 6: _ = try? stack.handle(.command(.undo), at: now)
            case 7:
                let style = Self.styles[random.next(in: 0...(Self.styles.count - 1))]
                _ = try stack.handle(.command(.style(style, stacked: nil)), at: now)
            default: break
            }
            _ = try stack.handle(.tick, at: now + 40_000)
            #expect(
                stack.count == 0 ? stack.current == 0 : (0..<stack.count).contains(stack.current),
                "seed \(seed) step \(step): current \(stack.current) of \(stack.count)")
            guard step % 7 == 0 else { continue }
            let saved = stack.saved()
            let restored = Stack(photos: Self.photos, saved: saved, seed: seed &+ 1)
            #expect(restored.saved().order == saved.order, "seed \(seed) step \(step): order")
            #expect(restored.count == stack.count, "seed \(seed) step \(step): count")
            #expect(restored.current == stack.current, "seed \(seed) step \(step): current")
            #expect(Self.front(restored) == Self.front(stack), "seed \(seed) step \(step): front")
            stack = restored
        }
    }
}
