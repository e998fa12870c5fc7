/// Moves in the stack order, keeping every moved card's slot right. The order is a ring of card
/// numbers, so the ends cost O(1).
extension Stack {
    /// - Returns: the card moved.
    mutating func moveTopToBottom() -> Int {
        let card = order.removeFirst()
        headSlot += 1
        order.append(card)
        cards[card].slot = headSlot + order.count - 1
        return card
    }

    /// - Returns: the card moved.
    mutating func moveBottomToTop() -> Int {
        let card = order.removeLast()
        order.prepend(card)
        headSlot -= 1
        cards[card].slot = headSlot
        return card
    }

    /// - Complexity: O(min(position, count − position)): the shorter side is renumbered.
    mutating func insertCard(_ card: Int, at position: Int) {
        order.insert(card, at: position)
        if position < order.count - 1 - position {
            headSlot -= 1
            for index in 0..<position { cards[order[index]].slot = headSlot + index }
        } else {
            for index in (position + 1)..<order.count { cards[order[index]].slot = headSlot + index }
        }
        cards[card].slot = headSlot + position
    }
}

extension Stack {
    /// Takes the card at `position` out of the order, renumbering the shorter side.
    /// - Complexity: O(min(position, count − position)).
    /// - Returns: the card removed.
    @discardableResult
    mutating func takeCard(at position: Int) -> Int {
        let card = order.remove(at: position)
        if position < order.count - position {
            // The cards in front keep their positions, but the head's slot moved back under them.
            headSlot += 1
            for index in 0..<position { cards[order[index]].slot = headSlot + index }
        } else {
            for index in position..<order.count { cards[order[index]].slot = headSlot + index }
        }
        return card
    }

    /// Puts the order in a random permutation drawn from `seed` (Fisher–Yates, from the back).
    /// - Complexity: O(count).
    mutating func permuteOrder(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for index in stride(from: order.count - 1, to: 0, by: -1) {
            order.swapAt(index, random.next(in: 0...index))
        }
        headSlot = 0
        for index in order.indices { cards[order[index]].slot = index }
    }
}
