import StackModel
import Testing

@testable import StackWebServer

/// The reducer's side of a group: ownership is the room's state, changed by the lease events; ids
/// carry the epoch they were numbered under; a change that could not be kept is undone.
@Suite struct RoomStateOwnershipTests {
    typealias Fixture = RoomReducerFixture

    static func follower() -> RoomState {
        RoomState.forTests(now: Fixture.t0, ownership: .follower)
    }

    static func text(_ effect: RoomEffect) -> String {
        switch effect {
        case .publish(let entry, _): String(decoding: entry.bytes, as: UTF8.self)
        case .broadcast(let bytes), .send(let bytes, _): String(decoding: bytes, as: UTF8.self)
        default: ""
        }
    }

    @Test func aLeaseGainedRunsTheRoomFromTheGroupsStateNumberedFromWhereTheGroupSays() throws {
        var state = Self.follower()
        #expect(!state.runsHere)
        let restored = Stack(photos: Fixture.photos, seed: 1)
        let start = 29_000_000_000_000
        let effects = try state.handle(
            .leaseGained(epoch: 3, stack: restored, paused: nil, keptThrough: 0, numberedFrom: start),
            at: Fixture.t0 + 2)
        #expect(state.ownership == .owner(epoch: 3))
        #expect(state.epoch == 3)
        // The first id is above every id any earlier owner could have given.
        #expect(state.seq == start + 1)
        #expect(Fixture.kinds(effects).prefix(2) == [.broadcast(event: "snapshot"), .save(.background)])
        #expect(Self.text(effects[0]).hasPrefix("id: \(start + 1)\nevent: snapshot\n"))
        let next = try state.handle(.commandReceived(.next), at: Fixture.t0 + 3)
        #expect(Self.text(next[0]).hasPrefix("id: \(start + 2)\nevent: change\n"))
    }

    @Test func aViewerResumingFromBeforeATakeoverGetsASnapshot() throws {
        var state = Fixture.loadedState()
        _ = try state.handle(.viewerJoined(ViewerID(number: 1), lastEventID: nil), at: Fixture.t0)
        _ = try state.handle(.commandReceived(.next), at: Fixture.t0 + 1)
        let before = state.seq
        _ = try state.handle(
            .leaseGained(
                epoch: 1, stack: Stack(photos: Fixture.photos, seed: 1), paused: nil, keptThrough: 0, numberedFrom: 0),
            at: Fixture.t0 + 2)
        let rejoin = try state.handle(.viewerJoined(ViewerID(number: 2), lastEventID: before), at: Fixture.t0 + 3)
        guard case .send(let opening, _) = rejoin[0] else { return }
        #expect(String(decoding: opening, as: UTF8.self).contains("event: snapshot"))
    }

    @Test func aLeaseLostForgetsTheStackTheHistoryAndTheAnswers() throws {
        var state = Self.follower()
        _ = try state.handle(
            .leaseGained(
                epoch: 2, stack: Stack(photos: Fixture.photos, seed: 1), paused: nil, keptThrough: 0, numberedFrom: 0),
            at: Fixture.t0
        )
        state.remember(.applied(seq: state.seq), for: .command("k1"), at: Fixture.t0)
        _ = try state.handle(.leaseLost, at: Fixture.t0 + 1)
        #expect(state.ownership == .follower)
        #expect(!state.isLoaded)
        #expect(state.answered.answer(for: .command("k1"), at: Fixture.t0 + 2) == nil)
        #expect(try state.handle(.timerFired, at: Fixture.t0 + 1) == [])
    }

    @Test func aRefusedKeepGoesBackToTheKeptStackAndForgetsTheAnswersUndone() throws {
        var state = Fixture.loadedState()
        _ = try state.handle(.viewerJoined(ViewerID(number: 1), lastEventID: nil), at: Fixture.t0)
        let kept = state.seq
        state.remember(.applied(seq: kept), for: .command("kept"), at: Fixture.t0)
        _ = try state.handle(.commandReceived(.goto(index: 5)), at: Fixture.t0 + 1)
        state.remember(.applied(seq: state.seq), for: .command("undone"), at: Fixture.t0 + 1)
        #expect(state.stack?.current == 5)
        let effects = try state.handle(
            .keepRefused(keptSeq: kept, stack: Stack(photos: Fixture.photos, seed: 1), paused: nil), at: Fixture.t0 + 2)
        #expect(state.stack?.current == 0)
        // The snapshot says what it restores: the history kept through `kept`, the rest undone.
        #expect(Self.text(effects[0]).contains("\"keptThrough\":\(kept)"))
        // Every viewer gets the room afresh, under a new id, and the rollback is kept.
        #expect(Fixture.kinds(effects).prefix(2) == [.broadcast(event: "snapshot"), .save(.restored)])
        #expect(state.answered.answer(for: .command("undone"), at: Fixture.t0 + 3) == nil)
        #expect(state.answered.answer(for: .command("kept"), at: Fixture.t0 + 3) == .applied(seq: kept))
    }

