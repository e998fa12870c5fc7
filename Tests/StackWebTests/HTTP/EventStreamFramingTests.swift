import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// What a client (or a file name) puts into a room and the room echoes in its events: line breaks,
/// NUL and Unicode separators must never break the Server-Sent Events framing, and come back intact
/// once the JSON is decoded.
@Suite struct EventStreamFramingTests {
    /// Viewer ids (1–64 bytes, any characters): the room sends the holder's id as `heldBy`.
    static let hostileViewers: [String] = [
        "line\nbreak", "carriage\rreturn", "\r\n\r\nid: 99\nevent: snapshot\ndata: {}\n\n", "\u{0000}",
        "nul\u{0000}inside", "\u{2028}\u{2029}", "\u{0085}next line", "\u{001B}[2J\u{0007}",
        "tab\t vt\u{000B} ff\u{000C}", #"quote " and \ backslash"#, ": a comment", #"data: {"seq":999}"#,
    ]

    /// `value` as a JSON string literal, escaped by Foundation (not by the code under test).
    static func jsonLiteral(_ value: String) throws -> String {
        let array = try JSONSerialization.data(withJSONObject: [value])
        return String(decoding: array.dropFirst().dropLast(), as: UTF8.self)
    }

    /// Every line of the stream is a field an EventSource knows, with no CR or NUL anywhere: a
    /// browser splits lines at CR as well as LF, so one stray CR would cut an event in two.
    static func expectCleanFraming(_ stream: [UInt8]) {
        #expect(!stream.contains(0x0D))
        #expect(!stream.contains(0x00))
        for line in String(decoding: stream, as: UTF8.self).split(separator: "\n") {
            let known = ["id: ", "event: ", "data: ", "retry: ", ":"].contains { line.hasPrefix($0) }
            #expect(known, "stray line in the stream: \(line.prefix(80).debugDescription)")
        }
    }

