/// The state database's tables as version 3 made them (before the photo ids' secret and the kept
/// pause), for tests that open a database an older release left.
enum OldStateSchema {
    /// `paused`: with the column a later version adds, as a database brought up to date elsewhere has it.
    static func version3Tables(paused: Bool = false) -> String {
        """
        CREATE TABLE rooms (
            name TEXT PRIMARY KEY, style TEXT NOT NULL, swipe_stacked INTEGER NOT NULL,
            head INTEGER NOT NULL, first_slot INTEGER\(paused ? ", paused INTEGER" : "")) WITHOUT ROWID;
        CREATE TABLE room_cards (
            room TEXT NOT NULL, slot INTEGER NOT NULL, photo TEXT NOT NULL, tilt INTEGER NOT NULL,
            PRIMARY KEY (room, slot)) WITHOUT ROWID;
        CREATE TABLE room_removed (
            room TEXT NOT NULL, photo TEXT NOT NULL, PRIMARY KEY (room, photo)) WITHOUT ROWID;
        CREATE TABLE room_answers (
            room TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, at INTEGER NOT NULL,
            PRIMARY KEY (room, key)) WITHOUT ROWID;
        """
    }
}
