/// What one event changed, for the viewers: cards to (re)draw and cards no longer drawn.
public struct StackChange: Sendable, Equatable {
    /// Drawn cards whose transform, motion, place or highlight changed, or that became drawn.
    public var cards: [DrawnCard]
    /// Cards that are no longer drawn.
    public var removed: [CardID]
    /// True when `count`, `current`, `style` or `swipeStacked` changed.
    public var summaryChanged: Bool

    public init(cards: [DrawnCard] = [], removed: [CardID] = [], summaryChanged: Bool = false) {
        self.cards = cards
        self.removed = removed
        self.summaryChanged = summaryChanged
    }

    /// Nothing to tell the viewers.
    public var isEmpty: Bool { cards.isEmpty && removed.isEmpty && !summaryChanged }
}
