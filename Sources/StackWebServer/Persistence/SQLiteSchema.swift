/// The state database's schema: what makes a database ours, made or brought up to date at open.
///
/// Ours carries our `application_id` ("SWEB"), stamped when it is made. The first release stamped
/// none: a database with our tables and none of anyone else's, stamped 0, is one of ours from
/// then, and is stamped now. Any other stamp, or a table that is not ours, is another program's
/// database: it is refused and left untouched, never given our tables. A trigger or a view is
/// refused too, even in ours: we make none, and one could change or drop what we write after we
/// acknowledged it (a `RAISE(IGNORE)` drops a row without an error).
enum SQLiteSchema {
    /// "SWEB", in the database header at offset 68.
    static let applicationID = 0x5357_4542
    /// 2: `rooms.first_slot`, the card `current` counts from. 3: `room_answers`, the answers to
    /// requests with an `Idempotency-Key`, kept with the changes they answer.
    /// 4: `secrets`, what the photo ids are keyed with (`PhotoIDs`). 5: `rooms.paused`, the slideshow
    /// as a person left it (NULL: nobody chose; the server's default).
    static let version = 5
    static let tables: Set<String> = ["rooms", "room_cards", "room_removed", "room_answers", "secrets"]

    /// Checks that the database at `path` (opened as `database`) is ours or empty, then makes or
    /// updates its tables and stamps it. Throws `StateRefusal` for one that is not ours, and
    /// `SQLiteError` for one SQLite cannot read (damaged: the caller moves it aside).
    static func prepare(_ database: SQLiteDatabase, path: String) throws {
        let stamp = try database.integerPragma("application_id")
        let objects = try schemaObjects(in: database)
        guard stamp == applicationID || stamp == 0 else {
            throw StateRefusal(
                path: path, reason: "it is not a StackWeb database (its application_id is \(stamp))")
        }
        let foreign = objects.filter { $0.type == "table" && !tables.contains($0.name) }.map(\.name)
        guard foreign.isEmpty else {
            throw StateRefusal(
                path: path,
                reason: "it is not a StackWeb database (it has tables of its own: \(foreign.joined(separator: ", ")))")
        }
        for object in objects where object.type == "trigger" || object.type == "view" {
            throw StateRefusal(
                path: path,
                reason: "it has a \(object.type) StackWeb did not make (\(object.name)); remove it or use another file")
        }
        let userVersion = try database.integerPragma("user_version")
        guard stamp != applicationID || userVersion < version else { return }
        try database.transaction { () throws(SQLiteError) in
            try database.execute(
                """
                CREATE TABLE IF NOT EXISTS rooms (
                    name TEXT PRIMARY KEY, style TEXT NOT NULL, swipe_stacked INTEGER NOT NULL,
                    head INTEGER NOT NULL, first_slot INTEGER) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS room_cards (
                    room TEXT NOT NULL, slot INTEGER NOT NULL, photo TEXT NOT NULL, tilt INTEGER NOT NULL,
                    PRIMARY KEY (room, slot)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS room_removed (
                    room TEXT NOT NULL, photo TEXT NOT NULL, PRIMARY KEY (room, photo)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS room_answers (
                    room TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, at INTEGER NOT NULL,
                    PRIMARY KEY (room, key)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
                PRAGMA user_version = \(version);
                PRAGMA application_id = \(applicationID);
                """)
            // Version 1 had no first card: its rooms count `current` as they did (NULL).
            try addColumnIfMissing("first_slot", to: "rooms", in: database)
            // Before version 5 nobody's choice was kept: those rooms follow the server's default (NULL).
            try addColumnIfMissing("paused", to: "rooms", in: database)
        }
    }

    /// Adds a nullable INTEGER column unless the table has it (a database another version of the
    /// schema brought up to date may have it already).
    private static func addColumnIfMissing(_ column: String, to table: String, in database: SQLiteDatabase)
        throws(SQLiteError)
    {
        let columns = try database.prepare("SELECT name FROM pragma_table_info('\(table)')")
        var present = false
        while try columns.step() { present = present || columns.text(0) == column }
        if !present { try database.execute("ALTER TABLE \(table) ADD COLUMN \(column) INTEGER") }
    }

    /// The tables, views and triggers the database holds (SQLite's own left out); indexes are
    /// harmless and not listed.
    private static func schemaObjects(in database: SQLiteDatabase) throws(SQLiteError) -> [(type: String, name: String)]
    {
        let statement = try database.prepare(
            "SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'view', 'trigger') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        )
        var objects: [(type: String, name: String)] = []
        while try statement.step() { objects.append((statement.text(0), statement.text(1))) }
        return objects
    }
}
