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
        let ended = PersistenceTests.eventually(seconds) { !server.process.isRunning }
        if !ended {
            kill(server.process.processIdentifier, SIGKILL)
            server.process.waitUntilExit()
            return nil
        }
        return server.process.terminationStatus
    }

    @Test func sigtermWithAPhotoFolderExitsZeroWithinTwoSeconds() throws {
        let folder = try PhotoFolderLifecycleTests.base()
        try Self.photos(40, in: folder)
        let cache = try PhotoFolderLifecycleTests.base()
        let server = try ServerProcess.start(arguments: ["--photos", folder, "--cache", cache])
        let http = HTTPTestClient(port: server.port)
        // Once every photo is in the room, the start-up scan is over.
        #expect(
            try PersistenceTests.eventually(10) {
                (try http.get("/api/rooms/main").json()["count"] as? Int) == 40
            })
        #expect(Self.terminate(server, within: 2) == 0)
    }
}
