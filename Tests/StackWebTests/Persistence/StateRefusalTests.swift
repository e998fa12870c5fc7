import Foundation
import Testing

@testable import StackWebServer

/// `--state` naming something that is not ours: the real binary says what and where in one line
/// and exits 78 (a configuration error, which the systemd unit does not restart) before it
/// listens; it never waits on the path, never adds its tables to another program's database, and
/// never acknowledges changes a schema it did not make could drop.
@Suite struct StateRefusalTests {
    /// The first release's schema, as it made it: no application id.
    static let firstSchema = """
        CREATE TABLE rooms (
            name TEXT PRIMARY KEY, style TEXT NOT NULL, swipe_stacked INTEGER NOT NULL,
            head INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE room_cards (
            room TEXT NOT NULL, slot INTEGER NOT NULL, photo TEXT NOT NULL, tilt INTEGER NOT NULL,
            PRIMARY KEY (room, slot)) WITHOUT ROWID;
        CREATE TABLE room_removed (
            room TEXT NOT NULL, photo TEXT NOT NULL, PRIMARY KEY (room, photo)) WITHOUT ROWID;
        PRAGMA user_version = 1;
        """

    /// A fresh folder and the `--state` path in it (nothing there yet).
    static func statePath() throws -> String {
        let path = TemporaryFiles.databasePath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return path
    }

    /// A database at `path` made by `sql`.
    static func database(at path: String, _ sql: String) throws {
        try SQLiteDatabase(path: path).execute(sql)
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let path = try Self.statePath()
        #expect(mkfifo(path, 0o600) == 0)
        try Self.expectRefusal(path: path, naming: "not a regular file")
    }

    @Test func aDirectoryIsRefused() throws {
        let path = try Self.statePath()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try Self.expectRefusal(path: path, naming: "not a regular file")
    }

    @Test func aSymbolicLinkToADirectoryIsRefused() throws {
        let path = try Self.statePath()
        let target = path + ".folder"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        #expect(symlink(target, path) == 0)
        try Self.expectRefusal(path: path, naming: "not a regular file")
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftAsItWas() throws {
        let path = try Self.statePath()
        try Self.database(at: path, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        try Self.expectRefusal(path: path, naming: "not a StackWeb database")
        #expect(try Self.tables(at: path) == ["notes"])
    }

    @Test func aDatabaseWithAnotherApplicationIDIsRefused() throws {
        let path = try Self.statePath()
        try Self.database(at: path, Self.firstSchema + "PRAGMA application_id = 1179404868;")
        try Self.expectRefusal(path: path, naming: "not a StackWeb database")
    }

    @Test func aTriggerWeDidNotMakeIsRefused() throws {
        let path = try Self.statePath()
        try Self.database(
            at: path,
            Self.firstSchema
                + "CREATE TRIGGER drop_cards BEFORE INSERT ON room_cards BEGIN SELECT RAISE(IGNORE); END;")
        try Self.expectRefusal(path: path, naming: "trigger")
    }

    @Test func aViewWeDidNotMakeIsRefused() throws {
        let path = try Self.statePath()
        try Self.database(at: path, Self.firstSchema + "CREATE VIEW fronts AS SELECT name, head FROM rooms;")
        try Self.expectRefusal(path: path, naming: "view")
    }

    /// A database the first release made (our tables, application id 0) is ours: its rooms come
    /// back, and it is stamped with our application id.
    @Test func anOlderDatabaseOfOursIsAcceptedAndStamped() throws {
        let path = try Self.statePath()
        try Self.database(
            at: path,
            Self.firstSchema + "INSERT INTO rooms VALUES ('main', 'grid', 0, 0);")
        let server = try ServerProcess.start(arguments: ["--state", path], readPhotos: false)
        defer { server.end() }
        let snapshot = try HTTPTestClient(port: server.port).get("/api/rooms/main").json()
        #expect(snapshot["style"] as? String == "grid")
        #expect(server.stop() == 0)
        let reader = try SQLiteDatabase(path: path)
        // "SWEB": the stamp is the file format's, so the test spells it out.
        #expect(try reader.integerPragma("application_id") == 0x5357_4542)
        #expect(try reader.integerPragma("user_version") == SQLiteSchema.version)
    }

    // MARK: - Helpers

    static func tables(at path: String) throws -> [String] {
        let statement = try SQLiteDatabase(path: path).prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        var names: [String] = []
        while try statement.step() { names.append(statement.text(0)) }
        return names
    }

    /// Starts the binary on `--state path` and expects it to exit 78 within a few seconds, having
    /// printed one line naming the path and `reason`, and nothing on its standard output.
    static func expectRefusal(
        path: String, naming reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let start = try RefusedStart(arguments: ["--state", path], within: 10)
        #expect(
            start.status == 78, "exit status \(start.status.map(String.init) ?? "none: still running")",
            sourceLocation: sourceLocation)
        let lines = start.errors.split(separator: "\n")
        #expect(lines.count == 1, "\(start.errors)", sourceLocation: sourceLocation)
        #expect(
            start.errors.contains(path) && start.errors.contains(reason), "\(start.errors)",
            sourceLocation: sourceLocation)
        #expect(!start.output.contains("listening"), "\(start.output)", sourceLocation: sourceLocation)
    }
}
