import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// The room reducer alone: each event's whole list of effects, in virtual time passed by hand.
@Suite struct RoomStateTests {
    static let t0: Millis = 1_000_000
    static let photos = (0..<12).map { Photo(id: "p\($0)", width: 4, height: 3) }

    static func loadedState(settings: RoomSettings = RoomSettings(idleUnload: 60_000)) -> RoomState {
        var state = RoomState(name: "r", settings: settings, library: PhotoLibrary(entries: []), asleep: false, now: t0)
        state.load(Stack(photos: photos, seed: 1), paused: nil)
        return state
    }

    /// The kinds of effects, without their bytes: what most tests compare whole.
    enum Kind: Equatable {
        case broadcast(event: String), send(to: Int), wake(at: Millis), save(SaveUrgency), upcoming([String])
    }

    static func kinds(_ effects: [RoomEffect]) -> [Kind] {
        effects.map { effect in
            switch effect {
            case .broadcast(let bytes):
                let text = String(decoding: bytes, as: UTF8.self)
                let name = text.split(separator: "\n").first { $0.hasPrefix("event: ") }?.dropFirst(7)
                return .broadcast(event: name.map(String.init) ?? "comment")
            case .publish(.change, _): return .broadcast(event: "change")
            case .publish(.takeover, _): return .broadcast(event: "snapshot")
            case .publish(.base, _): return .broadcast(event: "base")
            case .send(_, let viewer): return .send(to: viewer.number)
            case .wake(let deadline): return .wake(at: deadline)
            case .save(_, let urgency): return .save(urgency)
            case .upcoming(let photos): return .upcoming(photos)
            }
        }
    }

    @Test func aViewerGetsASnapshotAndTheCountFollowsHalfASecondLater() throws {
        var state = Self.loadedState()
        let effects = try state.handle(.viewerJoined(ViewerID(number: 7), lastEventID: nil), at: Self.t0)
        #expect(Self.kinds(effects) == [.send(to: 7), .wake(at: Self.t0 + 500)])
        guard case .send(let opening, _) = effects[0] else { return }
        let text = String(decoding: opening, as: UTF8.self)
        #expect(text.hasPrefix("retry: 1000\n\nid: 0\nevent: snapshot\ndata: {\"room\":\"r\""))
        let presence = try state.handle(.timerFired, at: Self.t0 + 500)
        #expect(presence == [.broadcast(Array("event: presence\ndata: {\"viewers\":1}\n\n".utf8))])
    }

    @Test func aHallOfViewersJoiningCostsOnePresenceMessage() throws {
        var state = Self.loadedState()
        var wakes: [Millis] = []
        for number in 0..<1000 {
            let effects = try state.handle(
                .viewerJoined(ViewerID(number: number), lastEventID: nil), at: Self.t0 + 0.1 * Double(number))
            wakes += effects.compactMap { if case .wake(let at) = $0 { at } else { nil } }
        }
        #expect(wakes == [Self.t0 + 500])
        let presence = try state.handle(.timerFired, at: Self.t0 + 500)
        #expect(presence == [.broadcast(Array("event: presence\ndata: {\"viewers\":1000}\n\n".utf8))])
        #expect(state.seq == 0)
    }

    @Test func aLastingCommandIsBroadcastOnceAndSavedForAnAcknowledgement() throws {
        var state = Self.loadedState()
        var expected = Stack(photos: Self.photos, seed: 1)
        _ = try expected.handle(.command(.next), at: Self.t0)
        let effects = try state.handle(.commandReceived(.next), at: Self.t0)
        let kinds = Self.kinds(effects)
        #expect(kinds.prefix(2) == [.broadcast(event: "change"), .save(.acknowledged)])
        #expect(effects.contains(.save(expected.saved(), .acknowledged)))
        // The motion's end is the next wake-up; the photos after the new front one come next.
        #expect(kinds.count == 4)
        #expect(kinds.last == .upcoming(["p2", "p3", "p4"]))
        #expect(state.seq == 1)
    }

