/// Commands: what a finger can do, sent by a script or a key. Each checks its input first, so a
/// refused command throws before anything changes, and ends a gesture the change would pull a card
/// from under.
extension Stack {
    static let left = Point(x: -1, y: 0)

    mutating func perform(_ command: StackCommand, at now: Millis) throws(StackError) {
        switch command {
        case .next:
            guard !order.isEmpty else { throw .emptyStack }
            abandonGesture(at: now)
            goForward(now: now)
        case .previous:
            guard !order.isEmpty else { throw .emptyStack }
            abandonGesture(at: now)
            goBack(now: now)
        case .goto(let index):
            guard !order.isEmpty else { throw .emptyStack }
            guard index >= 0 && index < count else { throw .indexOutOfRange(index: index, count: count) }
            abandonGesture(at: now)
            bringToFront(order[(count - current + index) % count], now: now)
        case .insert(let photo, let position, let behindArrivals):
            guard position >= 0 && position <= count else {
                throw .indexOutOfRange(index: position, count: count)
            }
            abandonGesture(at: now)
            if behindArrivals {
                insertRecorded(photo, at: positionBehindArrivals(from: position), now: now)
                arrived(photos.count - 1)
            } else {
                insertRecorded(photo, at: position, now: now)
            }
        case .remove(let id):
            guard let card = number(of: id), cards[card].isInStack else { throw .unknownCard(id: id) }
            abandonGesture(at: now)
            removeRecorded(card, now: now)
        case .highlight:
            guard let top = order.first else { throw .emptyStack }
            cards[top].highlight.toggle()
        case .flip:
            guard let top = order.first else { throw .emptyStack }
            abandonGesture(at: now)
            flip(top, now: now)
        case .fullscreen:
            abandonGesture(at: now)
            toggleFullscreen()
        case .style(let name, let stacked):
            let stacked = stacked ?? swipeStacked
            guard name != style || stacked != swipeStacked else { return }
            abandonGesture(at: now)
            swipeStacked = stacked
            switchStyle(to: name, now: now)
        case .shuffle(let seed):
            abandonGesture(at: now)
            shuffle(seed: seed, now: now)
        case .undo:
            guard let entry = history.popLast() else { throw .nothingToUndo }
            abandonGesture(at: now)
            revert(entry, now: now)
        }
    }

    /// Where viewers see `card` now if it is drawn; nil if it is not.
    func seen(_ card: Int, at now: Millis) -> CardTransform? {
        position(of: card) < layout.drawnLimit || travelling.contains(card) ? displayed(card, at: now) : nil
    }

    /// `next`, a swipe left: the front card to the back, or in `frame` the shown pair.
    mutating func goForward(now: Millis) {
        guard let top = order.first else { return }
        if style == .frame && frontPhotosPair && count > 2 {
            record(.rotated(by: 2))
            sendToBack(2, now: now)
        } else {
            sendTopToBackRecorded(from: seen(top, at: now), toward: Self.left, speed: 0, now: now)
        }
    }

    /// `previous`, a swipe right: the back card to the front, or in `frame` the back two when they
    /// make a pair; at the swipe's first card, a nudge.
    mutating func goBack(now: Millis) {
        let backPair =
            stage.width > stage.height && count > 2 && photos[order[count - 1]].isPortrait
            && photos[order[count - 2]].isPortrait
        if style == .frame && backPair {
            record(.rotated(by: -2))
            bringBottomToTop(2, now: now)
        } else if !bringBottomToTopRecorded(now: now) {
            nudgeFront(now: now)
        }
    }

    /// Sends the top card to the back (a flick, `next`, a swipe left, the deck's fly-out) and
    /// remembers it for `undo`; in `pile` it lands with a new tilt, as PhotoStackView's `makeCrooked`,
    /// and in a Ken Burns `frame` too (its next pass moves anew).
    mutating func sendTopToBackRecorded(from: CardTransform?, toward direction: Point, speed: Double, now: Millis) {
        guard let top = order.first else { return }
        record(.sentToBack(card: top, tilt: cards[top].tilt))
        let retilt = style == .pile || (style == .frame && frameTransition == .kenBurns)
        sendTopToBack(from: from, toward: direction, speed: speed, retilt: retilt, now: now)
    }

    /// Brings the back card to the front (`previous`, a swipe right) and remembers it for `undo`.
    /// In `swipe` nothing comes before the first card: SMSwipeView's swipe back stops there.
    /// - Returns: false when it stopped there.
    @discardableResult
    mutating func bringBottomToTopRecorded(now: Millis) -> Bool {
        guard style != .swipe || order.first != firstCard else { return false }
        record(.broughtToTop)
        bringBottomToTop(1, now: now)
        return true
    }

    /// The "no further" answer of `previous` at the first card: the front card moves a little right
    /// and back (two eased motions; the clock brings it back), and the stack does not change.
    private mutating func nudgeFront(now: Millis) {
        guard let top = order.first, motions[top]?.phase != .flyingOut else { return }
        let rest = restTransform(of: top)
        var out = rest
        out.x += SwipeLayout.nudgeDistance
        let animation = SwipeLayout.nudgeOut.animation(from: displayed(top, at: now), to: out, start: now)
        motions[top] = CardMotion(phase: .nudged, target: out, animation: animation)
        if !travelling.contains(top) { travelling.append(top) }
    }

    /// Brings `card` to the front the shorter way round, keeping the cyclic order.
    mutating func bringToFront(_ card: Int, now: Millis) {
        let position = position(of: card)
        guard position > 0 else { return }
        if position <= count - position {
            record(.rotated(by: position))
            sendToBack(position, now: now)
        } else {
            record(.rotated(by: position - count))
            bringBottomToTop(count - position, now: now)
        }
    }

    mutating func insertRecorded(_ photo: Photo, at position: Int, now: Millis) {
        let card = insert(photo, at: position, now: now)
        record(.inserted(card: card))
    }

    mutating func removeRecorded(_ card: Int, now: Millis) {
        let wasFirst = firstCard == card
        let position = remove(card, now: now)
        record(.removed(card: card, position: position, wasFirst: wasFirst))
    }

    /// Turns the card over in half a second, as the original deck's `animateWithDuration(0.5)`.
    mutating func flip(_ card: Int, now: Millis) {
        let from = displayed(card, at: now)
        cards[card].isFlipped.toggle()
        animate(card, from: from, to: restTransform(of: card), .uiViewTween(500), now: now)
    }

    /// The front card grows to the whole stage or shrinks back, with the settle spring in every style.
    mutating func toggleFullscreen() {
        isFullscreen.toggle()
        reflow = .spring(.settle)
    }
}
