import StackModel

/// The rooms' tables and the diff that writes a saved state as the fewest rows. Used by one
/// thread at a time (`SQLiteStore`'s queue, or its initialiser before the queue is used).
final class SQLiteRoomWriter: @unchecked Sendable {
    /// A room as its rows are now: its cards by slot in the cycle, and which slot is the front.
    private struct WrittenRoom {
        var style: String
        var swipeStacked = false
        var head: Int
        /// The slot of the card `current` counts from; nil when not known.
        var first: Int?
        /// The slideshow as a person left it; nil when nobody chose.
        var paused: Bool?
        var cycle: [String]
        var tilts: [Int]
        var removed: Set<String>
        /// The first slot of each photo, to find where a turned cycle now starts.
        var firstSlot: [String: Int]

        init(style: String, head: Int, cycle: [String], tilts: [Int], removed: Set<String>) {
            (self.style, self.head, self.cycle, self.tilts, self.removed) = (style, head, cycle, tilts, removed)
            firstSlot = [:]
            for (slot, photo) in cycle.enumerated() where firstSlot[photo] == nil { firstSlot[photo] = slot }
        }

        var saved: (order: [String], tilts: [Int], first: Int?) {
            let count = cycle.count
            let slots = (0..<count).map { (head + $0) % count }
            let first = first.flatMap { $0 < count ? ($0 - head + count) % count : nil }
            return (slots.map { cycle[$0] }, slots.map { tilts[$0] }, first)
        }
    }

    private let database: SQLiteDatabase
    private let defaultStyle: StyleName
    private var written: [String: WrittenRoom] = [:]
    /// Card rows inserted or updated so far (what the tests check a turn of the stack does not do).
    private(set) var cardRowsWritten = 0
    private let upsertRoom: SQLiteDatabase.Statement
    private let deleteCards: SQLiteDatabase.Statement
    private let insertCard: SQLiteDatabase.Statement
    private let updateTilt: SQLiteDatabase.Statement
    private let deleteRemoved: SQLiteDatabase.Statement
    private let insertRemoved: SQLiteDatabase.Statement
    private let insertAnswer: SQLiteDatabase.Statement
    private let forgetAnswers: SQLiteDatabase.Statement

    /// Opens the database at `path`; throws `StateRefusal` when it is not ours (`SQLiteSchema`),
    /// `SQLiteError` when SQLite cannot use it.
    init(path: String, defaultStyle: StyleName) throws {
        database = try SQLiteDatabase(path: path)
        self.defaultStyle = defaultStyle
        // The wait first: a process still closing the database (a restart) must be waited for, not
        // taken for a damaged file.
        try database.execute("PRAGMA busy_timeout=5000")
        // Before anything writes: another program's database is left as it was.
        try SQLiteSchema.prepare(database, path: path)
        // WAL: a commit appends to the log instead of rewriting pages; synchronous=FULL syncs it at
        // every commit, so an acknowledged change survives a power cut, not only kill -9.
        try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL")
        upsertRoom = try database.prepare(
            """
            INSERT INTO rooms (name, style, swipe_stacked, head, first_slot, paused)
            VALUES (?1, ?2, ?3, ?4, nullif(?5, -1), nullif(?6, -1))
            ON CONFLICT (name) DO UPDATE SET
                style = excluded.style, swipe_stacked = excluded.swipe_stacked, head = excluded.head,
                first_slot = excluded.first_slot, paused = excluded.paused
            """)
        deleteCards = try database.prepare("DELETE FROM room_cards WHERE room = ?1")
        insertCard = try database.prepare("INSERT INTO room_cards (room, slot, photo, tilt) VALUES (?1, ?2, ?3, ?4)")
        updateTilt = try database.prepare("UPDATE room_cards SET tilt = ?3 WHERE room = ?1 AND slot = ?2")
        deleteRemoved = try database.prepare("DELETE FROM room_removed WHERE room = ?1")
        insertRemoved = try database.prepare("INSERT OR IGNORE INTO room_removed (room, photo) VALUES (?1, ?2)")
        insertAnswer = try database.prepare(
            "INSERT OR IGNORE INTO room_answers (room, key, seq, at) VALUES (?1, ?2, ?3, ?4)")
        forgetAnswers = try database.prepare("DELETE FROM room_answers WHERE at < ?1")
        written = try readRooms()
    }

