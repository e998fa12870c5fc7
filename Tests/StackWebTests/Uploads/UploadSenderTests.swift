import Foundation
import Testing

@testable import StackWebServer

/// A guest's photo joins with its style's arrival motion and says who sent it ("from Anna") until
/// it has been the front card; the name reaches viewers bounded and without control characters.
@Suite struct UploadSenderTests {
    /// The card of `photo` in a change or snapshot's data.
    static func card(_ data: [String: Any], photo: String) -> [String: Any]? {
        SSETestClient.cards(data).first { $0["photo"] as? String == photo }
    }

    @Test func theSendersNameReachesViewersWithTheArrivingCard() throws {
        let fixture = try UploadFixture()
        let viewer = try fixture.server.events()
        _ = try viewer.next()
        let reply = try fixture.post(try UploadFixture.jpeg(320, 240), headers: ["X-Photo-Sender": "Zo%C3%AB%20M."])
        #expect(reply.status == 201, "\(reply.text)")
        let id = try #require(try reply.json()["id"] as? String)
        let change = try viewer.nextChange { Self.card($0, photo: id) != nil }
        let card = try #require(Self.card(change, photo: id))
        #expect((card["caption"] as? [String: Any])?["from"] as? String == "Zoë M.")
        // Its ordinary caption comes with it, for when the sender's name is no longer shown.
        #expect(((card["caption"] as? [String: Any])?["name"] as? String)?.contains("zo") == true, "\(card)")
        // It joins moving, as the style brings a card in.
        #expect(card["anim"] is [String: Any], "\(card)")
        #expect(card["position"] as? Int == 1)
    }

    @Test func theNameIsShownUntilThePhotoHasBeenInFront() throws {
        let fixture = try UploadFixture()
        let reply = try fixture.post(try UploadFixture.jpeg(320, 240), headers: ["X-Photo-Sender": "Anna"])
        let id = try #require(try reply.json()["id"] as? String)
        let from = { () throws -> String? in
            let snapshot = try fixture.server.snapshot()
            return (Self.card(snapshot, photo: id)?["caption"] as? [String: Any])?["from"] as? String
        }
        #expect(try from() == "Anna")
        #expect(try fixture.server.command(#"{"command":"next"}"#).status == 200)
        #expect(try fixture.cardPhotos().first == id)
        #expect(try from() == "Anna")
        #expect(try fixture.server.command(#"{"command":"next"}"#).status == 200)
        #expect(try from() == nil)
        // Back in front later: its ordinary caption.
        #expect(try fixture.server.command(#"{"command":"previous"}"#).status == 200)
        #expect(try fixture.cardPhotos().first == id)
        #expect(try from() == nil)
    }

    @Test func aNameWithControlCharactersOrPastTheBoundIsMadeShowable() throws {
        let fixture = try UploadFixture()
        let long = String(repeating: "Ω", count: 100)
        let sent =
            "%E2%80%AEAnna%0A%0D%07%1B[31m  Bell" + long.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let reply = try fixture.post(try UploadFixture.jpeg(320, 240), headers: ["X-Photo-Sender": sent])
        let id = try #require(try reply.json()["id"] as? String)
        let snapshot = try fixture.server.snapshot()
        let shown = try #require((Self.card(snapshot, photo: id)?["caption"] as? [String: Any])?["from"] as? String)
        #expect(shown.count == GuestName.maxLength)
        #expect(shown.hasPrefix("Anna[31m Bell"))
        #expect(!shown.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(!shown.unicodeScalars.contains { $0.properties.generalCategory == .format })
    }

    @Test func anApprovedPhotoJoinsWithItsSendersName() throws {
        let fixture = try UploadFixture.inReview()
        let headers = UploadFixture.addHeaders.merging(["X-Photo-Sender": "Ben%0A"]) { $1 }
        let reply = try fixture.post(try UploadFixture.jpeg(320, 240), headers: headers)
        let id = try #require(try reply.json()["id"] as? String)
        let queue = try fixture.http.get("/api/rooms/main/uploads", headers: UploadFixture.controlHeaders).json()
        #expect((queue["uploads"] as? [[String: Any]])?.first?["from"] as? String == "Ben")
        #expect(try fixture.decide(id, "approve").status == 201)
        let card = try #require(Self.card(try fixture.server.snapshot(), photo: id))
        #expect((card["caption"] as? [String: Any])?["from"] as? String == "Ben")
    }

