/// What viewers draw, and what changed for them.
extension Stack {
    static func id(of card: Int) -> CardID { "c\(card)" }

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
        let motion = motions[card]
        let position: Int
        let z: Int
        if motion?.phase == .departing, let departure = departing.first(where: { $0.card == card }) {
            (position, z) = (departure.position, departure.z)
        } else {
            position = self.position(of: card)
            z = (motion?.phase == .flyingOut ? 2 * count : count) - position
        }
        return DrawnCard(
            id: Self.id(of: card), photo: photos[card].id, position: position, z: z,
            transform: motion?.target ?? restTransform(of: card), highlight: cards[card].highlight,
            animation: motion?.animation.flatMap { now < $0.end ? $0 : nil })
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
