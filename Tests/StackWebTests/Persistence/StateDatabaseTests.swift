import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// The SQLite database behind `--state`: rows written only where they changed, the old JSON file
/// imported once, damaged files moved aside.
@Suite struct StateDatabaseTests {
    @Test func turningTheStackWritesTheFrontAloneAndTheCardsOnlyWhenTheyChange() throws {
        let path = TemporaryFiles.databasePath()
        let server = try TestServer { $0.state = path }
        #expect(try server.command(#"{"command":"next"}"#).status == 200)
        let rows = try StateDatabaseReader(path: path)
        #expect(try rows.cardCount(of: "main") == 12)
        let store = try #require(server.app.store as? SQLiteStore)
        let cardsWritten = store.cardRowsWritten
        #expect(cardsWritten == 12)
        for _ in 0..<4 { #expect(try server.command(#"{"command":"next"}"#).status == 200) }
        // Each `next` in the pile turns the cycle (the front row) and lands the card with a new tilt
        // (its one card row).
        #expect(store.cardRowsWritten == cardsWritten + 4)
        #expect(try server.command(#"{"command":"style","style":"deck"}"#).status == 200)
        #expect(try server.command(#"{"command":"goto","index":9}"#).status == 200)
        // A style and a turn outside the pile: the room's row, never its cards.
        #expect(store.cardRowsWritten == cardsWritten + 4)
        let front = (try server.snapshot()["cards"] as? [[String: Any]])?.first { $0["position"] as? Int == 0 }
        #expect(try rows.frontPhoto(of: "main") == front?["photo"] as? String)
        #expect(try rows.style(of: "main") == "deck")
        // A removal changes the cycle: the cards are written again, one fewer.
        let id = try #require(front?["id"] as? String)
        #expect(try server.command(#"{"command":"remove","id":"\#(id)"}"#).status == 200)
        #expect(try rows.cardCount(of: "main") == 11)
        #expect(store.cardRowsWritten == cardsWritten + 4 + 11)
        #expect(try rows.removedCount(of: "main") == 1)
    }

    @Test func theSwipesStackedModeIsAChoiceThatSurvivesARestart() throws {
        let path = TemporaryFiles.databasePath()
        do {
            let server = try TestServer { $0.state = path }
            #expect(try server.snapshot()["stacked"] as? Bool == false)
            let reply = try server.command(#"{"command":"style","style":"swipe","stacked":true}"#)
            #expect(reply.status == 200)
            #expect(try server.snapshot()["stacked"] as? Bool == true)
            let opacities = (try server.snapshot()["cards"] as? [[String: Any]])?
                .sorted { ($0["position"] as? Int ?? 0) < ($1["position"] as? Int ?? 0) }
                .compactMap { ($0["anim"] as? [String: Any])?["to"] as? [String: Any] }.map { $0["opacity"] as? Double }
            #expect(opacities?.prefix(3) == [1, 0.5, 0.3])
        }
        let restarted = try TestServer { $0.state = path }
        let snapshot = try restarted.snapshot()
        #expect(snapshot["style"] as? String == "swipe")
        #expect(snapshot["stacked"] as? Bool == true)
    }

    /// A database of a version before the slideshow was kept (3, or 4 with the photo ids' secret)
    /// opens with the column added, its rooms following the server's default; a database that has
    /// the column already is opened as it is.
    @Test(arguments: [(3, false), (3, true), (4, false)])
    func anOlderDatabaseGainsThePausedColumnOnce(userVersion: Int, columnThere: Bool) throws {
        let path = TemporaryFiles.databasePath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        do {
            let old = try SQLiteDatabase(path: path)
            try old.execute(
                OldStateSchema.version3Tables(paused: columnThere)
                    + """
                    \(userVersion >= 4 ? "CREATE TABLE secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);" : "")
                    INSERT INTO rooms VALUES ('main', 'deck', 0, 0, NULL\(columnThere ? ", NULL" : ""));
                    PRAGMA user_version = \(userVersion);
                    PRAGMA application_id = \(SQLiteSchema.applicationID);
                    """)
        }
        let configure = { (configuration: inout Configuration) in
            configuration.state = path
            configuration.interval = 60
        }
        do {
            let server = try TestServer(configure: configure)
            #expect(try server.snapshot()["style"] as? String == "deck")
            #expect(try server.snapshot()["playing"] as? Bool == true)
            #expect(try server.command(#"{"command":"pause"}"#).status == 200)
        }
        let rows = try SQLiteDatabase(path: path)
        #expect(try rows.integerPragma("user_version") == SQLiteSchema.version)
        let columns = try rows.prepare("SELECT count(*) FROM pragma_table_info('rooms') WHERE name = 'paused'")
        #expect(try columns.step() && columns.int(0) == 1)
        let restarted = try TestServer(configure: configure)
        #expect(try restarted.snapshot()["playing"] as? Bool == false)
    }

    @Test func aPhotoInsertedTwiceKeepsEveryCardAcrossARestart() throws {
        let path = TemporaryFiles.databasePath()
        let photo: String
        do {
            let server = try TestServer { $0.state = path }
            photo = try #require((try server.snapshot()["cards"] as? [[String: Any]])?.first?["photo"] as? String)
            for at in [0, 5, 9] {
                #expect(try server.command(#"{"command":"insert","photo":"\#(photo)","at":\#(at)}"#).status == 200)
            }
            #expect(try server.snapshot()["count"] as? Int == 15)
        }
        let restarted = try TestServer { $0.state = path }
        #expect(try restarted.snapshot()["count"] as? Int == 15)
        let cards = try #require(try restarted.snapshot()["cards"] as? [[String: Any]])
        #expect(cards.filter { $0["photo"] as? String == photo }.count >= 3)
    }

    @Test func anOldJSONStateFileIsImportedOnceAndKeptBeside() throws {
        let path = TemporaryFiles.databasePath()
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Written by an earlier version: with the ids it gave (`PhotoIDs.legacyID`).
        let demo = TestServer.repositoryRoot.appendingPathComponent("Resources/demo-photos").path
        let reversed = try FileManager.default.contentsOfDirectory(atPath: demo).filter(PhotoLibrary.isImageName)
            .sorted().reversed().map { $0 }
        let order = reversed.map(PhotoIDs.legacyID)
        let file = StateFile(rooms: ["hall": SavedStack(style: .grid, order: order, tilts: order.map { _ in 2 })])
        try JSONEncoder().encode(file).write(to: URL(fileURLWithPath: path))
        for _ in 0..<2 {
            let restarted = try TestServer { $0.state = path }
            let snapshot = try restarted.snapshot(room: "hall")
            #expect(snapshot["style"] as? String == "grid")
            let front = (snapshot["cards"] as? [[String: Any]])?.first { $0["position"] as? Int == 0 }
            #expect(front?["photo"] as? String == restarted.photoID(reversed[0]))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.contains("state.db.imported.json"))
        #expect(try StateDatabaseReader(path: path).style(of: "hall") == "grid")
    }

    /// A restart can find the old process still closing the database: the new one waits for it, and
    /// a database held past the wait (a second server on the same file) stops the start. Neither is
    /// taken for a damaged file and moved aside, which would leave every room's state behind.
    @Test func aDatabaseAnotherProcessHoldsIsWaitedForNeverMovedAside() throws {
        let path = TemporaryFiles.databasePath()
        let folder = (path as NSString).deletingLastPathComponent
        do {
            let server = try TestServer { $0.state = path }
            #expect(try server.command(#"{"command":"style","style":"grid"}"#).status == 200)
        }
        let briefly = try LockHolder(path: path)
        briefly.release(after: 0.5)
        do {
            let restarted = try TestServer { $0.state = path }
            #expect(try restarted.snapshot()["style"] as? String == "grid")
        }

        let held = try LockHolder(path: path)
        #expect(throws: SQLiteError.self) { try Application.openStore(Self.configuration(path), log: .silent) }
        held.release(after: 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.contains("unreadable") })
        #expect(try StateDatabaseReader(path: path).style(of: "main") == "grid")
    }

    static func configuration(_ path: String) -> Configuration {
        var configuration = Configuration()
        configuration.state = path
        return configuration
    }

    @Test func aDamagedStateFileIsKeptAsideAndTheServerStartsClean() throws {
        for (contents, prefix) in [
            ("{\"version\":1,\"rooms\":{\"main\":", "state.db.corrupt-"),
            ("SQLite format 3\0" + String(repeating: "x", count: 4000), "state.db.unreadable-"),
        ] {
            let path = TemporaryFiles.databasePath()
            let folder = (path as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
            let server = try TestServer { $0.state = path }
            #expect(try server.snapshot()["current"] as? Int == 0)
            #expect(try server.command(#"{"command":"next"}"#).status == 200)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(names.contains { $0.hasPrefix(prefix) }, "\(names)")
        }
    }

    /// Another process's hold on a database: the whole file locked (exclusive locking mode, as a
    /// process closing a WAL database holds it), let go by closing the connection, on a thread of its own.
    final class LockHolder: @unchecked Sendable {
        private var database: SQLiteDatabase?

        init(path: String) throws {
            let database = try SQLiteDatabase(path: path)
            try database.execute(
                "PRAGMA busy_timeout=5000; PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; SELECT count(*) FROM rooms; COMMIT"
            )
            self.database = database
        }

        func release(after seconds: Double) {
            guard seconds > 0 else {
                database = nil
                return
            }
            Thread.detachNewThread { [self] in
                Thread.sleep(forTimeInterval: seconds)
                database = nil
            }
        }
    }
}
