/// How many uploads run at once, from one address and in all, and how many photos each address
/// may send a minute. Time is passed in, so the rule is tested without a clock.
struct UploadLimiter: Sendable {
    enum Refusal: Equatable, Sendable {
        case tooManyAtOnce
        case serverBusy
        case tooFast(retryAfter: Int)
    }

    let perAddress: Int
    let total: Int
    /// Photos a minute per address, after a burst of as many.
    let perMinute: Double

    private var running: [String: Int] = [:]
    private var runningTotal = 0
    private var buckets: [String: (tokens: Double, at: Double)] = [:]

    init(perAddress: Int, total: Int, perMinute: Double) {
        self.perAddress = perAddress
        self.total = total
        self.perMinute = perMinute
    }

    /// Takes a slot for an upload from `address` at `now` (seconds), or says why not. A refused
    /// upload costs the address no photo of its rate.
    mutating func admit(_ address: String, at now: Double) -> Refusal? {
        if running[address, default: 0] >= perAddress { return .tooManyAtOnce }
        if runningTotal >= total { return .serverBusy }
        if perMinute > 0 {
            let perSecond = perMinute / 60
            let tokens = buckets[address].map { min(perMinute, $0.tokens + (now - $0.at) * perSecond) } ?? perMinute
            guard tokens >= 1 else { return .tooFast(retryAfter: Int(((1 - tokens) / perSecond).rounded(.up))) }
            buckets[address] = (tokens - 1, now)
            // Addresses whose bucket has filled again need no entry.
            if buckets.count > 4096 { buckets = buckets.filter { (now - $0.value.at) * perSecond < perMinute } }
        }
        running[address, default: 0] += 1
        runningTotal += 1
        return nil
    }

    /// Gives back the slot `admit` took.
    mutating func release(_ address: String) {
        let left = running[address, default: 1] - 1
        running[address] = left > 0 ? left : nil
        runningTotal -= 1
    }
}
