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

    /// `--help` after either command is its help, not a usage error.
    @Test(arguments: ["backup", "restore"])
    func aCommandsHelpExitsZero(verb: String) throws {
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        ).deletingLastPathComponent().appendingPathComponent("stackweb")
        process.arguments = [verb, "--help"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.hasPrefix("Usage: stackweb \(verb) FILE --state PATH"), "\(text)")
        #expect(text.contains("--state PATH") && text.contains("Exit status"), "\(text)")
    }

    /// A state as the package's server leaves it: written by a server, then given to `nobody`
    /// (standing for the `stackweb` user), mode 0600, with no lock file yet.
    static func stateOwnedByNobody() throws -> (folder: String, state: String) {
        let folder = try TemporaryFiles.folder()
        #expect(chmod(folder, 0o755) == 0)
        let state = folder + "/state.db"
        let server = try ServerProcess.start(arguments: ["--state", state])
        #expect(
            try HTTPTestClient(port: server.port).post("/api/rooms/main/commands", json: #"{"command":"next"}"#)
                .status == 200)
        #expect(server.stop() == 0)
        unlink(state + "-lock")
        for suffix in ["", "-wal", "-shm"] where access(state + suffix, F_OK) == 0 {
            #expect(chown(state + suffix, 65534, 65534) == 0)
            #expect(chmod(state + suffix, 0o600) == 0)
        }
        return (folder, state)
    }

    static func owner(_ path: String) -> (user: uid_t, mode: mode_t)? {
        var info = stat()
        return stat(path, &info) == 0 ? (info.st_uid, info.st_mode & 0o777) : nil
    }

    /// Run as root (`sudo stackweb backup|restore`): the backup is 0600, and the restored state,
    /// its WAL and the lock file belong to the state's owner, with its mode — not to root, which
    /// would stop the server (permission denied).
    @Test(.enabled(if: geteuid() == 0, "giving files to another user needs root"))
    func aRestoreAsRootGivesTheStateBackToItsOwner() throws {
        let (folder, state) = try Self.stateOwnedByNobody()
        let backup = folder + "/backup.db"
        let backedUp = try StackwebBinary.run(["backup", backup, "--state", state])
        #expect(backedUp.status == 0, "\(backedUp.errors)")
        #expect(Self.owner(backup)?.mode == 0o600)
        let restored = try StackwebBinary.run(["restore", backup, "--state", state])
        #expect(restored.status == 0, "\(restored.errors)")
        for suffix in ["", "-wal", "-shm", "-lock"] where access(state + suffix, F_OK) == 0 {
            #expect(Self.owner(state + suffix)?.user == 65534, "\(suffix)")
        }
        #expect(access(state + "-lock", F_OK) == 0)
        #expect(Self.owner(state)?.mode == 0o600)
    }

    /// Another user than the owner (and not root) is refused, told whose the state is.
    @Test(.enabled(if: geteuid() == 0, "giving files to another user needs root"))
    func aRestoreAsAnotherUserIsRefusedNamingTheOwner() throws {
        let (folder, state) = try Self.stateOwnedByNobody()
        #expect(try StackwebBinary.run(["backup", folder + "/backup.db", "--state", state]).status == 0)
        for suffix in ["", "-wal", "-shm"] where access(state + suffix, F_OK) == 0 {
            #expect(chown(state + suffix, 0, 0) == 0)
        }
        let refused = try StackwebBinary.run(["restore", folder + "/backup.db", "--state", state], asNobody: true)
        #expect(refused.status == 1)
        #expect(refused.errors.contains("belongs to root"), "\(refused.errors)")
    }
}
