import Foundation
import Testing

@testable import StackWebServer

/// Only the formats the server shows are ever parsed: a file of any other kind is refused by its
/// first bytes, in words, before any loader (ImageMagick, poppler, librsvg, libtiff…) sees it.
@Suite struct UploadFormatTests {
    @Test func everyOtherKindIs415InWordsAtTheCostOfItsFirstBytes() throws {
        let folder = try TemporaryFiles.folder()
        try UploadFixture.photoFolder(folder)
        let server = try ServerProcess.start(arguments: [
            "--photos", folder, "--cache", try TemporaryFiles.folder(), "--uploads", "open",
        ])
        let http = HTTPTestClient(port: server.port)
        let leftovers = OtherFormats.magickLeftovers()
        for kind in OtherFormats.kinds {
            let body = try OtherFormats.bytes(kind)
            let before = try server.cpuSeconds()
            let reply = try http.send(
                method: "POST", path: "/api/rooms/main/photos", headers: ["Content-Type": "image/jpeg"], body: body)
            let used = try server.cpuSeconds() - before
            #expect(reply.status == 415, "\(kind): \(reply.text)")
            #expect(!reply.text.contains("load"), "\(kind): the answer names a loader: \(reply.text)")
            #expect(used < 0.05, "\(kind) cost \(used) s of CPU")
        }
        #expect(OtherFormats.magickLeftovers().subtracting(leftovers).isEmpty)
        #expect(try http.get("/api/rooms/main").json()["count"] as? Int == 3)
    }

    @Test func aFileOfAnotherKindInThePhotoFolderIsNeverShownWhateverItsName() throws {
        let folder = try TemporaryFiles.folder()
        try UploadFixture.photoFolder(folder)
        for kind in ["bmp", "tif", "pdf"] {
            try Data(try OtherFormats.bytes(kind)).write(to: URL(fileURLWithPath: folder + "/\(kind)-in-disguise.jpg"))
        }
        let leftovers = OtherFormats.magickLeftovers()
        let server = try ServerProcess.start(arguments: ["--photos", folder, "--cache", try TemporaryFiles.folder()])
        #expect(server.shows(photos: 3))
        #expect(try HTTPTestClient(port: server.port).get("/api/rooms/main").json()["count"] as? Int == 3)
        #expect(OtherFormats.magickLeftovers().subtracting(leftovers).isEmpty)
    }
}
