import Testing

@testable import StackModel

/// Guests' photos show in the order they were sent, wherever `--uploads-at` puts them.
@Suite struct StackArrivalTests {
    let now = Fixture.now

    /// The photo ids from the front card back.
    static func order(of stack: Stack) -> [String] { (0..<stack.count).map { stack.photos[stack.order[$0]].id } }

    static func arrive(_ ids: [String], at position: (Stack) -> Int, in stack: inout Stack, now: Millis) throws {
        for id in ids {
            let photo = Photo(id: id, width: 400, height: 300)
            _ = try stack.handle(.command(.insert(photo: photo, at: position(stack), behindArrivals: true)), at: now)
        }
    }

    @Test func aBatchSentNextShowsInItsOrder() throws {
        var stack = Fixture.stack(cards: 4)
        try Self.arrive(["g1", "g2", "g3"], at: { min(1, $0.count) }, in: &stack, now: now)
        #expect(Self.order(of: stack) == ["p0", "g1", "g2", "g3", "p1", "p2", "p3"])
        // The slideshow shows g1; a photo arriving now goes behind g2 and g3, still waiting.
        _ = try stack.handle(.command(.next), at: now + 100)
        try Self.arrive(["g4"], at: { min(1, $0.count) }, in: &stack, now: now + 200)
        #expect(Self.order(of: stack).prefix(5) == ["g1", "g2", "g3", "g4", "p1"])
    }

    @Test func aBatchSentToTheFrontShowsInItsOrder() throws {
        var stack = Fixture.stack(cards: 3)
        try Self.arrive(["g1", "g2", "g3"], at: { _ in 0 }, in: &stack, now: now)
        #expect(Self.order(of: stack) == ["g1", "g2", "g3", "p0", "p1", "p2"])
    }

    @Test func aPlainInsertStillGoesWhereItIsAsked() throws {
        var stack = Fixture.stack(cards: 3)
        try Self.arrive(["g1"], at: { _ in 1 }, in: &stack, now: now)
        _ = try stack.handle(.command(.insert(photo: Photo(id: "x", width: 4, height: 3), at: 1)), at: now)
        #expect(Self.order(of: stack) == ["p0", "x", "g1", "p1", "p2"])
    }
}
