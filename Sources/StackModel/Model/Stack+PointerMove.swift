/// A pointer move's short way: during a drag only the held cards can change, so a move updates them
/// and reports just those, without listing the drawn cards before and after as `handleInFull` does.
extension Stack {
    /// Applies a `move` sample exactly as `handleInFull` would, when all it can do is move held cards;
    /// nil when it may do more (any other phase, a deck drag past its fly-out distance, held cards
    /// the stack reordered) and needs the full way.
    ///
    /// Why nothing else can change: after every event, each drawn card's settling motion heads for
    /// its resting place and only drawn cards have a motion (`settleMovedCards`, then
    /// `forgetFinishedMotions`). A move short of the fly-out changes no order, style, flip or
    /// fullscreen, so no resting place moves and no card becomes or stops being drawn: the full way
    /// would settle nothing, and its comparison would find only the held cards whose place changed.
    /// - Complexity: O(held cards + cards in motion).
    mutating func pointerMoved(_ input: PointerInput, at now: Millis) -> StackChange? {
        guard input.phase == .move else { return nil }
        if let grab {
            // The recognizer would follow this sample to its own point: `dragCards` flies out from there.
            if let distance = layout.flyOutDistance, abs(input.x - grab.start.x) > distance { return nil }
            guard heldCardsAreDrawnInOrder(grab) else { return nil }
        }
        reflow = nil
        // A move never asks whether a press there would grab.
        let outcome = recognizer.handle(input, at: now) { _ in false }
        var redrawn: [DrawnCard] = []
        if case .moved(let point) = outcome, let grab {
            redrawn.reserveCapacity(grab.layers.count)
            let drag = Drag(start: grab.start, translation: point - grab.start, atFirstCard: grab.atFirstCard)
            for (index, layer) in grab.layers.enumerated() {
                // One hash per card: the motion is read and updated in place through its index.
                guard let slot = motions.index(forKey: layer.card), motions.values[slot].phase == .held else {
                    continue
                }
                let target = layout.dragged(layer.base, layer: index, of: grab.layers.count, by: drag)
                guard target != motions.values[slot].target else { continue }
                motions.values[slot].target = target
                redrawn.append(drawnCard(layer.card, motion: motions.values[slot], at: now))
            }
        }
        forgetFinishedSettles(at: now)
        return StackChange(cards: redrawn)
    }

    /// Whether every taken card is still in the stack, drawn among the top cards, front first: then
    /// the full way would list them in the grab's order.
    private func heldCardsAreDrawnInOrder(_ grab: Grab) -> Bool {
        let limit = min(count, layout.drawnLimit)
        var previous = -1
        for layer in grab.layers {
            let position = position(of: layer.card)
            guard cards[layer.card].isInStack, position > previous, position < limit else { return false }
            previous = position
        }
        return true
    }
}
