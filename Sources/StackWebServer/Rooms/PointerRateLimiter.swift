import StackModel

/// Token buckets for pointer samples: one per client address — what a client cannot choose — and,
/// inside it, one per viewer (the page's own id, which a client can choose freely). A flood is
/// refused (429) before it reaches the model, however many viewer ids it rotates through, while a
/// real pen at 240 Hz never comes near either limit.
struct PointerRateLimiter {
    /// Samples one viewer may send at once, and per second over time.
    static let viewerBurst = 600.0
    static let viewerPerSecond = 300.0
    /// Samples one address may send at once and per second: a few pages drawing at once (a device
    /// with two windows, a classroom behind one NAT) fit; a flood with rotating viewer ids does not.
    static let addressBurst = 2400.0
    static let addressPerSecond = 1200.0
    /// Buckets remembered before the quiet ones are forgotten (a full bucket carries no state).
    static let maxTracked = 1024

    private struct Bucket {
        var tokens: Double
        var at: Millis
    }

    private var addresses: [String: Bucket] = [:]
    private var viewers: [String: Bucket] = [:]

    /// Takes `count` samples from the address's bucket and the viewer's; `false` (and nothing
    /// taken) if either has too few.
    mutating func allow(_ count: Int, from viewer: String, at address: String, now: Millis) -> Bool {
        let viewerKey = address + " " + viewer
        let addressTokens = Self.refilled(
            addresses[address], burst: Self.addressBurst, perSecond: Self.addressPerSecond, now: now)
        let viewerTokens = Self.refilled(
            viewers[viewerKey], burst: Self.viewerBurst, perSecond: Self.viewerPerSecond, now: now)
        let wanted = Double(count)
        let allowed = wanted <= addressTokens && wanted <= viewerTokens
        let taken = allowed ? wanted : 0
        addresses[address] = Bucket(tokens: addressTokens - taken, at: now)
        viewers[viewerKey] = Bucket(tokens: viewerTokens - taken, at: now)
        if addresses.count > Self.maxTracked || viewers.count > Self.maxTracked { forgetRefilled(at: now) }
        return allowed
    }

    private static func refilled(_ bucket: Bucket?, burst: Double, perSecond: Double, now: Millis) -> Double {
        guard let bucket else { return burst }
        return min(burst, bucket.tokens + max(0, now - bucket.at) / 1000 * perSecond)
    }

    /// Drops buckets that have had time to fill up again: they hold nothing a new one would not.
    private mutating func forgetRefilled(at now: Millis) {
        let viewerRefill = Self.viewerBurst / Self.viewerPerSecond * 1000
        let addressRefill = Self.addressBurst / Self.addressPerSecond * 1000
        viewers = viewers.filter { now - $0.value.at < viewerRefill }
        addresses = addresses.filter { now - $0.value.at < addressRefill }
    }
}
