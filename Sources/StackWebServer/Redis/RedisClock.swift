import Dispatch
import Foundation

/// Redis's clock as seen from this process: the offset between Redis's `TIME` and this machine's
/// wall clock, measured now and then on a connection. Deadlines sent to scripts are in Redis's
/// time, so a command Redis runs late (it was frozen, or the network held it) is refused by the
/// script itself, whatever this machine's clock says.
final class RedisClock: Sendable {
    /// How long a measured offset is trusted.
    static let remeasureAfter: UInt64 = 10_000_000_000

    private struct Reading {
        var offset: Int64
        var measuredAt: UInt64
    }

    private let reading = Locked<Reading?>(nil)

    init() {}

    /// Redis's time now in milliseconds, measuring the offset first on `connection` when it is
    /// unknown or stale.
    func now(on connection: RedisConnection) throws(RedisError) -> Int64 {
        let uptime = DispatchTime.now().uptimeNanoseconds
        if let known = reading.withLock({ $0 }), uptime - known.measuredAt < Self.remeasureAfter {
            return Self.wallMilliseconds() + known.offset
        }
        let sent = Self.wallMilliseconds()
        let reply = try connection.command("TIME")
        let received = Self.wallMilliseconds()
        guard let parts = reply.array, parts.count == 2, let seconds = parts[0].text.flatMap(Int64.init),
            let micros = parts[1].text.flatMap(Int64.init)
        else { throw .unexpected("TIME gave no time") }
        let redisMilliseconds = seconds * 1000 + micros / 1000
        // Redis read its clock somewhere in the round trip: its middle is the best guess.
        let offset = redisMilliseconds - (sent + received) / 2
        reading.withLock { $0 = Reading(offset: offset, measuredAt: uptime) }
        return Self.wallMilliseconds() + offset
    }

    /// Redis's time now as last measured, without asking Redis (`nil` before a first measure): what
    /// a caller that must not wait on the network can use.
    func estimate() -> Int64? {
        reading.withLock { $0 }.map { Self.wallMilliseconds() + $0.offset }
    }

    private static func wallMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
