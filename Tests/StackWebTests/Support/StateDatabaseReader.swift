@testable import StackWebServer

/// Reads the state database through a connection of its own, as the next start would.
struct StateDatabaseReader {
    private let database: SQLiteDatabase

    init(path: String) throws {
        database = try SQLiteDatabase(path: path)
    }

    private func integer(_ sql: String, _ room: String) throws -> Int? {
        let statement = try database.prepare(sql).bind([.text(room)])
        return try statement.step() ? statement.int(0) : nil
    }

    func head(of room: String) throws -> Int? { try integer("SELECT head FROM rooms WHERE name = ?1", room) }

    /// The photo of the room's front card: its cycle read from the front slot.
    func frontPhoto(of room: String) throws -> String? {
        let statement = try database.prepare(
            "SELECT photo FROM room_cards JOIN rooms ON name = room WHERE room = ?1 AND slot = head"
        ).bind([.text(room)])
        return try statement.step() ? statement.text(0) : nil
    }

    func style(of room: String) throws -> String? {
        let statement = try database.prepare("SELECT style FROM rooms WHERE name = ?1").bind([.text(room)])
        return try statement.step() ? statement.text(0) : nil
    }

    func cardCount(of room: String) throws -> Int? {
        try integer("SELECT count(*) FROM room_cards WHERE room = ?1", room)
    }

    func removedCount(of room: String) throws -> Int? {
        try integer("SELECT count(*) FROM room_removed WHERE room = ?1", room)
    }
}
