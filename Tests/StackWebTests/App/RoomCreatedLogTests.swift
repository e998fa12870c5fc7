import Foundation
import Testing

/// "room … created" says that a person made a room (the first POST to it), once: not for `main`,
/// and not again when a restart brings the room back from the state.
@Suite struct RoomCreatedLogTests {
    static func run(_ arguments: [String], _ body: (HTTPTestClient) throws -> Void) throws -> String {
        let server = try ServerProcess.start(arguments: arguments, captureErrors: true)
        defer { server.end() }
        try body(HTTPTestClient(port: server.port))
        #expect(server.stop() == 0)
        return String(decoding: server.errors?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }

    @Test func aRoomIsSaidCreatedOnceAcrossRestarts() throws {
        let state = try TemporaryFiles.folder() + "/state.db"
        let first = try Self.run(["--state", state]) { (http: HTTPTestClient) throws in
            #expect(try http.post("/api/rooms/kitchen/commands", json: #"{"command":"next"}"#).status == 200)
            #expect(try http.post("/api/rooms/kitchen/commands", json: #"{"command":"next"}"#).status == 200)
        }
        #expect(first.components(separatedBy: "room kitchen created").count == 2, "\(first)")
        #expect(!first.contains("room main created"), "\(first)")
        let second = try Self.run(["--state", state]) { (http: HTTPTestClient) throws in
            #expect(try http.get("/api/rooms/kitchen").json()["current"] as? Int == 2)
            #expect(try http.post("/api/rooms/kitchen/commands", json: #"{"command":"next"}"#).status == 200)
        }
        #expect(!second.contains("created"), "\(second)")
    }
}
