import StackModel
import Testing

@testable import StackWebServer

/// The reducer's side of a group: taking a room over from the store, and giving it up.
@Suite struct RoomStateOwnershipTests {
    typealias Base = RoomStateTests

    @Test func aTakeoverShowsEveryViewerTheRestoredStackUnderANewID() throws {
        var state = Base.loadedState()
        _ = try state.handle(.viewerJoined(ViewerID(number: 1), lastEventID: nil), at: Base.t0)
        _ = try state.handle(.commandReceived(.next), at: Base.t0 + 1)
        let seq = state.seq
        let restored = Stack(photos: Base.photos, seed: 1)
        let effects = state.takeOver(restored, at: Base.t0 + 2)
        // The presence count is still due from the join: the wake-up is asked for again.
        #expect(Base.kinds(effects) == [.broadcast(event: "snapshot"), .wake(at: Base.t0 + 500)])
        guard case .broadcast(let bytes) = effects[0] else { return }
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("id: \(seq + 1)\nevent: snapshot\n"))
        #expect(state.stack?.current == restored.current)
        // What was numbered before the takeover is not replayed: a viewer from then gets a snapshot.
        let rejoin = try state.handle(.viewerJoined(ViewerID(number: 2), lastEventID: seq - 1), at: Base.t0 + 3)
        guard case .send(let opening, _) = rejoin[0] else { return }
        #expect(String(decoding: opening, as: UTF8.self).contains("event: snapshot"))
    }

    @Test func aRoomGivenUpForgetsItsStack() throws {
        var state = Base.loadedState()
        state.relinquish()
        #expect(!state.isLoaded)
        #expect(try state.handle(.timerFired, at: Base.t0 + 1) == [])
    }

    @Test func aTakeoverWithoutViewersSendsNothingAndAsksForItsIdleUnload() {
        var state = Base.loadedState()
        #expect(state.takeOver(Stack(photos: Base.photos, seed: 1), at: Base.t0) == [.wake(at: Base.t0 + 60_000)])
        #expect(state.seq == 1)
    }

    @Test func viewersElsewhereAreCountedInThePresence() throws {
        var state = Base.loadedState()
        _ = try state.handle(.viewerJoined(ViewerID(number: 1), lastEventID: nil), at: Base.t0)
        _ = try state.handle(.timerFired, at: Base.t0 + 500)
        #expect(
            Base.kinds(try state.handle(.viewersElsewhereCounted(4), at: Base.t0 + 600)) == [.wake(at: Base.t0 + 1100)])
        let presence = try state.handle(.timerFired, at: Base.t0 + 1100)
        #expect(presence == [.broadcast(Array("event: presence\ndata: {\"viewers\":5}\n\n".utf8))])
        // The same count again changes nothing.
        #expect(try state.handle(.viewersElsewhereCounted(4), at: Base.t0 + 1200) == [])
    }

    @Test func aViewerAttachedElsewhereIsCountedWithoutAnOpening() throws {
        var state = RoomState(
            name: "r", settings: RoomSettings(), library: PhotoLibrary(entries: []), asleep: false, now: Base.t0)
        #expect(
            Base.kinds(try state.handle(.viewerAttached(ViewerID(number: 1)), at: Base.t0)) == [
                .wake(at: Base.t0 + 500)
            ])
        #expect(state.viewerCount == 1)
        #expect(!state.isLoaded)
    }
}
