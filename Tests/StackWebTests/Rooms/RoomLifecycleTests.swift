import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// Unloading idle rooms, on a virtual clock: nothing here waits for real.
@Suite struct RoomLifecycleTests {
    static let idle: Millis = 60_000

    static func room(_ scheduler: VirtualScheduler, store: RecordingStore = RecordingStore()) -> Room {
        Room.forTests(settings: RoomSettings(idleUnload: idle), scheduler: scheduler, store: store)
    }

    @Test func anIdleRoomIsUnloadedAndComesBackAsItWas() throws {
        let scheduler = VirtualScheduler()
        let room = Self.room(scheduler)
        let before = try room.handle(.commandReceived(.goto(index: 2))).seq
        scheduler.advance(by: Self.idle - 1)
        #expect(room.isLoaded, "unloaded before the room was idle long enough")
        // Unloading waits until every motion has ended (the idle time counts from the last one),
        // so the state read back is at rest.
        scheduler.advance(by: 5_000)
        #expect(!room.isLoaded, "the room was never unloaded")
        let snapshot = try JSONSerialization.jsonObject(with: Data(try #require(room.snapshotJSON()))) as? [String: Any]
        #expect(snapshot?["current"] as? Int == 2)
        let seq = try #require(snapshot?["seq"] as? Int)
        #expect(seq >= before)
        #expect(try room.handle(.commandReceived(.next)).seq == seq + 1)
    }

    @Test func aWatchedRoomIsNotUnloaded() throws {
        let scheduler = VirtualScheduler()
        let room = Self.room(scheduler)
        room.subscribe(RecordingSink(), lastEventID: nil)
        scheduler.advance(by: Self.idle * 10)
        #expect(room.isLoaded)
    }

    @Test func aRoomWhoseViewerLeftIsUnloadedAnIdleIntervalLater() throws {
        let scheduler = VirtualScheduler()
        let room = Self.room(scheduler)
        let viewer = RecordingSink()
        room.subscribe(viewer, lastEventID: nil)
        scheduler.advance(by: Self.idle * 2)
        viewer.disconnect()
        scheduler.advance(by: Self.idle - 1)
        #expect(room.isLoaded)
        scheduler.advance(by: 1)
        #expect(!room.isLoaded)
    }

    @Test func aPlayingSlideshowKeepsItsRoomLoaded() throws {
        let scheduler = VirtualScheduler()
        let room = Self.room(scheduler)
        try room.handle(.playPressed)
        scheduler.advance(by: Self.idle * 3)
        #expect(room.isLoaded)
        #expect(room.listing().seq > 3)
    }
}
