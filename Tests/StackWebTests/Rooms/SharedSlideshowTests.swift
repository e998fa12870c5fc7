import Foundation
import Testing

@testable import StackWebServer

/// Many viewers on one room: identical streams, resume, one drag owner, presence, slow viewers.
@Suite struct SharedSlideshowTests {
    @Test func sixtyViewersReceiveIdenticalEventSequences() throws {
        let server = try TestServer()
        let viewers = try (0..<60).map { _ in try server.events() }
        for viewer in viewers { #expect(try viewer.next().event == "snapshot") }
        for step in 0..<20 {
            _ = try server.command(step % 3 == 2 ? #"{"command":"previous"}"# : #"{"command":"next"}"#)
        }
        let changes = { (viewer: SSETestClient) throws -> [SSETestClient.Event] in
            try (0..<20).map { _ in try viewer.next { $0.event == "change" } }
        }
        let reference = try changes(viewers[0])
        #expect(reference.map(\.number) == (1...20).map { $0 })
        for viewer in viewers.dropFirst() {
            #expect(try changes(viewer) == reference)
        }
    }

    @Test func aTooOldLastEventIDGetsAFreshSnapshot() throws {
        let server = try TestServer()
        for _ in 0..<(RoomSettings.replayCapacity + 10) {
            _ = try server.command(#"{"command":"next"}"#)
        }
        let late = try server.events(headers: ["Last-Event-ID": "3"])
        let first = try late.next()
        #expect(first.event == "snapshot")
        // One change per command, and on a slow machine one more where a card's motion ended
        // between two commands: at least as many as the commands.
        let seq = try #require(first.id.flatMap { Int($0) })
        #expect(seq >= RoomSettings.replayCapacity + 10)
        // One still inside the buffer replays instead.
        let recent = try server.events(headers: ["Last-Event-ID": String(seq - 5)])
        #expect(try recent.next().id == String(seq - 4))
    }

    @Test func onlyTheFirstPointerDownDrivesTheCard() throws {
        let server = try TestServer()
        let top = try #require((try server.snapshot()["cards"] as? [[String: Any]])?.first)
        let (x, y) = (top["x"] as? Double ?? 0, top["y"] as? Double ?? 0)
        func post(_ viewer: String, _ events: String) throws {
            let reply = try server.http.post(
                "/api/rooms/main/pointer", json: #"{"viewer":"\#(viewer)","events":[\#(events)]}"#)
            #expect(reply.status == 200)
        }
        func topX() throws -> Double {
            try (server.snapshot()["cards"] as? [[String: Any]])?.first?["x"] as? Double ?? .nan
        }
        try post("alice", #"{"type":"down","pointer":1,"x":\#(x),"y":\#(y),"t":0}"#)
        // Everyone can see who drives, so a page can say that someone else is dragging.
        #expect(try server.snapshot()["heldBy"] as? String == "alice")
        try post(
            "bob",
            #"{"type":"down","pointer":1,"x":\#(x),"y":\#(y),"t":5},{"type":"move","pointer":1,"x":\#(x + 100),"y":\#(y),"t":20}"#
        )
        #expect(try topX() == x)
        try post("alice", #"{"type":"move","pointer":1,"x":\#(x + 40),"y":\#(y),"t":30}"#)
        #expect(try topX() == x + 40)
        try post("alice", #"{"type":"up","pointer":1,"x":\#(x + 40),"y":\#(y),"t":900}"#)
        #expect(try server.snapshot()["heldBy"] is NSNull)
    }

    @Test func viewersLearnHowManyAreWatching() throws {
        let server = try TestServer()
        let first = try server.events()
        _ = try first.next()
        let second = try server.events()
        _ = try second.next()
        let presence = try first.next { event in
            event.event == "presence" && (try? event.json())?["viewers"] as? Int == 2
        }
        #expect(presence.id == nil)
    }

    @Test func roomsAreListedWithTheirViewers() throws {
        let server = try TestServer()
        // Rooms are kept once someone with control rights used them (and main always).
        #expect(try server.command(#"{"command":"next"}"#, room: "lobby").status == 200)
        let viewer = try server.events(room: "lobby")
        _ = try viewer.next()
        _ = try server.snapshot(room: "main")
        let list = try server.http.get("/api/rooms").json()
        let rooms = try #require(list["rooms"] as? [[String: Any]])
        #expect(rooms.map { $0["room"] as? String } == ["lobby", "main"])
        #expect(rooms.first?["viewers"] as? Int == 1)
        #expect(rooms.last?["viewers"] as? Int == 0)
        #expect(list["limit"] as? Int == 64)
    }

    @Test func theRoomLimitIsExplicit() throws {
        let server = try TestServer { $0.maxRooms = 2 }
        // main always has its place; one more room fits under a limit of two.
        #expect(try server.command(#"{"command":"next"}"#, room: "one").status == 200)
        let third = try server.command(#"{"command":"next"}"#, room: "two")
        #expect(third.status == 429)
        #expect((try third.json()["error"] as? String)?.contains("at most 2 rooms") == true)
        #expect(try server.command(#"{"command":"next"}"#).status == 200)
        #expect(try server.command(#"{"command":"next"}"#, room: "one").status == 200)
        // Looking at a room that does not exist is still answered, and makes none.
        #expect(try server.http.get("/api/rooms/three").status == 200)
    }

    @Test func aStalledReaderDoesNotDelayTheOthers() throws {
        let server = try TestServer()
        // This viewer never reads: its kernel buffers fill, then its queue, then it is dropped.
        let stalled = try SSETestClient(port: server.port, path: "/api/rooms/main/events", receiveBuffer: 4096)
        let reader = try server.events()
        _ = try reader.next()
        let started = Date()
        var dropped = false
        for _ in 0..<2000 {
            let seq = try #require(try server.command(#"{"command":"next"}"#).json()["seq"] as? Int)
            // Every change reaches the reading viewer at once, whatever the stalled one does.
            // (Earlier commands' animations end meanwhile and send changes of their own.)
            _ = try reader.next(timeout: 2) { $0.id == String(seq) }
            if try server.http.get("/api/rooms").json()["rooms"].flatMap({ ($0 as? [[String: Any]])?.first })?[
                "viewers"] as? Int == 1
            {
                dropped = true
                break
            }
        }
        #expect(dropped, "the stalled viewer was never dropped")
        #expect(Date().timeIntervalSince(started) < 30)
        withExtendedLifetime(stalled) {}
    }
}

/// The control token: who may POST, and where the token never appears.
@Suite struct ControlTokenTests {
    static let token = "s3cret-token-0123456789"

    @Test func postsNeedTheTokenWhenOneIsSet() throws {
        let server = try TestServer { $0.token = ControlTokenTests.token }
        let missing = try server.command(#"{"command":"next"}"#)
        #expect(missing.status == 401)
        #expect(missing.header("WWW-Authenticate") == "Bearer")
        let wrong = try server.http.post(
            "/api/rooms/main/commands", json: #"{"command":"next"}"#, headers: ["Authorization": "Bearer nope"])
        #expect(wrong.status == 403)
        let notBearer = try server.http.post(
            "/api/rooms/main/commands", json: #"{"command":"next"}"#, headers: ["Authorization": "Basic \(Self.token)"])
        #expect(notBearer.status == 403)
        #expect(try server.numberedSoFar() == 0)
        let right = try server.http.post(
            "/api/rooms/main/commands", json: #"{"command":"next"}"#, headers: ["Authorization": "Bearer \(Self.token)"]
        )
        #expect(right.status == 200)
    }

    @Test func viewingStaysOpenAndNeverShowsTheToken() throws {
        let server = try TestServer { $0.token = ControlTokenTests.token }
        let page = try server.http.get("/")
        #expect(page.status == 200)
        #expect(!page.text.contains(Self.token))
        let viewer = try server.events()
        let snapshot = try viewer.next()
        #expect(!snapshot.data.contains(Self.token))
        _ = try server.http.post(
            "/api/rooms/main/commands", json: #"{"command":"next"}"#, headers: ["Authorization": "Bearer \(Self.token)"]
        )
        #expect(try !viewer.next().data.contains(Self.token))
        #expect(try server.http.get("/api/rooms/main").status == 200)
    }

    @Test func bindingToTheLANRequiresATokenByDefault() throws {
        let server = try TestServer { $0.host = "0.0.0.0" }
        let token = try #require(server.app.controlToken)
        #expect(token.count == 32)
        #expect(try server.command(#"{"command":"next"}"#).status == 401)
        #expect(server.app.addressLines(toTerminal: true).contains { $0.contains("?token=\(token)") })
        #expect(!server.app.addressLines(toTerminal: false).contains { $0.contains(token) })
    }

    @Test func loopbackAndNoTokenLetAnyoneControl() throws {
        #expect(try TestServer().app.controlToken == nil)
        let optedOut = try TestServer {
            $0.host = "0.0.0.0"
            $0.noToken = true
        }
        #expect(optedOut.app.controlToken == nil)
        #expect(try optedOut.command(#"{"command":"next"}"#).status == 200)
    }

    @Test(arguments: [
        ([String](), [String: String](), false), (["--host", "0.0.0.0"], [:], true),
        (["--host", "192.168.1.5"], [:], true), (["--host", "0.0.0.0", "--no-token"], [:], false),
        (["--token", "abcdefghijklmnop"], [:], true), ([], ["STACKWEB_HOST": "0.0.0.0"], true),
        (["--host", "0.0.0.0"], ["STACKWEB_NO_TOKEN": "1"], false),
    ])
    func whoNeedsAToken(arguments: [String], environment: [String: String], needsToken: Bool) throws {
        guard case .run(let configuration) = try Configuration.parse(arguments: arguments, environment: environment)
        else { throw TestSocket.Failure.malformed }
        #expect((configuration.controlToken { "generated" } != nil) == needsToken)
    }

    @Test func tokenComparisonIsExact() {
        #expect(AccessPolicy.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!AccessPolicy.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!AccessPolicy.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!AccessPolicy.constantTimeEqual([], Array("a".utf8)))
        #expect(AccessPolicy.generateToken() != AccessPolicy.generateToken())
    }
}
