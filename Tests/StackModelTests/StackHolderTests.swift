import Testing

@testable import StackModel

@Suite struct StackHolderTests {
    @Test func theHolderIsTheViewerDraggingUntilItLetsGo() throws {
        var stack = Stack(photos: (0..<3).map { Photo(id: "p\($0)", width: 4, height: 3) }, seed: 1)
        let top = try #require(stack.drawnCards(at: 0).first).transform
        func pointer(_ viewer: String, _ phase: PointerInput.Phase, _ t: Double) -> StackEvent {
            .pointer(PointerInput(viewer: viewer, phase: phase, pointer: 1, x: top.x, y: top.y, t: t))
        }
        #expect(stack.holder == nil)
        _ = try stack.handle(pointer("alice", .down, 0), at: 0)
        #expect(stack.holder == "alice")
        _ = try stack.handle(pointer("bob", .down, 10), at: 10)
        #expect(stack.holder == "alice")
        _ = try stack.handle(pointer("alice", .up, 500), at: 500)
        #expect(stack.holder == nil)
    }
}
