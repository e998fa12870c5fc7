/// Dragging: the cards a press takes follow the pointer as the style says, and a release throws the
/// top card away or returns them all.
extension Stack {
    /// Takes the layout's dragged layers where they are now (mid-animation included); the pressed
    /// card is held straight.
    mutating func takeCards(at point: Point, now: Millis) {
        let layers = order.prefix(min(count, layout.draggedLayers))
            .filter { motions[$0]?.phase != .flyingOut }
            .enumerated()
            .map { index, card in
                var base = displayed(card, at: now)
                if index == 0 { base.rotation = 0 }
                return Grab.Layer(card: card, base: base)
            }
        guard !layers.isEmpty else { return }
        for layer in layers {
            motions[layer.card] = CardMotion(phase: .held, target: layer.base, animation: nil)
        }
        grab = Grab(start: point, layers: layers, atFirstCard: order.first == firstCard)
    }

    /// Moves the taken cards with the pointer; past the layout's fly-out distance the top card goes.
    mutating func dragCards(to point: Point, now: Millis) {
        guard let grab else { return }
        let translation = point - grab.start
        let drag = Drag(start: grab.start, translation: translation, atFirstCard: grab.atFirstCard)
        for (index, layer) in grab.layers.enumerated() where motions[layer.card]?.phase == .held {
            motions[layer.card]?.target = layout.dragged(layer.base, layer: index, of: grab.layers.count, by: drag)
        }
        if let distance = layout.flyOutDistance, abs(translation.x) > distance {
            // The original deck disables its pan here: the gesture is over, whatever the pointer does next.
            recognizer.abandon()
            throwTopCard(toward: Point(x: translation.x > 0 ? 1 : -1, y: 0), speed: 0, now: now)
        }
    }

    /// On release: the top card flies if the flick rule says so (sideways only where the style
    /// throws sideways), else every taken card returns. A swipe right brings the previous card back.
    mutating func throwOrReturnCards(translation: Point, velocity: Point, now: Millis) {
        guard let grab, let held = motions[grab.card], held.phase == .held, grab.card == order.first else {
            releaseCards(velocity: velocity, now: now)
            return
        }
        let rule = FlickRule(
            cardWidth: held.target.w * held.target.scaleX, cardHeight: held.target.h * held.target.scaleY,
            pixelsPerPoint: grab.pixelsPerPoint)
        let sideways = layout.throwsSideways
        guard
            let direction = rule.flightDirection(
                translation: sideways ? Point(x: translation.x, y: 0) : translation,
                velocity: sideways ? Point(x: velocity.x, y: 0) : velocity)
        else {
            releaseCards(velocity: velocity, now: now)
            return
        }
        if style == .frame {
            // The frame's flick is its `next` or `previous`: the shown photos fade from where the
            // drag left them.
            releaseCards(velocity: .zero, now: now)
            if direction.x < 0 { goForward(now: now) } else { goBack(now: now) }
        } else if style == .swipe && direction.x > 0 {
            releaseCards(velocity: .zero, now: now)
            bringBottomToTopRecorded(now: now)
        } else {
            throwTopCard(toward: direction, speed: max(0, velocity.dot(direction)), now: now)
        }
    }

    /// The held top card flies off along `direction`; the other taken cards go to their new places.
    private mutating func throwTopCard(toward direction: Point, speed: Double, now: Millis) {
        guard let grab, let held = motions[grab.card]?.target else { return }
        self.grab = nil
        sendTopToBackRecorded(from: held, toward: direction, speed: speed, now: now)
        // The cards the pointer moved go on from where it left them at once: a delayed reflow (the
        // swipe's, which waits for the flight) would keep them still where the drag put them.
        let transition = layout.reflow
        for layer in grab.layers.dropFirst() where motions[layer.card]?.phase == .held {
            let from = motions[layer.card]?.target ?? layer.base
            animate(layer.card, from: from, to: restTransform(of: layer.card), transition, now: now)
        }
    }

    /// Returns every taken card to its place; the pressed one keeps the pointer's `velocity` along its
    /// way home if the style says so.
    mutating func releaseCards(velocity: Point, now: Millis) {
        guard let grab else { return }
        self.grab = nil
        for (index, layer) in grab.layers.enumerated() {
            guard let motion = motions[layer.card], motion.phase == .held else { continue }
            let held = motion.target
            let rest = restTransform(of: layer.card)
            var progressVelocity = 0.0
            if index == 0 && layout.springBackKeepsVelocity {
                let way = Point(x: rest.x - held.x, y: rest.y - held.y)
                let squaredDistance = way.dot(way)
                // Points per second along the way home, over the way's length: progress units per second.
                progressVelocity = squaredDistance > 0 ? velocity.dot(way) / squaredDistance : 0
            }
            animate(layer.card, from: held, to: rest, layout.springBack, velocity: progressVelocity, now: now)
        }
    }
}
