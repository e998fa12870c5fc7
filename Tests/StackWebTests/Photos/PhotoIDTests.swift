import CVipsTestSupport
import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// Photo ids cannot be worked out from file names, and an id answers only while some room's stack
/// holds its photo: a viewer cannot try names, nor fetch what was removed from every room.
@Suite struct PhotoIDTests {
    @Test func idsAreKeyedWithASecretKeptWithTheState() throws {
        let photos = try PhotoIDFixture.folder()
        let first = TemporaryFiles.databasePath()
        let (before, other): ([String: String], [String: String])
        do {
            before = try PhotoIDFixture.ids(try PhotoIDFixture.server(photos: photos, state: first))
            other = try PhotoIDFixture.ids(
                try PhotoIDFixture.server(photos: photos, state: TemporaryFiles.databasePath()))
        }
        #expect(before.count == 3)
        for file in PhotoIDFixture.files {
            let name = String(file.split(separator: "/").last!)
            let id = try #require(before[name])
            #expect(id != PhotoIDFixture.guessed(file))
            // 96 bits after the "p": not to be found by trying.
            #expect(id.count >= 25)
            #expect(id != other[name])
        }
        // The same state, the same ids: saved stacks and cached pages go on naming them.
        #expect(try PhotoIDFixture.ids(try PhotoIDFixture.server(photos: photos, state: first)) == before)
    }

    @Test func aGuessedIDIsAnsweredAsAnUnknownOne() throws {
        let server = try PhotoIDFixture.server(photos: try PhotoIDFixture.folder())
        let unknown = try server.http.get("/photos/p000000000000")
        #expect(unknown.status == 404)
        for file in PhotoIDFixture.files {
            let reply = try server.http.get("/photos/\(PhotoIDFixture.guessed(file))?w=64")
            #expect(reply.status == 404)
            #expect(reply.header("content-type") == unknown.header("content-type"))
        }
    }

    @Test func aPhotoRemovedFromEveryRoomIsNotServedUntilItIsBack() throws {
        let server = try PhotoIDFixture.server(photos: try PhotoIDFixture.folder())
        let id = try #require(try PhotoIDFixture.ids(server)["b.jpg"])
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
        let server = try PhotoIDFixture.server(photos: try PhotoIDFixture.folder())
        #expect(Set(try server.captionNames()) == ["a.jpg", "b.jpg", "c.jpg"])
    }

    @Test func captionFoldersShowsThePathBelowTheFolder() throws {
        let photos = try PhotoIDFixture.folder()
        let outcome = try Configuration.parse(
            arguments: ["--caption-folders", "--photos", photos, "--style", "grid"], environment: [:])
        let server = try TestServer { configuration in
            guard case .run(var parsed) = outcome else { return }
            parsed.port = configuration.port
            parsed.resources = configuration.resources
            configuration = parsed
        }
        #expect(Set(try server.captionNames()) == Set(PhotoIDFixture.files))
    }

    /// Two instances of a group on `redis`, showing the same folder in the grid.
    static func group(on redis: RedisServer) throws -> (TestServer, TestServer) {
        let photos = try PhotoIDFixture.folder()
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
        let shown = try Poll.until(30) {
            ids = try PhotoIDFixture.ids(a)
            let elsewhere = try PhotoIDFixture.ids(b)
            return ids.count == PhotoIDFixture.files.count && elsewhere.count == PhotoIDFixture.files.count
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
        #expect(try PhotoIDFixture.ids(b) == ids)
        for file in PhotoIDFixture.files {
            #expect(ids[String(file.split(separator: "/").last!)] != PhotoIDFixture.guessed(file))
        }
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
            #expect(try Poll.until(5) { try server.http.get("/photos/\(id)").status == 404 })
        }
        #expect(try a.command(#"{"command":"undo"}"#).status == 200)
        for server in [a, b] {
            #expect(try Poll.until(5) { try server.http.get("/photos/\(id)").status == 200 })
        }
    }
}
