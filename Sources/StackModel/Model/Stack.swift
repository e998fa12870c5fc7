/// A room's stack of cards: the state machine every viewer's picture is computed from.
///
/// Pure: time and the random seed are inputs, so the same events give the same result. Lays cards out
/// in its style's `StyleLayout`. Handling a pointer sample and listing the drawn cards cost
/// O(drawn cards), whatever the stack's size.
public struct Stack: Sendable {
    public let stage: StageSize
    public internal(set) var style: StyleName
    /// `swipe` only: SMSwipeView's stacked mode, the cards behind the front one at 50 % and 30 %
    /// opacity; a user choice (the `style` command's `stacked`), kept across style switches.
    public internal(set) var swipeStacked: Bool
    /// How the `frame` style changes photos: a setting of the server (`--transition`), not of the
    /// room, so it is not saved with the stack.
    public var frameTransition = FrameTransition.fade {
        didSet { refreshLayout() }
    }
    /// Whether the front card is shown fitted to the whole stage (pile's double tap, `fullscreen`).
    public internal(set) var isFullscreen = false
    var layout: any StyleLayout
    /// The photo list; card number `n` shows `photos[n]`.
    var photos: [Photo]
    /// Every card, indexed by card number, removed ones included (their ids are never reused).
    var cards: [Card]
    /// Card numbers in stack order, position 0 first.
    var order: Ring<Int>
    /// The slot of position 0: positions are slots relative to it, so moving the top card to the
    /// bottom renumbers one card, not all of them.
    var headSlot = 0
    /// Cards in motion or held, by card number.
    var motions: [Int: CardMotion] = [:]
    /// Cards whose animation's end changes the stack: flying out, sliding back under the pile below
    /// the drawn cards, or gliding out of the drawn places. They are drawn until then, whatever their
    /// position.
    var travelling: [Int] = []
    /// Cards removed from the stack, drawn where they were until they have faded out.
    var departing: [Departure] = []
    var recognizer = GestureRecognizer()
    /// The cards a pointer holds and where it took them.
    var grab: Grab?
    var random: SplitMix64
    /// Order changes `undo` can revert, oldest first, at most `historyLimit`.
    var history: [UndoEntry] = []
    /// The card a swipe back stops at (SMSwipeView's index 0): the front card when the stack was made
    /// or shuffled; when it is removed, the card after it.
    var firstCard: Int?
    /// How the cards whose resting place the current event moved get there; nil: the layout's
    /// `reflow`. Set by the event's handler (a swipe's cards shift after its flight), cleared per event.
    var reflow: Transition?
    /// Saved cards whose photos the stack has not been given yet (a restart before the folder is
    /// read again), by the card each lies just before in the ring (`Stack.noCard` while the stack
    /// is empty), farthest first. They take their places as their photos come (`placeSaved`).
    var unseen: [Int: [UnseenCard]] = [:]
    /// The front card a restored stack had before the saved cards ahead of it came: the last
    /// `leadingUnseen` of its unseen cards lie ahead of it, and come to the front. Cleared once the
    /// front card changes otherwise.
    var unseenFront: Int?
    var leadingUnseen = 0
    /// Photos the saved stack had removed that the stack has not been given yet: they stay out.
    var unseenRemoved: Set<String> = []
    /// Cards a tap took out, the latest last, at most `historyLimit`: a tap on the angled stack's
    /// empty stage brings back the latest whose photo is not in the stack.
    var removedByHand: [Int] = []
    /// Removed cards whose photo left the folder (`photosLeftFolder`): never brought back by a tap.
    var goneFromFolder: Set<Int> = []
    /// The viewers whose tap removed a card during the event being handled (`StackChange.removedBy`);
    /// empty between events.
    var removers: [String] = []
    /// When the front card came to the front, if the stack has seen it happen: a panorama there
    /// pans from then (`FrameLayout.pan`). Not kept: a restored stack's front does not pan.
    var frontSince: Millis?
    /// The latest guests' photos' cards, the latest last, at most `arrivalLimit`: a photo arriving
    /// goes behind those of them that wait where it would go (`positionBehindArrivals`). Not kept:
    /// after a restart a batch's rest starts a new queue.
    var arrivals: [Int] = []

    /// One card per photo, in photo-list order, each with a random tilt drawn from `seed`.
    /// - Complexity: O(photos.count).
    public init(
        photos: [Photo], stage: StageSize = .default, style: StyleName = .pile, seed: UInt64,
        swipeStacked: Bool = false
    ) {
        self.photos = photos
        self.stage = stage
        self.style = style
        self.swipeStacked = swipeStacked
        layout = PileLayout(stage: stage)
        var random = SplitMix64(seed: seed)
        cards = []
        cards.reserveCapacity(photos.count)
        for number in photos.indices {
            cards.append(Card(slot: number, tilt: Self.randomTilt(using: &random)))
        }
        self.random = random
        order = Ring(photos.indices)
        firstCard = order.first
        refreshLayout()
    }