    @Test func aWaitingPhotosSenderIsKeptAcrossARestart() throws {
        let photos = try TemporaryFiles.folder()
        try UploadFixture.photoFolder(photos)
        let arguments = [
            "--photos", photos, "--cache", try TemporaryFiles.folder(), "--state",
            try TemporaryFiles.folder() + "/state.db", "--uploads", "review", "--token", UploadFixture.controlToken,
            "--add-token", UploadFixture.addToken,
        ]
        let server = try ServerProcess.start(arguments: arguments)
        defer { server.end() }
        let reply = try HTTPTestClient(port: server.port).send(
            method: "POST", path: "/api/rooms/main/photos",
            headers: UploadFixture.addHeaders.merging(["Content-Type": "image/jpeg", "X-Photo-Sender": "Anna"]) { $1 },
            body: try UploadFixture.jpeg(320, 240))
        #expect(reply.status == 202, "\(reply.text)")
        let id = try #require(try reply.json()["id"] as? String)
        // Killed: only what is on disk when the guest was answered is there after it.
        server.end()

        let again = try ServerProcess.start(arguments: arguments)
        defer { again.end() }
        #expect(again.shows(photos: 3))
        let http = HTTPTestClient(port: again.port)
        let queue = try http.get("/api/rooms/main/uploads", headers: UploadFixture.controlHeaders).json()
        let waiting = try #require((queue["uploads"] as? [[String: Any]])?.first)
        #expect(waiting["id"] as? String == id)
        #expect(waiting["from"] as? String == "Anna")
        let approved = try http.post(
            "/api/rooms/main/uploads/\(id)/approve", json: "", headers: UploadFixture.controlHeaders)
        #expect(approved.status == 201, "\(approved.text)")
        let card = try #require(Self.card(try http.get("/api/rooms/main").json(), photo: id))
        #expect((card["caption"] as? [String: Any])?["from"] as? String == "Anna")
        // Nothing of it is left in the queue's folder.
        let held = (try? FileManager.default.contentsOfDirectory(atPath: photos + "/Uploads/.review/main")) ?? []
        #expect(held.isEmpty, "\(held)")
    }

    @Test(
        arguments: [
            ("Anna", "Anna"), ("  Anna   Lee ", "Anna Lee"), ("Zo%C3%AB", "Zoë"), ("%0A%0D", nil), ("", nil),
            ("a\u{202E}b\u{200B}c", "abc"), ("100%", "100%"),
        ] as [(String, String?)])
    func aNameIsDecodedAndCleaned(sent: String, shown: String?) {
        #expect(GuestName.display(sent) == shown)
    }

    @Test func aNameIsBoundedInBytesAndInCombiningMarksNotOnlyInCharacters() throws {
        let fixture = try UploadFixture()
        // "Z" and 2,000 combining acute accents: one character, 4 KB.
        let zalgo = "Z" + String(repeating: "%CC%81", count: 2_000) + "oe"
        let reply = try fixture.post(try UploadFixture.jpeg(320, 240), headers: ["X-Photo-Sender": zalgo])
        let id = try #require(try reply.json()["id"] as? String)
        let snapshot = try fixture.server.snapshot()
        let shown = try #require((Self.card(snapshot, photo: id)?["caption"] as? [String: Any])?["from"] as? String)
        #expect(shown.utf8.count <= GuestName.maxBytes, "\(shown.utf8.count) bytes")
        #expect(shown.unicodeScalars.count <= 1 + GuestName.maxMarksPerCharacter + 2)
        #expect(shown.unicodeScalars.first == "Z" && shown.hasSuffix("oe"))
        // Forty characters of four bytes each still fit.
        #expect(GuestName.display(String(repeating: "\u{1F600}", count: 50))?.count == GuestName.maxLength)
    }

    @Test func aNameIsCutAtItsBound() {
        let shown = GuestName.display(String(repeating: "ab ", count: 40))
        #expect(shown?.count ?? 0 <= GuestName.maxLength)
        #expect(shown?.hasSuffix(" ") == false)
        #expect(GuestName.display(nil) == nil)
    }
}
