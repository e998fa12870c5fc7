/// The part of the uploads' quota one upload in flight holds: its declared length at admission
/// (or, for a chunked body, what has come so far and a step more), given back when it ends, by
/// which time its bytes are stored or gone. So sixteen uploads at once cannot each compare with
/// what was stored when they started and together pass the quota sixteen times over.
final class QuotaHold: Sendable {
    /// What a chunked body holds beyond its bytes so far, so that not every piece takes the lock.
    static let step: Int64 = 1024 * 1024

    private let stored: Locked<StoredUploads>
    private let quota: Int64
    private let bytes = Locked<Int64>(0)

    init(stored: Locked<StoredUploads>, quota: Int64) {
        self.stored = stored
        self.quota = quota
    }

    /// Grows the hold to `wanted` bytes if the quota leaves room; whether it holds that many now.
    func grow(to wanted: Int64) -> Bool {
        bytes.withLock { bytes in
            guard wanted > bytes else { return true }
            guard stored.withLock({ $0.hold(wanted - bytes, within: quota) }) else { return false }
            bytes = wanted
            return true
        }
    }

    /// Gives back all it holds; safe to call more than once.
    func release() {
        let amount = bytes.withLock { bytes in
            defer { bytes = 0 }
            return bytes
        }
        stored.withLock { $0.release(held: amount) }
    }
}
