import StackModel
import Testing

@testable import StackWebServer

/// The relay alone: what a viewer at an instance that does not run the room gets, and when.
@Suite struct RoomRelayTests {
    static func event(_ seq: Int, _ name: String = "change") -> [UInt8] {
        Array("id: \(seq)\nevent: \(name)\ndata: {}\n\n".utf8)
    }
    static let retry = Array("retry: 1000\n\n".utf8)

    @Test func aViewerWaitsForAFirstSnapshotThenGetsItWithTheChangesAfter() {
        var relay = RoomRelay()
        #expect(relay.join(ViewerID(number: 1), lastEventID: nil) == [])
        let effects = relay.receive(
            [
                .change(seq: 3, bytes: Self.event(3)), .base(seq: 3, bytes: Self.event(3, "snapshot")),
                .change(seq: 4, bytes: Self.event(4)),
            ], catchingUp: true)
        #expect(effects == [.send(Self.retry + Self.event(3, "snapshot") + Self.event(4), to: ViewerID(number: 1))])
    }

    /// An instance that lost a room can read its history before it hears it lost it: the viewers it
    /// showed the room get the history when they are handed over, and nothing twice.
    @Test func viewersHandedOverAfterTheHistoryWasReadGetItAtOnce() {
        var relay = RoomRelay()
        let history: [RoomRelay.Entry] = [
            .takeover(seq: 5, bytes: Self.event(5, "snapshot")), .change(seq: 6, bytes: Self.event(6)),
        ]
        #expect(relay.receive(history, catchingUp: true) == [])
        let (a, b) = (ViewerID(number: 1), ViewerID(number: 2))
        #expect(
            relay.watch([a: nil, b: nil], lastEventID: 4) == [
                .send(Self.event(5, "snapshot") + Self.event(6), to: a),
                .send(Self.event(5, "snapshot") + Self.event(6), to: b),
            ])
        #expect(relay.watch([a: nil], lastEventID: 4) == [])
        #expect(relay.receive([.change(seq: 7, bytes: Self.event(7))]).count == 2)
        // Handed over before any history: they get it when it comes.
        var early = RoomRelay()
        #expect(early.watch([a: nil], lastEventID: 4) == [])
        #expect(early.receive(history, catchingUp: true) == [.send(Self.event(5, "snapshot") + Self.event(6), to: a)])
    }

    @Test func changesGoToEveryViewerAndBaseSnapshotsToNone() {
        var relay = RoomRelay()
        _ = relay.receive([.takeover(seq: 1, bytes: Self.event(1, "snapshot"))])
        _ = relay.join(ViewerID(number: 1), lastEventID: nil)
        #expect(
            relay.receive([.change(seq: 2, bytes: Self.event(2))]) == [.send(Self.event(2), to: ViewerID(number: 1))])
        #expect(relay.receive([.base(seq: 2, bytes: Self.event(2, "snapshot"))]) == [])
        // A takeover shows every viewer the room afresh.
        #expect(
            relay.receive([.takeover(seq: 3, bytes: Self.event(3, "snapshot"))])
                == [.send(Self.event(3, "snapshot"), to: ViewerID(number: 1))])
    }

    @Test func aResumingViewerGetsOnlyWhatItMissed() {
        var relay = RoomRelay()
        _ = relay.receive(
            [.takeover(seq: 1, bytes: Self.event(1, "snapshot"))]
                + (2...5).map {
                    .change(seq: $0, bytes: Self.event($0))
                })
        #expect(
            relay.join(ViewerID(number: 2), lastEventID: 3)
                == [.send(Self.retry + Self.event(4) + Self.event(5), to: ViewerID(number: 2))])
        // From before what the relay holds: the snapshot and everything after it.
        #expect(
            relay.join(ViewerID(number: 3), lastEventID: 0)
                == [
                    .send(
                        Self.retry + Self.event(1, "snapshot") + (2...5).flatMap { Self.event($0) },
                        to: ViewerID(number: 3))
                ])
    }

    /// A viewer handed over having seen events the group never got waits for a newer snapshot
    /// rather than going back to an older one; a heartbeat ends the wait whatever comes.
    @Test func aHandedOverViewerNeverGoesBackToAnOlderSnapshot() {
        var relay = RoomRelay()
        let a = ViewerID(number: 1)
        _ = relay.receive([.takeover(seq: 5, bytes: Self.event(5, "snapshot")), .change(seq: 6, bytes: Self.event(6))])
        // It saw 7 and 8 from this instance's own run of the room; the group has only up to 6.
        #expect(relay.watch([a: nil], lastEventID: 8) == [])
        #expect(relay.receive([.change(seq: 7, bytes: Self.event(7))]) == [])
        #expect(
            relay.receive([.takeover(seq: 20, bytes: Self.event(20, "snapshot"))])
                == [.send(Self.event(20, "snapshot"), to: a)])
        // A resume with an id out of nowhere waits a whole heartbeat, then gets the latest snapshot.
        let b = ViewerID(number: 2)
        #expect(relay.join(b, lastEventID: 999) == [])
        #expect(relay.heartbeat() == [])
        #expect(relay.heartbeat() == [.send(Self.retry + Self.event(20, "snapshot"), to: b)])
    }

    /// Each viewer is sent its class's bytes; one whose class an entry lacks (the owner has not
    /// heard of it yet) waits for a snapshot laid out for it, and gets no other class's bytes.
    @Test func aViewerOfAShapeClassGetsItsClassesBytesOrWaitsForThem() {
        var relay = RoomRelay()
        let (tv, plain) = (ViewerID(number: 1), ViewerID(number: 2))
        _ = relay.receive([.takeover(seq: 1, bytes: Self.event(1, "snapshot"))])
        #expect(relay.join(tv, lastEventID: nil, shape: .widescreen) == [])
        #expect(relay.join(plain, lastEventID: nil) == [.send(Self.retry + Self.event(1, "snapshot"), to: plain)])
        #expect(relay.receive([.change(seq: 2, bytes: Self.event(2))]) == [.send(Self.event(2), to: plain)])
        let wide = Array("id: 2\nevent: snapshot\ndata: {\"shape\":{}}\n\n".utf8)
        #expect(
            relay.receive([
                RoomRelay.Published(entry: .base(seq: 2, bytes: Self.event(2, "snapshot")), shaped: [.widescreen: wide])
            ])
                == [.send(Self.retry + wide, to: tv)])
        let wideChange = Array("id: 3\nevent: change\ndata: {\"w\":1}\n\n".utf8)
        #expect(
            relay.receive([
                RoomRelay.Published(entry: .change(seq: 3, bytes: Self.event(3)), shaped: [.widescreen: wideChange])
            ])
                == [.send(wideChange, to: tv), .send(Self.event(3), to: plain)])
        // The class dropped out of what the owner lays out: the TV waits again, from what it saw.
        #expect(relay.receive([.change(seq: 4, bytes: Self.event(4))]) == [.send(Self.event(4), to: plain)])
        let back = Array("id: 4\nevent: snapshot\ndata: {\"shape\":{}}\n\n".utf8)
        #expect(
            relay.receive([
                RoomRelay.Published(entry: .base(seq: 4, bytes: Self.event(4, "snapshot")), shaped: [.widescreen: back])
            ])
                == [.send(back, to: tv)])
    }
}
