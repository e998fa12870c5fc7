import Foundation
import Testing

@testable import StackWebServer

/// Guests' photos in a group: the instance a guest reached keeps the file in the shared photo
/// folder, and the instance that runs the room places its card; the guest's answer is that one's.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisUploadTests {
    /// A group of `a` (running `main`) and `b` on one photo folder that takes guests' photos.
    static func withGroup(_ body: (_ folder: String, _ owner: ServerProcess, _ other: ServerProcess) throws -> Void)
        throws
    {
        let redis = try RedisServer()
        let folder = try TemporaryFiles.folder()
        try UploadFixture.photoFolder(folder)
        func arguments(_ id: String) throws -> [String] {
            [
                "--photos", folder, "--cache", try TemporaryFiles.folder(), "--uploads", "open", "--redis",
                redis.urlText, "--instance-id", id,
            ]
        }
        let owner = try ServerProcess.start(arguments: try arguments("a"))
        defer { owner.end() }
        #expect(Poll.until { redis.lease(of: "main") == "a" })
        let other = try ServerProcess.start(arguments: try arguments("b"))
        defer { other.end() }
        #expect(owner.shows(photos: 3))
        #expect(other.shows(photos: 3))
        try body(folder, owner, other)
    }

    /// The photo ids of `room`'s cards in stack order, as `server` shows them.
    static func order(_ server: ServerProcess) -> [String] {
        let snapshot = (try? HTTPTestClient(port: server.port).get("/api/rooms/main").json()) ?? [:]
        let cards = (snapshot["cards"] as? [[String: Any]]) ?? []
        return cards.sorted { ($0["position"] as? Int ?? 0) < ($1["position"] as? Int ?? 0) }
            .compactMap { $0["photo"] as? String }
    }

    @Test func aPhotoSentToTheInstanceThatDoesNotRunTheRoomJoinsNextOnceAndIsAnsweredCreated() throws {
        try Self.withGroup { folder, owner, other in
            let before = Self.order(owner)
            let photo = try UploadFixture.jpeg(800, 600)
            let headers = ["Content-Type": "image/jpeg", "Idempotency-Key": "group-upload-1", "X-Photo-Sender": "Anna"]
            let reply = try HTTPTestClient(port: other.port).send(
                method: "POST", path: "/api/rooms/main/photos", headers: headers, body: photo)
            #expect(reply.status == 201, "\(reply.text)")
            let id = try #require(try reply.json()["id"] as? String)
            let seq = try #require(try reply.json()["seq"] as? Int)
            // Next after the front card, at both instances, and once only (the owner's watcher finds
            // the same file in the shared folder, and must not add a second card for it).
            var expected = before
            expected.insert(id, at: 1)
            #expect(Poll.until(10) { Self.order(owner) == expected && Self.order(other) == expected })
            #expect(Self.order(owner).filter { $0 == id }.count == 1)
            let kept = try FileManager.default.contentsOfDirectory(
                atPath: folder + "/" + UploadSettings.defaultFolderName + "/main")
            #expect(kept.count == 1, "\(kept)")
            // A retry with the same key gets the first answer and adds nothing.
            let retried = try HTTPTestClient(port: other.port).send(
                method: "POST", path: "/api/rooms/main/photos", headers: headers, body: photo)
            #expect(retried.status == 201)
            #expect(try retried.json()["seq"] as? Int == seq)
            // The same bytes at the owner: the photo it has, not a second one.
            let again = try HTTPTestClient(port: owner.port).send(
                method: "POST", path: "/api/rooms/main/photos", headers: ["Content-Type": "image/jpeg"], body: photo)
            #expect(again.status == 200)
            #expect(try again.json()["existing"] as? Bool == true)
            #expect(Self.order(owner) == expected)
        }
    }
}
