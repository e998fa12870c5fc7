import CVips
import Dispatch
import Foundation

extension PhotoInspector {
    /// Files read side by side: every core of a small machine (a first start on 20,000 photos is
    /// bound by these reads), at most 4, so that a big machine keeps cores for the viewers.
    static let workers = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// `inspect` on each of `paths`, `workers` files at a time; the results in the order of `paths`.
    ///
    /// Each thread opens its own images and lets go of what libvips kept for it when it is done;
    /// every pixel is pulled on the thread that asked (`CVips_verify`), so no libvips threadpool is
    /// started per file.
    /// - Complexity: O(paths), spread over `workers` threads; the calling thread is one of them.
    static func inspect(
        _ paths: [String], maxPixels: Int = defaultMaxPixels, workers: Int = workers
    ) -> [Result<Header, PhotoProblem>] {
        let results = Locked([Result<Header, PhotoProblem>?](repeating: nil, count: paths.count))
        let next = Locked(0)
        DispatchQueue.concurrentPerform(iterations: min(workers, paths.count)) { _ in
            defer { CVips_threadShutdown() }
            while true {
                let index = next.withLock { next in
                    defer { next += 1 }
                    return next
                }
                guard index < paths.count else { return }
                let result = inspect(paths[index], maxPixels: maxPixels)
                results.withLock { $0[index] = result }
            }
        }
        return results.withLock { $0 }.map { $0 ?? .failure(PhotoProblem(reason: "not read")) }
    }
}
