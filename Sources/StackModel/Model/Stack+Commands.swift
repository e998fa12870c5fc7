/// Commands: what a finger can do, sent by a script or a key.
extension Stack {
    private static let left = Point(x: -1, y: 0)

    mutating func perform(_ command: StackCommand, at now: Millis) throws(StackError) {
        switch command {
        case .next:
            guard !order.isEmpty else { throw .emptyStack }
            abandonGesture(at: now)
            sendTopToBack(
                from: order.first.map { displayed($0, at: now) }, toward: Self.left, speed: 0, retilt: true, now: now)
        case .previous:
            guard !order.isEmpty else { throw .emptyStack }
            abandonGesture(at: now)
            bringBottomToTop(1, now: now)
        case .goto(let index):
            guard !order.isEmpty else { throw .emptyStack }
            guard cards.indices.contains(index) else { throw .indexOutOfRange(index: index, count: count) }
            abandonGesture(at: now)
            // Either way round keeps the cyclic order; the shorter way moves fewer cards.
            let position = position(of: index)
            if position <= count - position {
                sendToBack(position, now: now)
            } else {
                bringBottomToTop(count - position, now: now)
            }
        case .insert(let photo, let position):
            guard position >= 0 && position <= count else {
                throw .indexOutOfRange(index: position, count: count)
            }
            abandonGesture(at: now)
            insert(photo, at: position, now: now)
        }
    }

    /// Moves the top card to the bottom. A drawn card, seen at `from`, flies off the stage first along
    /// the unit vector `direction` at `speed` points per second, and slides back under the pile when
    /// its flight ends. A flicked card (`retilt`) lands with a new tilt, as the seed's `makeCrooked`.
    mutating func sendTopToBack(from: CardTransform?, toward direction: Point, speed: Double, retilt: Bool, now: Millis)
    {
        guard !order.isEmpty else { return }
        reflow = layout.reflowAfterSendingBack
        let card = moveTopToBottom()
        if retilt { cards[card].tilt = randomTilt() }
        travelling.removeAll { $0 == card }
        guard let from else {
            motions[card] = nil
            return
        }
        let target = layout.flightTarget(from: from, direction: direction)
        let distance = Point(x: target.x - from.x, y: target.y - from.y).length
        let velocity = distance > 0 ? speed / distance : 0
        guard let flight = layout.flight.animation(from: from, to: target, start: now, velocity: velocity) else {
            motions[card] = nil
            return
        }
        motions[card] = CardMotion(phase: .flyingOut, target: target, animation: flight)
        travelling.append(card)
    }

    /// `count` top cards to the bottom, in order; the drawn ones fly out left together, each from
    /// where it is seen before any of them moves. Tilts are kept.
    /// - Complexity: O(count) time, O(drawn cards) memory.
    private mutating func sendToBack(_ count: Int, now: Millis) {
        var seen: [Int: CardTransform] = [:]
        for card in drawnNumbers() where position(of: card) < count {
            seen[card] = displayed(card, at: now)
        }
        for _ in 0..<count {
            sendTopToBack(from: seen[order[0]], toward: Self.left, speed: 0, retilt: false, now: now)
        }
    }

    /// `count` bottom cards to the top, keeping their order. Those that end up drawn come in from off
    /// the stage's left edge, or from where they are if already moving. Tilts are kept.
    private mutating func bringBottomToTop(_ count: Int, now: Millis) {
        reflow = layout.reflowAfterBringingUp
        var arriving: [(card: Int, from: CardTransform?)] = []
        for step in 0..<count {
            let card = moveBottomToTop()
            travelling.removeAll { $0 == card }
            if count - 1 - step < layout.drawnLimit {
                arriving.append((card, motions[card].map { _ in displayed(card, at: now) }))
            } else {
                motions[card] = nil
            }
        }
        for (card, from) in arriving {
            let rest = restTransform(of: card)
            let start = from ?? layout.offStage(rest, direction: Self.left)
            animate(card, from: start, to: rest, layout.arrival, now: now)
        }
    }

    /// A new card with a new tilt; a drawn one fades in where it rests.
    private mutating func insert(_ photo: Photo, at position: Int, now: Millis) {
        let card = photos.count
        photos.append(photo)
        cards.append(Card(slot: 0, tilt: randomTilt(), highlight: false))
        insertCard(card, at: position)
        guard position < layout.drawnLimit else { return }
        let rest = restTransform(of: card)
        var transparent = rest
        transparent.opacity = 0
        animate(card, from: transparent, to: rest, .spring(.settle), now: now)
    }
}
