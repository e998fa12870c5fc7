/// Switching styles: every card drawn in either style moves from where it is to its new place.
extension Stack {
    /// Lays the stack out in `name`'s layout. Each card drawn before or after the switch animates from
    /// where viewers see it (or, if it was not drawn, from its place in the old style) to its place in
    /// the new one; a flight in progress is cut short, the card going straight to its place at the
    /// back. Cards that end up outside the drawn places are drawn until they get there.
    /// - Complexity: O(drawn cards in either style).
    mutating func switchStyle(to name: StyleName, now: Millis) {
        let oldLayout = layout
        var moving: [(card: Int, from: CardTransform)] = drawnNumbers().compactMap { card in
            cards[card].isInStack ? (card, displayed(card, at: now)) : nil
        }
        let wereDrawn = Set(moving.map(\.card))
        style = name
        layout = Self.layout(for: name, stage: stage, swipeStacked: swipeStacked)
        travelling.removeAll()
        let limit = min(count, layout.drawnLimit)
        for card in order.prefix(limit) where !wereDrawn.contains(card) {
            moving.append((card, restTransform(of: card, in: oldLayout)))
        }
        for (card, from) in moving {
            animate(card, from: from, to: restTransform(of: card), .spring(.settle), now: now)
            if position(of: card) >= limit, motions[card]?.animation != nil { travelling.append(card) }
        }
    }
}
