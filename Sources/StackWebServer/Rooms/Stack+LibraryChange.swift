import StackModel

extension Stack {
    /// Applies a change of the photo folder as commands of the model: a photo whose shape changed
    /// gets a new card of the right shape in the same place, removed photos' cards leave, photos the
    /// saved stack was waiting for take their saved places (`placeSaved`: a restart that found the
    /// cache folder empty), new photos take their place in the library's order (by name or by date:
    /// `LibraryChange.placements`, with `libraryOrder` the new library's photo ids; at the back when
    /// the change names no order) — so a first start fills the stack in `--order` while the folder
    /// is read, wherever the slideshow has turned it meanwhile — and the cards
    /// of replaced files are drawn again (their URL changed). Once the folder has been read whole
    /// (`complete`), saved photos that never came are forgotten. Idempotent: a stack restored from
    /// the new folder already has the new photos. New photos past `maxCards` are left out.
    mutating func follow(
        _ libraryChange: LibraryChange, at now: Millis, maxCards: Int, libraryOrder: [String]? = nil
    ) -> StackChange {
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
        // Neither a deleted photo nor a reshaped photo's old card comes back at a tap on empty stage.
        photosLeftFolder(libraryChange.removed + libraryChange.reshaped.map(\.id))
        let (placed, unknown) = placeSaved(libraryChange.added.filter { cards[$0.id] == nil }, at: now)
        change.merge(placed)
        if libraryChange.complete { forgetUnseen() }
        let added = Array(unknown.prefix(max(0, maxCards - count)))
        if libraryChange.order != nil, let libraryOrder, !added.isEmpty {
            var stacked = [String?](repeating: nil, count: count)
            for (photo, card) in cardsByPhoto() { stacked[card.position] = photo }
            let placements = LibraryChange(added: added).placements(
                libraryOrder: libraryOrder, stack: stacked.compactMap { $0 })
            for placement in placements { apply(.insert(photo: placement.photo, at: min(placement.position, count))) }
        } else {
            for photo in added { apply(.insert(photo: photo, at: count)) }
        }
        let replaced = Set(libraryChange.replaced)
        change.merge(StackChange(cards: drawnCards(at: now).filter { replaced.contains($0.photo) }))
        return change
    }
}
