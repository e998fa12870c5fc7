/// Pointer samples: the recognizer's outcomes applied as the style says.
extension Stack {
    mutating func pointerReceived(_ input: PointerInput, at now: Millis) {
        // A style whose presses only tap (angles, grid) listens on the whole stage: a tap on empty
        // stage means something there; so does the frame, whose photos fill the stage. The others
        // listen on the top card.
        let wholeStage = layout.draggedLayers == 0 || layout.grabsAnywhere
        let top = wholeStage ? nil : grabbableTop(at: now)
        let outcome = recognizer.handle(input, at: now) { point in wholeStage || (top?.contains(point) ?? false) }
        gestureRecognized(outcome, by: input.viewer, at: now)
        if case .began = outcome { grab?.pixelsPerPoint = input.pixelsPerPoint }
    }

    /// `viewer`: whose pointer it was (nil when the clock ended the gesture).
    mutating func gestureRecognized(_ outcome: GestureRecognizer.Outcome, by viewer: String? = nil, at now: Millis) {
        switch outcome {
        case .none:
            break
        case .began(let point):
            takeCards(at: point, now: now)
        case .moved(let point):
            dragCards(to: point, now: now)
        case .tapped(let point):
            releaseCards(velocity: .zero, now: now)
            tapped(at: point, twice: false, by: viewer, now: now)
        case .doubleTapped(let point):
            releaseCards(velocity: .zero, now: now)
            tapped(at: point, twice: true, by: viewer, now: now)
        case .cancelled:
            releaseCards(velocity: .zero, now: now)
        case .released(let start, let end, let velocity):
            dragCards(to: end, now: now)
            throwOrReturnCards(translation: end - start, velocity: velocity, now: now)
        }
    }

    /// Ends a gesture the stack changed under (a command), returning its cards to their places.
    mutating func abandonGesture(at now: Millis) {
        guard recognizer.isActive else { return }
        recognizer.abandon()
        releaseCards(velocity: .zero, now: now)
    }

    /// A tap, or the second tap of a double tap, at `point`.
    private mutating func tapped(at point: Point, twice: Bool, by viewer: String?, now: Millis) {
        switch style {
        case .pile:
            // The first tap of a double tap has already highlighted; the second shows it full-stage.
            if twice {
                toggleFullscreen()
            } else if let top = order.first {
                cards[top].highlight.toggle()
            }
        case .swipe:
            if twice { toggleFullscreen() }
        case .frame:
            // A frame on a wall: a touch only swipes.
            break
        case .deck:
            // Every tap turns the card, as the original deck's single-tap recognizer does.
            if let top = order.first { flip(top, now: now) }
        case .angles:
            // The angled stack's identity: a tap deletes or inserts, as StackCollectionViewLayout's
            // single-tap recognizer does; but the second tap of a double tap does nothing, so that a
            // hurried finger never deletes two.
            if !twice { removeOrInsert(at: point, by: viewer, now: now) }
        case .grid:
            // A thumbnail reads as "open": a tap shows its photo full-stage, the next tap anywhere
            // goes back to the grid. Nothing is deleted.
            if !twice { openOrClose(at: point, now: now) }
        }
    }

    /// The StackCollectionViewLayout tap: a card under the pointer is deleted (the tapping screen is
    /// told, to offer undo); on empty stage the photo last taken out comes back in front, or the
    /// first photo known that is not in the stack — never a second card of a photo already there.
    private mutating func removeOrInsert(at point: Point, by viewer: String?, now: Millis) {
        if let hit = cardHit(at: point, now: now) {
            removeRecorded(hit, now: now)
            removedByHand.removeAll { $0 == hit }
            removedByHand.append(hit)
            if removedByHand.count > Self.historyLimit { removedByHand.removeFirst() }
            if let viewer { removers.append(viewer) }
        } else if let card = cardToBringBack() {
            reinsert(card, at: 0, now: now)
            record(.inserted(card: card))
        }
    }

    /// The grid's tap: a tile comes to the front shown full-stage; while one is, a tap closes it.
    private mutating func openOrClose(at point: Point, now: Millis) {
        if isFullscreen {
            toggleFullscreen()
        } else if let hit = cardHit(at: point, now: now) {
            bringToFront(hit, now: now)
            toggleFullscreen()
        }
    }

    /// The topmost card in the stack under `point` where viewers see it; a card flying off the
    /// stage is no longer there to be tapped.
    private func cardHit(at point: Point, now: Millis) -> Int? {
        drawnNumbers()
            .filter { cards[$0].isInStack && motions[$0]?.phase != .flyingOut }
            .map { (card: $0, z: drawnCard($0, at: now).z) }
            .sorted { $0.z > $1.z }
            .first { displayed($0.card, at: now).contains(point) }?.card
    }

    /// The card a tap on empty stage brings back: the latest a person removed, else the first one
    /// out of the stack, skipping photos the stack shows and photos gone from the folder.
    /// - Complexity: O(cards), only on a tap on empty stage.
    func cardToBringBack() -> Int? {
        let shown = Set(order.map { photos[$0].id })
        func eligible(_ card: Int) -> Bool {
            !cards[card].isInStack && !goneFromFolder.contains(card) && !shown.contains(photos[card].id)
        }
        return removedByHand.last(where: eligible) ?? cards.indices.first(where: eligible)
    }

    /// The top card where viewers see it now; nil while it flies off (a one-card stack's only card).
    private func grabbableTop(at now: Millis) -> CardTransform? {
        guard let top = order.first, motions[top]?.phase != .flyingOut else { return nil }
        return displayed(top, at: now)
    }
}
