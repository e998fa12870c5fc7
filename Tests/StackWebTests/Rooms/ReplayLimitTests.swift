import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// Resuming with `Last-Event-ID` in a room whose recent changes are large (found by fuzz-router).
@Suite struct ReplayLimitTests {
    /// A room of 80 cards switched between two styles 60 times: every change moves every card.
    static func busyRoom() throws -> (room: Room, seq: Int) {
        let room = Room.forTests(photos: 80)
        var seq = 0
        for index in 0..<60 {
            seq = try room.handle(.commandReceived(.style(index.isMultiple(of: 2) ? .grid : .angles))).seq
        }
        return (room, seq)
    }

    @Test func aReplayTooLargeForAStreamIsSentAsASnapshot() throws {
        let (room, _) = try Self.busyRoom()
        let sink = RecordingSink()
        room.subscribe(sink, lastEventID: 1)
        let opening = try #require(sink.events.first)
        #expect(opening.contains("event: snapshot"))
        #expect(!opening.contains("event: change"))
        #expect(opening.utf8.count <= RoomSettings.maxReplayBytes)
    }

    @Test func aShortReplayIsStillReplayed() throws {
        let (room, seq) = try Self.busyRoom()
        let sink = RecordingSink()
        room.subscribe(sink, lastEventID: seq - 2)
        let opening = try #require(sink.events.first)
        #expect(opening.components(separatedBy: "event: change").count == 3)
        #expect(!opening.contains("event: snapshot"))
    }
}
