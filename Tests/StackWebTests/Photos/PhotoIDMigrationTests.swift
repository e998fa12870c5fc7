import Foundation
import Testing

@testable import StackWebServer

/// A state kept by the version before keyed photo ids names photos by FNV-1a of their paths: after
/// the upgrade it restores the same order, front card and removed photos, and is saved with the
/// new ids; a backup carries the secret the ids are keyed with.
@Suite struct PhotoIDMigrationTests {
    /// The state database as the previous version wrote it (schema 3): room `main` in the grid,
    /// `c.jpg` in front, then `a.jpg`; `b.jpg` removed.
    static func previousState(at path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let database = try SQLiteDatabase(path: path)
        let (a, b, c) = (
            PhotoIDFixture.guessed("a.jpg"), PhotoIDFixture.guessed("album/b.jpg"),
            PhotoIDFixture.guessed("album/c.jpg")
        )
        try database.execute(
            OldStateSchema.version3Tables()
                + """
                INSERT INTO rooms VALUES ('main', 'grid', 0, 0, 0);
                INSERT INTO room_cards VALUES ('main', 0, '\(c)', 2), ('main', 1, '\(a)', -3);
                INSERT INTO room_removed VALUES ('main', '\(b)');
                PRAGMA user_version = 3;
                PRAGMA application_id = \(SQLiteSchema.applicationID);
                """)
    }

    /// The photo ids the database's rooms name, cards and removed ones.
    static func savedIDs(at path: String) throws -> [String] {
        let database = try SQLiteDatabase(path: path)
        let query = try database.prepare("SELECT photo FROM room_cards UNION ALL SELECT photo FROM room_removed")
        var ids: [String] = []
        while try query.step() { ids.append(query.text(0)) }
        return ids
    }

    static func names(_ server: TestServer) throws -> [String] {
        try server.captionNames().map { String($0.split(separator: "/").last!) }
    }

    @Test func aStateSavedWithTheOldIDsRestoresTheSameOrderAndIsSavedWithTheNewOnes() throws {
        let photos = try PhotoIDFixture.folder()
        let state = TemporaryFiles.databasePath()
        try Self.previousState(at: state)
        do {
            let server = try PhotoIDFixture.server(photos: photos, state: state)
            let snapshot = try server.snapshot()
            #expect(try Self.names(server) == ["c.jpg", "a.jpg"])
            #expect(snapshot["count"] as? Int == 2)
            #expect(snapshot["current"] as? Int == 0)
            // Removed from the only room: not served.
            #expect(try server.http.get("/photos/\(server.photoID("album/b.jpg"))").status == 404)
            #expect(try server.command(#"{"command":"next"}"#).status == 200)
        }
        let saved = try Self.savedIDs(at: state)
        #expect(saved.count == 3)
        let old = Set(PhotoIDFixture.files.map(PhotoIDFixture.guessed))
        #expect(saved.allSatisfy { !old.contains($0) })
        let restarted = try PhotoIDFixture.server(photos: photos, state: state)
        #expect(try Self.names(restarted) == ["a.jpg", "c.jpg"])
        #expect(try Set(Self.savedIDs(at: state)) == Set(saved))
    }

    @Test func aBackupCarriesTheSecretTheIDsAreKeyedWith() throws {
        let photos = try PhotoIDFixture.folder()
        let state = TemporaryFiles.databasePath()
        let ids = try PhotoIDFixture.ids(try PhotoIDFixture.server(photos: photos, state: state))
        #expect(ids["a.jpg"] != PhotoIDFixture.guessed("a.jpg"))
        let backup = (state as NSString).deletingLastPathComponent + "/backup.db"
        _ = try StateBackup.backup(state: state, to: backup)
        let elsewhere = TemporaryFiles.databasePath()
        try FileManager.default.createDirectory(
            atPath: (elsewhere as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = try StateBackup.restore(state: elsewhere, from: backup)
        #expect(try PhotoIDFixture.ids(try PhotoIDFixture.server(photos: photos, state: elsewhere)) == ids)
    }
}
