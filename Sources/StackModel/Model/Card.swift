/// What the stack remembers of every card, whether drawn or not: 16 bytes, so a million cards fit.
///
/// Card number `n` (id `"cn"`) shows photo `n` of the photo list: cards are made one per photo and
/// an inserted photo is appended to the list, so the two numberings never part. A removed card keeps
/// its number (and its tilt, for an undo) but leaves the stack order.
struct Card: Sendable, Equatable {
    /// The card's place in the stack numbering: its position is `slot − Stack.headSlot`.
    var slot: Int
    /// Whole degrees in [−4, 4]; the top card is drawn straight but keeps its tilt for later.
    var tilt: Int8
    var highlight = false
    /// Back face up (the deck's tap, the `flip` command).
    var isFlipped = false
    /// False once removed.
    var isInStack = true
}

/// What a drawn card is doing other than resting where its style puts it. Only cards in motion or
/// held by a pointer have one, so their number stays near the number of drawn cards.
struct CardMotion: Sendable, Equatable {
    enum Phase: Sendable, Equatable {
        /// Heading for (or at) its resting place.
        case settling
        /// Following a pointer.
        case held
        /// Flying off the stage; at the end of its animation it lands at the back.
        case flyingOut
        /// Removed from the stack, fading out where it was.
        case departing
        /// Pushed a little out of its place (the swipe's "no further"); at the end of its animation it
        /// goes back.
        case nudged
    }

    var phase: Phase
    /// Where the card is heading or held: `DrawnCard.transform`.
    var target: CardTransform
    var animation: CardAnimation?
}
