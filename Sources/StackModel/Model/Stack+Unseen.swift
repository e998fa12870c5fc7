/// A card of a saved stack whose photo the stack has not been given yet.
struct UnseenCard: Sendable, Equatable {
    var photo: String
    var tilt: Int8
    /// The saved stack's first card (`current` counts from it).
    var isFirst = false
}

/// Saved cards whose photos come after the stack is restored.
///
/// A server restarted before it has read its photo folder again (its cache of what it had read was
/// deleted) restores a room from the few photos it has, or none. The rest of the saved order waits
/// here, each card by the card it lies just before in the ring, so that it takes its saved place
/// when its photo comes, whatever turned meanwhile, and `saved()` keeps it there in the meantime.
/// Cards saved ahead of the front card come to the front as they arrive, while the front card is
/// still the one the stack was restored with: the saved front card is the front again. Once the
/// folder has been read whole, whatever has not come is gone (`forgetUnseen`).
extension Stack {
    /// The key of the unseen cards of an empty stack.
    static let noCard = -1

    /// Whether saved cards or removals wait for their photos.
    public var isAwaitingPhotos: Bool { !unseen.isEmpty || !unseenRemoved.isEmpty }

    /// Gives the stack photos that came: each one the saved stack holds takes every place it had
    /// there, with its saved tilt; one it had removed stays out. Not a person's act: nothing to
    /// undo, and the slideshow goes on.
    /// - Returns: what viewers must redraw, and the photos the saved stack did not know, in their
    ///   order, for the caller to place as new ones.
    /// - Complexity: O(arrived + unseen cards + drawn cards); O(arrived) once nothing waits.
    public mutating func placeSaved(_ arrived: [Photo], at now: Millis) -> (change: StackChange, unknown: [Photo]) {
        guard isAwaitingPhotos else { return (StackChange(), arrived) }
        var byID: [String: Photo] = [:]
        for photo in arrived where byID[photo.id] == nil { byID[photo.id] = photo }
        var unknown: [Photo] = []
        let change =
            (try? changing(at: now) { stack in
                for photo in arrived where stack.unseenRemoved.remove(photo.id) != nil {
                    stack.keepOut(photo)
                    byID[photo.id] = nil
                }
                var expected: Set<String> = []
                for group in stack.unseen.values {
                    for card in group where byID[card.photo] != nil { expected.insert(card.photo) }
                }
                if !expected.isEmpty { stack.abandonGesture(at: now) }
                stack.placeIntoEmptyStack(byID, now: now)
                for anchor in Array(stack.unseen.keys) { stack.place(byID, before: anchor, now: now) }
                unknown = arrived.filter { byID[$0.id] != nil && !expected.contains($0.id) }
            }) ?? StackChange()
        return (change, unknown)
    }

    /// Drops the saved cards and removals still waiting: the folder was read whole, and their photos
    /// are no longer in it.
    /// - Returns: whether there were any.
    @discardableResult
    public mutating func forgetUnseen() -> Bool {
        guard isAwaitingPhotos else { return false }
        unseen = [:]
        unseenRemoved = []
        forgetLeadingUnseen()
        return true
    }

    /// The unseen cards ahead of the front card stay where they are, behind the others, once the
    /// front card is not the one they were ahead of.
    mutating func forgetLeadingUnseen() {
        unseenFront = nil
        leadingUnseen = 0
    }

    /// A new first card (a shuffle): no unseen card is the first any more.
    mutating func forgetUnseenFirst() {
        guard !unseen.isEmpty else { return }
        for (anchor, group) in unseen where group.contains(where: \.isFirst) {
            unseen[anchor] = group.map { UnseenCard(photo: $0.photo, tilt: $0.tilt) }
        }
    }

