import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// The room reducer alone: each event's whole list of effects, in virtual time passed by hand.
@Suite struct RoomStateTests {
    typealias Fixture = RoomReducerFixture

    @Test func aViewerGetsASnapshotAndTheCountFollowsHalfASecondLater() throws {
        var state = Fixture.loadedState()
        let effects = try state.handle(.viewerJoined(ViewerID(number: 7), lastEventID: nil), at: Fixture.t0)
        #expect(Fixture.kinds(effects) == [.send(to: 7), .wake(at: Fixture.t0 + 500)])
        guard case .send(let opening, _) = effects[0] else { return }
        let text = String(decoding: opening, as: UTF8.self)
        #expect(text.hasPrefix("retry: 1000\n\nid: 0\nevent: snapshot\ndata: {\"room\":\"r\""))
        let presence = try state.handle(.timerFired, at: Fixture.t0 + 500)
        #expect(presence == [.broadcast(Array("event: presence\ndata: {\"viewers\":1}\n\n".utf8))])
    }

    @Test func aHallOfViewersJoiningCostsOnePresenceMessage() throws {
        var state = Fixture.loadedState()
        var wakes: [Millis] = []
        for number in 0..<1000 {
            let effects = try state.handle(
                .viewerJoined(ViewerID(number: number), lastEventID: nil), at: Fixture.t0 + 0.1 * Double(number))
            wakes += effects.compactMap { if case .wake(let at) = $0 { at } else { nil } }
        }
        #expect(wakes == [Fixture.t0 + 500])
        let presence = try state.handle(.timerFired, at: Fixture.t0 + 500)
        #expect(presence == [.broadcast(Array("event: presence\ndata: {\"viewers\":1000}\n\n".utf8))])
        #expect(state.seq == 0)
    }

    @Test func aLastingCommandIsBroadcastOnceAndSavedForAnAcknowledgement() throws {
        var state = Fixture.loadedState()
        var expected = Stack(photos: Fixture.photos, seed: 1)
        _ = try expected.handle(.command(.next), at: Fixture.t0)
        let effects = try state.handle(.commandReceived(.next), at: Fixture.t0)
        let kinds = Fixture.kinds(effects)
        #expect(kinds.prefix(2) == [.broadcast(event: "change"), .save(.acknowledged)])
        #expect(effects.contains(.save(expected.saved(), .acknowledged)))
        // The motion's end is the next wake-up; the photos after the new front one come next.
        #expect(kinds.count == 4)
        #expect(kinds.last == .upcoming(["p2", "p3", "p4"]))
        #expect(state.seq == 1)
    }

