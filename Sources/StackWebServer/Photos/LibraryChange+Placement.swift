import StackModel

extension LibraryChange {
    /// Where an added photo goes in a stack: inserted at `position` (0 = front), after the
    /// placements before it in the list were applied.
    struct Placement: Equatable, Sendable {
        var photo: Photo
        var position: Int
    }

    /// Where each added photo goes so that a stack in `--order` (by date, or by name) stays in that
    /// order, wherever it has been turned to: right after the photo just before it that the stack
    /// holds; the first photos go before the first card. The stack is a ring (the front card goes to the
    /// back), so a photo that would go in front is put at the back instead: what is showing stays.
    ///
    /// - Parameters:
    ///   - libraryOrder: photo ids in the library's order, the added photos among them.
    ///   - stack: photo ids in the stack's order now, front first, without the added photos.
    /// - Returns: the placements of `added` (those the library orders), by increasing position.
    /// - Complexity: O(library + stack + added).
    func placements(libraryOrder: [String], stack: [String]) -> [Placement] {
        let photos = Dictionary(added.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let inStack = Set(stack)
        // Added photos grouped by the stacked photo they follow (nil: older than every stacked one),
        // in library order.
        var after: [String: [Photo]] = [:]
        var oldest: [Photo] = []
        var firstStacked: String?
        var anchor: String?
        for id in libraryOrder {
            if inStack.contains(id) {
                anchor = id
                if firstStacked == nil { firstStacked = id }
            } else if let photo = photos[id] {
                if let anchor { after[anchor, default: []].append(photo) } else { oldest.append(photo) }
            }
        }
        // The oldest go before the oldest stacked photo; if that is the front card, at the back.
        if let firstStacked, let front = stack.first, firstStacked != front {
            // After the newest photos that follow that card: the ring goes newest, then oldest.
            after[stack[stack.firstIndex(of: firstStacked)! - 1], default: []] += oldest
            oldest = []
        }
        var placements: [Placement] = []
        var position = 0
        for id in stack {
            position += 1
            for photo in after[id] ?? [] {
                placements.append(Placement(photo: photo, position: position))
                position += 1
            }
        }
        for photo in oldest {
            placements.append(Placement(photo: photo, position: position))
            position += 1
        }
        return placements
    }
}
