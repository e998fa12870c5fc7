import CVipsTestSupport
import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// Three photos in a folder and a server on them, for the tests of photo ids and their migration.
enum PhotoIDFixture {
    static let files = ["a.jpg", "album/b.jpg", "album/c.jpg"]

    /// A folder of three photos, one in a subfolder of its own.
    static func folder() throws -> String {
        let folder = try TemporaryFiles.folder()
        try FileManager.default.createDirectory(atPath: folder + "/album", withIntermediateDirectories: true)
        for (index, file) in files.enumerated() {
            #expect(CVipsTest_writeJPEG(folder + "/" + file, 80, 60, Int32(index + 1)) == 0)
        }
        return folder
    }

    /// The id an earlier version gave the photo at `relative`: FNV-1a of the path, 12 hex digits.
    static func guessed(_ relative: String) -> String { "p" + FNV1a.hex(relative.utf8).prefix(12) }

    /// Each photo's id by its file name, from a snapshot of the grid (which draws every card).
    static func ids(_ server: TestServer, room: String = "main") throws -> [String: String] {
        let cards = try server.snapshot(room: room)["cards"] as? [[String: Any]] ?? []
        var ids: [String: String] = [:]
        for card in cards {
            guard let name = (card["caption"] as? [String: Any])?["name"] as? String,
                let photo = card["photo"] as? String
            else { continue }
            ids[String(name.split(separator: "/").last ?? "")] = photo
        }
        return ids
    }

    static func server(photos: String, state: String? = nil) throws -> TestServer {
        try TestServer {
            $0.photos = photos
            $0.state = state
            $0.style = .grid
        }
    }
}
