import Foundation
import StackModel
import Testing

@testable import StackWebServer

@Suite struct ReplayBufferTests {
    func filled(_ count: Int, capacity: Int) -> ReplayBuffer {
        var buffer = ReplayBuffer(capacity: capacity)
        for seq in 1...count { buffer.append(seq: seq, bytes: [UInt8(seq)]) }
        return buffer
    }

    @Test func replaysWhatFollows() {
        #expect(filled(5, capacity: 8).events(after: 2, latest: 5) == [[3], [4], [5]])
        #expect(filled(5, capacity: 8).events(after: 5, latest: 5) == [])
        #expect(filled(5, capacity: 8).events(after: 0, latest: 5) == [[1], [2], [3], [4], [5]])
    }

    @Test func wrapsAndForgetsTheOldest() {
        let buffer = filled(10, capacity: 4)
        #expect(buffer.events(after: 6, latest: 10) == [[7], [8], [9], [10]])
        #expect(buffer.events(after: 5, latest: 10) == nil)
    }

    @Test func futureIdsNeedASnapshot() {
        #expect(filled(3, capacity: 4).events(after: 4, latest: 3) == nil)
    }
}
