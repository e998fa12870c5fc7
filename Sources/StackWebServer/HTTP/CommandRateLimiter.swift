import Foundation

/// A token bucket per client address for command POSTs. A token holder may drive every room, and
/// each command fans out to every viewer of one (a `next` at 217/s sent 923 MB to 50 viewers in
/// 8 s); a person at the keyboard, a key held down included, stays well inside it.
///
/// Keyed by the socket's address, which a client cannot choose; every holder shares the one
/// token, so the address is what tells holders apart.
final class CommandRateLimiter: Sendable {
    /// Commands one address may send at once, and per second over time.
    let burst: Double
    let perSecond: Double
    /// Buckets remembered before the full ones are forgotten (a full bucket carries no state).
    static let maxTracked = 1024

    private struct Bucket {
        var tokens: Double
        var at: Double
    }

    private let buckets = Locked<[String: Bucket]>([:])
    private let now: @Sendable () -> Double

    /// `now` in seconds, from any fixed origin (monotonic by default; the tests pass their own).
    init(burst: Double = 30, perSecond: Double = 10, now: @escaping @Sendable () -> Double = CommandRateLimiter.uptime)
    {
        self.burst = burst
        self.perSecond = perSecond
        self.now = now
    }

    /// The limiter `limits` ask for; `nil` when they set none.
    convenience init?(_ limits: ServerLimits) {
        guard limits.commandsPerSecond > 0 else { return nil }
        self.init(burst: limits.commandBurst, perSecond: limits.commandsPerSecond)
    }

    /// Takes one command from `address`'s bucket; otherwise the seconds until one is there.
    func take(from address: String) -> Double? {
        let time = now()
        return buckets.withLock { buckets in
            let tokens = buckets[address].map { min(burst, $0.tokens + max(0, time - $0.at) * perSecond) } ?? burst
            guard tokens >= 1 else {
                buckets[address] = Bucket(tokens: tokens, at: time)
                return (1 - tokens) / perSecond
            }
            buckets[address] = Bucket(tokens: tokens - 1, at: time)
            if buckets.count > Self.maxTracked {
                let refill = burst / perSecond
                buckets = buckets.filter { time - $0.value.at < refill }
            }
            return nil
        }
    }

    /// The 429 a command past the limit gets, or `nil` when it may go on.
    func refusal(for request: Request) -> Response? {
        guard let wait = take(from: request.client) else { return nil }
        var response = Response.error(
            429, "more than \(Int(perSecond)) commands a second from one address; try again shortly")
        response.headers.append(("Retry-After", String(max(1, Int(wait.rounded(.up))))))
        return response
    }

    @Sendable static func uptime() -> Double { ProcessInfo.processInfo.systemUptime }
}
