import Foundation
import Testing

@testable import StackWebServer

/// In a group too, uploads never make rooms: junk uploads to names nobody made leave no key.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisUploadRoomTests {
    @Test func uploadsToRoomsNobodyMadeAre404AndLeaveNoKeyInRedis() throws {
        let redis = try RedisServer()
        let folder = try TemporaryFiles.folder()
        try UploadFixture.photoFolder(folder)
        let server = try ServerProcess.start(arguments: [
            "--photos", folder, "--cache", try TemporaryFiles.folder(), "--uploads", "open", "--redis",
            redis.urlText, "--instance-id", "a",
        ])
        defer { server.end() }
        #expect(Poll.until { redis.lease(of: "main") == "a" })
        // Presence and the lease of `main` settle first.
        var before = redis.keyCount
        #expect(
            Poll.until(5) {
                Thread.sleep(forTimeInterval: 0.3)
                let now = redis.keyCount
                defer { before = now }
                return now == before
            })
        for index in 0..<20 {
            let reply = try UploadFixture.raw(
                port: server.port, head: UploadFixture.headOfALargePhoto(room: "junk-\(index)"))
            #expect(reply?.status == 404)
        }
        // Two presence rounds later (they run every second), still nothing new.
        let deadline = Date().addingTimeInterval(2.5)
        while Date() < deadline {
            #expect(redis.keyCount == before)
            Thread.sleep(forTimeInterval: 0.25)
        }
    }
}
