import Foundation
import Testing

@testable import StackWebServer

/// Screens of every shape in a group: two real instances on a real `redis-server`, `a` running the
/// room. A screen watching through the other instance is laid out for its shape exactly as at the
/// owner — the same change, under the same id, in its class's bytes — and a phone's drag posted
/// there moves the card it showed.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisShapeTests {
    static let portraitTV = "1080x1920"
    static let next = #"{"command":"next"}"#

    /// A group of `a` (running `main`) and `b` on a folder of 16:9 and 3:4 photos, in `style`.
    static func withGroup(style: String, _ body: (_ owner: ServerProcess, _ other: ServerProcess) throws -> Void)
        throws
    {
        let redis = try RedisServer()
        let arguments = try ScreenShapes.arguments(style: style)
        let owner = try ServerProcess.start(arguments: arguments + ["--redis", redis.urlText, "--instance-id", "a"])
        defer { owner.end() }
        #expect(Poll.until { redis.lease(of: "main") == "a" })
        let other = try ServerProcess.start(arguments: arguments + ["--redis", redis.urlText, "--instance-id", "b"])
        defer { other.end() }
        #expect(owner.shows(photos: 4))
        #expect(other.shows(photos: 4))
        try body(owner, other)
    }

    /// The opening of a viewer of `shape`: a snapshot laid out for it (its instance may wait until
    /// the owner has heard of its class, about a second; the viewer count may come first).
    static func opening(_ viewer: SSETestClient, shape name: String) throws -> SSETestClient.Event {
        let opening = try viewer.next(timeout: 10) { $0.event != "presence" }
        #expect(opening.event == "snapshot")
        #expect((try opening.json()["shape"] as? [String: Any])?["name"] as? String == name)
        return opening
    }

    static func stage(_ event: SSETestClient.Event) throws -> [String: Double] {
        try #require(try event.json()["stage"] as? [String: Double])
    }

    @Test func screensOfTwoShapesAtTwoInstancesGetTheirOwnLayoutsUnderOneID() throws {
        try Self.withGroup(style: "frame") { owner, other in
            let portrait = try ScreenShapes.events(owner, shape: Self.portraitTV)
            let tvHere = try ScreenShapes.events(owner, shape: ScreenShapes.tv)
            let tvThere = try ScreenShapes.events(other, shape: ScreenShapes.tv)
            let portraitStage = try Self.stage(try Self.opening(portrait, shape: "9x16"))
            _ = try Self.opening(tvHere, shape: "16x9")
            let tvStage = try Self.stage(try Self.opening(tvThere, shape: "16x9"))
            #expect(tvStage["w"].map { abs($0 / tvStage["h"]! - 16.0 / 9) < 1e-9 } == true)
            let reply = try HTTPTestClient(port: owner.port).post("/api/rooms/main/commands", json: Self.next)
            let seq = try #require(try reply.json()["seq"] as? Int)
            let there = try tvThere.next { $0.event == "change" && $0.id == String(seq) }
            let here = try tvHere.next { $0.event == "change" && $0.id == String(seq) }
            let upright = try portrait.next { $0.event == "change" && $0.id == String(seq) }
            #expect(there == here, "the TV through the other instance gets the owner's own TV bytes")
            let (tvTo, portraitTo) = (
                ScreenShapes.anim(try ScreenShapes.cards(there)["c1"], "to"),
                ScreenShapes.anim(try ScreenShapes.cards(upright)["c1"], "to")
            )
            // The 16:9 photo fills the TV's stage; on the portrait screen it fills the width.
            #expect(tvTo["w"] == tvStage["w"] && tvTo["h"] == tvStage["h"])
            #expect(portraitTo["w"] == portraitStage["w"])
        }
    }

    /// Nobody at the owner watches in 16:9, nor in the room's own 4:3: the owner lays the room out
    /// for the classes the other instance reports, and that instance sends each viewer its own.
    @Test func aClassOnlyAnotherInstanceHasIsLaidOutForIt() throws {
        try Self.withGroup(style: "frame") { _, other in
            let tv = try ScreenShapes.events(other, shape: ScreenShapes.tv)
            let square = try ScreenShapes.events(other, shape: "1024x768")
            let plain = try ScreenShapes.events(other, shape: nil)
            let tvStage = try Self.stage(try Self.opening(tv, shape: "16x9"))
            _ = try Self.opening(square, shape: "4x3")
            let plainOpening = try plain.next(timeout: 10) { $0.event != "presence" }
            #expect(plainOpening.event == "snapshot")
            let reply = try HTTPTestClient(port: other.port).post("/api/rooms/main/commands", json: Self.next)
            let seq = try #require(try reply.json()["seq"] as? Int)
            let change = try tv.next { $0.event == "change" && $0.id == String(seq) }
            let tvTo = ScreenShapes.anim(try ScreenShapes.cards(change)["c1"], "to")
            #expect(tvTo["w"] == tvStage["w"] && tvTo["h"] == tvStage["h"])
            // A screen of the room's own shape is sent the room's stage bytes.
            let roomStage = try plain.next { $0.event == "change" && $0.id == String(seq) }
            let squareChange = try square.next { $0.event == "change" && $0.id == String(seq) }
            #expect(squareChange == roomStage)
            #expect(roomStage != change)
        }
    }

    /// A phone watching through the other instance presses near its card's edge — beyond the card
    /// on the room's own stage — and drags: the owner maps the press from the phone's stage, as it
    /// would for a phone of its own.
    @Test func aPhonesDragThroughAnotherInstanceMovesTheCardItShowed() throws {
        try Self.withGroup(style: "pile") { owner, other in
            let phone = try ScreenShapes.events(other, shape: ScreenShapes.phone)
            let opening = try Self.opening(phone, shape: "9x19.5")
            let top = try #require(try ScreenShapes.cards(opening)["c0"])
            let (x, y, w) = (top["x"] as? Double ?? 0, top["y"] as? Double ?? 0, top["w"] as? Double ?? 0)
            let ownerHTTP = HTTPTestClient(port: owner.port)
            let roomTop = try #require(
                (try ownerHTTP.get("/api/rooms/main").json()["cards"] as? [[String: Any]])?.first)
            let pressX = x + w * 0.45
            #expect(abs(pressX - x) > (roomTop["w"] as? Double ?? 0) / 2)
            let events = [
                #"{"type":"down","pointer":1,"x":\#(pressX),"y":\#(y),"t":0}"#,
                #"{"type":"move","pointer":1,"x":\#(pressX - 60),"y":\#(y),"t":400}"#,
            ]
            let reply = try HTTPTestClient(port: other.port).post(
                "/api/rooms/main/pointer?shape=\(ScreenShapes.phone)",
                json: #"{"viewer":"phone","events":[\#(events.joined(separator: ","))]}"#)
            #expect(reply.status == 200, "\(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
            let moved = try phone.next { $0.event == "change" }
            #expect(try moved.json()["heldBy"] as? String == "phone")
            let dragged = try #require(try ScreenShapes.cards(moved)["c0"])
            #expect(abs((dragged["x"] as? Double ?? 0) - (x - 60)) < 1e-6, "the phone's card follows the finger")
            let roomNow = try ownerHTTP.get("/api/rooms/main").json()
            let roomCard = try #require((roomNow["cards"] as? [[String: Any]])?.first { $0["id"] as? String == "c0" })
            #expect(abs((roomCard["x"] as? Double ?? 0) - ((roomTop["x"] as? Double ?? 0) - 60)) < 1e-6)
        }
    }

    /// A TV that lost its stream resumes with `Last-Event-ID` through either instance and gets
    /// exactly the events it missed, in its class's bytes, with no snapshot.
    @Test func aScreenResumesWithItsClassesBytesThroughEitherInstance() throws {
        try Self.withGroup(style: "frame") { owner, other in
            let tv = try ScreenShapes.events(other, shape: ScreenShapes.tv)
            let seen = try #require(try Self.opening(tv, shape: "16x9").id)
            let http = HTTPTestClient(port: owner.port)
            var last = 0
            for _ in 0..<2 {
                last = try #require(try http.post("/api/rooms/main/commands", json: Self.next).json()["seq"] as? Int)
            }
            var live: [SSETestClient.Event] = []
            while live.last?.id != String(last) {
                live.append(try tv.next { $0.event != "presence" })
            }
            #expect(live.allSatisfy { $0.event == "change" })
            for instance in [other, owner] {
                let resumed = try ScreenShapes.events(
                    instance, shape: ScreenShapes.tv, headers: ["Last-Event-ID": seen])
                let replayed = try live.map { _ in try resumed.next { $0.event != "presence" } }
                #expect(replayed == live, "resumed at \(instance === owner ? "the owner" : "the other instance")")
            }
        }
    }

    /// A read of the room for a shape at the instance that does not run it is the owner's snapshot
    /// for that shape; without a shape, the room's own stage as the owner last published it.
    @Test func aReadForAShapeAtTheOtherInstanceIsLaidOutForIt() throws {
        try Self.withGroup(style: "frame") { owner, other in
            let path = "/api/rooms/main?shape=\(ScreenShapes.tv)"
            let there = try HTTPTestClient(port: other.port).get(path)
            #expect(there.status == 200, "\(there.status) \(String(decoding: there.body, as: UTF8.self))")
            let here = try HTTPTestClient(port: owner.port).get(path).json()
            let read = try there.json()
            #expect((read["shape"] as? [String: Any])?["name"] as? String == "16x9")
            #expect(read["stage"] as? [String: Double] == here["stage"] as? [String: Double])
            #expect(read["seq"] as? Int == here["seq"] as? Int)
            #expect(try HTTPTestClient(port: other.port).get("/api/rooms/main").json()["shape"] == nil)
        }
    }
}
