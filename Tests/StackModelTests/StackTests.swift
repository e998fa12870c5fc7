import StackModel
import Testing

@Suite struct StackPlaceholderTests {
    @Test func nextRotatesFront() throws {
        var stack = Stack(photos: [Photo(id: "a", width: 4, height: 3), Photo(id: "b", width: 4, height: 3)], seed: 1)
        _ = try stack.handle(.command(.next), at: 0)
        #expect(stack.current == 1)
    }
}