    @Test(arguments: hostileViewers)
    func aHostileViewerIDTravelsEscapedAndRoundTrips(viewer: String) throws {
        let server = try TestServer()
        let watcher = try server.events()
        let top = PointerScript.top(try watcher.next().json())
        let (x, y) = (try #require(top["x"] as? Double), try #require(top["y"] as? Double))
        let literal = try Self.jsonLiteral(viewer)
        let post = { (samples: [String]) in
            try server.http.post(
                "/api/rooms/main/pointer",
                json: #"{"viewer":\#(literal),"events":[\#(samples.joined(separator: ","))]}"#)
        }
        // A press alone moves nothing and is not sent; the first move is.
        let down = try post([
            PointerScript.sample("down", x: x, y: y, t: 1000), PointerScript.sample("move", x: x + 5, y: y, t: 1008),
        ])
        #expect(down.status == 200)
        let held = try #require(try down.json()["seq"] as? Int)
        let grab = try watcher.next { $0.id == String(held) }
        #expect(grab.event == "change")
        #expect(try grab.json()["heldBy"] as? String == viewer)
        #expect(try server.snapshot()["heldBy"] as? String == viewer)
        // A late joiner gets it in its snapshot, and it parses there too.
        let late = try server.events()
        let lateSnapshot = try late.next()
        #expect(lateSnapshot.event == "snapshot")
        #expect(try lateSnapshot.json()["heldBy"] as? String == viewer)
        let released = try #require(
            try post([PointerScript.sample("cancel", x: x, y: y, t: 1016)]).json()["seq"] as? Int)
        #expect(try watcher.next { $0.id == String(released) }.json()["heldBy"] is NSNull)
        // The events after it still frame and number correctly.
        let next = try #require(try server.command(#"{"command":"next"}"#).json()["seq"] as? Int)
        for stream in [watcher, late] {
            let change = try stream.next { $0.id == String(next) }
            #expect(try change.json()["current"] as? Int == 1)
            Self.expectCleanFraming(stream.received)
        }
    }

    /// JSON forbids raw control characters inside strings: such a body is refused whole.
    @Test(arguments: [0x0A, 0x0D, 0x00, 0x1F] as [UInt8])
    func aRawControlCharacterInAJSONStringIs400(byte: UInt8) throws {
        let server = try TestServer()
        let body =
            Array(#"{"viewer":"a"#.utf8) + [byte]
            + Array(#"b","events":[{"type":"down","pointer":1,"x":512,"y":384,"t":1}]}"#.utf8)
        let reply = try server.http.send(
            method: "POST", path: "/api/rooms/main/pointer", headers: ["Content-Type": "application/json"], body: body)
        #expect(reply.status == 400)
        #expect(try reply.json()["error"] is String)
        let after = try server.snapshot()
        #expect((after["seq"] as? Int).map(HistoryNumbering.counted) == 0)
        #expect(after["heldBy"] is NSNull)
    }

    /// Ids and names the server repeats in its error message: the answer stays one JSON body
    /// (no header or second response injected) and the room does not change.
    @Test(arguments: [
        (#"{"command":"remove","id":"c0\r\nX-Injected: 1"}"#, 404, "c0\r\nX-Injected: 1"),
        (#"{"command":"insert","photo":"p\u0000\n\r\nX-Injected: 1"}"#, 404, "p\u{0000}\n\r\nX-Injected: 1"),
        (#"{"command":"next\r\n\r\nHTTP/1.1 200 OK"}"#, 400, "next\r\n\r\nHTTP/1.1 200 OK"),
        (#"{"command":"remove","id":"\u2028\u0085\u0000"}"#, 404, "\u{2028}\u{0085}\u{0000}"),
    ])
    func anEchoedValueStaysInsideItsJSONString(body: String, status: Int, echoed: String) throws {
        let server = try TestServer()
        let watcher = try server.events()
        #expect(try watcher.next().event == "snapshot")
        let reply = try server.command(body)
        #expect(reply.status == status)
        #expect(reply.header("X-Injected") == nil)
        #expect(reply.header("Content-Type") == "application/json")
        let message = try #require(try reply.json()["error"] as? String)
        #expect(message.contains(echoed), "\(message.debugDescription)")
        #expect(!reply.body.contains(0x0D) && !reply.body.contains(0x0A) && !reply.body.contains(0x00))
        #expect(try server.numberedSoFar() == 0)
        #expect(throws: TestSocket.Failure.self) { try watcher.next(timeout: 0.3) { $0.event != "presence" } }
    }

    @Test func aStyleNameWithALineBreakIs400() throws {
        let server = try TestServer()
        let reply = try server.command(#"{"command":"style","style":"deck\n"}"#)
        #expect(reply.status == 400)
        #expect(try server.snapshot()["style"] as? String == "pile")
    }

    /// File names are the one other text that reaches every viewer (as captions); Linux allows
    /// any byte in them but `/` and NUL.
    @Test func photoNamesWithLineBreaksStayInsideTheirCaption() throws {
        CVipsSetup.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("framing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let names = ["a\nline.jpg", "b\r\n\r\ndata: {}.jpg", "c\rid: 9.jpg", "d\u{2028}sep.jpg"]
        for (index, name) in names.enumerated() {
            #expect(CVipsTest_writeJPEG(folder + "/" + name, 120, 90, Int32(index + 1)) == 0)
        }
        let server = try TestServer.caching(photos: folder)
        _ = try server.command(#"{"command":"style","style":"grid"}"#)
        let viewer = try server.events()
        let snapshot = try viewer.next()
        #expect(snapshot.event == "snapshot")
        let cards = try #require(try snapshot.json()["cards"] as? [[String: Any]])
        let captions = cards.compactMap { ($0["caption"] as? [String: Any])?["name"] as? String }
        #expect(Set(captions) == Set(names))
        let next = try #require(try server.command(#"{"command":"next"}"#).json()["seq"] as? Int)
        #expect(try viewer.next { $0.id == String(next) }.event == "change")
        Self.expectCleanFraming(viewer.received)
    }
}
