import Foundation
import Testing

@testable import StackWebServer

/// `--uploads review`: a guest's photo waits out of sight until the control token approves it.
@Suite struct UploadReviewTests {
    static let control = ["Authorization": "Bearer \(UploadFixture.controlToken)"]
    static let add = ["Authorization": "Bearer \(UploadFixture.addToken)"]

    static func fixture() throws -> UploadFixture {
        try UploadFixture { configuration in
            configuration.uploads.mode = .review
            configuration.token = UploadFixture.controlToken
            configuration.addToken = UploadFixture.addToken
        }
    }

    static func decide(_ fixture: UploadFixture, _ id: String, _ decision: String) throws -> HTTPTestClient.Reply {
        try fixture.http.post("/api/rooms/main/uploads/\(id)/\(decision)", json: "", headers: control)
    }

    @Test func aPhotoWaitsUnseenUntilApprovedThenJoinsNext() throws {
        let fixture = try Self.fixture()
        let front = try fixture.cardPhotos().first
        let reply = try fixture.post(try UploadFixture.jpeg(320, 240), headers: Self.add)
        #expect(reply.status == 202, "\(reply.text)")
        let id = try #require(try reply.json()["id"] as? String)
        #expect(try reply.json()["waiting"] as? Bool == true)
        #expect(try fixture.server.snapshot()["count"] as? Int == 3)
        #expect(fixture.files().isEmpty)
        #expect(try fixture.http.get("/photos/\(id)").status == 404)

        // Only the control token sees the queue.
        #expect(try fixture.http.get("/api/rooms/main/uploads").status == 401)
        #expect(try fixture.http.get("/api/rooms/main/uploads", headers: Self.add).status == 403)
        let queue = try fixture.http.get("/api/rooms/main/uploads", headers: Self.control)
        let waiting = try queue.json()["uploads"] as? [[String: Any]] ?? []
        #expect(waiting.map { $0["id"] as? String } == [id])
        #expect(
            try fixture.http.post("/api/rooms/main/uploads/\(id)/approve", json: "", headers: Self.add).status == 403)

        let approved = try Self.decide(fixture, id, "approve")
        #expect(approved.status == 201, "\(approved.text)")
        #expect(try approved.json()["id"] as? String == id)
        #expect(try fixture.cardPhotos().prefix(2) == [front, id].compactMap { $0 }[...])
        #expect(fixture.files().count == 1)
        #expect(try fixture.http.get("/photos/\(id)?w=128").status == 200)
        #expect(
            try (fixture.http.get("/api/rooms/main/uploads", headers: Self.control).json()["uploads"] as? [Any])?
                .isEmpty == true)
    }

    @Test func aRejectedPhotoIsGoneAndNeverShown() throws {
        let fixture = try Self.fixture()
        let reply = try fixture.post(try UploadFixture.jpeg(320, 240), headers: Self.add)
        let id = try #require(try reply.json()["id"] as? String)
        #expect(try Self.decide(fixture, id, "reject").status == 200)
        #expect(try Self.decide(fixture, id, "approve").status == 404)
        #expect(try fixture.server.snapshot()["count"] as? Int == 3)
        #expect(fixture.files().isEmpty)
        let held = (try? FileManager.default.contentsOfDirectory(atPath: fixture.uploads + "/.review/main")) ?? []
        #expect(held.isEmpty)
    }
}
