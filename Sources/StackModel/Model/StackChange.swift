/// What one event changed, for the viewers: cards to (re)draw and cards no longer drawn.
public struct StackChange: Sendable, Equatable {
    /// Drawn cards whose transform, motion, place or highlight changed, or that became drawn.
    public var cards: [DrawnCard]
    /// Cards that are no longer drawn.
    public var removed: [CardID]
    /// True when `count`, `current`, `style` or `swipeStacked` changed.
    public var summaryChanged: Bool
    /// The viewers whose tap took a photo out of the stack in this change: their screens offer to
    /// undo it ("Photo removed · Undo"), the others do not.
    public var removedBy: [String]

    public init(
        cards: [DrawnCard] = [], removed: [CardID] = [], summaryChanged: Bool = false, removedBy: [String] = []
    ) {
        self.cards = cards
        self.removed = removed
        self.summaryChanged = summaryChanged
        self.removedBy = removedBy
    }

    /// Nothing to tell the viewers.
    public var isEmpty: Bool { cards.isEmpty && removed.isEmpty && !summaryChanged }
}
