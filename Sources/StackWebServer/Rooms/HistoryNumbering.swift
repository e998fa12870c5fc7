import StackModel

/// How a room's events are numbered, so that an id never names two events — across restarts of a
/// single server, across takeovers in a group, and across a group's Redis that came back empty.
///
/// Whoever starts numbering a room (a server at start, an owner taking its lease) starts from the
/// clock — the milliseconds since 2026-01-01 UTC, times `idsPerMillisecond` — or from the last id
/// it knows of, if that is larger, and numbers each event one above the last. A room numbers far
/// fewer than a thousand events a millisecond (pointer input is rate-limited), so numbering never
/// overtakes the clock, and a later start is above every id numbered before it even when every
/// record of them was lost (a Redis restarted without persistence, a state file deleted): the clock
/// is what survives. In a group the clock is Redis's, the one clock every instance shares. Ids stay
/// below 2^53 (exact as JSON numbers in a page) until the year 2311.
enum HistoryNumbering {
    /// Ids a start leaves room for per millisecond since the last one.
    static let idsPerMillisecond = 1000
    /// 2026-01-01T00:00:00Z in Unix milliseconds.
    static let clockOrigin: Int64 = 1_767_225_600_000

    /// Where the clock says numbering starts at `now` (server time, ms since the Unix epoch); 0
    /// before 2026.
    static func clockStart(at now: Millis) -> Int {
        max(0, Int(now.rounded(.down)) - Int(clockOrigin)) * idsPerMillisecond
    }

    /// Where numbering starts at `now`, for a room whose last id known is `last`: its first event
    /// is one above.
    static func start(after last: Int, at now: Millis) -> Int {
        max(last, clockStart(at: now))
    }
}
