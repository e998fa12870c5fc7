import CVipsTestSupport
import Foundation

@testable import StackWebServer

/// A photo folder of three photos, a server on it that takes guests' photos, and the requests a
/// phone sends.
struct UploadFixture {
    static let controlToken = "control-token-0123456789"
    static let addToken = "add-token-0123456789abcd"

    let folder: String
    /// The variant cache's folder.
    let cache: String
    let server: TestServer
    var http: HTTPTestClient { server.http }
    var uploads: String { folder + "/" + UploadSettings.defaultFolderName }

    /// `configure` runs after the defaults: uploads open everywhere, loopback limits.
    init(configure: (inout Configuration) -> Void = { _ in }) throws {
        folder = try TemporaryFiles.folder()
        try Self.photoFolder(folder)
        let cache = try TemporaryFiles.folder()
        self.cache = cache
        let folder = folder
        server = try TestServer { configuration in
            configuration.photos = folder
            configuration.cache = cache
            configuration.uploads.mode = .open
            configuration.limits = .standard(loopbackOnly: true)
            configure(&configuration)
        }
    }

    static func photoFolder(_ folder: String) throws {
        CVipsSetup.start()
        for name in ["a", "b", "c"] { _ = CVipsTest_writeJPEG(folder + "/\(name).jpg", 64, 48, 1) }
    }

    /// The head of a photo's upload that declares 2 MB, for a request answered before its body.
    static func headOfALargePhoto(room: String) -> String {
        "POST /api/rooms/\(room)/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
            + "Content-Length: 2000000\r\nConnection: close\r\n\r\n"
    }

    /// A JPEG of `width` × `height`, its bytes.
    static func jpeg(_ width: Int, _ height: Int) throws -> [UInt8] {
        CVipsSetup.start()
        let path = try TemporaryFiles.folder() + "/photo.jpg"
        _ = CVipsTest_writeJPEG(path, Int32(width), Int32(height), 1)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func post(
        _ body: [UInt8], room: String = "main", type: String = "image/jpeg", headers: [String: String] = [:]
    ) throws -> HTTPTestClient.Reply {
        try http.send(
            method: "POST", path: "/api/rooms/\(room)/photos",
            headers: ["Content-Type": type, "X-Photo-Name": "IMG_0001.JPG", "X-Photo-Sender": "Anna"].merging(
                headers
            ) { $1 }, body: body)
    }

    /// The files in the room's uploads folder, hidden ones included.
    func files(room: String = "main") -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: uploads + "/" + room)) ?? []
    }

    /// The photo ids of the room's drawn cards, by position.
    func cardPhotos(room: String = "main") throws -> [String] {
        let cards = try server.snapshot(room: room)["cards"] as? [[String: Any]] ?? []
        return cards.sorted { ($0["position"] as? Int ?? 0) < ($1["position"] as? Int ?? 0) }.compactMap {
            $0["photo"] as? String
        }
    }

    /// An upload of `photo` that has sent its head and half its body, and waits: the rest is the
    /// caller's to send (or not).
    static func halfSent(_ photo: [UInt8], port: UInt16) throws -> TestSocket {
        let socket = try TestSocket(port: port)
        let head =
            "POST /api/rooms/main/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
            + "Content-Length: \(photo.count)\r\n\r\n"
        try socket.write(Array(head.utf8) + photo.prefix(photo.count / 2))
        return socket
    }

    /// A raw request: the head as given, then `body`; the reply, or nil if the server closed without one.
    static func raw(port: UInt16, head: String, body: [UInt8] = []) throws -> HTTPTestClient.Reply? {
        let socket = try TestSocket(port: port)
        try socket.write(Array(head.utf8) + body)
        var raw: [UInt8] = []
        while let chunk = try? socket.read() { raw += chunk }
        return raw.isEmpty ? nil : try HTTPTestClient.parse(raw, method: "POST")
    }
}
