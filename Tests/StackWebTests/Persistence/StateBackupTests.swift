import Foundation
import Testing

@testable import StackWebServer

/// `stackweb backup` and `stackweb restore` on the real binary: a backup taken while commands keep
/// the server writing is whole; a restore after a stop brings back the room as it was at the
/// backup (not as the WAL left beside the database says); a restore over a running server is refused.
@Suite struct StateBackupTests {
    static func current(_ server: ServerProcess) throws -> Int? {
        try HTTPTestClient(port: server.port).get("/api/rooms/main").json()["current"] as? Int
    }

    @Test func aBackupUnderLoadIsWholeAndARestoreBringsItBack() throws {
        let setup = try RestartSetup()
        let backup = (setup.state as NSString).deletingLastPathComponent + "/backup.db"
        let server = try ServerProcess.start(arguments: setup.arguments())
        defer { server.end() }
        let http = HTTPTestClient(port: server.port)
        #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"shuffle"}"#).status == 200)
        #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"goto","index":5}"#).status == 200)
        // Under load: each `next` and `previous` is a lasting change, committed before its answer.
        let port = server.port
        let load = Thread {
            let client = HTTPTestClient(port: port)
            for index in 0..<60 {
                let command = index.isMultiple(of: 2) ? "next" : "previous"
                _ = try? client.post("/api/rooms/main/commands", json: #"{"command":"\#(command)"}"#)
            }
        }
        load.start()
        let started = Date()
        let (status, errors) = try StackwebBinary.run(["backup", backup, "--state", setup.state])
        let seconds = Date().timeIntervalSince(started)
        #expect(status == 0, "\(errors)")
        #expect(errors.contains("backed up"), "\(errors)")
        let copy = try SQLiteDatabase(path: backup, existing: true)
        #expect(try copy.textPragma("integrity_check") == "ok")
        #expect(try copy.integerPragma("application_id") == SQLiteSchema.applicationID)
        print("backup under load took \(Int(seconds * 1000)) ms (binary start included)")
        while !load.isFinished { Thread.sleep(forTimeInterval: 0.05) }
        // The backup restored below: the room as it is once the load is over.
        let before = RoomView(try http.quietSnapshot())
        #expect(before.current == 5)
        #expect(try StackwebBinary.run(["backup", backup, "--state", setup.state]).status == 0)

        // A restore while the server runs is refused, and leaves the state alone.
        let refused = try StackwebBinary.run(["restore", backup, "--state", setup.state])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("a server holds"), "\(refused.errors)")

        #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"goto","index":9}"#).status == 200)
        #expect(try http.post("/api/rooms/main/commands", json: #"{"command":"shuffle"}"#).status == 200)
        #expect(server.stop() == 0)

        let restored = try StackwebBinary.run(["restore", backup, "--state", setup.state])
        #expect(restored.status == 0, "\(restored.errors)")
        let again = try ServerProcess.start(arguments: setup.arguments())
        defer { again.end() }
        #expect(try RoomView.settled(of: again, count: RestartSetup.count) == before)
    }

    @Test func aRestoreRefusesAFileThatIsNotOurs() throws {
        let folder = try TemporaryFiles.folder()
        _ = FileManager.default.createFile(atPath: folder + "/other.db", contents: Data("not a database".utf8))
        let (status, errors) = try StackwebBinary.run([
            "restore", folder + "/other.db", "--state", folder + "/state.db",
        ])
        #expect(status == 1)
        #expect(errors.contains("cannot restore") || errors.contains("not a StackWeb"), "\(errors)")
        let usage = try StackwebBinary.run(["restore"])
        #expect(usage.status == 78, "\(usage.errors)")
    }
}
