import StackModel

extension StackChange {
    /// Folds a later change into this one, so a batch of pointer samples becomes one message:
    /// the latest state of each card wins; a card drawn again is no longer removed; every viewer
    /// whose tap removed a card is kept.
    mutating func merge(_ later: StackChange) {
        for card in later.cards {
            if let index = cards.firstIndex(where: { $0.id == card.id }) {
                cards[index] = card
            } else {
                cards.append(card)
            }
        }
        let redrawn = Set(later.cards.map(\.id))
        removed.removeAll { redrawn.contains($0) }
        let stillDrawn = Set(later.removed)
        cards.removeAll { stillDrawn.contains($0.id) }
        for id in later.removed where !removed.contains(id) { removed.append(id) }
        summaryChanged = summaryChanged || later.summaryChanged
        for viewer in later.removedBy where !removedBy.contains(viewer) { removedBy.append(viewer) }
    }
}
