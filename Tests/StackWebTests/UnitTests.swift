import Foundation
import StackModel
import Testing

@testable import StackWebServer

@Suite struct RouteTests {
    @Test(arguments: [
        ("/healthz", Route.health), ("/metrics", .metrics), ("/photos/p1", .photo(id: "p1")),
        ("/api/rooms/main", .snapshot(room: "main")), ("/api/rooms/main/events", .events(room: "main")),
        ("/api/rooms/a/pointer", .pointer(room: "a")), ("/api/rooms/a/commands", .commands(room: "a")),
        ("/api/rooms/a/other", .file), ("/", .file), ("/api/rooms", .rooms), ("/photos/a/b", .file),
    ])
    func pathsMapToRoutes(path: String, route: Route) {
        #expect(Route(path: path) == route)
    }
}

@Suite struct RoomNameTests {
    @Test(arguments: ["main", "a", "hall-2", "x_y", "0", String(repeating: "a", count: 64)])
    func validNames(name: String) { #expect(RoomRegistry.isValidName(name)) }

    @Test(arguments: ["", "Main", "-a", "_a", "a b", "a/b", "é", String(repeating: "a", count: 65)])
    func invalidNames(name: String) { #expect(!RoomRegistry.isValidName(name)) }
}

@Suite struct ConfigurationTests {
    @Test func defaults() throws {
        #expect(try Configuration.parse(arguments: [], environment: [:]) == .run(Configuration()))
    }

    @Test func argumentsWinOverEnvironment() throws {
        let outcome = try Configuration.parse(
            arguments: ["--port", "9000", "--stage=800x600"],
            environment: ["STACKWEB_PORT": "7000", "STACKWEB_HOST": "0.0.0.0", "STACKWEB_PHOTOS": "/p"])
        var expected = Configuration()
        expected.port = 9000
        expected.host = "0.0.0.0"
        expected.photos = "/p"
        expected.stage = StageSize(width: 800, height: 600)
        #expect(outcome == .run(expected))
    }

    @Test(arguments: [
        ["--port", "70000"], ["--stage", "10x10"], ["--style", "cube"], ["--bogus", "1"], ["--port"], ["x"],
    ])
    func badArgumentsAreRefused(arguments: [String]) {
        #expect(throws: Configuration.Failure.self) { try Configuration.parse(arguments: arguments, environment: [:]) }
    }

    @Test func helpAndVersion() throws {
        #expect(try Configuration.parse(arguments: ["--help"], environment: [:]) == .help)
        #expect(try Configuration.parse(arguments: ["--version"], environment: [:]) == .version)
    }
}

@Suite struct ReplayBufferTests {
    func filled(_ count: Int, capacity: Int) -> ReplayBuffer {
        var buffer = ReplayBuffer(capacity: capacity)
        for seq in 1...count { buffer.append(seq: seq, bytes: [UInt8(seq)]) }
        return buffer
    }

    @Test func replaysWhatFollows() {
        #expect(filled(5, capacity: 8).events(after: 2, latest: 5) == [[3], [4], [5]])
        #expect(filled(5, capacity: 8).events(after: 5, latest: 5) == [])
        #expect(filled(5, capacity: 8).events(after: 0, latest: 5) == [[1], [2], [3], [4], [5]])
    }

    @Test func wrapsAndForgetsTheOldest() {
        let buffer = filled(10, capacity: 4)
        #expect(buffer.events(after: 6, latest: 10) == [[7], [8], [9], [10]])
        #expect(buffer.events(after: 5, latest: 10) == nil)
    }

    @Test func futureIdsNeedASnapshot() {
        #expect(filled(3, capacity: 4).events(after: 4, latest: 3) == nil)
    }
}

@Suite struct JSONWriterTests {
    @Test func escapesAndNumbers() throws {
        var writer = JSONWriter()
        writer.object { json in
            json.field("s", "a\"b\\c\nd\u{1}")
            json.field("i", 42)
            json.field("d", 0.5)
            json.field("w", 3.0)
            json.field("n", Double.nan)
            json.field("b", true)
            json.array("a") {
                $0.number(1); $0.string("x")
            }
        }
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == #"{"s":"a\"b\\c\nd\u0001","i":42,"d":0.5,"w":3,"n":0,"b":true,"a":[1,"x"]}"#)
        #expect(!text.contains("\n"))
        _ = try JSONSerialization.jsonObject(with: Data(writer.bytes))
    }
}

@Suite struct LastEventIDTests {
    @Test(
        arguments: [
            ("0", 0), ("42", 42), ("007", 7), ("9223372036854775807", Int.max), ("9223372036854775808", nil),
            ("-1", nil), ("+1", nil), (" 1", nil), ("1 ", nil), ("1e3", nil), ("", nil), ("banana", nil),
            ("99999999999999999999", nil), ("١٢", nil),
        ] as [(String, Int?)])
    func parses(header: String, id: Int?) {
        #expect(LastEventID.parse(header) == id)
    }
}
