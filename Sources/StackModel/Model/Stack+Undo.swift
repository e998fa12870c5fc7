/// A reorder `undo` can revert: enough to put every card back where it was.
enum UndoEntry: Sendable, Equatable {
    /// The top card went to the back (a flick, `next`, a swipe left, the deck's fly-out), with the
    /// tilt it had before it landed.
    case sentToBack(card: Int, tilt: Int8)
    /// The back card came to the front (`previous`, a swipe right).
    case broughtToTop
    /// `goto` moved this many cards from the front to the back (negative: from the back to the front).
    case rotated(by: Int)
    case inserted(card: Int)
    case removed(card: Int, position: Int, wasFirst: Bool)
}

/// The bounded history of reorders and their reversal.
extension Stack {
    /// Reorders remembered for `undo`: enough to take back a burst of mistakes, while a photo frame
    /// running for months keeps a constant, small history.
    static let historyLimit = 50

    mutating func record(_ entry: UndoEntry) {
        history.append(entry)
        if history.count > Self.historyLimit { history.removeFirst() }
    }

    /// Puts the stack back as it was before `entry`, with the motions of the opposite reorder.
    mutating func revert(_ entry: UndoEntry, now: Millis) {
        switch entry {
        case .sentToBack(let card, let tilt):
            cards[card].tilt = tilt
            bringBottomToTop(1, now: now)
        case .broughtToTop:
            if let top = order.first {
                sendTopToBack(from: seen(top, at: now), toward: Self.left, speed: 0, retilt: false, now: now)
            }
        case .rotated(let steps):
            if steps > 0 {
                bringBottomToTop(steps, now: now)
            } else {
                sendToBack(-steps, now: now)
            }
        case .inserted(let card):
            remove(card, now: now)
        case .removed(let card, let position, let wasFirst):
            reinsert(card, at: min(position, count), now: now)
            if wasFirst { firstCard = card }
        }
    }
}
