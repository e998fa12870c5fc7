import Testing

@testable import StackModel

@Suite struct RingTests {
    @Test func endsBehaveLikeAnArrayAcrossWrapAroundAndGrowth() {
        var ring = Ring<Int>()
        var model: [Int] = []
        // A fixed walk mixing all four operations, wrapping the head around storage many times.
        var random = SplitMix64(seed: 3)
        for value in 0..<5000 {
            switch random.next(in: 0...3) {
            case 0: ring.append(value); model.append(value)
            case 1: ring.prepend(value); model.insert(value, at: 0)
            case 2: if !model.isEmpty { #expect(ring.removeFirst() == model.removeFirst()) }
            default: if !model.isEmpty { #expect(ring.removeLast() == model.removeLast()) }
            }
            #expect(ring.count == model.count)
            #expect(ring.first == model.first && ring.last == model.last)
        }
        #expect(Array(ring) == model)
    }

    @Test func rotatingTopToBottomKeepsTheCycle() {
        var ring = Ring(0..<10)
        for _ in 0..<25 { ring.append(ring.removeFirst()) }
        #expect(Array(ring) == [5, 6, 7, 8, 9, 0, 1, 2, 3, 4])
        for _ in 0..<7 { ring.prepend(ring.removeLast()) }
        #expect(Array(ring) == [8, 9, 0, 1, 2, 3, 4, 5, 6, 7])
    }

    @Test(arguments: [0, 1, 3, 5, 7, 9, 10])
    func insertPutsTheElementAtItsPosition(position: Int) {
        var ring = Ring(0..<10)
        // Wrap the head first so shifting crosses the storage end.
        for _ in 0..<6 { ring.append(ring.removeFirst()) }
        var model = Array(ring)
        ring.insert(99, at: position)
        model.insert(99, at: position)
        #expect(Array(ring) == model)
    }

    @Test func subscriptWritesThroughTheWrap() {
        var ring = Ring([1, 2, 3])
        ring.prepend(0)
        ring[0] = 10
        ring[3] = 30
        #expect(Array(ring) == [10, 1, 2, 30])
    }
}

@Suite struct SplitMix64Tests {
    @Test func matchesTheReferenceSequence() {
        // The reference implementation's first outputs for seed 0.
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func boundedDrawsCoverTheRangeAndNothingElse() {
        var random = SplitMix64(seed: 42)
        let draws = (0..<2000).map { _ in random.next(in: -4...4) }
        #expect(Set(draws) == Set(-4...4))
    }
}
