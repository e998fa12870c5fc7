import Foundation

/// Three copies of the bundled photos (a test deletes one; reading 36 takes long enough for a
/// viewer to come first), a state path and a cache folder.
struct RestartSetup {
    static let count = 36
    let photos: String
    let state: String
    let cache: String

    init() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stackweb-\(UUID().uuidString)")
        photos = root.appendingPathComponent("photos").path
        state = root.appendingPathComponent("state.db").path
        cache = root.appendingPathComponent("cache").path
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        for copy in ["a", "b", "c"] {
            try FileManager.default.copyItem(
                atPath: TestServer.repositoryRoot.appendingPathComponent("Resources/demo-photos").path,
                toPath: photos + "/" + copy)
        }
    }

    /// In the grid every card of the room is drawn: a snapshot shows the whole order.
    func arguments(_ extra: [String] = []) -> [String] {
        ["--photos", photos, "--state", state, "--cache", cache, "--style", "grid"] + extra
    }

    /// Started again with the cache folder gone, a viewer watching at once (a photo frame's page
    /// reconnecting): the room is restored before the photos are read again.
    func restart(_ extra: [String] = []) throws -> (ServerProcess, SSETestClient) {
        try FileManager.default.removeItem(atPath: cache)
        let server = try ServerProcess.start(arguments: arguments(extra), readPhotos: false)
        let viewer = try SSETestClient(port: server.port, path: "/api/rooms/main/events")
        return (server, viewer)
    }
}
