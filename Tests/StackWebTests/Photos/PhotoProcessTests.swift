import CVipsTestSupport
import Foundation
import Glibc
import Testing

@testable import StackWebServer

/// The real binary on a photo folder: how soon it answers, and how soon it goes when told to.
@Suite struct PhotoProcessTests {
    /// `count` small JPEGs in `folder`, in a few subfolders.
    static func photos(_ count: Int, in folder: String) throws {
        CVipsSetup.start()
        for index in 0..<count {
            let sub = folder + "/\(index % 4)"
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            #expect(CVipsTest_writeJPEG(sub + "/p\(index).jpg", 64, 48, Int32(index % 7)) == 0)
        }
    }

    /// Sends SIGTERM; answers the exit status if the process ended within `seconds`, else kills it and answers nil.
    static func terminate(_ server: ServerProcess, within seconds: Double) -> Int32? {
        server.process.terminate()
        let ended = Poll.until(seconds) { !server.process.isRunning }
        if !ended {
            kill(server.process.processIdentifier, SIGKILL)
            server.process.waitUntilExit()
            return nil
        }
        return server.process.terminationStatus
    }

    @Test func sigtermWithAPhotoFolderExitsZeroWithinTwoSeconds() throws {
        let folder = try TemporaryFiles.folder()
        try Self.photos(40, in: folder)
        let cache = try TemporaryFiles.folder()
        let server = try ServerProcess.start(arguments: ["--photos", folder, "--cache", cache], readPhotos: false)
        let http = HTTPTestClient(port: server.port)
        // Once every photo is in the room, the start-up scan is over.
        #expect(
            try Poll.until(10) {
                (try http.get("/api/rooms/main").json()["count"] as? Int) == 40
            })
        #expect(Self.terminate(server, within: 2) == 0)
    }

    @Test func sigtermWhileAFirstStartIsStillReadingExitsZeroWithinTwoSeconds() throws {
        let folder = try TemporaryFiles.folder()
        try Self.photos(400, in: folder)
        let cache = try TemporaryFiles.folder()
        let server = try ServerProcess.start(arguments: ["--photos", folder, "--cache", cache], readPhotos: false)
        let metrics = try HTTPTestClient(port: server.port).get("/metrics").text
        // Reading stops between two batches of half a second.
        #expect(Self.terminate(server, within: 2) == 0)
        #expect(metrics.contains("stackweb_photos_reading 1"), "the reading was over before the signal")
    }

    static func count(_ http: HTTPTestClient) throws -> Int {
        try http.get("/api/rooms/main").json()["count"] as? Int ?? -1
    }

    @Test func aRestartShowsEveryIndexedPhotoInItsFirstAnswer() throws {
        let folder = try TemporaryFiles.folder()
        try Self.photos(60, in: folder)
        let cache = try TemporaryFiles.folder()
        let arguments = ["--photos", folder, "--cache", cache]
        let first = try ServerProcess.start(arguments: arguments, readPhotos: false)
        let http = HTTPTestClient(port: first.port)
        // The first start listens before it has read the photos, and adds them as it reads them.
        #expect(try Self.count(http) <= 60)
        #expect(try Poll.until(10) { try Self.count(http) == 60 })
        #expect(Self.terminate(first, within: 2) == 0)
        #expect(FileManager.default.fileExists(atPath: cache + "/photo-index.db"))

        let second = try ServerProcess.start(arguments: arguments, readPhotos: false)
        #expect(try Self.count(HTTPTestClient(port: second.port)) == 60)
        #expect(Self.terminate(second, within: 2) == 0)
    }

    @Test func anEmptyFolderStartsEmptyAndShowsPhotosCopiedIn() throws {
        let folder = try TemporaryFiles.folder()
        let cache = try TemporaryFiles.folder()
        let server = try ServerProcess.start(arguments: ["--photos", folder, "--cache", cache])
        let http = HTTPTestClient(port: server.port)
        #expect(try Self.count(http) == 0)
        try Self.photos(3, in: folder)
        #expect(try Poll.until(10) { try Self.count(http) == 3 })
        #expect(Self.terminate(server, within: 2) == 0)
    }

    /// A folder the server's user cannot read (run as `nobody`: root reads through permissions) is
    /// the same state: served at once, named by `/healthz`, read once it can be.
    @Test(.enabled(if: geteuid() == 0, "running the server as another user needs root"))
    func anUnreadableFolderAtStartIsServedAndReadOnceItCanBe() throws {
        let base = try TemporaryFiles.folder()
        #expect(chmod(base, 0o755) == 0)
        let folder = base + "/photos"
        try Self.photos(2, in: folder)
        #expect(chmod(folder, 0o700) == 0)
        let cache = base + "/cache"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: false)
        #expect(chown(cache, 65534, 65534) == 0)
        let server = try ServerProcess.start(
            arguments: ["--photos", folder, "--cache", cache], readPhotos: false, asNobody: true)
        defer { server.end() }
        let http = HTTPTestClient(port: server.port)
        let health = try http.get("/healthz")
        #expect(health.status == 503)
        let reason = try health.json()["reason"] as? String ?? ""
        #expect(reason.contains("photoFolder: unreadable (permission denied): \(folder)"), "\(reason)")
        #expect(chmod(folder, 0o755) == 0)
        #expect(try Poll.until(10) { try Self.count(http) == 2 })
        #expect(try Poll.until(5) { try http.get("/healthz").status == 200 })
    }

    /// A frame booted without its USB stick: the server serves at once, says in `/healthz` which
    /// folder is missing, and shows the photos when the folder appears, with no restart.
    @Test func aMissingFolderAtStartIsServedAndPickedUpWhenItAppears() throws {
        let folder = try TemporaryFiles.folder() + "/stick"
        let cache = try TemporaryFiles.folder()
        let began = Date()
        let server = try ServerProcess.start(
            arguments: ["--photos", folder, "--cache", cache], readPhotos: false, captureErrors: true)
        let http = HTTPTestClient(port: server.port)
        let health = try http.get("/healthz")
        #expect(Date().timeIntervalSince(began) < 1, "serving within 1 s")
        #expect(health.status == 503)
        let reason = try health.json()["reason"] as? String ?? ""
        #expect(reason.contains("photoFolder: missing: \(folder)"), "\(reason)")
        #expect(try Self.count(http) == 0)
        try Self.photos(3, in: folder)
        // The folder is looked for every 2 s; then read.
        #expect(try Poll.until(10) { try Self.count(http) == 3 })
        #expect(try Poll.until(5) { try http.get("/healthz").status == 200 })
        #expect(server.process.isRunning)
        #expect(Self.terminate(server, within: 2) == 0)
        let errors = String(decoding: server.errors?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        #expect(errors.components(separatedBy: "photo folder \(folder) is missing").count == 2, "\(errors)")
    }
}
