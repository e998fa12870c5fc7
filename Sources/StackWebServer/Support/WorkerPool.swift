import Foundation

/// A fixed number of threads working through a bounded queue of jobs.
///
/// Used instead of a concurrent dispatch queue wherever jobs may block (opening a file on a slow
/// share, decoding a photo): Dispatch adds threads while its workers block, so a burst of requests
/// could grow the process to dozens of threads. Here the thread count is fixed at start, and a job
/// that finds the queue full is refused at once, so the caller can answer "busy" instead of queueing
/// without end. The threads end when the pool is released, after the jobs already queued.
final class WorkerPool: Sendable {
    let threads: Int
    /// Jobs waiting for a thread at most (not counting those running).
    let capacity: Int
    private let jobs: Jobs

    init(name: String, threads: Int, capacity: Int) {
        precondition(threads > 0 && capacity >= 0)
        self.threads = threads
        self.capacity = capacity
        jobs = Jobs(capacity: capacity)
        for number in 0..<threads {
            // The threads hold the queue, not the pool: releasing the pool ends them.
            let thread = Thread { [jobs] in jobs.work() }
            thread.name = "\(name)-\(number)"
            thread.start()
        }
    }

    deinit { jobs.close() }

    /// Jobs waiting now (for tests and metrics).
    var queued: Int { jobs.queued }

    /// Queues `job`; `false` (and the job dropped) when `capacity` jobs are already waiting.
    @discardableResult
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        jobs.submit(job)
    }

    /// The queue the threads share, guarded by its condition.
    private final class Jobs: @unchecked Sendable {
        let capacity: Int
        private let condition = NSCondition()
        private var waiting: [@Sendable () -> Void] = []
        private var head = 0
        private var closed = false

        init(capacity: Int) { self.capacity = capacity }

        var queued: Int {
            condition.lock()
            defer { condition.unlock() }
            return waiting.count - head
        }

        func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            guard !closed, waiting.count - head < capacity else { return false }
            waiting.append(job)
            condition.signal()
            return true
        }

        func close() {
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
        }

        func work() {
            while let job = next() { job() }
        }

        /// The next job, waiting for one; `nil` once the pool is closed and nothing is left.
        private func next() -> (@Sendable () -> Void)? {
            condition.lock()
            defer { condition.unlock() }
            while head == waiting.count {
                if closed { return nil }
                condition.wait()
            }
            let job = waiting[head]
            head += 1
            // Drops the consumed prefix now and then, so the array does not grow for ever.
            if head > 64, head * 2 > waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            return job
        }
    }
}
