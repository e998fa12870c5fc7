import CVipsTestSupport
import Foundation
import Glibc
import Testing

@testable import StackWebServer

/// A photo folder a guest can change under the server: a photo swapped for a FIFO, a folder swapped
/// for a link. Served files are opened off libmicrohttpd's thread, below the folder, never through a
/// link, regular files only.
@Suite struct PhotoServingTests {
    /// A folder with `sub/a.jpg` and `b.jpg`, and a server on it.
    static func server() throws -> (TestServer, folder: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stackweb-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        #expect(CVipsTest_writeJPEG(folder.appendingPathComponent("sub/a.jpg").path, 120, 90, 1) == 0)
        #expect(CVipsTest_writeJPEG(folder.appendingPathComponent("b.jpg").path, 120, 90, 1) == 0)
        let server = try TestServer { $0.photos = folder.path }
        return (server, folder.path)
    }

    @Test func aPhotoSwappedForAFIFOIsRefusedAndNothingStalls() throws {
        let (server, folder) = try Self.server()
        #expect(try server.http.get("/photos/\(server.photoID("b.jpg"))").status == 200)
        try FileManager.default.moveItem(atPath: folder + "/b.jpg", toPath: folder + "/b.bak")
        #expect(mkfifo(folder + "/b.jpg", 0o644) == 0)
        // Before, the server's only thread blocked in open() until someone wrote the pipe.
        for query in ["", "?w=256"] {
            let started = Date()
            #expect(try server.http.get("/photos/\(server.photoID("b.jpg"))\(query)").status == 404)
            #expect(Date().timeIntervalSince(started) < 2)
        }
        #expect(try server.http.get("/healthz").status == 200)
    }

    @Test func aFolderSwappedForALinkIsNotFollowed() throws {
        let (server, folder) = try Self.server()
        #expect(try server.http.get("/photos/\(server.photoID("sub/a.jpg"))").status == 200)
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stackweb-else-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        #expect(CVipsTest_writeJPEG(elsewhere.appendingPathComponent("a.jpg").path, 120, 90, 1) == 0)
        try FileManager.default.moveItem(atPath: folder + "/sub", toPath: folder + "/sub.real")
        try FileManager.default.createSymbolicLink(atPath: folder + "/sub", withDestinationPath: elsewhere.path)
        for query in ["", "?w=256"] {
            #expect(try server.http.get("/photos/\(server.photoID("sub/a.jpg"))\(query)").status == 404)
        }
    }

    @Test func aPhotoSwappedForALinkIsNotResized() throws {
        let (server, folder) = try Self.server()
        try FileManager.default.moveItem(atPath: folder + "/b.jpg", toPath: folder + "/b.real")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/b.jpg", withDestinationPath: folder + "/sub/a.jpg")
        #expect(try server.http.get("/photos/\(server.photoID("b.jpg"))?w=256").status == 404)
        #expect(try server.http.get("/photos/\(server.photoID("sub/a.jpg"))?w=256").status == 200)
    }
}
