import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// Only control makes rooms: anonymous GETs cannot use up the server's rooms, and a room that was
/// only watched leaves nothing behind.
@Suite struct RoomCreationTests {
    @Test func sixtyFourAnonymousGETsUseUpNoRoom() throws {
        let server = try TestServer()
        for index in 0..<64 {
            #expect(try server.http.get("/api/rooms/junk\(index)").status == 200)
            let viewer = try server.events(room: "junk-stream\(index)")
            #expect(try viewer.next().event == "snapshot")
        }
        // Every kept room can still be made, main first among them.
        #expect(try server.command(#"{"command":"next"}"#).status == 200)
        for index in 0..<10 {
            #expect(try server.command(#"{"command":"next"}"#, room: "hall\(index)").status == 200)
        }
        let listed = try server.http.get("/api/rooms").json()["rooms"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["room"] as? String }.filter { $0.hasPrefix("junk") }.isEmpty)
        #expect(listed.count == 11)
    }

    @Test func aWatchedRoomIsAnsweredButNeverSavedAndGoesWithItsLastViewer() throws {
        let path = TemporaryFiles.databasePath()
        let server = try TestServer {
            $0.state = path; $0.interval = 1
        }
        let snapshot = try server.http.get("/api/rooms/lobby").json()
        #expect(snapshot["room"] as? String == "lobby")
        #expect(snapshot["count"] as? Int == 12)
        #expect(server.app.rooms.existingRoom(named: "lobby") == nil)
        do {
            let viewer = try server.events(room: "lobby")
            #expect(try viewer.next().event == "snapshot")
            let room = try #require(server.app.rooms.existingRoom(named: "lobby"))
            #expect(room.isOnlyWatched)
            // The slideshow moves it for its viewer, and nothing of it is written.
            _ = try viewer.next(timeout: 5) { $0.event == "change" }
            server.app.store.flush()
            #expect(server.app.store.load(room: "lobby") == nil)
        }
        #expect(Poll.until { server.app.rooms.existingRoom(named: "lobby") == nil })
    }

    @Test func aPostWithControlRightsMakesAWatchedRoomReal() throws {
        let path = TemporaryFiles.databasePath()
        let server = try TestServer { $0.state = path }
        let viewer = try server.events(room: "stage")
        _ = try viewer.next()
        #expect(try server.command(#"{"command":"next"}"#, room: "stage").status == 200)
        #expect(try viewer.next { $0.event == "change" }.number == 1)
        let room = try #require(server.app.rooms.existingRoom(named: "stage"))
        #expect(!room.isOnlyWatched)
        #expect(try StateDatabaseReader(path: path).head(of: "stage") != nil)
    }

    @Test func aPostWithoutTheTokenMakesNoRoom() throws {
        let server = try TestServer { $0.token = "0123456789abcdef0123" }
        let reply = try server.http.post("/api/rooms/sneaky/commands", json: #"{"command":"next"}"#)
        #expect(reply.status == 401)
        #expect(server.app.rooms.existingRoom(named: "sneaky") == nil)
    }

    @Test func underAFixedListOtherRoomsAre404() throws {
        let server = try TestServer { $0.rooms = ["main", "hall"] }
        #expect(try server.http.get("/api/rooms/hall").status == 200)
        #expect(try server.command(#"{"command":"next"}"#, room: "hall").status == 200)
        let refused = try server.http.get("/api/rooms/other")
        #expect(refused.status == 404)
        #expect((try refused.json()["error"] as? String)?.contains("no room other") == true)
        #expect(try server.command(#"{"command":"next"}"#, room: "other").status == 404)
    }
}

/// `--max-cards`: a stack's size is bounded, and past it an insert is refused with a clear 409.
@Suite struct StackLimitTests {
    @Test func anInsertPastTheLimitIs409() throws {
        let server = try TestServer { $0.maxCards = 14 }
        let photo = try #require((try server.snapshot()["cards"] as? [[String: Any]])?.first?["photo"] as? String)
        for _ in 0..<2 {
            #expect(try server.command(#"{"command":"insert","photo":"\#(photo)"}"#).status == 200)
        }
        let refused = try server.command(#"{"command":"insert","photo":"\#(photo)"}"#)
        #expect(refused.status == 409)
        #expect((try refused.json()["error"] as? String)?.contains("at most 14 cards") == true)
        #expect(try server.snapshot()["count"] as? Int == 14)
    }
}
