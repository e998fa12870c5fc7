import CSQLite
import CSQLiteSystem

/// One SQLite connection, and every raw `sqlite3_*` call of the server: result codes become thrown
/// `SQLiteError`s here and nowhere else.
///
/// Not thread-safe by itself (opened with `SQLITE_OPEN_NOMUTEX`): its owner confines it to one
/// queue.
final class SQLiteDatabase {
    private let handle: OpaquePointer

    /// Opens (creating if needed, unless `existing`) the database at `path`.
    init(path: String, existing: Bool = false) throws(SQLiteError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (existing ? 0 : SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(code: code, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "")
            sqlite3_close(handle)
            throw error
        }
        self.handle = handle
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that take no parameters and return nothing needed.
    func execute(_ sql: String) throws(SQLiteError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    /// Compiles a statement; bind, step and reset it as often as needed.
    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil))
        guard let statement else { throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement: \(sql)") }
        return Statement(handle: statement, database: self)
    }

    /// The value of a `PRAGMA` that answers one integer (`user_version`).
    func integerPragma(_ name: String) throws(SQLiteError) -> Int {
        let statement = try prepare("PRAGMA \(name)")
        guard try statement.step() else { return 0 }
        return statement.int(0)
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    func transaction(_ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Copies this whole database into `target` with SQLite's online backup API, a hundred pages
    /// a step: other connections keep reading and writing between steps (a step that meets a
    /// writer waits a moment and goes on; one that meets a change starts the copy again, which is
    /// what keeps it consistent).
    func copy(into target: SQLiteDatabase) throws(SQLiteError) {
        guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
            throw SQLiteError(
                code: sqlite3_errcode(target.handle), message: String(cString: sqlite3_errmsg(target.handle)))
        }
        var code = SQLITE_OK
        repeat {
            code = sqlite3_backup_step(backup, 100)
            if code == SQLITE_BUSY || code == SQLITE_LOCKED { sqlite3_sleep(20) }
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        let finished = sqlite3_backup_finish(backup)
        try target.check(code == SQLITE_DONE ? finished : code)
    }

    /// The first row of a query that answers one text (`PRAGMA integrity_check`).
    func textPragma(_ name: String) throws(SQLiteError) -> String {
        let statement = try prepare("PRAGMA \(name)")
        guard try statement.step() else { return "" }
        return statement.text(0)
    }

    fileprivate func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// A compiled statement of this connection.
    final class Statement {
        private let handle: OpaquePointer
        private let database: SQLiteDatabase

        fileprivate init(handle: OpaquePointer, database: SQLiteDatabase) {
            self.handle = handle
            self.database = database
        }

        deinit { sqlite3_finalize(handle) }

        /// Binds the parameters in order (`?1`, `?2`, …) after a reset: text, integers, or nil for NULL.
        @discardableResult
        func bind(_ values: [SQLiteValue]) throws(SQLiteError) -> Statement {
            try database.check(sqlite3_reset(handle))
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                switch value {
                case .text(let text):
                    try database.check(sqlite3_bind_text(handle, index, text, -1, CSQLite_transient()))
                case .integer(let number): try database.check(sqlite3_bind_int64(handle, index, Int64(number)))
                }
            }
            return self
        }

        /// Runs the statement to its next row; `false` when it is done.
        func step() throws(SQLiteError) -> Bool {
            let code = sqlite3_step(handle)
            try database.check(code)
            return code == SQLITE_ROW
        }

        /// Runs a statement that returns no rows.
        func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
            try bind(values)
            while try step() {}
        }

        func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

        func text(_ column: Int32) -> String {
            guard let bytes = sqlite3_column_text(handle, column) else { return "" }
            return String(cString: bytes)
        }
    }
}

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case text(String)
    case integer(Int)
}

/// A result code SQLite returned, with its message.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String

    var description: String { "SQLite error \(code): \(message)" }

    /// Another connection holds the database (SQLITE_BUSY, SQLITE_LOCKED): nothing is wrong with it.
    var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
}
