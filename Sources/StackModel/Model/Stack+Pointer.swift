/// Pointer samples: the recognizer's outcomes applied to the top card.
extension Stack {
    mutating func pointerReceived(_ input: PointerInput, at now: Millis) {
        let grabbable = grabbableTop(at: now)
        let outcome = recognizer.handle(input, at: now) { point in grabbable?.contains(point) ?? false }
        gestureRecognized(outcome, at: now)
    }

    mutating func gestureRecognized(_ outcome: GestureRecognizer.Outcome, at now: Millis) {
        switch outcome {
        case .none:
            break
        case .began(let point):
            grabTop(at: point, now: now)
        case .moved(let point):
            dragHeldCard(to: point)
        case .tapped:
            if let card = grab?.card { cards[card].highlight.toggle() }
            releaseHeldCard(velocity: .zero, now: now)
        case .doubleTapped, .cancelled:
            releaseHeldCard(velocity: .zero, now: now)
        case .released(let start, let end, let velocity):
            dragHeldCard(to: end)
            throwOrReturnHeldCard(translation: end - start, velocity: velocity, now: now)
        }
    }

    /// Ends a gesture the stack changed under (a command), returning the card to its place.
    mutating func abandonGesture(at now: Millis) {
        guard recognizer.isActive else { return }
        recognizer.abandon()
        releaseHeldCard(velocity: .zero, now: now)
    }

    /// The top card where viewers see it now; nil while it flies off (a one-card stack's only card).
    private func grabbableTop(at now: Millis) -> CardTransform? {
        guard let top = order.first, motions[top]?.phase != .flyingOut else { return nil }
        return displayed(top, at: now)
    }

    /// Holds the top card where it is now (mid-animation included), straightened.
    private mutating func grabTop(at point: Point, now: Millis) {
        guard let top = order.first else { return }
        var held = displayed(top, at: now)
        held.rotation = 0
        motions[top] = CardMotion(phase: .held, target: held, animation: nil)
        grab = Grab(card: top, offset: Point(x: held.x - point.x, y: held.y - point.y))
    }

    private mutating func dragHeldCard(to point: Point) {
        guard let grab, var motion = motions[grab.card] else { return }
        motion.target.x = point.x + grab.offset.x
        motion.target.y = point.y + grab.offset.y
        motions[grab.card] = motion
    }

    private mutating func throwOrReturnHeldCard(translation: Point, velocity: Point, now: Millis) {
        guard let grab, let held = motions[grab.card]?.target else { return }
        let rule = FlickRule(cardWidth: held.w * held.scaleX, cardHeight: held.h * held.scaleY)
        guard grab.card == order.first,
            let direction = rule.flightDirection(translation: translation, velocity: velocity)
        else {
            releaseHeldCard(velocity: velocity, now: now)
            return
        }
        self.grab = nil
        sendTopToBack(from: held, toward: direction, speed: max(0, velocity.dot(direction)), retilt: true, now: now)
    }

    /// Springs the held card back to its resting place, starting at the pointer's `velocity`.
    private mutating func releaseHeldCard(velocity: Point, now: Millis) {
        guard let grab else { return }
        self.grab = nil
        guard let held = motions[grab.card]?.target else { return }
        let rest = restTransform(of: grab.card)
        let way = Point(x: rest.x - held.x, y: rest.y - held.y)
        let squaredDistance = way.dot(way)
        // Points per second along the way home, over the way's length: progress units per second.
        let progressVelocity = squaredDistance > 0 ? velocity.dot(way) / squaredDistance : 0
        animate(grab.card, from: held, to: rest, layout.springBack, velocity: progressVelocity, now: now)
    }
}
