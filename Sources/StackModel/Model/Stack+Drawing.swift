/// What viewers draw, and what changed for them.
extension Stack {
    static func id(of card: Int) -> CardID { "c\(card)" }

    /// The top cards in position order, then travelling cards below them.
    func drawnNumbers() -> [Int] {
        let limit = min(order.count, layout.drawnLimit)
        let below = travelling.filter { position(of: $0) >= limit }.sorted { position(of: $0) < position(of: $1) }
        return order.prefix(limit) + below
    }

    func drawn(at now: Millis) -> [(number: Int, card: DrawnCard)] {
        drawnNumbers().map { ($0, drawnCard($0, at: now)) }
    }

    /// A flying card is drawn above the whole pile (z above `count`) while it sits at the bottom.
    private func drawnCard(_ card: Int, at now: Millis) -> DrawnCard {
        let position = position(of: card)
        let motion = motions[card]
        let base = motion?.phase == .flyingOut ? 2 * count : count
        return DrawnCard(
            id: Self.id(of: card), photo: photos[card].id, position: position, z: base - position,
            transform: motion?.target ?? restTransform(of: card), highlight: cards[card].highlight,
            animation: motion?.animation.flatMap { now < $0.end ? $0 : nil })
    }

    static func change(
        from before: [(number: Int, card: DrawnCard)], to after: [(number: Int, card: DrawnCard)],
        summaryChanged: Bool
    ) -> StackChange {
        let redrawn = after.filter { entry in before.first { $0.number == entry.number }?.card != entry.card }
        let gone = before.filter { entry in !after.contains { $0.number == entry.number } }
        return StackChange(cards: redrawn.map(\.card), removed: gone.map(\.card.id), summaryChanged: summaryChanged)
    }
}