    /// A card just put at its place (an insert, an undone removal) goes after the unseen cards that
    /// lay before the card it is now before: between them and that card, as the ring had them. The
    /// unseen cards ahead of the front card stay ahead of it.
    mutating func unseenCardInserted(_ card: Int) {
        guard !unseen.isEmpty else { return }
        guard order.count > 1 else {
            let waiting = unseen.removeValue(forKey: Self.noCard) ?? []
            if !waiting.isEmpty { unseen[card] = waiting }
            unseenFront = waiting.isEmpty ? nil : card
            leadingUnseen = waiting.count
            return
        }
        let next = order[(position(of: card) + 1) % order.count]
        guard let group = unseen[next] else { return }
        let behind = group.count - (next == unseenFront ? leadingUnseen : 0)
        guard behind > 0 else { return }
        unseen[card] = Array(group[..<behind])
        unseen[next] = behind == group.count ? nil : Array(group[behind...])
    }

    /// A card taken out of the ring at `position`: its unseen cards now lie before the next card.
    mutating func unseenCardRemoved(_ card: Int, from position: Int) {
        if card == unseenFront { forgetLeadingUnseen() }
        guard let group = unseen.removeValue(forKey: card) else { return }
        let next = order.isEmpty ? Self.noCard : order[position % order.count]
        unseen[next] = group + (unseen[next] ?? [])
    }

    /// A photo the saved stack had removed: known now, and out of the stack, so `saved()` keeps it removed.
    private mutating func keepOut(_ photo: Photo) {
        photos.append(photo)
        cards.append(Card(slot: 0, tilt: 0, isInStack: false))
    }

    /// The first saved card of an empty stack whose photo came becomes its front card; the cards
    /// saved before it lie ahead of it, those after it behind.
    private mutating func placeIntoEmptyStack(_ arrived: [String: Photo], now: Millis) {
        guard let group = unseen[Self.noCard], let index = group.firstIndex(where: { arrived[$0.photo] != nil }) else {
            return
        }
        unseen[Self.noCard] = nil
        let card = addCard(group[index], photo: arrived[group[index].photo]!, at: 0, now: now)
        let waiting = Array(group[(index + 1)...] + group[..<index])
        if !waiting.isEmpty { unseen[card] = waiting }
        unseenFront = card
        leadingUnseen = index
    }

    /// Places the cards waiting before `anchor` whose photos came, each right before `anchor` in
    /// ring order (at the front for those ahead of the front card); the cards that wait between
    /// two of them now wait before the later one.
    private mutating func place(_ arrived: [String: Photo], before anchor: Int, now: Millis) {
        guard let group = unseen[anchor], group.contains(where: { arrived[$0.photo] != nil }) else { return }
        let leadingFrom = group.count - (anchor == unseenFront ? leadingUnseen : 0)
        var waiting: [UnseenCard] = []
        var newFront: (card: Int, ahead: Int)?
        for (index, unseenCard) in group.enumerated() {
            guard let photo = arrived[unseenCard.photo] else {
                waiting.append(unseenCard)
                continue
            }
            let ahead = index >= leadingFrom
            let position = position(of: anchor)
            let card = addCard(unseenCard, photo: photo, at: position == 0 && !ahead ? count : position, now: now)
            if !waiting.isEmpty { unseen[card] = waiting }
            // The first to come of those ahead: none came before it, so every unseen card from the
            // first ahead up to it is still ahead of it, at the end of what waits before it.
            if ahead && newFront == nil { newFront = (card, index - leadingFrom) }
            waiting = []
        }
        unseen[anchor] = waiting.isEmpty ? nil : waiting
        // Whatever waits before `anchor` now lies between the new front card and it: not ahead.
        if let newFront {
            unseenFront = newFront.card
            leadingUnseen = newFront.ahead
        }
    }

    /// A card for `unseenCard`'s photo at `position`, with its saved tilt, fading in if drawn.
    private mutating func addCard(_ unseenCard: UnseenCard, photo: Photo, at position: Int, now: Millis) -> Int {
        let card = photos.count
        photos.append(photo)
        cards.append(Card(slot: 0, tilt: unseenCard.tilt))
        insertCard(card, at: position)
        if firstCard == nil || unseenCard.isFirst { firstCard = card }
        fadeIn(card, from: nil, now: now)
        return card
    }
}
