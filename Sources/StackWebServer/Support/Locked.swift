import Foundation

/// A value guarded by a lock; the only way in is `withLock`.
///
/// Built on `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: on Linux the latter
/// waits on raw futexes that ThreadSanitizer does not model, so it reports races between accesses
/// that the lock does order. With pthreads, TSan checks this code for real.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
