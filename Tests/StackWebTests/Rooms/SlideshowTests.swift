import Foundation
import StackModel
import Testing

@testable import StackWebServer

@Suite struct SlideshowTests {
    @Test func itAdvancesOnlyAfterAWholeIntervalOfQuiet() {
        var show = Slideshow(interval: 1000, now: 0)
        #expect(show.nextAdvance == 1000)
        let early = show.advanceIfDue(at: 999)
        show.personActed(at: 500)
        let afterGesture = show.advanceIfDue(at: 1000)
        let due = show.advanceIfDue(at: 1500)
        #expect([early, afterGesture, due] == [false, false, true])
        #expect(show.nextAdvance == 2500)
        let paused = show.choose(playing: false, at: 1600)
        #expect(paused && show.nextAdvance == nil && show.chosenPaused == true)
        #expect(Slideshow(interval: nil, now: 0).nextAdvance == nil)
    }

    /// A room on a virtual clock with a slideshow every `interval` ms, and a viewer of it.
    static func playingRoom(interval: Millis = 300) -> (Room, VirtualScheduler, RecordingSink) {
        let scheduler = VirtualScheduler()
        let room = Room.forTests(settings: RoomSettings(slideshowInterval: interval), scheduler: scheduler)
        let viewer = RecordingSink()
        room.subscribe(viewer, lastEventID: nil)
        return (room, scheduler, viewer)
    }

    /// The `current` of every change the viewer got that moved the front card, with its server time.
    static func advances(_ viewer: RecordingSink) -> [(current: Int, serverTime: Double)] {
        var last = 0
        var found: [(Int, Double)] = []
        for event in viewer.events where event.contains("event: change") {
            guard let json = RecordingSink.json(of: event), let current = json["current"] as? Int, current != last
            else { continue }
            last = current
            found.append((current, json["serverTime"] as? Double ?? 0))
        }
        return found
    }

    @Test func roomsAdvanceByThemselvesAndPauseStopsThem() throws {
        let (room, scheduler, viewer) = Self.playingRoom(interval: 300)
        let opening = try #require(viewer.events.first)
        let snapshot = try #require(RecordingSink.json(of: opening))
        #expect(snapshot["playing"] as? Bool == true)
        let start = scheduler.now()
        scheduler.advance(by: 299)
        #expect(Self.advances(viewer).isEmpty)
        scheduler.advance(by: 1)
        #expect(Self.advances(viewer).map(\.current) == [1])
        #expect(Self.advances(viewer).first?.serverTime == start + 300)
        try room.handle(.pausePressed)
        #expect(viewer.events.last?.contains(#""playing":false"#) == true)
        // Ten intervals with no advance.
        scheduler.advance(by: 3000)
        #expect(Self.advances(viewer).map(\.current) == [1])
        try room.handle(.playPressed)
        scheduler.advance(by: 300)
        #expect(Self.advances(viewer).map(\.current) == [1, 2])
    }

    @Test func aPersonsCommandHoldsTheNextAdvanceOffForAnInterval() throws {
        let (room, scheduler, viewer) = Self.playingRoom(interval: 500)
        scheduler.advance(by: 200)
        let commandTime = scheduler.now()
        try room.handle(.commandReceived(.goto(index: 5)))
        scheduler.advance(by: 499)
        #expect(Self.advances(viewer).map(\.current) == [5])
        scheduler.advance(by: 1)
        #expect(Self.advances(viewer).map(\.current) == [5, 6])
        #expect(Self.advances(viewer).last?.serverTime == commandTime + 500)
    }

    @Test func asleepTheSlideshowHoldsItsPlaceUntilTheScreensWake() throws {
        let (room, scheduler, viewer) = Self.playingRoom(interval: 300)
        try room.handle(.sleepChanged(asleep: true))
        scheduler.advance(by: 3000)
        #expect(Self.advances(viewer).isEmpty)
        try room.handle(.sleepChanged(asleep: false))
        // Ticks kept the slideshow's quiet time up to date while asleep: one interval at most.
        scheduler.advance(by: 300)
        #expect(Self.advances(viewer).map(\.current) == [1])
    }

    @Test func playOnAServerWithoutAnIntervalStartsTheDefaultOne() throws {
        let scheduler = VirtualScheduler()
        let room = Room.forTests(scheduler: scheduler)
        let viewer = RecordingSink()
        room.subscribe(viewer, lastEventID: nil)
        scheduler.advance(by: RoomSettings.defaultSlideshowInterval * 3)
        #expect(Self.advances(viewer).isEmpty)
        try room.handle(.playPressed)
        #expect(viewer.events.last?.contains(#""playing":true"#) == true)
        scheduler.advance(by: RoomSettings.defaultSlideshowInterval)
        #expect(Self.advances(viewer).map(\.current) == [1])
    }

    @Test func playOverHTTPStartsASlideshowOnAServerWithoutAnInterval() throws {
        let server = try TestServer()
        #expect(try server.snapshot()["playing"] as? Bool == false)
        #expect(try server.command(#"{"command":"play"}"#).status == 200)
        #expect(try server.snapshot()["playing"] as? Bool == true)
        #expect(try server.command(#"{"command":"pause"}"#).status == 200)
        #expect(try server.snapshot()["playing"] as? Bool == false)
    }
}
