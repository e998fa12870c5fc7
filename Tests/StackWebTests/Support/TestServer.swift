import Foundation

@testable import StackWebServer

/// A real StackWeb server on an ephemeral port in this process, with the repository's resources.
final class TestServer {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let app: Application
    var port: UInt16 { app.server.port }
    var http: HTTPTestClient { HTTPTestClient(port: port) }

    /// A server whose rooms keep their state in `store` when one is given, else as configured.
    init(store: (any RoomStore)? = nil, configure: (inout Configuration) -> Void = { _ in }) throws {
        CVipsSetup.start()
        var configuration = Configuration()
        configuration.port = 0
        configuration.resources = TestServer.repositoryRoot.appendingPathComponent("Resources").path
        configure(&configuration)
        if let store {
            app = try Application(configuration: configuration, store: store)
        } else {
            app = try Application(configuration: configuration)
        }
        // The server answers before it has read a new folder's photos; tests start from all of them.
        _ = Poll.until(30) { !app.isReadingPhotos }
    }

    deinit { app.stop() }

    func events(room: String = "main", headers: [String: String] = [:]) throws -> SSETestClient {
        try SSETestClient(port: port, path: "/api/rooms/\(room)/events", headers: headers)
    }

    func snapshot(room: String = "main") throws -> [String: Any] {
        try http.get("/api/rooms/\(room)").json()
    }

    func command(_ json: String, room: String = "main") throws -> HTTPTestClient.Reply {
        try http.post("/api/rooms/\(room)/commands", json: json)
    }
}
