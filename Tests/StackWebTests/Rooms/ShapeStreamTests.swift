import Foundation
import Testing

@testable import StackWebServer

/// Screens of different shapes on one room, against the real `stackweb` process over HTTP and SSE:
/// each is sent the same change, under the same id, laid out for its own shape; a resume gets its
/// own shape's events; a phone's press moves the card it showed.
@Suite struct ShapeStreamTests {
    /// A server on a folder of two 16:9 photos and two 3:4 ones (a 16:9 photo at the front), in
    /// `style`.
    static func server(style: String) throws -> ServerProcess {
        let server = try ServerProcess.start(arguments: try ScreenShapes.arguments(style: style))
        #expect(server.shows(photos: 4))
        return server
    }

    @Test func twoShapesGetTheSameChangeUnderOneIdLaidOutForEach() throws {
        let server = try Self.server(style: "frame")
        let tv = try ScreenShapes.events(server, shape: ScreenShapes.tv)
        let phone = try ScreenShapes.events(server, shape: ScreenShapes.phone)
        let room = try ScreenShapes.events(server, shape: nil)
        let tvStage = try #require(try tv.next().json()["stage"] as? [String: Double])
        let phoneStage = try #require(try phone.next().json()["stage"] as? [String: Double])
        _ = try room.next()
        #expect(tvStage["w"].map { abs($0 / tvStage["h"]! - 16.0 / 9) < 1e-9 } == true)
        #expect(phoneStage["w"].map { abs($0 / phoneStage["h"]! - 9 / 19.5) < 1e-9 } == true)
        let http = HTTPTestClient(port: server.port)
        #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"next"}"#).status == 200)
        let tvChange = try tv.next { $0.event == "change" }
        let phoneChange = try phone.next { $0.event == "change" }
        let roomChange = try room.next { $0.event == "change" }
        #expect(tvChange.id == phoneChange.id && tvChange.id == roomChange.id)
        let incoming = (try ScreenShapes.cards(tvChange)["c1"], try ScreenShapes.cards(phoneChange)["c1"])
        let (tvTo, phoneTo) = (ScreenShapes.anim(incoming.0, "to"), ScreenShapes.anim(incoming.1, "to"))
        // The 16:9 photo fills the TV's stage; on the phone's it fills the width.
        #expect(tvTo["w"] == tvStage["w"] && tvTo["h"] == tvStage["h"])
        #expect(phoneTo["w"] == phoneStage["w"])
        #expect(tvTo != phoneTo)
        #expect(ScreenShapes.anim(incoming.0, "from")["opacity"] == 0 && tvTo["opacity"] == 1)
    }

    @Test func aResumeGetsItsOwnShapesEvents() throws {
        let server = try Self.server(style: "frame")
        let tv = try ScreenShapes.events(server, shape: ScreenShapes.tv)
        let phone = try ScreenShapes.events(server, shape: ScreenShapes.phone)
        let seen = try #require(try tv.next().id)
        _ = try phone.next()
        let http = HTTPTestClient(port: server.port)
        for _ in 0..<2 {
            #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"next"}"#).status == 200)
        }
        let live = try (0..<2).map { _ in try tv.next { $0.event == "change" } }
        let resumed = try ScreenShapes.events(server, shape: ScreenShapes.tv, headers: ["Last-Event-ID": seen])
        let replayed = try (0..<2).map { _ in try resumed.next() }
        #expect(replayed == live, "the TV's own bytes, not the phone's or the room stage's")
        // A shape nobody watched in when the changes happened cannot be replayed: a snapshot.
        let square = try ScreenShapes.events(server, shape: "800x800", headers: ["Last-Event-ID": seen])
        let opening = try square.next()
        #expect(opening.event == "snapshot")
        #expect((try opening.json()["shape"] as? [String: Any])?["name"] as? String == "1x1")
    }

    @Test func aPortraitPhonesPressMovesTheCardItShowed() throws {
        let server = try Self.server(style: "pile")
        let phone = try ScreenShapes.events(server, shape: ScreenShapes.phone)
        let opening = try phone.next()
        let top = try #require(try ScreenShapes.cards(opening)["c0"])
        let (x, y, w) = (top["x"] as? Double ?? 0, top["y"] as? Double ?? 0, top["w"] as? Double ?? 0)
        let roomTop = try #require(
            (try HTTPTestClient(port: server.port).get("/api/rooms/main").json()["cards"] as? [[String: Any]])?.first)
        // Near the phone card's edge: beyond the room's card, had the point not been mapped.
        let pressX = x + w * 0.45
        #expect(abs(pressX - x) > (roomTop["w"] as? Double ?? 0) / 2)
        let http = HTTPTestClient(port: server.port)
        let events = [
            #"{"type":"down","pointer":1,"x":\#(pressX),"y":\#(y),"t":0}"#,
            #"{"type":"move","pointer":1,"x":\#(pressX - 60),"y":\#(y),"t":400}"#,
        ]
        let reply = try http.post(
            "/api/rooms/main/pointer?shape=9x19.5",
            json: #"{"viewer":"phone","events":[\#(events.joined(separator: ","))]}"#)
        #expect(reply.status == 200)
        let moved = try phone.next { $0.event == "change" }
        #expect(try moved.json()["heldBy"] as? String == "phone")
        let dragged = try #require(try ScreenShapes.cards(moved)["c0"])
        #expect(abs((dragged["x"] as? Double ?? 0) - (x - 60)) < 1e-6, "the phone's card follows the finger")
        let roomNow = try HTTPTestClient(port: server.port).get("/api/rooms/main").json()
        let roomCard = try #require((roomNow["cards"] as? [[String: Any]])?.first { $0["id"] as? String == "c0" })
        #expect(abs((roomCard["x"] as? Double ?? 0) - ((roomTop["x"] as? Double ?? 0) - 60)) < 1e-6)
    }
}
