import Foundation
import Glibc
import Testing

@testable import StackWebServer

/// The real binary killed with SIGKILL during and after an upload: the photo is whole or absent,
/// never a partial file, and an answered one is there after the restart with its card.
@Suite struct UploadProcessTests {
    struct Setup {
        let folder: String
        let arguments: [String]
        var uploads: String { folder + "/" + UploadSettings.defaultFolderName + "/main" }

        init() throws {
            folder = try TemporaryFiles.folder()
            try UploadFixture.photoFolder(folder)
            let state = try TemporaryFiles.folder()
            arguments = [
                "--photos", folder, "--cache", try TemporaryFiles.folder(), "--state", state + "/state.db",
                "--uploads", "open",
            ]
        }

        func files() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: uploads)) ?? [] }

        func killed(_ server: ServerProcess) {
            kill(server.process.processIdentifier, SIGKILL)
            server.process.waitUntilExit()
        }
    }

    @Test func aKillDuringAnUploadLeavesNoFileAndNoCard() throws {
        let setup = try Setup()
        let server = try ServerProcess.start(arguments: setup.arguments)
        #expect(server.shows(photos: 3))
        let photo = try UploadFixture.jpeg(1600, 1200)
        let socket = try UploadFixture.halfSent(photo, port: server.port)
        #expect(Poll.until(5) { setup.files().contains { $0.hasPrefix(".upload-") } })
        setup.killed(server)

        let again = try ServerProcess.start(arguments: setup.arguments)
        #expect(again.shows(photos: 3))
        #expect(setup.files().isEmpty, "\(setup.files())")
        #expect(try HTTPTestClient(port: again.port).get("/api/rooms/main").json()["count"] as? Int == 3)
    }

    @Test func aKillAfterTheAnswerKeepsThePhotoAndItsPlace() throws {
        let setup = try Setup()
        let server = try ServerProcess.start(arguments: setup.arguments)
        #expect(server.shows(photos: 3))
        let http = HTTPTestClient(port: server.port)
        let reply = try http.send(
            method: "POST", path: "/api/rooms/main/photos", headers: ["Content-Type": "image/jpeg"],
            body: try UploadFixture.jpeg(800, 600))
        #expect(reply.status == 201)
        let id = try #require(try reply.json()["id"] as? String)
        setup.killed(server)

        let again = try ServerProcess.start(arguments: setup.arguments)
        #expect(again.shows(photos: 4))
        #expect(setup.files().count == 1)
        let cards =
            try HTTPTestClient(port: again.port).get("/api/rooms/main").json()["cards"] as? [[String: Any]] ?? []
        #expect(cards.first { $0["photo"] as? String == id }?["position"] as? Int == 1)
        #expect(try HTTPTestClient(port: again.port).get("/photos/\(id)?w=256").status == 200)
    }

    @Test func aRetryAfterAKillGetsTheFirstAnswer() throws {
        let setup = try Setup()
        let server = try ServerProcess.start(arguments: setup.arguments)
        #expect(server.shows(photos: 3))
        let photo = try UploadFixture.jpeg(800, 600)
        let send = { (port: UInt16) in
            try HTTPTestClient(port: port).send(
                method: "POST", path: "/api/rooms/main/photos",
                headers: ["Content-Type": "image/jpeg", "Idempotency-Key": "upload-retry-1"], body: photo)
        }
        let first = try send(server.port)
        #expect(first.status == 201, "\(first.text)")
        // A step after it: the room's seq moves on, so a fresh answer would differ from the first.
        #expect(
            try HTTPTestClient(port: server.port).post("/api/rooms/main/commands", json: #"{"command":"next"}"#).status
                == 200)
        setup.killed(server)

        let again = try ServerProcess.start(arguments: setup.arguments)
        #expect(again.shows(photos: 4))
        let retry = try send(again.port)
        #expect(retry.status == 201, "\(retry.text)")
        #expect(retry.text == first.text)
        #expect(retry.header("Location") == first.header("Location"))
        #expect(setup.files().count == 1)
        #expect(try HTTPTestClient(port: again.port).get("/api/rooms/main").json()["count"] as? Int == 4)
        // The same bytes under another key are the photo kept already: 200, as before.
        let other = try HTTPTestClient(port: again.port).send(
            method: "POST", path: "/api/rooms/main/photos",
            headers: ["Content-Type": "image/jpeg", "Idempotency-Key": "upload-retry-2"], body: photo)
        #expect(other.status == 200, "\(other.text)")
        #expect(try other.json()["existing"] as? Bool == true)
    }
}
