/// Reorders with their motions: cards leaving for the back, coming to the front, joining, leaving
/// the stack, shuffled.
extension Stack {
    /// Moves the top card to the bottom. A drawn card, seen at `from`, flies off the stage first along
    /// the unit vector `direction` at `speed` points per second, and lands at the back as its style
    /// says when its flight ends. A flicked card (`retilt`) lands with a new tilt.
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
    mutating func sendToBack(_ count: Int, now: Millis) {
        var seen: [Int: CardTransform] = [:]
        for card in drawnNumbers() where cards[card].isInStack && position(of: card) < count {
            seen[card] = displayed(card, at: now)
        }
        for _ in 0..<count {
            sendTopToBack(from: seen[order[0]], toward: Self.left, speed: 0, retilt: false, now: now)
        }
    }

    /// `count` bottom cards to the top, keeping their order. Those that end up drawn come in from off
    /// the stage's left edge, or from where they are if already moving. Tilts are kept.
    mutating func bringBottomToTop(_ count: Int, now: Millis) {
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
            let start = from ?? layout.arrivalStart(rest)
            animate(card, from: start, to: rest, layout.arrival, now: now)
        }
    }

    /// A new card with a new tilt; a drawn one fades in where it rests.
    /// - Returns: the new card's number.
    mutating func insert(_ photo: Photo, at position: Int, now: Millis) -> Int {
        let card = photos.count
        photos.append(photo)
        cards.append(Card(slot: 0, tilt: randomTilt()))
        insertCard(card, at: position)
        unseenCardInserted(card)
        if firstCard == nil { firstCard = card }
        fadeIn(card, from: nil, now: now)
        return card
    }

    /// Takes `card` out of the stack; a drawn one fades out where viewers see it, in front of or
    /// behind the same cards as before. The card after it becomes the first card if it was.
    /// - Returns: the position it had.
    @discardableResult
    mutating func remove(_ card: Int, now: Millis) -> Int {
        let position = position(of: card)
        let seen = seen(card, at: now)
        let z = drawnCard(card, at: now).z
        takeCard(at: position)
        unseenCardRemoved(card, from: position)
        cards[card].isInStack = false
        travelling.removeAll { $0 == card }
        if firstCard == card { firstCard = order.isEmpty ? nil : order[position % order.count] }
        motions[card] = nil
        guard let seen else { return position }
        var faded = seen
        faded.opacity = 0
        guard let fade = Transition.spring(.settle).animation(from: seen, to: faded, start: now) else {
            return position
        }
        motions[card] = CardMotion(phase: .departing, target: faded, animation: fade)
        departing.append(Departure(card: card, position: position, z: z))
        return position
    }

    /// Puts a removed card back at `position`, fading in from where it is if it is still fading out.
    mutating func reinsert(_ card: Int, at position: Int, now: Millis) {
        let from = departing.contains { $0.card == card } ? motions[card].map { _ in displayed(card, at: now) } : nil
        departing.removeAll { $0.card == card }
        cards[card].isInStack = true
        insertCard(card, at: position)
        unseenCardInserted(card)
        if firstCard == nil { firstCard = card }
        fadeIn(card, from: from, now: now)
    }

    /// A card just put at its place fades in there if drawn, from transparent or from `from`.
    mutating func fadeIn(_ card: Int, from: CardTransform?, now: Millis) {
        guard position(of: card) < layout.drawnLimit else {
            motions[card] = nil
            return
        }
        let rest = restTransform(of: card)
        var transparent = rest
        transparent.opacity = 0
        animate(card, from: from ?? transparent, to: rest, .spring(.settle), now: now)
    }

    /// A random order from `seed`; cards drawn before and after move to their new places, newly drawn
    /// ones fade in, the others stop being drawn. The history no longer applies and is cleared.
    /// - Complexity: O(count).
    mutating func shuffle(seed: UInt64, now: Millis) {
        let wereDrawn = Set(drawnNumbers())
        permuteOrder(seed: seed)
        firstCard = order.first
        forgetUnseenFirst()
        history.removeAll()
        for card in order.prefix(layout.drawnLimit) where !wereDrawn.contains(card) {
            fadeIn(card, from: nil, now: now)
        }
    }
}
