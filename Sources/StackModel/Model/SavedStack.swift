/// What of a stack survives a restart: its style, its order and every card's tilt, by photo id.
///
/// Photo ids are stable across restarts (they come from the file's path), so a saved stack still
/// fits a photo folder that gained or lost a few photos meanwhile, and one whose photos come only
/// later (`Stack.placeSaved`).
public struct SavedStack: Sendable, Equatable {
    public var style: StyleName
    /// Photo ids in stack order, front first.
    public var order: [String]
    /// Each card's tilt in whole degrees, in the same order.
    public var tilts: [Int]
    /// Photos whose cards were removed: they stay out of the stack after a restart.
    public var removed: [String]
    /// The swipe's stacked mode, a user choice.
    public var swipeStacked: Bool
    /// Where in `order` the first card is, the one `current` counts from (the front card when the
    /// stack was made or shuffled); nil when not known (saved before it was kept): the card of the
    /// first photo given, as then.
    public var first: Int?
    /// Whether a person left the room's slideshow paused (true) or playing (false); nil when nobody
    /// chose since it was made (or it was saved before this was kept): the server's default holds.
    /// The stack itself knows nothing of it: its room sets it.
    public var paused: Bool?

    public init(
        style: StyleName, order: [String], tilts: [Int], removed: [String] = [], swipeStacked: Bool = false,
        first: Int? = nil, paused: Bool? = nil
    ) {
        self.style = style
        self.order = order
        self.tilts = tilts
        self.removed = removed
        self.swipeStacked = swipeStacked
        self.first = first
        self.paused = paused
    }
}

extension Stack {
    /// The stack's lasting state; motions in progress are left out (they end where they rest).
    /// Saved cards whose photos have not come yet keep their places in it, and so do their removals.
    /// - Complexity: O(count + unseen cards).
    public func saved() -> SavedStack {
        var ids: [String] = []
        var tilts: [Int] = []
        var first: Int?
        var unseenFirst: Int?
        ids.reserveCapacity(count)
        tilts.reserveCapacity(count)
        func append(_ waiting: ArraySlice<UnseenCard>) {
            for card in waiting {
                if card.isFirst { unseenFirst = ids.count }
                ids.append(card.photo)
                tilts.append(Int(card.tilt))
            }
        }
        // Around the front card: those ahead of it first, those behind it (in the ring, just before
        // it) last.
        let front = order.first
        let aroundFront = unseen[front ?? Self.noCard] ?? []
        let ahead = front == nil ? aroundFront.count : front == unseenFront ? leadingUnseen : 0
        append(aroundFront[(aroundFront.count - ahead)...])
        var inStack = [Bool](repeating: false, count: photos.count)
        let waits = !unseen.isEmpty
        for position in 0..<count {
            let card = order[position]
            if waits, position > 0, let waiting = unseen[card] { append(waiting[...]) }
            inStack[card] = true
            if card == firstCard { first = ids.count }
            ids.append(photos[card].id)
            tilts.append(Int(cards[card].tilt))
        }
        append(aroundFront[..<(aroundFront.count - ahead)])
        let removed = photos.indices.filter { !inStack[$0] }.map { photos[$0].id } + unseenRemoved.sorted()
        return SavedStack(
            style: style, order: ids, tilts: tilts, removed: removed, swipeStacked: swipeStacked,
            first: unseenFirst ?? first)
    }

    /// A stack of `photos` in the saved order and tilts. Photos the saved stack does not know join
    /// the back with fresh tilts from `seed`; removed ones stay out. A photo saved more than once
    /// (inserted again) gets a card for each time, as `insert` made them. Saved ids that are not
    /// among `photos` wait for their photos in their places (`placeSaved`) until `forgetUnseen`.
    /// - Complexity: O(photos.count + saved.order.count).
    public init(photos: [Photo], stage: StageSize = .default, saved: SavedStack, seed: UInt64) {
        self.init(photos: photos, stage: stage, style: saved.style, seed: seed, swipeStacked: saved.swipeStacked)
        var cardOfPhoto: [String: Int] = [:]
        for (card, photo) in photos.enumerated() where cardOfPhoto[photo.id] == nil { cardOfPhoto[photo.id] = card }
        var placed = [Bool](repeating: false, count: photos.count)
        var restored: [Int] = []
        restored.reserveCapacity(photos.count)
        // Unseen cards since the last restored one; those before the first are ahead of the front.
        var waiting: [UnseenCard] = []
        var ahead: [UnseenCard] = []
        let limit = PileLayout.rotationOffset
        for (index, id) in saved.order.enumerated() {
            let tilt = index < saved.tilts.count ? Int8(clamping: min(max(saved.tilts[index], -limit), limit)) : nil
            guard var card = cardOfPhoto[id] else {
                waiting.append(UnseenCard(photo: id, tilt: tilt ?? 0, isFirst: index == saved.first))
                continue
            }
            if placed[card] {
                card = self.photos.count
                self.photos.append(photos[cardOfPhoto[id]!])
                cards.append(Card(slot: 0, tilt: 0))
                placed.append(true)
            }
            placed[card] = true
            if restored.isEmpty { ahead = waiting } else if !waiting.isEmpty { unseen[card] = waiting }
            waiting = []
            restored.append(card)
            if let tilt { cards[card].tilt = tilt }
            if index == saved.first { firstCard = card }
        }
        let removed = Set(saved.removed)
        let newCards = photos.indices.filter { !placed[$0] && !removed.contains(photos[$0].id) }
        restored += newCards
        unseenRemoved = removed.filter { cardOfPhoto[$0] == nil }
        order = Ring(restored)
        headSlot = 0
        // Every photo's card was made in the stack: those of removed photos are out of it, or a
        // removal of one (a retry after the restart) would take another card, or none past the ends.
        for card in cards.indices { cards[card].isInStack = false }
        for (position, card) in restored.enumerated() {
            cards[card].slot = position
            cards[card].isInStack = true
        }
        if let front = restored.first {
            // Behind the front card: the saved cards after the last one restored, then new photos.
            let behind = newCards.first ?? front
            unseen[behind] = waiting + (behind == front ? ahead : [])
            if behind != front { unseen[front] = ahead }
            if !ahead.isEmpty { (unseenFront, leadingUnseen) = (front, ahead.count) }
        } else {
            unseen[Self.noCard] = waiting
            firstCard = nil
        }
        unseen = unseen.filter { !$0.value.isEmpty }
        // Unknown, or not in the ring: the first photo's card, as before the first card was saved.
        if let card = firstCard, !cards[card].isInStack { firstCard = restored.first }
        if let standIn = unseen.first(where: { $0.value.contains(where: \.isFirst) })?.key, standIn != Self.noCard {
            // The first card has not come: `current` counts from the card after it until it does.
            firstCard = standIn
        }
        refreshLayout()
    }
}
