/// Everything a finger can do, as a command a script can send.
public enum StackCommand: Sendable, Equatable {
    /// The front card leaves for the back (a flick, a swipe left, the deck's fly-out); in `frame`, the
    /// two front photos when they are shown as a pair.
    case next
    /// The back card comes to the front (in `swipe`, not past the first card: SMSwipeView stops there,
    /// and the front card nudges instead); in `frame`, the back two when they make a pair.
    case previous
    /// Bring the card at this place in the stack's cycle (as `Stack.current` counts) to the front.
    case goto(index: Int)
    /// Add a card for `photo` at stack position `at` (0 = on top, `count` = at the bottom). The photo
    /// is appended to the photo list, so existing photo-list indices and card ids stay as they were.
    /// `behindArrivals`: a guest's photo, placed behind the guests' photos that arrived before it
    /// and still wait there unseen, so that photos sent 1, 2, 3 show 1, 2, 3 (each put at position
    /// 1 in turn would show 3, 2, 1).
    case insert(photo: Photo, at: Int, behindArrivals: Bool = false)
    /// Take the card out of the stack, fading it out (the angles tap). Its id is never reused.
    case remove(cardID: CardID)
    /// Toggle the front card's highlight (the pile's tap).
    case highlight
    /// Turn the front card over, or back (the deck's tap).
    case flip
    /// Show the front card fitted to the whole stage, or go back (the pile's double tap).
    case fullscreen
    /// Lay the stack out in another style, every drawn card moving to its new place. `stacked`
    /// switches the swipe's stacked mode on or off (nil: as it was).
    case style(StyleName, stacked: Bool? = nil)
    /// Put the cards in a random order drawn from `seed`. Not undoable: it clears the history.
    case shuffle(seed: UInt64)
    /// Revert the last `next`, `previous`, `goto`, `insert` or `remove`, by command or gesture.
    case undo
}

/// Why a stack refused an event.
public enum StackError: Error, Sendable, Equatable {
    case indexOutOfRange(index: Int, count: Int)
    case emptyStack
    /// No card in the stack has this id (never had, or removed).
    case unknownCard(id: CardID)
    /// The history is empty: nothing since the start or the last shuffle, or the last 50 undone.
    case nothingToUndo
}