    /// The viewer whose pointer is dragging a card now, if any: the others' pointers are ignored
    /// until it lets go (or times out).
    public var holder: String? { recognizer.holder }

    /// Number of cards in the stack.
    public var count: Int { order.count }

    /// The front card's place in the stack's own cycle: how many cards have gone by since the first
    /// card (the front one when the stack was made or shuffled), modulo `count`; 0 when empty. So
    /// 0 ≤ current < count always, and "photo current + 1 of count" reads as a user expects; `goto`
    /// takes an index in the same sense.
    public var current: Int {
        guard let first = firstCard, count > 0 else { return 0 }
        return (count - position(of: first)) % count
    }

    /// The next server time at which the room must send `.tick`, or `nil` when nothing is pending.
    public var nextDeadline: Millis? {
        let arrivals = (travelling + departing.map(\.card)).compactMap { motions[$0]?.animation?.end }
        return (arrivals + [recognizer.deadline].compactMap { $0 }).min()
    }

    /// The cards viewers draw at `now`, ordered by position (cards fading out of the stack last);
    /// motions already over by `now` are left out.
    /// - Complexity: O(drawn cards).
    public func drawnCards(at now: Millis) -> [DrawnCard] {
        let numbers = drawnNumbers()
        var drawn: [DrawnCard] = []
        drawn.reserveCapacity(numbers.count)
        for card in numbers { drawn.append(drawnCard(card, at: now)) }
        return drawn
    }

    /// Applies one event at server time `now` and returns what the viewers must redraw.
    ///
    /// A refused command throws before changing anything.
    /// - Complexity: O(held cards) for a pointer move during a drag, else O(drawn cards).
    public mutating func handle(_ event: StackEvent, at now: Millis) throws(StackError) -> StackChange {
        if case .pointer(let input) = event, let change = pointerMoved(input, at: now) { return change }
        return try handleInFull(event, at: now)
    }

    /// `handle` without the pointer move's short way: lists the drawn cards before and after the
    /// event, settles whatever the event moved and compares the two lists. The reference the short
    /// way is tested against.
    mutating func handleInFull(_ event: StackEvent, at now: Millis) throws(StackError) -> StackChange {
        try changing(at: now) { stack throws(StackError) in
            switch event {
            case .pointer(let input):
                stack.pointerReceived(input, at: now)
            case .command(let command):
                try stack.perform(command, at: now)
            case .tick:
                stack.clockTicked(at: now)
            }
        }
    }

    /// Runs `body` on the stack and answers what viewers must redraw: lists the drawn cards before
    /// and after, settles whatever `body` moved and compares the two lists. A `body` that throws
    /// must have changed nothing.
    mutating func changing(at now: Millis, _ body: (inout Stack) throws(StackError) -> Void) throws(StackError)
        -> StackChange
    {
        let before = drawn(at: now)
        let summary = self.summary
        let front = order.first
        reflow = nil
        try body(&self)
        if order.first != front { frontSince = now }
        refreshLayout()
        settleMovedCards(before: before, at: now)
        let after = drawn(at: now)
        forgetFinishedMotions(drawn: after, at: now)
        if let unseenFront, order.first != unseenFront { forgetLeadingUnseen() }
        let summaryChanged = summary != self.summary
        var change = Self.change(from: before, to: after, summaryChanged: summaryChanged)
        change.removedBy = removers
        removers = []
        return change
    }

    func position(of card: Int) -> Int { cards[card].slot - headSlot }

    mutating func randomTilt() -> Int8 { Self.randomTilt(using: &random) }

    private static func randomTilt(using random: inout SplitMix64) -> Int8 {
        Int8(random.next(in: -PileLayout.rotationOffset...PileLayout.rotationOffset))
    }

    /// What the room-level fields of a change carry.
    private struct Summary: Equatable {
        var count: Int
        var current: Int
        var style: StyleName
        var swipeStacked: Bool
    }

    private var summary: Summary {
        Summary(count: count, current: current, style: style, swipeStacked: swipeStacked)
    }
}

extension Stack {
    /// The cards a pointer drags: the one it pressed and those that follow it (deck layers, the swipe's
    /// second card), each with where it was when taken.
    struct Grab: Sendable, Equatable {
        struct Layer: Sendable, Equatable {
            var card: Int
            var base: CardTransform
        }

        /// Where the pointer went down: the drag is the pointer's way from here.
        var start: Point
        /// Front first; the first is the card under the pointer.
        var layers: [Layer]
        /// The front card was the first card when taken: a swipe back has nowhere to go.
        var atFirstCard = false
        /// The pressing screen's CSS pixels per stage point (`PointerInput.pixelsPerPoint`).
        var pixelsPerPoint = 1.0

        var card: Int { layers[0].card }
    }

    /// A removed card still fading out where it was, in front of or behind the same cards as before.
    struct Departure: Sendable, Equatable {
        var card: Int
        var position: Int
        var z: Int
    }
}
