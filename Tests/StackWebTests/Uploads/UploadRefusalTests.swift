import Foundation
import Testing

@testable import StackWebServer

/// Every way a guest's photo is refused, each with its status, and nothing of it kept.
@Suite struct UploadRefusalTests {
    @Test func aDeclaredSizePastTheLimitIs413BeforeAnyByteIsStored() throws {
        let fixture = try UploadFixture { $0.uploads.maxBytes = 100_000 }
        let head =
            "POST /api/rooms/main/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
            + "Content-Length: 100001\r\n\r\n"
        let reply = try #require(try UploadFixture.raw(port: fixture.server.port, head: head))
        #expect(reply.status == 413)
        #expect(fixture.files().isEmpty)
    }

    @Test func aChunkedBodyPastTheLimitIs413AndLeavesNoFile() throws {
        let fixture = try UploadFixture { $0.uploads.maxBytes = 100_000 }
        let head =
            "POST /api/rooms/main/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
            + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        var body: [UInt8] = []
        for _ in 0..<8 { body += Array("4000\r\n".utf8) + [UInt8](repeating: 0xAB, count: 0x4000) + Array("\r\n".utf8) }
        body += Array("0\r\n\r\n".utf8)
        let reply = try #require(try UploadFixture.raw(port: fixture.server.port, head: head, body: body))
        #expect(reply.status == 413)
        #expect(Poll.until { fixture.files().isEmpty }, "\(fixture.files())")
    }

    @Test func anythingButAnImageTypeIs415() throws {
        let fixture = try UploadFixture()
        #expect(try fixture.post(try UploadFixture.jpeg(64, 64), type: "application/json").status == 415)
        #expect(try fixture.post(try UploadFixture.jpeg(64, 64), type: "text/plain").status == 415)
    }

    @Test func bytesThatAreNoPhotoAre415() throws {
        let fixture = try UploadFixture()
        let reply = try fixture.post(
            Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8) + [UInt8](repeating: 32, count: 200))
        #expect(reply.status == 415, "\(reply.text)")
        #expect(fixture.files().isEmpty)
        #expect(try fixture.server.snapshot()["count"] as? Int == 3)
    }

    @Test func aPhotoOverMaxPixelsIs413() throws {
        let fixture = try UploadFixture { $0.maxPixels = 100_000 }
        let reply = try fixture.post(try UploadFixture.jpeg(400, 300))
        #expect(reply.status == 413, "\(reply.text)")
        #expect(fixture.files().isEmpty)
    }

    @Test func aTruncatedPhotoIs422() throws {
        let fixture = try UploadFixture()
        let whole = try UploadFixture.jpeg(1600, 1200)
        let reply = try fixture.post(Array(whole.prefix(whole.count / 2)))
        #expect(reply.status == 422, "\(reply.text)")
        #expect(fixture.files().isEmpty)
        #expect(try fixture.server.snapshot()["count"] as? Int == 3)
    }

    @Test func pastTheQuotaIs507() throws {
        let fixture = try UploadFixture { $0.uploads.quota = 2_000 }
        let reply = try fixture.post(try UploadFixture.jpeg(640, 480))
        #expect(reply.status == 507, "\(reply.text)")
        #expect(fixture.files().isEmpty)
    }

    @Test func pastTheRateIs429WithRetryAfter() throws {
        let fixture = try UploadFixture { $0.limits?.uploadsPerMinute = 2 }
        #expect(try fixture.post(try UploadFixture.jpeg(64, 60)).status == 201)
        #expect(try fixture.post(try UploadFixture.jpeg(64, 61)).status == 201)
        let third = try fixture.post(try UploadFixture.jpeg(64, 62))
        #expect(third.status == 429)
        #expect(Int(third.header("Retry-After") ?? "") ?? 0 >= 1)
    }

    @Test func pastTheUploadsAtOnceFromOneAddressIs429() throws {
        let fixture = try UploadFixture { $0.limits?.uploadsPerAddress = 1 }
        let photo = try UploadFixture.jpeg(800, 600)
        let socket = try UploadFixture.halfSent(photo, port: fixture.server.port)
        #expect(Poll.until(5) { fixture.files().contains { $0.hasPrefix(".upload-") } })
        let second = try fixture.post(try UploadFixture.jpeg(64, 48))
        #expect(second.status == 429)
        #expect(second.header("Retry-After") != nil)
        try socket.write(Array(photo.dropFirst(photo.count / 2)))
        let first = try HTTPTestClient.parse(try #require(try socket.read()), method: "POST")
        #expect(first.status == 201)
    }

    @Test func aRoomWithUploadsOffIs403() throws {
        let fixture = try UploadFixture { configuration in
            configuration.uploads.mode = .off
            configuration.uploads.rooms = ["party": .open]
        }
        let photo = try UploadFixture.jpeg(64, 48)
        #expect(try fixture.post(photo).status == 403)
        #expect(try fixture.post(photo, room: "party").status == 201)
    }

    @Test func withoutUploadsEveryRoomIs403() throws {
        let fixture = try UploadFixture { $0.uploads.mode = .off }
        #expect(try fixture.post(try UploadFixture.jpeg(64, 48)).status == 403)
    }

    @Test func theTokensDecideWhoAdds() throws {
        let fixture = try UploadFixture { configuration in
            configuration.token = UploadFixture.controlToken
            configuration.addToken = UploadFixture.addToken
        }
        let bearer = { (token: String) in ["Authorization": "Bearer \(token)"] }
        #expect(try fixture.post(try UploadFixture.jpeg(64, 40)).status == 401)
        #expect(try fixture.post(try UploadFixture.jpeg(64, 41), headers: bearer("not-the-token-at-all")).status == 403)
        #expect(try fixture.post(try UploadFixture.jpeg(64, 42), headers: bearer(UploadFixture.addToken)).status == 201)
        #expect(
            try fixture.post(try UploadFixture.jpeg(64, 43), headers: bearer(UploadFixture.controlToken)).status == 201)
        // The add token adds, and does nothing else.
        let command = try fixture.server.http.post(
            "/api/rooms/main/commands", json: #"{"command":"next"}"#, headers: bearer(UploadFixture.addToken))
        #expect(command.status == 403)
        let pointer = try fixture.server.http.post(
            "/api/rooms/main/pointer", json: #"{"viewer":"v","events":[]}"#, headers: bearer(UploadFixture.addToken))
        #expect(pointer.status == 403)
    }

    @Test func anUploadThatStopsIsCutAtItsDeadlineAndLeavesNoFile() throws {
        let fixture = try UploadFixture { $0.limits?.uploadStallSeconds = 0.5 }
        let photo = try UploadFixture.jpeg(1600, 1200)
        let socket = try UploadFixture.halfSent(photo, port: fixture.server.port)
        #expect(Poll.until(5) { fixture.files().contains { $0.hasPrefix(".upload-") } })
        // The server shuts the connection when no byte came for the deadline: the read ends.
        #expect((try? socket.read()) == nil)
        #expect(Poll.until(5) { fixture.files().isEmpty }, "\(fixture.files())")
        #expect(try fixture.server.snapshot()["count"] as? Int == 3)
    }
}
