import Foundation
import Testing

@testable import StackWebServer

/// `Idempotency-Key` over real HTTP: a retry gets the first answer; the same key with another
/// request is refused with 422 (the IETF Idempotency-Key draft), never answered with the other
/// request's result; a key is scoped by kind, so a command that reuses a guest's photo's key is
/// a command of its own.
@Suite struct IdempotentRetryTests {
    @Test func aRetryGetsTheFirstAnswerAndAnotherBodyUnderTheKeyIs422() throws {
        let server = try TestServer()
        let headers = ["Idempotency-Key": "same-key"]
        let first = try server.http.post("/api/rooms/main/commands", json: CommandBody.next, headers: headers)
        #expect(first.status == 200)
        let retry = try server.http.post("/api/rooms/main/commands", json: CommandBody.next, headers: headers)
        #expect(retry.status == 200)
        #expect(retry.body == first.body)
        let before = try server.snapshot()["current"] as? Int
        let other = try server.http.post("/api/rooms/main/commands", json: #"{"command":"previous"}"#, headers: headers)
        #expect(other.status == 422, "\(other.text)")
        #expect(try other.json()["error"] is String)
        #expect(try server.snapshot()["current"] as? Int == before)
    }

    @Test func aCommandReusingAPhotosKeyIsACommandOfItsOwn() throws {
        let fixture = try UploadFixture()
        let headers = ["Idempotency-Key": "shared-key"]
        let photo = try fixture.post(try UploadFixture.jpeg(320, 240), headers: headers)
        #expect(photo.status == 201)
        let current = try fixture.server.snapshot()["current"] as? Int
        let command = try fixture.http.post("/api/rooms/main/commands", json: CommandBody.next, headers: headers)
        #expect(command.status == 200)
        #expect(try command.json()["seq"] as? Int != photo.json()["seq"] as? Int)
        #expect(try fixture.server.snapshot()["current"] as? Int != current)
    }
}
