import StackModel

/// A token bucket per viewer: a flood of pointer samples from one page is refused (429) before it
/// reaches the model, while a real pen at 240 Hz never comes near the limit.
struct PointerRateLimiter {
    /// Samples a viewer may send at once, and per second over time.
    static let burst = 600.0
    static let perSecond = 300.0
    /// Viewers remembered before the quiet ones are forgotten (a full bucket carries no state).
    static let maxTracked = 1024

    private var buckets: [String: (tokens: Double, at: Millis)] = [:]

    /// Takes `count` samples from `viewer`'s bucket; `false` (and nothing taken) if there are too few.
    mutating func allow(_ count: Int, from viewer: String, at now: Millis) -> Bool {
        let last = buckets[viewer] ?? (Self.burst, now)
        let tokens = min(Self.burst, last.tokens + max(0, now - last.at) / 1000 * Self.perSecond)
        guard Double(count) <= tokens else {
            buckets[viewer] = (tokens, now)
            return false
        }
        buckets[viewer] = (tokens - Double(count), now)
        if buckets.count > Self.maxTracked { forgetRefilled(at: now) }
        return true
    }

    private mutating func forgetRefilled(at now: Millis) {
        let refillTime = Self.burst / Self.perSecond * 1000
        buckets = buckets.filter { now - $0.value.at < refillTime }
    }
}
