import CVipsTestSupport
import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// Photo ids cannot be worked out from file names, and an id answers only while some room's stack
/// holds its photo: a viewer cannot try names, nor fetch what was removed from every room.
@Suite struct PhotoIDTests {
    static let files = ["a.jpg", "album/b.jpg", "album/c.jpg"]

    /// A folder of three photos, one in a subfolder of its own.
    static func folder() throws -> String {
        let folder = try PhotoFolderLifecycleTests.base()
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

    @Test func idsAreKeyedWithASecretKeptWithTheState() throws {
        let photos = try Self.folder()
        let first = PersistenceTests.temporaryPath()
        let (before, other): ([String: String], [String: String])
        do {
            before = try Self.ids(try Self.server(photos: photos, state: first))
            other = try Self.ids(try Self.server(photos: photos, state: PersistenceTests.temporaryPath()))
        }
        #expect(before.count == 3)
        for file in Self.files {
            let name = String(file.split(separator: "/").last!)
            let id = try #require(before[name])
            #expect(id != Self.guessed(file))
            // 96 bits after the "p": not to be found by trying.
            #expect(id.count >= 25)
            #expect(id != other[name])
        }
        // The same state, the same ids: saved stacks and cached pages go on naming them.
        #expect(try Self.ids(try Self.server(photos: photos, state: first)) == before)
    }

    @Test func aGuessedIDIsAnsweredAsAnUnknownOne() throws {
        let server = try Self.server(photos: try Self.folder())
        let unknown = try server.http.get("/photos/p000000000000")
        #expect(unknown.status == 404)
        for file in Self.files {
            let reply = try server.http.get("/photos/\(Self.guessed(file))?w=64")
            #expect(reply.status == 404)
            #expect(reply.header("content-type") == unknown.header("content-type"))
        }
    }

    @Test func aPhotoRemovedFromEveryRoomIsNotServedUntilItIsBack() throws {
        let server = try Self.server(photos: try Self.folder())
        let id = try #require(try Self.ids(server)["b.jpg"])
        #expect(try server.command(#"{"command":"next"}"#, room: "hall").status == 200)
        try Self.remove(id, from: "main", at: server)
        // The hall still shows it.
        #expect(try server.http.get("/photos/\(id)?w=64").status == 200)
        try Self.remove(id, from: "hall", at: server)
        for path in ["/photos/\(id)", "/photos/\(id)?w=64"] {
            let reply = try server.http.get(path)
            #expect(reply.status == 404)
            #expect(try reply.json()["error"] as? String == "no photo \(id)")
        }
        #expect(try server.command(#"{"command":"undo"}"#, room: "hall").status == 200)
        #expect(try server.http.get("/photos/\(id)").status == 200)
    }

    /// Removes the card of photo `id` from `room`.
    static func remove(_ id: String, from room: String, at server: TestServer) throws {
        let cards = try server.snapshot(room: room)["cards"] as? [[String: Any]] ?? []
        let card = try #require(cards.first { $0["photo"] as? String == id }?["id"] as? String)
        #expect(try server.command(#"{"command":"remove","id":"\#(card)"}"#, room: room).status == 200)
    }

    @Test func captionsNameTheFileWithoutItsFolders() throws {
        let server = try Self.server(photos: try Self.folder())
        #expect(Set(try PhotoOrderTests.names(server)) == ["a.jpg", "b.jpg", "c.jpg"])
    }

    @Test func captionFoldersShowsThePathBelowTheFolder() throws {
        let photos = try Self.folder()
        let outcome = try Configuration.parse(
            arguments: ["--caption-folders", "--photos", photos, "--style", "grid"], environment: [:])
        let server = try TestServer { configuration in
            guard case .run(var parsed) = outcome else { return }
            parsed.port = configuration.port
            parsed.resources = configuration.resources
            configuration = parsed
        }
        #expect(Set(try PhotoOrderTests.names(server)) == Set(Self.files))
    }

    /// Two instances of a group on `redis`, showing the same folder in the grid.
    static func group(on redis: RedisServer) throws -> (TestServer, TestServer) {
        let photos = try folder()
        let instance = { (name: String) in
            try TestServer {
                $0.photos = photos
                $0.style = .grid
                $0.redis = redis.url
                $0.instanceID = name
            }
        }
        return (try instance("a"), try instance("b"))
    }

    /// The ids `a` shows once both instances show every photo: the library fills in the background,
    /// the room's owner is decided after start, and the other instance reads what the owner published.
    static func shownIDs(_ a: TestServer, _ b: TestServer) throws -> [String: String] {
        var ids: [String: String] = [:]
        let shown = try PersistenceTests.eventually(30) {
            ids = try Self.ids(a)
            let elsewhere = try Self.ids(b)
            return ids.count == files.count && elsewhere.count == files.count
        }
        #expect(shown, "the group's instances never showed every photo: \(ids)")
        return ids
    }

    /// The instances of a group name every photo alike, whichever started first.
    @Test(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
    func aGroupsInstancesComputeTheSameIDs() throws {
        let redis = try RedisServer()
        let (a, b) = try Self.group(on: redis)
        let ids = try Self.shownIDs(a, b)
        // Each instance serves the ids the other shows: both compute them alike.
        for id in ids.values {
            #expect(try a.http.get("/photos/\(id)?w=64").status == 200)
            #expect(try b.http.get("/photos/\(id)?w=64").status == 200)
        }
        #expect(try Self.ids(b) == ids)
        for file in Self.files { #expect(ids[String(file.split(separator: "/").last!)] != Self.guessed(file)) }
    }

    /// A photo removed from the group's only room is not served by either instance: the one that
    /// does not run the room learns it from the room's state, within about a second.
    @Test(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
    func aPhotoRemovedInAGroupIsNotServedByAnyInstance() throws {
        let redis = try RedisServer()
        let (a, b) = try Self.group(on: redis)
        let id = try #require(try Self.shownIDs(a, b)["b.jpg"])
        #expect(try b.http.get("/photos/\(id)").status == 200)
        try Self.remove(id, from: "main", at: a)
        for server in [a, b] {
            #expect(try PersistenceTests.eventually(5) { try server.http.get("/photos/\(id)").status == 404 })
        }
        #expect(try a.command(#"{"command":"undo"}"#).status == 200)
        for server in [a, b] {
            #expect(try PersistenceTests.eventually(5) { try server.http.get("/photos/\(id)").status == 200 })
        }
    }
}
