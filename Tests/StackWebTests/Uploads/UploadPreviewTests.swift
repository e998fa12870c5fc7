import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// The preview of a photo waiting for review: only for the control token, small, and without the
/// original's GPS position.
@Suite struct UploadPreviewTests {

    /// A waiting photo of 1200 × 900 with a GPS position; its id.
    static func waiting(_ fixture: UploadFixture) throws -> String {
        let reply = try fixture.post(
            ExifGPS.tagged(try UploadFixture.jpeg(1200, 900)), headers: UploadFixture.addHeaders)
        #expect(reply.status == 202, "\(reply.text)")
        return try #require(try reply.json()["id"] as? String)
    }

    @Test func onlyTheControlTokenSeesAPreview() throws {
        let fixture = try UploadFixture.inReview()
        let id = try Self.waiting(fixture)
        let path = "/api/rooms/main/uploads/\(id)/preview"
        #expect(try fixture.http.get(path).status == 401)
        #expect(try fixture.http.get(path, headers: UploadFixture.addHeaders).status == 403)
        #expect(try fixture.http.get(path, headers: ["Authorization": "Bearer wrong"]).status == 403)
        // Nor is it a photo anyone may fetch by its id before it is approved.
        #expect(try fixture.http.get("/photos/\(id)?w=256").status == 404)
    }

    @Test func aPreviewIsASmallJPEGWithoutThePosition() throws {
        let fixture = try UploadFixture.inReview()
        let id = try Self.waiting(fixture)
        // The original in the queue still has its position: the preview drops it. (Beside it, the
        // hidden file that names its sender.)
        let held = try #require(
            try FileManager.default.contentsOfDirectory(atPath: fixture.uploads + "/.review/main").first {
                !$0.hasPrefix(".")
            })
        #expect(
            ExifGPS.hasPosition(
                Array(try Data(contentsOf: URL(fileURLWithPath: fixture.uploads + "/.review/main/" + held)))))

        let reply = try fixture.http.get("/api/rooms/main/uploads/\(id)/preview", headers: UploadFixture.controlHeaders)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.header("Content-Type") == "image/jpeg")
        #expect(reply.header("Cache-Control") == "private, no-store")
        #expect(!ExifGPS.hasPosition(reply.body))
        let file = try TemporaryFiles.folder() + "/preview.jpg"
        try Data(reply.body).write(to: URL(fileURLWithPath: file))
        var (width, height): (Int32, Int32) = (0, 0)
        #expect(CVipsTest_uprightSize(file, &width, &height) == 0)
        #expect(max(width, height) == Int32(PhotoUploads.previewSide))
        #expect(width * 3 == height * 4)
    }

    @Test func anUnknownIDOrRoomIsNotFound() throws {
        let fixture = try UploadFixture.inReview()
        _ = try Self.waiting(fixture)
        let unknown = "p" + String(repeating: "0", count: 24)
        #expect(
            try fixture.http.get("/api/rooms/main/uploads/\(unknown)/preview", headers: UploadFixture.controlHeaders)
                .status == 404)
        let id = try Self.waiting(fixture)
        #expect(
            try fixture.http.get("/api/rooms/other/uploads/\(id)/preview", headers: UploadFixture.controlHeaders).status
                == 404)
        // A name that is no room's looks up no folder; `..` (the uploads' folder) is not even routed.
        #expect(
            try fixture.http.get("/api/rooms/../uploads/\(id)/preview", headers: UploadFixture.controlHeaders).status
                == 400)
        #expect(
            try fixture.http.get("/api/rooms/.../uploads/\(id)/preview", headers: UploadFixture.controlHeaders).status
                == 404)
        #expect(try fixture.http.get("/api/rooms/.../uploads", headers: UploadFixture.controlHeaders).status == 404)
    }

    @Test func aRejectedPhotosPreviewIsGoneFromTheCache() throws {
        let fixture = try UploadFixture.inReview()
        let id = try Self.waiting(fixture)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: fixture.cache))
        #expect(
            try fixture.http.get("/api/rooms/main/uploads/\(id)/preview", headers: UploadFixture.controlHeaders).status
                == 200)
        let made = Set(try FileManager.default.contentsOfDirectory(atPath: fixture.cache)).subtracting(before)
        #expect(made.count == 1)
        #expect(try fixture.decide(id, "reject").status == 200)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: fixture.cache))
        #expect(left.isDisjoint(with: made))
        #expect(
            try fixture.http.get("/api/rooms/main/uploads/\(id)/preview", headers: UploadFixture.controlHeaders).status
                == 404)
    }

    @Test func theQueueSaysTheRoomsMode() throws {
        let fixture = try UploadFixture.inReview()
        let queue = try fixture.http.get("/api/rooms/main/uploads", headers: UploadFixture.controlHeaders)
        #expect(try queue.json()["mode"] as? String == "review")
        // A server where no room takes photos: an empty queue, off, not an error.
        let plain = try TestServer()
        let none = try plain.http.get("/api/rooms/main/uploads")
        #expect(none.status == 200)
        #expect(try none.json()["mode"] as? String == "off")
        #expect(try (none.json()["uploads"] as? [Any])?.isEmpty == true)
    }
}