    @Test func onlyANewFrontCardAsksForTheNextPhotos() throws {
        var state = Self.loadedState()
        let upcoming: ([RoomEffect]) -> [[String]] = { effects in
            effects.compactMap { if case .upcoming(let photos) = $0 { photos } else { nil } }
        }
        #expect(upcoming(try state.handle(.commandReceived(.flip), at: Self.t0)) == [])
        #expect(upcoming(try state.handle(.playPressed, at: Self.t0)) == [])
        #expect(upcoming(try state.handle(.commandReceived(.previous), at: Self.t0)) == [["p0", "p1", "p2"]])
        #expect(upcoming(try state.handle(.commandReceived(.goto(index: 10)), at: Self.t0)) == [["p11", "p0", "p1"]])
    }

    @Test(arguments: [StackCommand.flip, .highlight, .fullscreen])
    func aLookOfTheMomentIsNotSaved(command: StackCommand) throws {
        var state = Self.loadedState()
        let effects = try state.handle(.commandReceived(command), at: Self.t0)
        #expect(!Self.kinds(effects).contains(.save(.acknowledged)))
        #expect(Self.kinds(effects).first == .broadcast(event: "change"))
    }

    @Test func aRefusedCommandChangesNothingAndAsksForNothing() throws {
        var state = Self.loadedState()
        #expect(throws: RoomRefusal.refusedByStack(.nothingToUndo)) {
            _ = try state.handle(.commandReceived(.undo), at: Self.t0)
        }
        #expect(throws: RoomRefusal.refusedByStack(.indexOutOfRange(index: 99, count: 12))) {
            _ = try state.handle(.commandReceived(.goto(index: 99)), at: Self.t0)
        }
        #expect(state.seq == 0)
    }

    @Test func aFloodOfPointerSamplesFromOneViewerIsRefused() throws {
        var state = Self.loadedState()
        let input = PointerInput(viewer: "v", phase: .move, pointer: 1, x: 1, y: 1, t: 0)
        let flood = Array(repeating: APIRequest.PointerSample(input: input, seq: nil), count: 601)
        #expect(throws: RoomRefusal.rateLimited) {
            _ = try state.handle(.pointerBatchReceived(flood, from: "192.0.2.7"), at: Self.t0)
        }
    }

    @Test func rotatingTheViewerFieldDoesNotEscapeTheAddressLimit() throws {
        var state = Self.loadedState()
        var accepted = 0
        // One second of batches of 100 samples from one address, each batch under a new viewer id.
        for batch in 0..<100 {
            let viewer = "v\(batch)"
            let input = PointerInput(viewer: viewer, phase: .move, pointer: 1, x: 1, y: 1, t: Double(batch))
            let samples = Array(repeating: APIRequest.PointerSample(input: input, seq: nil), count: 100)
            if (try? state.handle(.pointerBatchReceived(samples, from: "192.0.2.7"), at: Self.t0 + Double(batch) * 10))
                != nil
            {
                accepted += 100
            }
        }
        #expect(accepted <= Int(PointerRateLimiter.addressBurst + PointerRateLimiter.addressPerSecond))
        // Another address is not held up by the first one's flood.
        let other = PointerInput(viewer: "v0", phase: .move, pointer: 1, x: 1, y: 1, t: 0)
        let samples = Array(repeating: APIRequest.PointerSample(input: other, seq: nil), count: 100)
        _ = try state.handle(.pointerBatchReceived(samples, from: "192.0.2.8"), at: Self.t0 + 1000)
    }

    /// ▶ and ❚❚ are kept like a reorder (the answer waits for it), with the choice in what is saved;
    /// pressing what is already so changes nothing and keeps nothing.
    @Test func playAndPauseAreToldAndKept() throws {
        var state = Self.loadedState()
        let play = try state.handle(.playPressed, at: Self.t0)
        #expect(
            Self.kinds(play) == [
                .broadcast(event: "change"), .save(.acknowledged),
                .wake(at: Self.t0 + RoomSettings.defaultSlideshowInterval),
            ])
        #expect(Self.saved(play)?.paused == false)
        #expect(try state.handle(.playPressed, at: Self.t0 + 1).isEmpty)
        let pause = try state.handle(.pausePressed, at: Self.t0 + 2)
        #expect(Self.kinds(pause) == [.broadcast(event: "change"), .save(.acknowledged)])
        #expect(Self.saved(pause)?.paused == true)
        #expect(state.seq == 2)
    }

    /// A stack loaded with a kept choice plays (or not) as chosen; without one, as the server's default.
    @Test func aLoadedRoomPlaysAsItWasKept() {
        var state = RoomState(
            name: "main", settings: RoomSettings(slideshowInterval: 5000), library: PhotoLibrary(entries: []),
            asleep: false, now: Self.t0)
        state.load(Stack(photos: Self.photos, seed: 1), paused: true)
        #expect(!state.slideshow.playing && state.slideshow.chosenPaused == true)
        state.load(Stack(photos: Self.photos, seed: 1), paused: nil)
        #expect(state.slideshow.playing && state.slideshow.chosenPaused == nil)
    }

    static func saved(_ effects: [RoomEffect]) -> SavedStack? {
        effects.lazy.compactMap { effect -> SavedStack? in
            if case .save(let saved, _) = effect { return saved }
            return nil
        }.first
    }

    @Test func aSlideshowStepIsSavedInTheBackgroundAndAsksForTheNextPhotos() throws {
        var state = Self.loadedState(settings: RoomSettings(idleUnload: 60_000, slideshowInterval: 1000))
        _ = try state.handle(.opened, at: Self.t0)
        let step = try state.handle(.timerFired, at: Self.t0 + 1000)
        #expect(Self.kinds(step).prefix(2) == [.broadcast(event: "change"), .save(.background)])
        #expect(Self.kinds(step).last == .upcoming(["p2", "p3", "p4"]))
    }

    @Test func sleepIsToldToEveryViewerAndNotSaved() throws {
        var state = Self.loadedState()
        let effects = try state.handle(.sleepChanged(asleep: true), at: Self.t0)
        // Nobody watches this room: it also asks to be woken when it has been idle long enough.
        #expect(Self.kinds(effects) == [.broadcast(event: "change"), .wake(at: Self.t0 + 60_000)])
        guard case .broadcast(let bytes) = effects.first else { return }
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""asleep":true"#))
        #expect(try state.handle(.sleepChanged(asleep: true), at: Self.t0).isEmpty)
    }

    @Test func theHeartbeatIsAComment() throws {
        var state = Self.loadedState()
        #expect(
            try state.handle(.heartbeatDue, at: Self.t0) == [
                .broadcast(Array(": heartbeat\n\n".utf8)), .wake(at: Self.t0 + 60_000),
            ])
    }

    @Test func anUnloadedRoomFollowsTheFolderWithoutLoading() throws {
        var state = RoomState(
            name: "r", settings: RoomSettings(), library: PhotoLibrary(entries: []), asleep: false, now: Self.t0)
        let change = LibraryChange(added: [Photo(id: "p99", width: 4, height: 3)], removed: [])
        #expect(try state.handle(.libraryChanged(change, library: PhotoLibrary(entries: [])), at: Self.t0).isEmpty)
        #expect(!state.isLoaded)
        #expect(!state.needsStack(for: .timerFired))
        #expect(state.needsStack(for: .commandReceived(.next)))
    }

    @Test func aLoadedRoomSavesWhatTheFolderChangedInTheBackground() throws {
        var state = Self.loadedState()
        let change = LibraryChange(added: [Photo(id: "p99", width: 4, height: 3)], removed: [])
        let effects = try state.handle(.libraryChanged(change, library: PhotoLibrary(entries: [])), at: Self.t0)
        #expect(Self.kinds(effects).prefix(2) == [.broadcast(event: "change"), .save(.background)])
        #expect(state.stack?.count == 13)
    }
}
