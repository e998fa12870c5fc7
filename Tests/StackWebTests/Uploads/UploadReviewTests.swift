import Foundation
import Testing

@testable import StackWebServer

/// `--uploads review`: a guest's photo waits out of sight until the control token approves it.
@Suite struct UploadReviewTests {
    @Test func aPhotoWaitsUnseenUntilApprovedThenJoinsNext() throws {
        let fixture = try UploadFixture.inReview()
        let front = try fixture.cardPhotos().first
        let reply = try fixture.post(try UploadFixture.jpeg(320, 240), headers: UploadFixture.addHeaders)
        #expect(reply.status == 202, "\(reply.text)")
        let id = try #require(try reply.json()["id"] as? String)
        #expect(try reply.json()["waiting"] as? Bool == true)
        #expect(try fixture.server.snapshot()["count"] as? Int == 3)
        #expect(fixture.files().isEmpty)
        #expect(try fixture.http.get("/photos/\(id)").status == 404)

        // Only the control token sees the queue.
        #expect(try fixture.http.get("/api/rooms/main/uploads").status == 401)
        #expect(try fixture.http.get("/api/rooms/main/uploads", headers: UploadFixture.addHeaders).status == 403)
        let queue = try fixture.http.get("/api/rooms/main/uploads", headers: UploadFixture.controlHeaders)
        let waiting = try queue.json()["uploads"] as? [[String: Any]] ?? []
        #expect(waiting.map { $0["id"] as? String } == [id])
        #expect(
            try fixture.http.post("/api/rooms/main/uploads/\(id)/approve", json: "", headers: UploadFixture.addHeaders)
                .status == 403)

        let approved = try fixture.decide(id, "approve")
        #expect(approved.status == 201, "\(approved.text)")
        #expect(try approved.json()["id"] as? String == id)
        #expect(try fixture.cardPhotos().prefix(2) == [front, id].compactMap { $0 }[...])
        #expect(fixture.files().count == 1)
        #expect(try fixture.http.get("/photos/\(id)?w=128").status == 200)
        #expect(
            try
                (fixture.http.get("/api/rooms/main/uploads", headers: UploadFixture.controlHeaders).json()["uploads"]
                as? [Any])?
                .isEmpty == true)
    }

    @Test func aRejectedPhotoIsGoneAndNeverShown() throws {
        let fixture = try UploadFixture.inReview()
        let reply = try fixture.post(try UploadFixture.jpeg(320, 240), headers: UploadFixture.addHeaders)
        let id = try #require(try reply.json()["id"] as? String)
        #expect(try fixture.decide(id, "reject").status == 200)
        #expect(try fixture.decide(id, "approve").status == 404)
        #expect(try fixture.server.snapshot()["count"] as? Int == 3)
        #expect(fixture.files().isEmpty)
        let held = (try? FileManager.default.contentsOfDirectory(atPath: fixture.uploads + "/.review/main")) ?? []
        #expect(held.isEmpty)
    }
}