    @Test func anOwnerPublishesABaseSnapshotEveryIntervalOfChanges() throws {
        var state = Self.follower()
        _ = try state.handle(
            .leaseGained(
                epoch: 1, stack: Stack(photos: Fixture.photos, seed: 1), paused: nil, keptThrough: 0, numberedFrom: 0),
            at: Fixture.t0
        )
        var bases = 0
        for step in 1...(2 * RoomRelay.baseInterval) {
            let effects = try state.handle(.commandReceived(.highlight), at: Fixture.t0 + Double(step))
            bases += Fixture.kinds(effects).filter { $0 == .broadcast(event: "base") }.count
        }
        #expect(bases == 2)
    }

    @Test func aServerAloneNumbersFromOneAndPublishesNoBase() throws {
        var state = Fixture.loadedState()
        #expect(state.epoch == 0)
        for step in 1...(2 * RoomRelay.baseInterval) {
            let effects = try state.handle(.commandReceived(.highlight), at: Fixture.t0 + Double(step))
            #expect(!Fixture.kinds(effects).contains(.broadcast(event: "base")))
        }
        #expect(state.seq == 2 * RoomRelay.baseInterval)
    }

    @Test func viewersElsewhereAreCountedInThePresence() throws {
        var state = Fixture.loadedState()
        _ = try state.handle(.viewerJoined(ViewerID(number: 1), lastEventID: nil), at: Fixture.t0)
        _ = try state.handle(.timerFired, at: Fixture.t0 + 500)
        #expect(
            Fixture.kinds(try state.handle(.viewersElsewhereCounted(4), at: Fixture.t0 + 600)) == [
                .wake(at: Fixture.t0 + 1100)
            ])
        let presence = try state.handle(.timerFired, at: Fixture.t0 + 1100)
        #expect(presence == [.broadcast(Array("event: presence\ndata: {\"viewers\":5}\n\n".utf8))])
        // The same count again changes nothing.
        #expect(try state.handle(.viewersElsewhereCounted(4), at: Fixture.t0 + 1200) == [])
    }

    @Test func aViewerAttachedElsewhereIsCountedWithoutAnOpening() throws {
        var state = Self.follower()
        #expect(
            Fixture.kinds(try state.handle(.viewerAttached(ViewerID(number: 1)), at: Fixture.t0)) == [
                .wake(at: Fixture.t0 + 500)
            ])
        #expect(state.viewerCount == 1)
        #expect(!state.isLoaded)
    }

    /// The owner lays each change out for the classes the other instances report: a class new to
    /// the group gets a base snapshot of its own at once, every change then carries each class's
    /// bytes (a class shown the room's own 4:3 stage, the room's bytes themselves).
    @Test func theOwnerLaysEachChangeOutForTheClassesReportedElsewhere() throws {
        var state = Self.follower()
        _ = try state.handle(
            .leaseGained(
                epoch: 1, stack: Stack(photos: Fixture.photos, seed: 1), paused: nil, keptThrough: 0, numberedFrom: 0),
            at: Fixture.t0
        )
        let counted = try state.handle(
            .viewersElsewhereCounted(2, shapes: [.widescreen, .standard]), at: Fixture.t0 + 1)
        let bases = counted.compactMap { effect -> [ShapeClass: [UInt8]]? in
            guard case .publish(.base(let seq, _), let shaped) = effect, seq == state.seq else { return nil }
            return shaped
        }
        #expect(bases.map { Set($0.keys) } == [[.widescreen, .standard]])
        #expect(
            try state.handle(.viewersElsewhereCounted(2, shapes: [.widescreen]), at: Fixture.t0 + 2).allSatisfy {
                if case .publish = $0 { false } else { true }
            })
        _ = try state.handle(.viewersElsewhereCounted(2, shapes: [.widescreen, .standard]), at: Fixture.t0 + 3)
        let next = try state.handle(.commandReceived(.next), at: Fixture.t0 + 4)
        guard case .publish(.change(let seq, let bytes), let shaped) = next.first else {
            Issue.record("no change published: \(next)")
            return
        }
        #expect(seq == state.seq)
        #expect(Set(shaped.keys) == [.widescreen, .standard])
        #expect(shaped[.standard] == bytes)
        #expect(shaped[.widescreen] != bytes)
        #expect(String(decoding: shaped[.widescreen] ?? [], as: UTF8.self).hasPrefix("id: \(seq)\nevent: change\n"))
    }
}
