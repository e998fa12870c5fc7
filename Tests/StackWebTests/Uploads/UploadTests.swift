import Foundation
import Testing

@testable import StackWebServer

/// A guest's photo posted to a room: kept, shown next, served; sent twice, one photo.
@Suite struct UploadTests {
    @Test func aPhotoIsAnsweredCreatedAndJoinsNextAfterTheFrontCard() throws {
        let fixture = try UploadFixture()
        let front = try fixture.cardPhotos().first
        let reply = try fixture.post(try UploadFixture.jpeg(640, 480))
        #expect(reply.status == 201, "\(reply.text)")
        let answer = try reply.json()
        let id = try #require(answer["id"] as? String)
        #expect(answer["existing"] as? Bool == false)
        #expect((answer["seq"] as? Int ?? 0) > 0)
        #expect(reply.header("Location") == "/photos/\(id)")
        #expect(try fixture.server.snapshot()["count"] as? Int == 4)
        #expect(try fixture.cardPhotos().prefix(2) == [front, id].compactMap { $0 }[...])
        let variant = try fixture.http.get("/photos/\(id)?w=256")
        #expect(variant.status == 200)
        #expect(variant.header("Content-Type") == "image/jpeg")
        let kept = fixture.files()
        #expect(kept.count == 1)
        #expect(kept.first?.contains("-anna-img-0001-") == true, "\(kept)")
        #expect(kept.first?.hasSuffix(".jpg") == true)
    }

    @Test func theSameBytesTwiceAreOnePhoto() throws {
        let fixture = try UploadFixture()
        let photo = try UploadFixture.jpeg(320, 240)
        let first = try fixture.post(photo)
        let second = try fixture.post(photo)
        #expect(first.status == 201)
        #expect(second.status == 200)
        #expect(try second.json()["existing"] as? Bool == true)
        #expect(try second.json()["id"] as? String == first.json()["id"] as? String)
        let photos = try fixture.cardPhotos()
        #expect(try fixture.server.snapshot()["count"] as? Int == 4, "\(photos) \(fixture.files())")
        #expect(fixture.files().count == 1)
    }

    @Test func aRetryWithTheSameKeyGetsTheFirstAnswerAndAddsNothing() throws {
        let fixture = try UploadFixture()
        let headers = ["Idempotency-Key": "upload-key-1"]
        let first = try fixture.post(try UploadFixture.jpeg(320, 240), headers: headers)
        // Other bytes under the same key: the key, not the content, makes it a retry.
        let retry = try fixture.post(try UploadFixture.jpeg(300, 200), headers: headers)
        #expect(first.status == 201)
        #expect(retry.status == 201)
        #expect(retry.body == first.body)
        #expect(try fixture.server.snapshot()["count"] as? Int == 4)
        #expect(fixture.files().count == 1)
    }

    /// A retry is answered from its head: a chunked body that never ends is not read (the first
    /// answer did not need it), so a retry cannot get past the size or the guests' limits.
    @Test func aRetryIsAnsweredBeforeItsBodyIsRead() throws {
        let fixture = try UploadFixture()
        let key = "upload-key-head"
        let first = try fixture.post(try UploadFixture.jpeg(320, 240), headers: ["Idempotency-Key": key])
        #expect(first.status == 201)
        let port = fixture.server.port
        let socket = try TestSocket(port: port)
        let head =
            "POST /api/rooms/main/photos HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: image/jpeg\r\n"
            + "Idempotency-Key: \(key)\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\n"
        try socket.write(Array(head.utf8) + [UInt8](repeating: 0xFF, count: 0x1000))
        var raw: [UInt8] = []
        var reply: HTTPTestClient.Reply?
        while reply == nil, let chunk = try socket.read() {
            raw += chunk
            reply = try? HTTPTestClient.parse(raw, method: "POST")
        }
        #expect(reply?.status == 201)
        #expect(reply?.body == first.body)
        #expect(fixture.files().count == 1)
    }

    @Test func frontAndBackArrivalsFollowTheOption() throws {
        let front = try UploadFixture { $0.uploads.arrival = .front }
        let id = try front.post(try UploadFixture.jpeg(320, 240)).json()["id"] as? String
        #expect(try front.cardPhotos().first == id)
        let back = try UploadFixture { $0.uploads.arrival = .back }
        let reply = try back.post(try UploadFixture.jpeg(320, 240))
        #expect(reply.status == 201)
        #expect(try back.cardPhotos().prefix(2).contains(reply.json()["id"] as? String ?? "") == false)
    }

    @Test func variantsCarryNoGPSWhateverTheOriginalHeld() throws {
        let fixture = try UploadFixture()
        let photo = ExifGPS.tagged(try UploadFixture.jpeg(640, 480))
        let reply = try fixture.post(photo)
        #expect(reply.status == 201, "\(reply.text)")
        let id = try #require(reply.json()["id"] as? String)
        // Without a size, the whole photo is served as a variant too: nothing says where it was taken.
        #expect(!ExifGPS.hasPosition(try fixture.http.get("/photos/\(id)").body))
        for width in [128, 640] {
            for accept in ["image/jpeg", "image/webp"] {
                let variant = try fixture.http.get("/photos/\(id)?w=\(width)", headers: ["Accept": accept])
                #expect(variant.status == 200)
                let leaks = ExifGPS.hasPosition(variant.body)
                #expect(!leaks, "a position in the \(width)-px \(accept)")
            }
        }
    }
}
