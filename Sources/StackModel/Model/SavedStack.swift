/// What of a stack survives a restart: its style, its order and every card's tilt, by photo id.
///
/// Photo ids are stable across restarts (they come from the file's path), so a saved stack still
/// fits a photo folder that gained or lost a few photos meanwhile.
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

    public init(style: StyleName, order: [String], tilts: [Int], removed: [String] = [], swipeStacked: Bool = false) {
        self.style = style
        self.order = order
        self.tilts = tilts
        self.removed = removed
        self.swipeStacked = swipeStacked
    }
}

extension Stack {
    /// The stack's lasting state; motions in progress are left out (they end where they rest).
    /// - Complexity: O(count).
    public func saved() -> SavedStack {
        var ids: [String] = []
        var tilts: [Int] = []
        ids.reserveCapacity(count)
        tilts.reserveCapacity(count)
        var inStack = [Bool](repeating: false, count: photos.count)
        for position in 0..<count {
            let card = order[position]
            inStack[card] = true
            ids.append(photos[card].id)
            tilts.append(Int(cards[card].tilt))
        }
        let removed = photos.indices.filter { !inStack[$0] }.map { photos[$0].id }
        return SavedStack(style: style, order: ids, tilts: tilts, removed: removed, swipeStacked: swipeStacked)
    }

    /// A stack of `photos` in the saved order and tilts. Photos the saved stack does not know join
    /// the back with fresh tilts from `seed`; removed ones stay out; saved ids that are no longer
    /// photos are dropped.
    /// - Complexity: O(photos.count + saved.order.count).
    public init(photos: [Photo], stage: StageSize = .default, saved: SavedStack, seed: UInt64) {
        self.init(photos: photos, stage: stage, style: saved.style, seed: seed, swipeStacked: saved.swipeStacked)
        var cardOfPhoto: [String: Int] = [:]
        for (card, photo) in photos.enumerated() where cardOfPhoto[photo.id] == nil { cardOfPhoto[photo.id] = card }
        var placed = [Bool](repeating: false, count: photos.count)
        var restored: [Int] = []
        restored.reserveCapacity(photos.count)
        for (index, id) in saved.order.enumerated() {
            guard let card = cardOfPhoto[id], !placed[card] else { continue }
            placed[card] = true
            restored.append(card)
            if index < saved.tilts.count {
                let limit = PileLayout.rotationOffset
                cards[card].tilt = Int8(clamping: min(max(saved.tilts[index], -limit), limit))
            }
        }
        let removed = Set(saved.removed)
        restored += photos.indices.filter { !placed[$0] && !removed.contains(photos[$0].id) }
        order = Ring(restored)
        headSlot = 0
        for (position, card) in restored.enumerated() { cards[card].slot = position }
        refreshLayout()
    }
}
