import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// The photo folder is the boundary: symbolic links in it are not followed, so one that leads
/// outside (to a file or a folder) is neither shown nor served. Links that stay inside are skipped
/// too: the file they name is shown under its own path anyway.
@Suite struct PhotoFolderBoundaryTests {
    @Test func linksLeadingOutOfTheFolderAreNotShownOrServed() throws {
        CVipsSetup.start()
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("boundary-\(UUID().uuidString)").path
        let folder = base + "/photos"
        let outside = base + "/private"
        for path in [folder + "/album", outside + "/album"] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        #expect(CVipsTest_writeJPEG(folder + "/a.jpg", 80, 60, 1) == 0)
        #expect(CVipsTest_writeJPEG(folder + "/album/b.jpg", 80, 60, 2) == 0)
        #expect(CVipsTest_writeJPEG(outside + "/secret.jpg", 80, 60, 3) == 0)
        #expect(CVipsTest_writeJPEG(outside + "/album/hidden.jpg", 80, 60, 4) == 0)
        let links = FileManager.default
        try links.createSymbolicLink(atPath: folder + "/escape.jpg", withDestinationPath: outside + "/secret.jpg")
        try links.createSymbolicLink(atPath: folder + "/relative.jpg", withDestinationPath: "../private/secret.jpg")
        try links.createSymbolicLink(atPath: folder + "/elsewhere", withDestinationPath: outside + "/album")
        try links.createSymbolicLink(atPath: folder + "/again.jpg", withDestinationPath: folder + "/album/b.jpg")

        let server = try TestServer {
            $0.photos = folder
            $0.captionFolders = true
        }
        let names = Set(try server.captionNames())
        #expect(names == ["a.jpg", "album/b.jpg"])
        // Not served either, by the id its path would have had.
        for relative in ["escape.jpg", "relative.jpg", "elsewhere/hidden.jpg", "again.jpg"] {
            #expect(try server.http.get("/photos/\(server.photoID(relative))").status == 404)
        }
        #expect(try server.http.get("/photos/\(server.photoID("album/b.jpg"))").status == 200)
    }
}
