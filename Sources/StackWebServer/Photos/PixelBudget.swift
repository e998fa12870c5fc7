/// Runs image conversions so that both their number and the pixels they decode stay bounded:
/// eight first requests for 108 MP originals must not decode eight of them at once.
///
/// Each job states its cost in decoded megapixels (after shrink-on-load); jobs start in the order
/// they came while at most `maxRunning` run and their costs fit in `budget`. A job costlier than the
/// whole budget runs alone. Nothing waits on a thread: a job that does not fit waits in a queue of
/// at most `maxWaiting`, and past that it is refused (the caller answers "busy"). The jobs run on
/// `maxRunning` threads made once.
///
/// Jobs costlier than `largeCost` go to a lane of their own: one at a time, on one of the threads
/// at most, outside the budget, in a queue of at most `maxWaitingLarge`. So a photo that takes
/// seconds to decode never holds up the others: they neither queue behind it nor wait for the
/// budget it holds, and always have a thread.
final class PixelBudget: Sendable {
    let budget: Double
    let maxRunning: Int
    let maxWaiting: Int
    let largeCost: Double
    let maxWaitingLarge: Int

    private struct Waiting {
        var cost: Double
        var job: @Sendable () -> Void
    }

    private struct State {
        var used = 0.0
        var running = 0
        var waiting: [Waiting] = []
        var largeRunning = false
        var largeWaiting: [Waiting] = []
        /// The most megapixels in flight so far: what the tests check.
        var peak = 0.0
    }

    private let state = Locked(State())
    /// A job is handed over only when fewer than `maxRunning` run, so the pool's queue never fills.
    private let threads: WorkerPool

    init(
        budget: Double, maxRunning: Int, maxWaiting: Int = .max, largeCost: Double = .infinity,
        maxWaitingLarge: Int = 4
    ) {
        self.budget = budget
        self.maxRunning = maxRunning
        self.maxWaiting = maxWaiting
        self.largeCost = largeCost
        self.maxWaitingLarge = maxWaitingLarge
        threads = WorkerPool(name: "stackweb-convert", threads: maxRunning, capacity: maxRunning)
    }

    var peak: Double { state.withLock { $0.peak } }
    /// Jobs waiting for their turn now.
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// Runs `job` when it fits; `false` (and `job` dropped) when its lane's queue is full already.
    @discardableResult
    func run(cost: Double, _ job: @escaping @Sendable () -> Void) -> Bool {
        let large = cost > largeCost
        let queued = state.withLock { state -> Bool in
            if large {
                guard state.largeWaiting.count < maxWaitingLarge else { return false }
                state.largeWaiting.append(Waiting(cost: 0, job: job))
                return true
            }
            guard state.waiting.count < maxWaiting else { return false }
            state.waiting.append(Waiting(cost: min(max(cost, 0), budget), job: job))
            return true
        }
        if queued { startWhatFits() }
        return queued
    }

    private func startWhatFits() {
        let ready = state.withLock { state -> [(Waiting, large: Bool)] in
            var ready: [(Waiting, large: Bool)] = []
            while let next = state.waiting.first, state.running < maxRunning, state.used + next.cost <= budget {
                state.waiting.removeFirst()
                state.used += next.cost
                state.running += 1
                state.peak = max(state.peak, state.used)
                ready.append((next, false))
            }
            // Never the last free thread while others wait for one.
            if !state.largeRunning, let next = state.largeWaiting.first,
                state.running < maxRunning - (state.waiting.isEmpty ? 0 : 1) || state.running == 0
            {
                state.largeWaiting.removeFirst()
                state.largeRunning = true
                state.running += 1
                ready.append((next, true))
            }
            return ready
        }
        for (waiting, large) in ready {
            threads.submit { [self] in
                waiting.job()
                state.withLock {
                    $0.used -= waiting.cost
                    $0.running -= 1
                    if large { $0.largeRunning = false }
                }
                startWhatFits()
            }
        }
    }

    /// Megapixels libvips decodes to fit a `header`'s image into `width` × `height`: JPEG shrinks on
    /// load by 2, 4 or 8 and WebP by any factor, unless progressive or interlaced (decoded whole);
    /// other formats (PNG, TIFF, GIF, HEIC's main image) are decoded at full size.
    static func decodedMegapixels(
        storedWidth: Int, storedHeight: Int, uprightWidth: Int, uprightHeight: Int, loader: String, interlaced: Bool,
        width: Int, height: Int
    ) -> Double {
        let full = Double(storedWidth) * Double(storedHeight)
        guard uprightWidth > 0, uprightHeight > 0, !interlaced else { return full / 1e6 }
        let scale = min(1, Double(width) / Double(uprightWidth), Double(height) / Double(uprightHeight))
        switch loader {
        case "jpegload":
            let shrink = [8.0, 4, 2].first { 1 / $0 >= scale } ?? 1
            return (Double(storedWidth) / shrink).rounded(.up) * (Double(storedHeight) / shrink).rounded(.up) / 1e6
        case "webpload":
            return full * scale * scale / 1e6
        default:
            return full / 1e6
        }
    }
}
