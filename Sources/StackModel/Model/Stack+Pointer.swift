/// Pointer samples: the recognizer's outcomes applied as the style says.
extension Stack {
    mutating func pointerReceived(_ input: PointerInput, at now: Millis) {
        // A style whose presses only tap (angles, grid) listens on the whole stage: a tap on empty
        // stage means something there; so does the frame, whose photos fill the stage. The others
        // listen on the top card.
        let wholeStage = layout.draggedLayers == 0 || layout.grabsAnywhere
        let top = wholeStage ? nil : grabbableTop(at: now)
        let outcome = recognizer.handle(input, at: now) { point in wholeStage || (top?.contains(point) ?? false) }
        gestureRecognized(outcome, at: now)
    }

    mutating func gestureRecognized(_ outcome: GestureRecognizer.Outcome, at now: Millis) {
        switch outcome {
        case .none:
            break
        case .began(let point):
            takeCards(at: point, now: now)
        case .moved(let point):
            dragCards(to: point, now: now)
        case .tapped(let point):
            releaseCards(velocity: .zero, now: now)
            tapped(at: point, twice: false, now: now)
        case .doubleTapped(let point):
            releaseCards(velocity: .zero, now: now)
            tapped(at: point, twice: true, now: now)
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
    private mutating func tapped(at point: Point, twice: Bool, now: Millis) {
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
        case .angles, .grid:
            // Every tap counts, as StackCollectionViewLayout's single-tap recognizer does.
            removeOrInsert(at: point, now: now)
        }
    }

    /// The StackCollectionViewLayout tap: a card under the pointer is deleted; on empty stage a card is inserted in
    /// front, showing the photo list's last photo (the original inserts its last image, "xcode.png").
    private mutating func removeOrInsert(at point: Point, now: Millis) {
        // A card flying off the stage is no longer there to be tapped.
        let hit = drawnNumbers()
            .filter { cards[$0].isInStack && motions[$0]?.phase != .flyingOut }
            .map { (card: $0, z: drawnCard($0, at: now).z) }
            .sorted { $0.z > $1.z }
            .first { displayed($0.card, at: now).contains(point) }
        if let hit {
            removeRecorded(hit.card, now: now)
        } else if let photo = photos.last {
            insertRecorded(photo, at: 0, now: now)
        }
    }

    /// The top card where viewers see it now; nil while it flies off (a one-card stack's only card).
    private func grabbableTop(at now: Millis) -> CardTransform? {
        guard let top = order.first, motions[top]?.phase != .flyingOut else { return nil }
        return displayed(top, at: now)
    }
}