    /// Every room as the database holds it.
    func savedRooms() -> [String: SavedStack] {
        written.mapValues { room in
            let (order, tilts, first) = room.saved
            return SavedStack(
                style: StyleName(rawValue: room.style) ?? defaultStyle, order: order, tilts: tilts,
                removed: room.removed.sorted(), swipeStacked: room.swipeStacked, first: first, paused: room.paused)
        }
    }

    /// Writes every room in one transaction, with the answers given to the changes written (and
    /// without those given before `forgettingBefore`); what is remembered as written changes only if
    /// it commits.
    func write(
        _ rooms: [String: SavedStack], answers: [String: [StoredAnswer]] = [:], forgettingBefore: Double? = nil
    ) throws(SQLiteError) {
        var staged = written
        try database.transaction { () throws(SQLiteError) in
            for (name, saved) in rooms { staged[name] = try write(saved, room: name, over: staged[name]) }
            for (name, given) in answers {
                for answer in given {
                    try insertAnswer.run([
                        .text(name), .text(answer.key), .integer(answer.seq), .integer(Int(answer.at)),
                    ])
                }
            }
            if let forgettingBefore, !answers.isEmpty { try forgetAnswers.run([.integer(Int(forgettingBefore))]) }
        }
        written = staged
    }

    /// The answers kept since `since` (server time, ms), by room.
    /// The secret kept under `name` (hex), `drawn` first if there is none: drawn once, the same
    /// at every start after, and carried by a backup with the rooms it keeps meaning to.
    func secret(named name: String, drawn: String) throws(SQLiteError) -> String {
        // Here too, not only in the schema: a database brought to this version without the table.
        try database.execute("CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        try database.prepare("INSERT OR IGNORE INTO secrets (name, value) VALUES (?1, ?2)").run([
            .text(name), .text(drawn),
        ])
        let kept = try database.prepare("SELECT value FROM secrets WHERE name = ?1").bind([.text(name)])
        guard try kept.step() else { return drawn }
        return kept.text(0)
    }

    /// This start's numbering start, kept beside the secrets (a backup carries it): above the last
    /// one kept and at least `floor`. Committed at once, since ids are handed out from it right after.
    func historyStart(atLeast floor: Int) throws(SQLiteError) -> Int {
        let last = Int(try secret(named: Self.historyStartName, drawn: "0")) ?? 0
        let start = max(last + HistoryNumbering.idsPerMillisecond, floor)
        try database.prepare("UPDATE secrets SET value = ?2 WHERE name = ?1").run([
            .text(Self.historyStartName), .text(String(start)),
        ])
        return start
    }

    /// The `secrets` row the last start's numbering start is kept in.
    static let historyStartName = "history-start"

    func answers(since: Double) -> [String: [StoredAnswer]] {
        var found: [String: [StoredAnswer]] = [:]
        guard let statement = try? database.prepare("SELECT room, key, seq, at FROM room_answers WHERE at >= ?1"),
            (try? statement.bind([.integer(Int(since))])) != nil
        else { return found }
        while (try? statement.step()) == true {
            let answer = StoredAnswer(key: statement.text(1), seq: statement.int(2), at: Double(statement.int(3)))
            found[statement.text(0), default: []].append(answer)
        }
        return found
    }

    private func write(_ saved: SavedStack, room name: String, over old: WrittenRoom?) throws(SQLiteError)
        -> WrittenRoom
    {
        let tilt = { (index: Int) in index < saved.tilts.count ? saved.tilts[index] : 0 }
        var room: WrittenRoom
        if let old, let head = Self.turn(of: old, into: saved.order) {
            room = old
            room.head = head
            let count = old.cycle.count
            for index in 0..<count where tilt(index) != old.tilts[(head + index) % count] {
                let slot = (head + index) % count
                try updateTilt.run([.text(name), .integer(slot), .integer(tilt(index))])
                cardRowsWritten += 1
                room.tilts[slot] = tilt(index)
            }
        } else {
            room = WrittenRoom(
                style: saved.style.rawValue, head: 0, cycle: saved.order, tilts: saved.order.indices.map(tilt),
                removed: old?.removed ?? [])
            try deleteCards.run([.text(name)])
            for (slot, photo) in saved.order.enumerated() {
                try insertCard.run([.text(name), .integer(slot), .text(photo), .integer(tilt(slot))])
            }
            cardRowsWritten += saved.order.count
        }
        room.style = saved.style.rawValue
        room.swipeStacked = saved.swipeStacked
        room.paused = saved.paused
        // A slot, like the front: turning the cycle leaves it as it is.
        room.first = saved.first.flatMap { $0 < room.cycle.count ? (room.head + $0) % room.cycle.count : nil }
        let flagsOrFrontChanged =
            old?.style != room.style || old?.swipeStacked != room.swipeStacked || old?.head != room.head
            || old?.first != room.first || old?.paused != room.paused
        if old == nil || flagsOrFrontChanged || old?.cycle.count != room.cycle.count {
            try upsertRoom.run([
                .text(name), .text(room.style), .integer(room.swipeStacked ? 1 : 0), .integer(room.head),
                .integer(room.first ?? -1), .integer(room.paused.map { $0 ? 1 : 0 } ?? -1),
            ])
        }
        let removed = Set(saved.removed)
        if removed != room.removed || old == nil {
            try deleteRemoved.run([.text(name)])
            for photo in removed.sorted() { try insertRemoved.run([.text(name), .text(photo)]) }
            room.removed = removed
        }
        return room
    }

    /// Where `order` starts in `room`'s cycle if it is the same cycle turned (or unturned), else nil.
    /// - Complexity: O(n).
    private static func turn(of room: WrittenRoom, into order: [String]) -> Int? {
        let count = room.cycle.count
        guard count == order.count else { return nil }
        guard let first = order.first else { return 0 }
        guard let head = room.firstSlot[first] else { return nil }
        for index in 0..<count where room.cycle[(head + index) % count] != order[index] { return nil }
        return head
    }

    private func readRooms() throws(SQLiteError) -> [String: WrittenRoom] {
        var rooms: [String: WrittenRoom] = [:]
        let roomRows = try database.prepare(
            "SELECT name, style, head, swipe_stacked, coalesce(first_slot, -1), coalesce(paused, -1) FROM rooms"
        ).bind([])
        let cards = try database.prepare("SELECT photo, tilt FROM room_cards WHERE room = ?1 ORDER BY slot")
        let removedRows = try database.prepare("SELECT photo FROM room_removed WHERE room = ?1")
        while try roomRows.step() {
            let name = roomRows.text(0)
            var (cycle, tilts, removed) = ([String](), [Int](), Set<String>())
            try cards.bind([.text(name)])
            while try cards.step() {
                cycle.append(cards.text(0))
                tilts.append(cards.int(1))
            }
            try removedRows.bind([.text(name)])
            while try removedRows.step() { removed.insert(removedRows.text(0)) }
            let head = cycle.isEmpty ? 0 : min(max(roomRows.int(2), 0), cycle.count - 1)
            rooms[name] = WrittenRoom(
                style: roomRows.text(1), head: head, cycle: cycle, tilts: tilts, removed: removed)
            rooms[name]?.swipeStacked = roomRows.int(3) != 0
            rooms[name]?.first = roomRows.int(4) >= 0 ? roomRows.int(4) : nil
            rooms[name]?.paused = roomRows.int(5) >= 0 ? roomRows.int(5) != 0 : nil
        }
        return rooms
    }
}
