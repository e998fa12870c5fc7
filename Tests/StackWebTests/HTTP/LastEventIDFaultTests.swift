import Foundation
import Testing

@testable import StackWebServer

/// `Last-Event-ID` values no EventSource sends: each viewer still gets a full snapshot first (no
/// error, no replay of the wrong events), and its stream then carries the live changes.
@Suite struct LastEventIDFaultTests {
    /// Changes made before each viewer connects, so that a replay and a snapshot look different.
    static let changes = 10

    static let unusable: [String] = [
        "abc", "-1", "1e3", "", "7 7", "+7", "0x7", "7.0", "07abc", "٧", "７",
        String(repeating: "7", count: 4096),
        // Past what fits: UInt64.max, one more, Int.max and one more, and far more.
        "18446744073709551615", "18446744073709551616", "9223372036854775807", "9223372036854775808",
        String(repeating: "9", count: 40),
        // Before this start: ids of an epoch long gone.
        "11", "1000000",
    ]

    /// A server whose room `main` is at seq `changes`.
    static func changedServer() throws -> TestServer {
        let server = try TestServer()
        for _ in 0..<changes {
            try #require(try server.command(#"{"command":"highlight"}"#).status == 200)
        }
        return server
    }

    /// The first event is the room's full snapshot at seq `changes`, and the next live change follows.
    static func expectSnapshotThenLive(_ viewer: SSETestClient, _ server: TestServer) throws {
        #expect(viewer.status == 200)
        let first = try viewer.next()
        #expect(first.event == "snapshot")
        #expect(first.number == changes)
        let snapshot = try first.json()
        #expect(snapshot["seq"] as? Int == first.id.flatMap { Int($0) })
        #expect(snapshot["room"] as? String == "main")
        #expect((snapshot["cards"] as? [Any])?.isEmpty == false)
        let live = try #require(try server.command(#"{"command":"next"}"#).json()["seq"] as? Int)
        let next = try viewer.next { $0.event != "presence" }
        #expect(next.event == "change")
        #expect(next.id == String(live))
        #expect(try server.http.get("/healthz").status == 200)
    }

    /// The room's last id, `changes` events into this start's epoch.
    static func latest(_ server: TestServer) throws -> Int {
        try #require(try server.snapshot()["seq"] as? Int)
    }

    @Test(arguments: unusable)
    func anUnusableIDGetsAFullSnapshotFirst(id: String) throws {
        let server = try Self.changedServer()
        try Self.expectSnapshotThenLive(try server.events(headers: ["Last-Event-ID": id]), server)
    }

    /// Header bytes that are not UTF-8 digits at all: Latin-1, a lone continuation byte, 0xFF. (A
    /// control character is refused with 400 before any header is read: `RequestHeadTests`.)
    @Test(arguments: [[0xB9], [0x37, 0x80], [0xFF, 0xFE, 0x37]] as [[UInt8]])
    func anIDOfRawNonASCIIBytesGetsAFullSnapshotFirst(bytes: [UInt8]) throws {
        let server = try Self.changedServer()
        let line = Array("Last-Event-ID: ".utf8) + bytes + Array("\r\n".utf8)
        let viewer = try SSETestClient(port: server.port, path: "/api/rooms/main/events", rawHeaderLines: line)
        try Self.expectSnapshotThenLive(viewer, server)
    }

    /// libmicrohttpd drops the spaces and tabs before a header value (RFC 9110 §5.5 says neither
    /// side is part of it), so "  7" is id 7: the viewer gets exactly what came after 7.
    @Test(arguments: ["  7", "\t7", "7"])
    func spacesBeforeAnIDAreNotPartOfIt(id: String) throws {
        let server = try Self.changedServer()
        let seven = HistoryNumbering.id(7, inNumberingOf: try Self.latest(server))
        let viewer = try server.events(headers: ["Last-Event-ID": id.replacingOccurrences(of: "7", with: String(seven))]
        )
        let replayed = try (8...Self.changes).map { _ in try viewer.next() }
        #expect(replayed.map(\.event) == Array(repeating: "change", count: Self.changes - 7))
        #expect(replayed.map(\.number) == (8...Self.changes).map { $0 })
    }

    /// Spaces after the value reach the server, which does not take "7  " for 7: a full snapshot,
    /// which is always a correct answer.
    @Test(arguments: ["7  ", "7\t"])
    func spacesAfterAnIDGetAFullSnapshot(id: String) throws {
        let server = try Self.changedServer()
        let seven = HistoryNumbering.id(7, inNumberingOf: try Self.latest(server))
        let viewer = try server.events(headers: ["Last-Event-ID": id.replacingOccurrences(of: "7", with: String(seven))]
        )
        try Self.expectSnapshotThenLive(viewer, server)
    }

    /// An id of this epoch the room has not reached (from the future) gets a snapshot.
    @Test func anIDFromTheFutureGetsAFullSnapshotFirst() throws {
        let server = try Self.changedServer()
        let ahead = try Self.latest(server) + 1
        try Self.expectSnapshotThenLive(try server.events(headers: ["Last-Event-ID": String(ahead)]), server)
    }

    @Test func aRecentIDGetsExactlyTheMissedEventsAsTheyWereSent() throws {
        let server = try TestServer()
        let live = try server.events()
        #expect(try live.next().event == "snapshot")
        var sent: [SSETestClient.Event] = []
        for index in 0..<30 {
            let command = index % 3 == 0 ? "next" : "highlight"
            let seq = try #require(try server.command(#"{"command":"\#(command)"}"#).json()["seq"] as? Int)
            sent.append(try live.next { $0.id == String(seq) })
        }
        // A viewer that heard up to the 12th change missed the last 18, and gets those, byte for byte.
        let resumed = try server.events(headers: ["Last-Event-ID": sent[11].id ?? ""])
        let replayed = try (12..<30).map { _ in try resumed.next() }
        #expect(replayed == Array(sent[12...]))
        // Then nothing else but live changes.
        let next = try #require(try server.command(#"{"command":"previous"}"#).json()["seq"] as? Int)
        #expect(try resumed.next { $0.event != "presence" }.id == String(next))
    }

    @Test func theOldestKeptIDStillReplaysAndOneOlderGetsASnapshot() throws {
        let server = try TestServer()
        let total = RoomSettings.replayCapacity + 3
        for _ in 0..<total {
            try #require(try server.command(#"{"command":"highlight"}"#).status == 200)
        }
        let latest = try Self.latest(server)
        let oldestKept = HistoryNumbering.id(total - RoomSettings.replayCapacity + 1, inNumberingOf: latest)
        let resumed = try server.events(headers: ["Last-Event-ID": String(oldestKept - 1)])
        let first = try resumed.next()
        #expect(first.event == "change")
        #expect(first.id == String(oldestKept))
        var last = first
        for _ in 1..<RoomSettings.replayCapacity { last = try resumed.next() }
        #expect(last.id == String(latest))
        let tooOld = try server.events(headers: ["Last-Event-ID": String(oldestKept - 2)])
        let snapshot = try tooOld.next()
        #expect(snapshot.event == "snapshot")
        #expect(snapshot.id == String(latest))
    }
}
