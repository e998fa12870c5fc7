/// How fast a streamed body (a guest's photo) must arrive: an upload holds one of the few upload
/// slots, so a body that trickles in (a byte every few seconds, forever) would keep every other
/// guest out. Past its first `graceSeconds`, an upload must have averaged `minimumBytesPerSecond`
/// since its head, and it must be whole within `deadlineSeconds` however fast it comes.
struct UploadPace: Sendable, Equatable {
    /// 16 KiB/s is 128 kbit/s: a phone on the worst Wi-Fi still sends that; a 12 MB photo takes
    /// 12 min at it, and the deadline says how long is too long whatever the rate.
    var minimumBytesPerSecond: Double = 16 * 1024
    /// Long enough for a phone's connection to get going (slow start, a Wi-Fi that wakes up).
    var graceSeconds: Double = 10
    /// 50 MB (the largest photo taken by default) in 10 min is 83 KB/s.
    var deadlineSeconds: Double = 600

    /// Whether an upload that has `received` bytes `elapsed` seconds after its head is behind.
    func isBehind(received: Int64, elapsed: Double) -> Bool {
        if elapsed > deadlineSeconds { return true }
        return elapsed > graceSeconds && Double(received) < minimumBytesPerSecond * elapsed
    }

    /// What a guest whose upload fell behind is told (408).
    var response: Response {
        .error(
            408,
            "this photo arrived too slowly (under \(Int(minimumBytesPerSecond) / 1024) KiB/s after its first "
                + "\(Int(graceSeconds)) s, or not whole within \(Int(deadlineSeconds)) s): "
                + "try again on a better connection")
    }
}
