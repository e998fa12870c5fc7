import StackModel

extension Stack {
    /// Applies a change of the photo folder as commands of the model: a photo whose shape changed
    /// gets a new card of the right shape in the same place, removed photos' cards leave, new photos
    /// join the back, and the cards of replaced files are drawn again (their URL changed).
    /// Idempotent: a stack restored from the new folder already has the new photos.
    mutating func follow(_ libraryChange: LibraryChange, at now: Millis) -> StackChange {
        var change = StackChange()
        func apply(_ command: StackCommand) {
            // Checked against the stack just before: these cannot be refused.
            if let next = try? handle(.command(command), at: now) { change.merge(next) }
        }
        for photo in libraryChange.reshaped {
            guard let card = cardsByPhoto()[photo.id] else { continue }
            apply(.remove(cardID: card.id))
            apply(.insert(photo: photo, at: min(card.position, count)))
        }
        var cards = cardsByPhoto()
        for id in libraryChange.removed {
            if let card = cards.removeValue(forKey: id) { apply(.remove(cardID: card.id)) }
        }
        for photo in libraryChange.added where cards[photo.id] == nil {
            apply(.insert(photo: photo, at: count))
        }
        let replaced = Set(libraryChange.replaced)
        change.merge(StackChange(cards: drawnCards(at: now).filter { replaced.contains($0.photo) }))
        return change
    }
}
