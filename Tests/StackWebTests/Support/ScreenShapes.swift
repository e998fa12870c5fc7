import CVipsTestSupport
import Foundation
import Testing

/// Screens of different shapes on one room: a phone's and a TV's `?shape=`, a folder of 16:9 and
/// 3:4 photos to lay out for them, a viewer of a shape, and what its events say of the cards.
enum ScreenShapes {
    /// A landscape TV.
    static let tv = "1920x1080"
    /// A phone held upright.
    static let phone = "390x844"

    /// The options of a server on a new folder of two 16:9 photos and two 3:4 ones, in `style`.
    static func arguments(style: String) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stackweb-shapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, width, height) in [("a", 1600, 900), ("b", 1600, 900), ("c", 900, 1200), ("d", 900, 1200)] {
            #expect(
                CVipsTest_writeJPEG(folder.appendingPathComponent("\(name).jpg").path, Int32(width), Int32(height), 1)
                    == 0)
        }
        return ["--photos", folder.path, "--style", style, "--order", "name"]
    }

    /// A viewer of `main` at `server` that asked for `shape` (nil: none).
    static func events(_ server: ServerProcess, shape: String?, headers: [String: String] = [:]) throws -> SSETestClient
    {
        try SSETestClient(
            port: server.port, path: "/api/rooms/main/events" + (shape.map { "?shape=\($0)" } ?? ""), headers: headers)
    }

    /// The cards an event carries, by card id.
    static func cards(_ event: SSETestClient.Event) throws -> [String: [String: Any]] {
        let cards = try event.json()["cards"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: cards.map { ($0["id"] as? String ?? "", $0) })
    }

    /// The numbers of the `end` ("from" or "to") of a card's animation.
    static func anim(_ card: [String: Any]?, _ end: String) -> [String: Double] {
        ((card?["anim"] as? [String: Any])?[end] as? [String: Any] ?? [:]).compactMapValues { $0 as? Double }
    }
}
