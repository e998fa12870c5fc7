import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// The one script a room's owner writes with, against a real `redis-server`: it takes a publication
/// only under the room's current epoch, before its deadline, and continuing the room's history; a
/// snapshot starts the history afresh whatever the stream held.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RoomPublisherTests {
    static let stride = 1_000_000
    static let saved = SavedStack(style: .grid, order: ["a", "b"], tilts: [0, 1])

    /// Publishes and waits for the outcome.
    static func outcome(_ publication: GroupPublication, on publisher: RoomPublisher) -> GroupPublication.Outcome? {
        let told = Locked<GroupPublication.Outcome?>(nil)
        publisher.publish(publication, of: "main") { outcome in told.withLock { $0 = outcome } }
        _ = Poll.until(5) { told.withLock { $0 } != nil }
        return told.withLock { $0 }
    }

    static func entry(_ seq: Int, _ kind: String = "change") -> RoomRelay.Entry {
        let bytes = Array("id: \(seq)\nevent: \(kind)\ndata: {}\n\n".utf8)
        return kind == "change" ? .change(seq: seq, bytes: bytes) : .takeover(seq: seq, bytes: bytes)
    }

    static func isRefused(_ outcome: GroupPublication.Outcome?) -> Bool {
        if case .refused = outcome { true } else { false }
    }

    @Test func aPublicationIsTakenOnlyUnderTheEpochInTimeAndContinuingTheHistory() throws {
        let redis = try RedisServer()
        let connection = redis.connection()
        try connection.command([Array("SET".utf8), RedisKeys.epoch("main"), Array("1".utf8)])
        let publisher = RoomPublisher(connection: RedisConnection(url: redis.url), log: { _ in })
        let keep = GroupPublication.Keep(saved: Self.saved)
        // A takeover snapshot with the room's state, then a change that follows it.
        let base = 1 * Self.stride
        #expect(
            Self.outcome(
                GroupPublication(
                    epoch: 1, entry: Self.entry(base + 1, "snapshot"), keep: keep, snapshot: [0x7B, 0x7D]),
                on: publisher) == .accepted)
        #expect(try redis.keptState(of: "main") == Self.saved)
        #expect(Self.outcome(GroupPublication(epoch: 1, entry: Self.entry(base + 2)), on: publisher) == .accepted)
        // A change that skips one is not the history's next: refused.
        #expect(Self.isRefused(Self.outcome(GroupPublication(epoch: 1, entry: Self.entry(base + 4)), on: publisher)))
        // Past its deadline (Redis's time): refused, and nothing of it is kept.
        var late = GroupPublication.Keep(saved: SavedStack(style: .deck, order: ["b", "a"], tilts: [0, 0]))
        late.deadline = 0
        #expect(
            Self.isRefused(
                Self.outcome(GroupPublication(epoch: 1, entry: Self.entry(base + 3), keep: late), on: publisher)))
        #expect(try redis.keptState(of: "main") == Self.saved)
        // Another instance takes the room (a new epoch): the old epoch's writes are refused.
        try connection.command([Array("INCR".utf8), RedisKeys.epoch("main")])
        #expect(Self.isRefused(Self.outcome(GroupPublication(epoch: 1, entry: Self.entry(base + 3)), on: publisher)))
        let events = try connection.command([Array("XLEN".utf8), RedisKeys.events("main")]).integer
        #expect(events == 2)
    }

    /// A base for each class new to the group, two at one seq (two screens of new shapes counted a
    /// round apart, no change between): both are kept, one after the other. (Both asked for the same
    /// id once, and Redis refused the second: its class waited for a snapshot that never came.)
    @Test func twoBasesAtOneSeqAreBothKept() throws {
        let redis = try RedisServer()
        let connection = redis.connection()
        try connection.command([Array("SET".utf8), RedisKeys.epoch("main"), Array("1".utf8)])
        let publisher = RoomPublisher(connection: RedisConnection(url: redis.url), log: { _ in })
        let seq = 1 * Self.stride + 1
        #expect(
            Self.outcome(
                GroupPublication(
                    epoch: 1, entry: Self.entry(seq, "snapshot"), keep: GroupPublication.Keep(saved: Self.saved)),
                on: publisher) == .accepted)
        for shape in [ShapeClass.widescreen, .standard] {
            let bytes = Array("id: \(seq)\nevent: snapshot\ndata: {}\n\n".utf8)
            var base = GroupPublication(epoch: 1, entry: .base(seq: seq, bytes: bytes))
            base.shaped = [shape: Array("id: \(seq)\nevent: snapshot\ndata: {\"for\":\"\(shape.rawValue)\"}\n\n".utf8)]
            #expect(Self.outcome(base, on: publisher) == .accepted, "the base for \(shape)")
        }
        let ids =
            try connection.command([Array("XRANGE".utf8), RedisKeys.events("main"), Array("-".utf8), Array("+".utf8)])
            .array?.compactMap { $0.array?.first?.text } ?? []
        #expect(ids == ["\(seq)-0", "\(seq)-1", "\(seq)-2"])
    }

    @Test func aSnapshotStartsTheHistoryAfreshWhateverTheStreamHeld() throws {
        let redis = try RedisServer()
        let connection = redis.connection()
        try connection.command([Array("SET".utf8), RedisKeys.epoch("main"), Array("3".utf8)])
        // A stream whose last id is above anything the owner will number (left from another life).
        try connection.command([
            Array("XADD".utf8), RedisKeys.events("main"), Array("99999999999999-0".utf8), Array("k".utf8),
            Array("c".utf8), Array("d".utf8), Array("x".utf8),
        ])
        let publisher = RoomPublisher(connection: RedisConnection(url: redis.url), log: { _ in })
        let seq = 3 * Self.stride + 1
        // A change cannot follow it, a snapshot can.
        #expect(Self.isRefused(Self.outcome(GroupPublication(epoch: 3, entry: Self.entry(seq)), on: publisher)))
        #expect(
            Self.outcome(
                GroupPublication(epoch: 3, entry: Self.entry(seq + 1, "snapshot"), keep: .init(saved: Self.saved)),
                on: publisher) == .accepted)
        #expect(Self.outcome(GroupPublication(epoch: 3, entry: Self.entry(seq + 2)), on: publisher) == .accepted)
        let last = try connection.command([
            Array("XREVRANGE".utf8), RedisKeys.events("main"), Array("+".utf8), Array("-".utf8), Array("COUNT".utf8),
            Array("1".utf8),
        ])
        #expect(last.array?.first?.array?.first?.text == "\(seq + 2)-0")
    }

    /// Redis frozen with a publication sent: the connection times out with its outcome unknown. The
    /// publisher finds out once Redis answers again — after the publication's deadline, so that
    /// Redis can no longer take it — and reports what Redis did: here, refused it as too late.
    @Test func anOutcomeRedisBrokeOffFromIsFoundOutNotGuessed() throws {
        let redis = try RedisServer()
        let connection = redis.connection()
        try connection.command([Array("SET".utf8), RedisKeys.epoch("main"), Array("1".utf8)])
        let publisher = RoomPublisher(connection: RedisConnection(url: redis.url, timeout: 1), log: { _ in })
        let first = 1 * Self.stride + 1
        #expect(
            Self.outcome(
                GroupPublication(epoch: 1, entry: Self.entry(first, "snapshot"), keep: .init(saved: Self.saved)),
                on: publisher) == .accepted)
        redis.pause()
        let told = Locked<GroupPublication.Outcome?>(nil)
        publisher.publish(GroupPublication(epoch: 1, entry: Self.entry(first + 1)), of: "main") { outcome in
            told.withLock { $0 = outcome }
        }
        // Frozen past the deadline (1.5 s) and the connection's timeout (1 s): nothing is told yet.
        Thread.sleep(forTimeInterval: 2.5)
        #expect(told.withLock { $0 } == nil)
        redis.resume()
        #expect(Poll.until(10) { told.withLock { $0 } != nil })
        #expect(Self.isRefused(told.withLock { $0 }))
        #expect(try connection.command([Array("XLEN".utf8), RedisKeys.events("main")]).integer == 1)
        publisher.stop()
    }
}
