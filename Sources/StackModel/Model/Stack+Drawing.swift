/// What viewers draw, and what changed for them.
extension Stack {
    /// `"c"` and the card's number, written digit by digit: an interpolated `"c\(card)"` cost more
    /// than the rest of drawing the card. Up to 14 digits it is a small string, never allocated.
    static func id(of card: Int) -> CardID {
        guard card >= 0 else { return "c\(card)" }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var start = buffer.count
            var rest = card
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            start -= 1
            buffer[start] = UInt8(ascii: "c")
            return String(decoding: UnsafeMutableBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }

    /// The card number of `id`, if it names a card this stack ever had.
    func number(of id: CardID) -> Int? {
        guard id.first == "c", let number = Int(id.dropFirst()), String(number) == id.dropFirst(),
            cards.indices.contains(number)
        else { return nil }
        return number
    }

    /// The top cards in position order, then travelling cards below them, then cards fading out of
    /// the stack.
    func drawnNumbers() -> [Int] {
        let limit = min(order.count, layout.drawnLimit)
        let below = travelling.filter { position(of: $0) >= limit }.sorted { position(of: $0) < position(of: $1) }
        return order.prefix(limit) + below + departing.map(\.card)
    }

    func drawn(at now: Millis) -> [(number: Int, card: DrawnCard)] {
        drawnNumbers().map { ($0, drawnCard($0, at: now)) }
    }

    /// A flying card is drawn above the whole pile (z above `count`) while it sits at the bottom.
    func drawnCard(_ card: Int, at now: Millis) -> DrawnCard {
        drawnCard(card, motion: motions[card], at: now)
    }

    /// `drawnCard(_:at:)` for a caller that has already looked up `motions[card]`.
    func drawnCard(_ card: Int, motion: CardMotion?, at now: Millis) -> DrawnCard {
        let id = Self.id(of: card)
        var position = self.position(of: card)
        // Reading the motion's fields one by one rather than through optional chains saves copying
        // it (some 280 bytes) several times per card.
        guard let motion else {
            return DrawnCard(
                id: id, photo: photos[card].id, position: position, z: count - position,
                transform: restTransform(of: card), highlight: cards[card].highlight)
        }
        var z = (motion.phase == .flyingOut ? 2 * count : count) - position
        if motion.phase == .departing, let departure = departing.first(where: { $0.card == card }) {
            (position, z) = (departure.position, departure.z)
        }
        let isRunning = motion.animation.map { now < $0.end } ?? false
        return DrawnCard(
            id: id, photo: photos[card].id, position: position, z: z, transform: motion.target,
            highlight: cards[card].highlight, animation: isRunning ? motion.animation : nil)
    }

    /// - Complexity: O(drawn cards before and after).
    static func change(
        from before: [(number: Int, card: DrawnCard)], to after: [(number: Int, card: DrawnCard)],
        summaryChanged: Bool
    ) -> StackChange {
        let previous = Dictionary(before.map { ($0.number, $0.card) }, uniquingKeysWith: { first, _ in first })
        let still = Set(after.map(\.number))
        let redrawn = after.filter { previous[$0.number] != $0.card }
        let gone = before.filter { !still.contains($0.number) }
        return StackChange(cards: redrawn.map(\.card), removed: gone.map(\.card.id), summaryChanged: summaryChanged)
    }
}
