/// Which cards show which photos: what a server needs to follow a photo folder that changes.
extension Stack {
    /// A card in the stack and where it is.
    public struct PhotoCard: Sendable, Equatable {
        public var id: CardID
        public var position: Int
    }

    /// The card in the stack showing each photo, by photo id. Removed cards are left out; a photo
    /// shown by two cards (inserted twice) maps to the one nearer the front.
    /// - Complexity: O(count).
    public func cardsByPhoto() -> [String: PhotoCard] {
        var found: [String: PhotoCard] = [:]
        found.reserveCapacity(count)
        for position in 0..<count {
            let card = order[position]
            let photo = photos[card].id
            if found[photo] == nil { found[photo] = PhotoCard(id: Self.id(of: card), position: position) }
        }
        return found
    }

    /// The photos of the cards at `positions` (0 is the front), in order; positions past the back
    /// are left out. What a server makes ready ahead of a slideshow.
    /// - Complexity: O(positions.count).
    public func photoIDs(at positions: Range<Int>) -> [String] {
        positions.clamped(to: 0..<count).map { photos[order[$0]].id }
    }

    /// The photos `ids` left the folder: the cards out of the stack that show them are never brought
    /// back by a tap on empty stage (their files are gone). Call it after taking their cards out.
    /// - Complexity: O(cards), on a change of the folder.
    public mutating func photosLeftFolder(_ ids: some Sequence<String>) {
        let left = Set(ids)
        guard !left.isEmpty else { return }
        for card in cards.indices where !cards[card].isInStack && left.contains(photos[card].id) {
            goneFromFolder.insert(card)
        }
    }
}
