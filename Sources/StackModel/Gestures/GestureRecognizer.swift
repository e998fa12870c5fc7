/// Turns pointer samples into taps, double taps and drags of whatever the style lets a pointer grab.
///
/// One gesture at a time: the (viewer, pointer) whose `down` started it owns it, and every other
/// pointer and viewer is ignored until it ends, so nobody can hijack a drag. Samples may arrive out of
/// order by page time `t`: each joins the velocity fit in time order, but the dragged position only
/// follows a sample at least as new as the newest applied, and a release happens at the newest sample.
struct GestureRecognizer: Sendable, Equatable {
    /// Movement under 10 pt and a press under 300 ms make a tap (the usual platform slop and timeout;
    /// these and the constants below: docs/styles.md).
    static let tapSlop = 10.0
    static let tapDuration: Millis = 300
    /// A second tap whose down comes under 300 ms after the first tap's up, under 30 pt from the first
    /// tap's down, is a double tap.
    static let doubleTapInterval: Millis = 300
    static let doubleTapSlop = 30.0
    /// A gesture that hears nothing from its pointer for 3 s of server time lost its `up`: a page that
    /// is still dragging posts moves every frame, while a tab closed mid-drag posts nothing again.
    static let timeout: Millis = 3000

    enum Outcome: Sendable, Equatable {
        /// Not for this recognizer, or nothing to show (an out-of-order move).
        case none
        case began(at: Point)
        case moved(to: Point)
        case tapped(at: Point)
        case doubleTapped(at: Point)
        /// A drag ended by lifting the pointer at `end`, after moving from `start`.
        case released(start: Point, end: Point, velocity: Point)
        case cancelled
    }

    private struct Owner: Sendable, Equatable {
        var viewer: String
        var pointer: Int
    }

    private struct Gesture: Sendable, Equatable {
        var owner: Owner
        var down: PointerSample
        var newest: PointerSample
        /// Samples still inside the velocity window, in time order.
        var recent: [PointerSample]
        var farthest: Double
        /// Server time of the last sample heard.
        var heardAt: Millis
        var followsTap: Bool
    }

    private struct Tap: Sendable, Equatable {
        var viewer: String
        var down: Point
        var upAt: Millis
    }

    private var gesture: Gesture?
    private var lastTap: Tap?
    private let velocityFit = VelocityFit.standard

    var isActive: Bool { gesture != nil }

    /// The viewer whose pointer owns the gesture in progress: every other pointer is ignored.
    var holder: String? { gesture?.owner.viewer }

    /// Server time at which the current gesture times out.
    var deadline: Millis? { gesture.map { $0.heardAt + Self.timeout } }

    /// Feeds one sample received at server time `now`; `grabs` says whether a `down` there starts a gesture.
    mutating func handle(_ input: PointerInput, at now: Millis, grabs: (Point) -> Bool) -> Outcome {
        let owner = Owner(viewer: input.viewer, pointer: input.pointer)
        let sample = PointerSample(point: Point(x: input.x, y: input.y), t: input.t)
        if let gesture, gesture.owner != owner { return .none }
        switch input.phase {
        case .down:
            // The owner's clock only goes forward: a press no newer than a sample its drag already
            // followed is a batch delivered twice (a retried POST), not a new press after a lost up.
            if let gesture, sample.t <= gesture.newest.t { return .none }
            return pointerWentDown(owner, sample, at: now, grabs: grabs)
        case .move:
            guard gesture != nil else { return .none }
            return record(sample, at: now) ? .moved(to: sample.point) : .none
        case .up:
            guard gesture != nil else { return .none }
            record(sample, at: now)
            return pointerWentUp()
        case .cancel:
            guard gesture != nil else { return .none }
            end()
            return .cancelled
        }
    }

    /// Cancels the gesture when its pointer has been silent since `deadline`.
    mutating func expire(at now: Millis) -> Outcome {
        guard let deadline, now >= deadline else { return .none }
        end()
        return .cancelled
    }

    /// Ends the gesture without an outcome (the stack changed under it).
    mutating func abandon() { end() }

    /// Starts a gesture on the target. A `down` from the owner mid-gesture means its `up` was lost:
    /// the new press regrabs if it lands on the target, and cancels the gesture otherwise.
    private mutating func pointerWentDown(
        _ owner: Owner, _ sample: PointerSample, at now: Millis, grabs: (Point) -> Bool
    ) -> Outcome {
        guard grabs(sample.point) else {
            guard gesture != nil else { return .none }
            end()
            return .cancelled
        }
        // The last tap pairs with this press or with none: a regrab finds it already consumed.
        let followsTap =
            lastTap.map {
                $0.viewer == owner.viewer && sample.t - $0.upAt < Self.doubleTapInterval
                    && (sample.point - $0.down).length < Self.doubleTapSlop
            } ?? false
        lastTap = nil
        gesture = Gesture(
            owner: owner, down: sample, newest: sample, recent: [sample], farthest: 0, heardAt: now,
            followsTap: followsTap)
        return .began(at: sample.point)
    }

    /// Adds a sample of the current gesture; true when it is the newest, so the drag follows it.
    @discardableResult
    private mutating func record(_ sample: PointerSample, at now: Millis) -> Bool {
        // Taken out, not copied, so that its sample array is not copied on insertion.
        guard var current = gesture.take() else { return false }
        current.heardAt = now
        current.farthest = max(current.farthest, (sample.point - current.down.point).length)
        let index = current.recent.lastIndex { $0.t <= sample.t }.map { $0 + 1 } ?? 0
        current.recent.insert(sample, at: index)
        let isNewest = sample.t >= current.newest.t
        if isNewest { current.newest = sample }
        // Nothing older than the window before the newest sample can reach a release's fit.
        let oldest = current.newest.t - velocityFit.window
        current.recent.removeAll { $0.t < oldest }
        gesture = current
        return isNewest
    }

    private mutating func pointerWentUp() -> Outcome {
        guard let finished = gesture else { return .none }
        end()
        let isTap = finished.farthest < Self.tapSlop && finished.newest.t - finished.down.t < Self.tapDuration
        guard isTap else {
            let velocity = velocityFit.velocity(of: finished.recent, endingAt: finished.newest.t)
            return .released(start: finished.down.point, end: finished.newest.point, velocity: velocity)
        }
        if finished.followsTap { return .doubleTapped(at: finished.down.point) }
        lastTap = Tap(viewer: finished.owner.viewer, down: finished.down.point, upAt: finished.newest.t)
        return .tapped(at: finished.down.point)
    }

    private mutating func end() {
        gesture = nil
        lastTap = nil
    }
}