    @Test func onlyANewFrontCardAsksForTheNextPhotos() throws {
        var state = Fixture.loadedState()
        let upcoming: ([RoomEffect]) -> [[String]] = { effects in
            effects.compactMap { if case .upcoming(let photos) = $0 { photos } else { nil } }
        }
        #expect(upcoming(try state.handle(.commandReceived(.flip), at: Fixture.t0)) == [])
        #expect(upcoming(try state.handle(.playPressed, at: Fixture.t0)) == [])
        #expect(upcoming(try state.handle(.commandReceived(.previous), at: Fixture.t0)) == [["p0", "p1", "p2"]])
        #expect(
            upcoming(try state.handle(.commandReceived(.goto(index: 10)), at: Fixture.t0)) == [["p11", "p0", "p1"]])
    }

    @Test(arguments: [StackCommand.flip, .highlight, .fullscreen])
    func aLookOfTheMomentIsNotSaved(command: StackCommand) throws {
        var state = Fixture.loadedState()
        let effects = try state.handle(.commandReceived(command), at: Fixture.t0)
        #expect(!Fixture.kinds(effects).contains(.save(.acknowledged)))
        #expect(Fixture.kinds(effects).first == .broadcast(event: "change"))
    }

    @Test func aRefusedCommandChangesNothingAndAsksForNothing() throws {
        var state = Fixture.loadedState()
        #expect(throws: RoomRefusal.refusedByStack(.nothingToUndo)) {
            _ = try state.handle(.commandReceived(.undo), at: Fixture.t0)
        }
        #expect(throws: RoomRefusal.refusedByStack(.indexOutOfRange(index: 99, count: 12))) {
            _ = try state.handle(.commandReceived(.goto(index: 99)), at: Fixture.t0)
        }
        #expect(state.seq == 0)
    }

    @Test func aFloodOfPointerSamplesFromOneViewerIsRefused() throws {
        var state = Fixture.loadedState()
        let input = PointerInput(viewer: "v", phase: .move, pointer: 1, x: 1, y: 1, t: 0)
        let flood = Array(repeating: APIRequest.PointerSample(input: input, seq: nil), count: 601)
        #expect(throws: RoomRefusal.rateLimited) {
            _ = try state.handle(.pointerBatchReceived(flood, from: "192.0.2.7"), at: Fixture.t0)
        }
    }

    @Test func rotatingTheViewerFieldDoesNotEscapeTheAddressLimit() throws {
        var state = Fixture.loadedState()
        var accepted = 0
        // One second of batches of 100 samples from one address, each batch under a new viewer id.
        for batch in 0..<100 {
            let viewer = "v\(batch)"
            let input = PointerInput(viewer: viewer, phase: .move, pointer: 1, x: 1, y: 1, t: Double(batch))
            let samples = Array(repeating: APIRequest.PointerSample(input: input, seq: nil), count: 100)
            if (try? state.handle(
                .pointerBatchReceived(samples, from: "192.0.2.7"), at: Fixture.t0 + Double(batch) * 10))
                != nil
            {
                accepted += 100
            }
        }
        #expect(accepted <= Int(PointerRateLimiter.addressBurst + PointerRateLimiter.addressPerSecond))
        // Another address is not held up by the first one's flood.
        let other = PointerInput(viewer: "v0", phase: .move, pointer: 1, x: 1, y: 1, t: 0)
        let samples = Array(repeating: APIRequest.PointerSample(input: other, seq: nil), count: 100)
        _ = try state.handle(.pointerBatchReceived(samples, from: "192.0.2.8"), at: Fixture.t0 + 1000)
    }

    /// ▶ and ❚❚ are kept like a reorder (the answer waits for it), with the choice in what is saved;
    /// pressing what is already so changes nothing and keeps nothing.
    @Test func playAndPauseAreToldAndKept() throws {
        var state = Fixture.loadedState()
        let play = try state.handle(.playPressed, at: Fixture.t0)
        #expect(
            Fixture.kinds(play) == [
                .broadcast(event: "change"), .save(.acknowledged),
                .wake(at: Fixture.t0 + RoomSettings.defaultSlideshowInterval),
            ])
        #expect(Self.saved(play)?.paused == false)
        #expect(try state.handle(.playPressed, at: Fixture.t0 + 1).isEmpty)
        let pause = try state.handle(.pausePressed, at: Fixture.t0 + 2)
        #expect(Fixture.kinds(pause) == [.broadcast(event: "change"), .save(.acknowledged)])
        #expect(Self.saved(pause)?.paused == true)
        #expect(state.seq == 2)
    }

    /// A stack loaded with a kept choice plays (or not) as chosen; without one, as the server's default.
    @Test func aLoadedRoomPlaysAsItWasKept() {
        var state = RoomState.forTests(name: "main", settings: RoomSettings(slideshowInterval: 5000), now: Fixture.t0)
        state.load(Stack(photos: Fixture.photos, seed: 1), paused: true)
        #expect(!state.slideshow.playing && state.slideshow.chosenPaused == true)
        state.load(Stack(photos: Fixture.photos, seed: 1), paused: nil)
        #expect(state.slideshow.playing && state.slideshow.chosenPaused == nil)
    }

    static func saved(_ effects: [RoomEffect]) -> SavedStack? {
        effects.lazy.compactMap { effect -> SavedStack? in
            if case .save(let saved, _) = effect { return saved }
            return nil
        }.first
    }

    @Test func aSlideshowStepIsSavedInTheBackgroundAndAsksForTheNextPhotos() throws {
        var state = Fixture.loadedState(settings: RoomSettings(idleUnload: 60_000, slideshowInterval: 1000))
        _ = try state.handle(.opened, at: Fixture.t0)
        let step = try state.handle(.timerFired, at: Fixture.t0 + 1000)
        #expect(Fixture.kinds(step).prefix(2) == [.broadcast(event: "change"), .save(.background)])
        #expect(Fixture.kinds(step).last == .upcoming(["p2", "p3", "p4"]))
    }

    @Test func sleepIsToldToEveryViewerAndNotSaved() throws {
        var state = Fixture.loadedState()
        let effects = try state.handle(.sleepChanged(asleep: true), at: Fixture.t0)
        // Nobody watches this room: it also asks to be woken when it has been idle long enough.
        #expect(Fixture.kinds(effects) == [.broadcast(event: "change"), .wake(at: Fixture.t0 + 60_000)])
        guard case .broadcast(let bytes) = effects.first else { return }
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""asleep":true"#))
        #expect(try state.handle(.sleepChanged(asleep: true), at: Fixture.t0).isEmpty)
    }

    @Test func theHeartbeatIsAComment() throws {
        var state = Fixture.loadedState()
        #expect(
            try state.handle(.heartbeatDue, at: Fixture.t0) == [
                .broadcast(Array(": heartbeat\n\n".utf8)), .wake(at: Fixture.t0 + 60_000),
            ])
    }

    @Test func anUnloadedRoomFollowsTheFolderWithoutLoading() throws {
        var state = RoomState.forTests(now: Fixture.t0)
        let change = LibraryChange(added: [Photo(id: "p99", width: 4, height: 3)], removed: [])
        #expect(try state.handle(.libraryChanged(change, library: PhotoLibrary(entries: [])), at: Fixture.t0).isEmpty)
        #expect(!state.isLoaded)
        #expect(!state.needsStack(for: .timerFired))
        #expect(state.needsStack(for: .commandReceived(.next)))
    }

    @Test func aLoadedRoomSavesWhatTheFolderChangedInTheBackground() throws {
        var state = Fixture.loadedState()
        let change = LibraryChange(added: [Photo(id: "p99", width: 4, height: 3)], removed: [])
        let effects = try state.handle(.libraryChanged(change, library: PhotoLibrary(entries: [])), at: Fixture.t0)
        #expect(Fixture.kinds(effects).prefix(2) == [.broadcast(event: "change"), .save(.background)])
        #expect(state.stack?.count == 13)
    }
}
